"""The history page and undo through the editor's routes (httpx over ASGI) on the real
broker: a quota change undone and read back, the guards of undo (which cluster, which change,
the confirmation, read-only, the plan shown), a secret never shown, the old addresses."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import httpx
import pytest
from starlette.applications import Starlette

from kafka_config_admin import AdminClient, ClientQuotaEntity
from kafka_config_admin.changeset import ChangeSet, apply, review
from kafka_config_admin.connect import Connection
from kafka_config_admin.journal import Journal, JournalQuery, Origin, Recorder
from kafka_config_admin.web import WebSettings, create_app
from kafka_config_admin.web.views.history import PAGE_ROWS

from ..unit.journal_helpers import ENTRY
from .conftest import CLUSTER
from .helpers import csrf_token, plan_digest, unique_name

pytestmark = pytest.mark.integration

RATE = "producer_byte_rate"


async def set_quota(admin: AdminClient, entity: ClientQuotaEntity, value: float | None) -> str:
    """Set a quota through the pipeline, journaled as the CLI would; its change set."""
    reviewed = await review(admin, ChangeSet(quotas={entity: {RATE: value}}))
    origin = Origin(face="cli", user="alice", cluster=CLUSTER)
    report = await apply(admin, reviewed, recorder=Recorder(Journal.at(), origin))
    assert report.change_set_id is not None, report
    return report.change_set_id


async def quota_now(admin: AdminClient, entity: ClientQuotaEntity) -> float | None:
    return (await admin.describe_client_quotas().all()).get(entity, {}).get(RATE)


async def test_undo_of_a_quota_change_is_read_back(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    entity = ClientQuotaEntity({"user": unique_name("quota-user")})
    await set_quota(admin_client, entity, 1024000)
    change_set = await set_quota(admin_client, entity, 2048000)
    (row,) = Journal.at().entries(JournalQuery(change_set=change_set))
    history = await web.get("/history", params={"change_set": change_set})
    assert f'action="/c/{CLUSTER}/undo"' in history.text and "2048000" in history.text
    preview = await web.get(f"/c/{CLUSTER}/undo", params={"change": str(row.id)})
    assert preview.status_code == 200 and "1024000" in preview.text
    assert await quota_now(admin_client, entity) == 2048000
    form = {
        "change": str(row.id),
        "csrf_token": csrf_token(preview.text),
        **plan_digest(preview.text),
    }
    unconfirmed = {**form, "confirmed": "no"}
    refused = await web.post(f"/c/{CLUSTER}/undo", data=unconfirmed)
    assert refused.status_code == 400 and await quota_now(admin_client, entity) == 2048000
    undone = await web.post(f"/c/{CLUSTER}/undo", data=form)
    assert undone.status_code == 200 and "Undone: change" in undone.text, undone.text
    assert await quota_now(admin_client, entity) == 1024000
    # the same form again: undo now plans nothing (already as it was): nothing sent
    again = await web.post(f"/c/{CLUSTER}/undo", data=form)
    assert again.status_code == 409 and "Not applied" in again.text
    assert "already as it was before" in again.text


async def test_undo_refuses_what_it_cannot_know(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    entity = ClientQuotaEntity({"user": unique_name("quota-guard")})
    change_set = await set_quota(admin_client, entity, 4096000)
    (row,) = Journal.at().entries(JournalQuery(change_set=change_set))
    undo = f"/c/{CLUSTER}/undo"
    assert (await web.get(undo)).status_code == 400
    both = {"change": str(row.id), "change_set": change_set}
    assert (await web.get(undo, params=both)).status_code == 400
    assert (await web.get(undo, params={"change": "x1"})).status_code == 400
    missing = await web.get(undo, params={"change": "999999999"})
    assert missing.status_code == 404 and "no change 999999999 in the journal" in missing.text
    # a row recorded on another cluster (another id) under this name: refused, nothing planned
    (elsewhere,) = Journal.at().record([replace(row, id=None, cluster_id="another-cluster-id")])
    other = await web.get(undo, params={"change": str(elsewhere)})
    assert other.status_code == 409 and "nothing was changed" in other.text
    # an apply whose plan this session never showed
    page = await web.get("/history")
    unknown = {
        "change": str(row.id),
        "plan_digest": "0" * 64,
        "confirmed": "yes",
        "csrf_token": csrf_token(page.text),
    }
    assert (await web.post(undo, data=unknown)).status_code == 409
    assert await quota_now(admin_client, entity) == 4096000


async def test_a_read_only_editor_previews_undo_and_applies_nothing(
    kafka_bootstrap: str, admin_client: AdminClient
) -> None:
    entity = ClientQuotaEntity({"user": unique_name("quota-ro")})
    change_set = await set_quota(admin_client, entity, 8192000)
    (row,) = Journal.at().entries(JournalQuery(change_set=change_set))
    settings = WebSettings(clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)})
    app: Starlette = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as web:
            preview = await web.get(f"/c/{CLUSTER}/undo", params={"change": str(row.id)})
            assert preview.status_code == 200 and "read-only" in preview.text
            assert "apply the undo" not in preview.text
            form = {"change": str(row.id), "confirmed": "yes", "plan_digest": "0" * 64}
            form["csrf_token"] = csrf_token(preview.text)
            refused = await web.post(f"/c/{CLUSTER}/undo", data=form)
            assert refused.status_code == 403
            live = await web.get(f"/c/{CLUSTER}/live")
            assert live.status_code == 200 and 'data-events="/c/' in live.text
    assert await quota_now(admin_client, entity) == 8192000


async def test_history_never_shows_a_secret_and_the_old_addresses_lead_to_it(
    web: httpx.AsyncClient,
) -> None:
    secret = replace(
        ENTRY,
        change_set="secretset01",
        time=datetime.now(UTC),
        user="erin",
        cluster=CLUSTER,
        cluster_id=None,
        resource_type="broker",
        resource_name="1",
        key="listener.name.plaintext.ssl.key.password",
        old_value=None,
        old_set=True,
        new_value=None,
        sensitive=True,
    )
    Journal.at().record([secret])
    page = await web.get("/history", params={"change_set": "secretset01"})
    assert page.text.count("(secret, not recorded)") == 2
    moved = await web.get("/changes", params={"user": "erin"})
    assert (moved.status_code, moved.headers["location"]) == (301, "/history?user=erin")
    moved_json = await web.get("/changes.json")
    assert moved_json.headers["location"] == "/history.json"
    rows = (await web.get("/history.json", params={"user": "erin"})).json()["changes"]
    assert [(r["sensitive"], r["old_value"], r["new_value"]) for r in rows] == [(True, None, None)]
    bad = await web.get("/history.json", params={"until": "soon"})
    assert bad.status_code == 400 and "until" in bad.json()["errors"]


async def test_history_shows_the_newest_rows_and_no_undo_for_another_editors_cluster(
    web: httpx.AsyncClient,
) -> None:
    user = unique_name("many")
    row = replace(
        ENTRY,
        change_set=unique_name("set"),
        time=datetime.now(UTC),
        user=user,
        face="sdk",
        cluster="not-one-of-the-editors",
        cluster_id="elsewhere",
        old_value="1",
        old_set=True,
    )
    Journal.at().record([replace(row, new_value=str(n)) for n in range(PAGE_ROWS + 1)])
    page = await web.get("/history", params={"user": user})
    assert page.text.count('<tr class="applied"') == PAGE_ROWS
    assert "narrow the filters to see older ones" in page.text
    assert f'<td class="new"><code>{PAGE_ROWS}</code></td>' in page.text  # the newest
    assert '<td class="new"><code>0</code></td>' not in page.text  # the oldest, left out
    assert "/undo" not in page.text  # not a cluster of this editor: no undo button
    exported = (await web.get("/history.json", params={"user": user})).json()["changes"]
    assert len(exported) == PAGE_ROWS + 1
