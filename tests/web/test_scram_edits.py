"""SCRAM credentials and quotas edited in the web editor: pending edits like every other, applied
through the change pipeline with the rest of the plan, against the real session cluster."""

from __future__ import annotations

import secrets

import anyio
import httpx
import pytest
from starlette.applications import Starlette

from kafka_config_admin import AdminClient, AuthenticationError, ClientQuotaEntity
from kafka_config_admin.testing import KafkaCluster
from kafka_config_admin.web._edits import Edits
from kafka_config_admin.web._sessions import COOKIE

from .conftest import CLUSTER
from .helpers import create_topics, csrf_token, plan_digest, topic_value, unique_name

pytestmark = pytest.mark.integration

USERS = f"/c/{CLUSTER}/users"
PLAN = f"/c/{CLUSTER}/plan"


async def form_post(
    web: httpx.AsyncClient,
    page: str,
    path: str,
    data: dict[str, str],
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """POST a form with the CSRF token of ``page`` (and the digest of the plan it shows, if
    any), as the browser would."""
    html = (await web.get(page)).text
    form = {**plan_digest(html), **data, "csrf_token": csrf_token(html)}
    return await web.post(path, data=form, headers=headers)


def pending(web: httpx.AsyncClient, app: Starlette) -> Edits:
    """The pending edits the editor keeps for this client's session."""
    session = app.state.sessions.get(web.cookies[COOKIE])
    assert session is not None
    edits = session.edits_of(CLUSTER)
    assert isinstance(edits, Edits)
    return edits


async def credentials(admin: AdminClient, user: str) -> dict[str, int]:
    """The user's SCRAM credentials as the broker describes them: mechanism -> iterations."""
    result = admin.describe_user_scram_credentials()
    if user not in await result.users():
        return {}
    description = await result.description(user)
    return {i.mechanism.mechanism_name: i.iterations for i in description.credential_infos}


async def logs_in(cluster: KafkaCluster, user: str, password: str) -> bool:
    """Whether ``user`` gets through SASL/SCRAM-SHA-256 with ``password`` (credentials reach
    every broker a moment after the controller has them: asked for up to 30 s)."""
    assert cluster.sasl_bootstrap_servers is not None
    with anyio.move_on_after(30):
        while True:
            try:
                async with AdminClient(
                    cluster.sasl_bootstrap_servers,
                    security_protocol="SASL_PLAINTEXT",
                    sasl_mechanism="SCRAM-SHA-256",
                    sasl_plain_username=user,
                    sasl_plain_password=password,
                    timeout=10,
                ):
                    return True
            except AuthenticationError:
                await anyio.sleep(0.5)
    return False


def upsert(user: str, password: str, iterations: str = "8192") -> dict[str, str]:
    return {
        "user": user,
        "mechanism": "SCRAM-SHA-256",
        "password": password,
        "iterations": iterations,
        "action": "upsert",
    }


@pytest.mark.kafka(sasl=True)
async def test_a_credential_joins_the_plan_and_is_applied_with_the_other_edits(
    web: httpx.AsyncClient,
    web_app: Starlette,
    admin_client: AdminClient,
    kafka_cluster: KafkaCluster,
) -> None:
    topic, user = unique_name(), unique_name("svc")
    password = f"pw-{secrets.token_hex(12)}"
    await create_topics(admin_client, [topic])
    bodies: list[str] = []
    added = await form_post(web, USERS, f"{USERS}/edit", upsert(user, password))
    assert added.status_code == 303 and added.headers["location"] == PLAN
    assert await credentials(admin_client, user) == {}  # pending, not applied at once
    # the password is salted at once: the session keeps no plain password
    assert password not in repr(pending(web, web_app).__dict__)
    edit = {"key": "retention.ms", "value": "1", "unit": "d", "action": "set"}
    await form_post(web, f"/c/{CLUSTER}/r/topic/{topic}", f"/c/{CLUSTER}/edit/topic/{topic}", edit)
    shown = await web.get(PLAN)
    bodies += [added.text, shown.text]
    diff = shown.text.split('<table class="diff">')[1]
    assert (
        f'SCRAM user <span class="name">{user}</span>' in diff
        and "SCRAM-SHA-256" in diff
        and "UPSERT" in diff
    )
    assert f'topic <span class="name" title="{topic}">{topic}</span>' in diff and "86400000" in diff
    assert "[hidden]" in diff
    applied = await form_post(web, PLAN, f"{PLAN}/apply", {})
    bodies.append(applied.text)
    outcomes = applied.text.split('<table class="outcomes">')[1].split("</table>")[0]
    assert (
        f'<tr class="applied"><td>SCRAM user <span class="name">{user}</span></td><td>applied</td>'
        in outcomes
    )
    assert (
        f'<tr class="applied"><td>topic <span class="name" title="{topic}">{topic}</span></td>'
        "<td>applied</td>" in outcomes
    )
    assert await credentials(admin_client, user) == {"SCRAM-SHA-256": 8192}
    assert await topic_value(admin_client, topic, "retention.ms") == "86400000"
    assert len(pending(web, web_app)) == 0  # applied: the salted credential is dropped
    assert await logs_in(kafka_cluster, user, password)  # the password typed is the one set
    log = await web.get("/history.json", params={"cluster": CLUSTER})
    bodies += [log.text, (await web.get(USERS)).text, (await web.get(PLAN)).text]
    (logged,) = [row for row in log.json()["changes"] if row["resource_name"] == user]
    assert (logged["resource_type"], logged["key"], logged["op"]) == (
        "scram-user",
        "SCRAM-SHA-256",
        "UPSERT",
    )
    assert (logged["new_value"], logged["sensitive"], logged["outcome"]) == (None, True, "applied")
    assert not [body for body in bodies if password in body]


async def test_a_deletion_the_broker_refuses_fails_on_the_plan_page_and_stays_pending(
    web: httpx.AsyncClient, web_app: Starlette, admin_client: AdminClient
) -> None:
    topic, user = unique_name(), unique_name("nobody")
    await create_topics(admin_client, [topic])
    delete = {"user": user, "mechanism": "SCRAM-SHA-512", "action": "delete"}
    added = await form_post(web, USERS, f"{USERS}/edit", delete)
    assert added.status_code == 303
    edit = {"key": "retention.ms", "value": "7200000", "action": "set"}
    await form_post(web, f"/c/{CLUSTER}/r/topic/{topic}", f"/c/{CLUSTER}/edit/topic/{topic}", edit)
    shown = await web.get(PLAN)
    assert f'SCRAM user <span class="name">{user}</span>' in shown.text and "DELETE" in shown.text
    applied = await form_post(web, PLAN, f"{PLAN}/apply", {})
    outcomes = applied.text.split('<table class="outcomes">')[1].split("</table>")[0]
    assert (
        f'<tr class="failed"><td>SCRAM user <span class="name">{user}</span></td><td>failed</td>'
        in outcomes
    )
    assert "ResourceNotFoundError" in outcomes
    assert (
        f'<tr class="applied"><td>topic <span class="name" title="{topic}">{topic}</span></td>'
        "<td>applied</td>" in outcomes
    )
    assert await topic_value(admin_client, topic, "retention.ms") == "7200000"
    edits = pending(web, web_app)
    assert len(edits) == 1 and user in repr(edits.scram)  # kept for another try
    await form_post(web, PLAN, f"{PLAN}/discard", {})
    assert len(pending(web, web_app)) == 0


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"iterations": "100"}, "iterations must be 4096-16384"),
        ({"password": ""}, "the password is empty"),
        ({"iterations": "many"}, "iterations must be a whole number"),
        ({"user": " "}, "name the user"),
        ({"mechanism": "SCRAM-SHA-1"}, "mechanism must be one of SCRAM-SHA-256, SCRAM-SHA-512"),
    ],
)
async def test_a_refused_credential_says_why_beside_the_form_and_joins_nothing(
    web: httpx.AsyncClient, web_app: Starlette, change: dict[str, str], reason: str
) -> None:
    password = f"pw-{secrets.token_hex(12)}"
    form = upsert(unique_name("svc"), password) | change
    beside = await form_post(web, USERS, f"{USERS}/edit", form, {"HX-Request": "true"})
    assert beside.status_code == 200
    assert 'role="alert"' in beside.text and reason in beside.text
    assert password not in beside.text
    page = await form_post(web, USERS, f"{USERS}/edit", form)  # without htmx: a page
    assert page.status_code == 400 and reason in page.text and "Traceback" not in page.text
    assert len(pending(web, web_app)) == 0


