"""Rotating a TLS listener's key store through the web editor's broker page, on a running
broker (``kafka_tls_cluster``): the new location, type and passwords typed as edits of one
broker id, planned, checked by the broker and applied as one change set; then a second
rotation, since a per-listener key stays editable once set. No password is ever sent back."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio

from kafka_config_admin.connect import Connection
from kafka_config_admin.testing import KafkaCluster
from kafka_config_admin.web import WebSettings, create_app

from ..integration.rotation import PREFIX, rotation, served_serial, wait_for_serial
from .conftest import CLUSTER
from .helpers import csrf_token, plan_digest

pytestmark = pytest.mark.integration


@pytest_asyncio.fixture(loop_scope="session")
async def tls_web(
    kafka_tls_cluster: KafkaCluster, tmp_path: Path
) -> AsyncIterator[httpx.AsyncClient]:
    """The editor, allowed to write, over the TLS cluster (through its plaintext listener)."""
    settings = WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_tls_cluster.bootstrap_servers)},
        allow_writes=True,
        timeout=30,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            yield client


async def test_rotate_a_listener_keystore_twice_in_the_editor(
    tls_web: httpx.AsyncClient, kafka_tls_cluster: KafkaCluster
) -> None:
    broker = kafka_tls_cluster.broker_ids[0]
    page = f"/c/{CLUSTER}/r/broker/{broker}"
    before = served_serial(kafka_tls_cluster)
    for round_ in (1, 2):
        settings, serial, password = rotation(kafka_tls_cluster, f"rotated-web-{round_}.p12")
        shown = await tls_web.get(page)
        assert f'action="/c/{CLUSTER}/rotate/broker/{broker}"' in shown.text
        form = {
            "listener": "ssl",
            "location": settings[f"{PREFIX}ssl.keystore.location"],
            "type": "PKCS12",
            "password": password,
            "key_password": password,
            "csrf_token": csrf_token(shown.text),
        }
        added = await tls_web.post(f"/c/{CLUSTER}/rotate/broker/{broker}", data=form)
        assert added.status_code == 303, (round_, added.text)
        plan = await tls_web.get(f"/c/{CLUSTER}/plan")
        token = csrf_token(plan.text)
        verdict = await tls_web.post(f"/c/{CLUSTER}/plan/check", data={"csrf_token": token})
        assert ">validated<" in verdict.text, verdict.text
        form = {"csrf_token": token, **plan_digest(plan.text)}
        applied = await tls_web.post(f"/c/{CLUSTER}/plan/apply", data=form)
        assert applied.status_code == 200 and ">applied<" in applied.text, applied.text
        now = wait_for_serial(kafka_tls_cluster, serial)
        assert now == serial and now != before, (round_, before, now, serial)
        before = now
        after = await tls_web.get(page)
        log = await tls_web.get("/history.json")
        for response in (shown, plan, verdict, applied, after, log):
            assert password not in response.text
        # set now, the listener's keys are described read-only, yet stay editable
        for key in settings:
            row = re.search(rf"<tr[^>]*>(?:(?!</tr>).)*?{re.escape(key)}.*?</tr>", after.text, re.S)
            assert row is not None, key
            assert "locked" not in row.group(0) and 'name="csrf_token"' in row.group(0), key
        assert 'type="password" name="password"' in after.text


async def test_a_key_store_the_broker_cannot_load_never_joins_the_plan(
    tls_web: httpx.AsyncClient, kafka_tls_cluster: KafkaCluster
) -> None:
    broker = kafka_tls_cluster.broker_ids[0]
    settings, serial, password = rotation(kafka_tls_cluster, "rotated-web-refused.p12")
    shown = await tls_web.get(f"/c/{CLUSTER}/r/broker/{broker}")
    wrong = f"{password}-wrong"
    form = {
        "listener": "ssl",
        "location": settings[f"{PREFIX}ssl.keystore.location"],
        "type": "PKCS12",
        "password": wrong,
        "key_password": wrong,
        "csrf_token": csrf_token(shown.text),
    }
    refused = await tls_web.post(f"/c/{CLUSTER}/rotate/broker/{broker}", data=form)
    assert refused.status_code == 400
    assert "the broker refuses it" in refused.text and "keystore" in refused.text
    assert wrong not in refused.text
    # from the page (htmx): said beside the form, which keeps what was typed
    beside = await tls_web.post(
        f"/c/{CLUSTER}/rotate/broker/{broker}", data=form, headers={"HX-Request": "true"}
    )
    assert beside.status_code == 200 and 'role="alert"' in beside.text
    assert "the broker refuses it" in beside.text and "<html" not in beside.text
    assert wrong not in beside.text
    plan = await tls_web.get(f"/c/{CLUSTER}/plan")
    assert "rotated-web-refused.p12" not in plan.text
    assert served_serial(kafka_tls_cluster) != serial