async def test_an_accepted_edit_says_so_beside_the_form_and_counts_in_the_plan_link(
    web: httpx.AsyncClient, web_app: Starlette, admin_client: AdminClient
) -> None:
    await form_post(web, PLAN, f"{PLAN}/discard", {})
    user, password = unique_name("svc"), f"pw-{secrets.token_hex(12)}"
    added = await form_post(
        web, USERS, f"{USERS}/edit", upsert(user, password), {"HX-Request": "true"}
    )
    assert added.status_code == 200 and "added to the plan" in added.text
    assert 'id="pending"' in added.text and "plan (1)" in added.text
    assert password not in added.text
    quota = {"entity_type": "user", "entity_name": user, "key": "producer_byte_rate"}
    quota |= {"value": "1MiB", "action": "set"}
    beside = await form_post(
        web, f"/c/{CLUSTER}/quotas", f"/c/{CLUSTER}/quotas/edit", quota, {"HX-Request": "true"}
    )
    assert beside.status_code == 200 and "plan (2)" in beside.text
    bad = quota | {"key": "producer_bytes", "value": "1000"}
    refused = await form_post(
        web, f"/c/{CLUSTER}/quotas", f"/c/{CLUSTER}/quotas/edit", bad, {"HX-Request": "true"}
    )
    assert 'role="alert"' in refused.text and "not a quota key" in refused.text
    assert len(pending(web, web_app)) == 2
    # Kafka cannot validate a credential without changing it: the check says so, sends nothing
    checked = await form_post(web, PLAN, f"{PLAN}/check", {})
    outcomes = checked.text.split('<table class="outcomes">')[1].split("</table>")[0]
    assert (
        f'<tr class="validated"><td>SCRAM user <span class="name">{user}</span></td>'
        "<td>validated</td>" in outcomes
    )
    assert "checked here" in outcomes and password not in checked.text
    assert (
        f'<tr class="validated"><td>quota of <span class="name">user {user}</span></td>' in outcomes
    )
    assert await credentials(admin_client, user) == {}
    await form_post(web, PLAN, f"{PLAN}/discard", {})
    assert len(pending(web, web_app)) == 0
    assert ClientQuotaEntity({"user": user}) not in pending(web, web_app).quotas
