"""The web editor's applies are recorded in the journal: the signed-in user, face ``web``, the
cluster, each key's old and new values, never a secret; the page says the change set (or why
not recorded)."""

from __future__ import annotations

import subprocess
import sys

import anyio
import httpx
import pytest

from kafka_config_admin import AdminClient
from kafka_config_admin.journal import Journal, JournalQuery

from .conftest import CLUSTER
from .helpers import create_topics, csrf_token, plan_digest, topic_value, unique_name

pytestmark = pytest.mark.integration

#: A broker key Kafka keeps secret (a per-listener password).
PASSWORD_KEY = "listener.name.plaintext.ssl.key.password"


async def form_post(
    web: httpx.AsyncClient, page: str, path: str, data: dict[str, str]
) -> httpx.Response:
    html = (await web.get(page)).text
    return await web.post(path, data={**plan_digest(html), **data, "csrf_token": csrf_token(html)})


async def test_an_apply_of_the_editor_is_journaled(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic], {"retention.ms": "3600000"})
    page, edit = f"/c/{CLUSTER}/r/topic/{topic}", f"/c/{CLUSTER}/edit/topic/{topic}"
    await form_post(web, page, edit, {"key": "retention.ms", "value": "7200000", "action": "set"})
    await form_post(web, page, edit, {"key": "segment.ms", "value": "3600000", "action": "set"})
    applied = await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
    assert applied.status_code == 200 and ">applied<" in applied.text
    assert await topic_value(admin_client, topic, "retention.ms") == "7200000"
    rows = {r.key: r for r in Journal.at().entries(JournalQuery(resource=f"topic:{topic}"))}
    assert set(rows) == {"retention.ms", "segment.ms"}
    retention, segment = rows["retention.ms"], rows["segment.ms"]
    assert (retention.old_value, retention.old_set, retention.new_value) == (
        "3600000",
        True,
        "7200000",
    )
    assert (segment.old_set, segment.new_value) == (False, "3600000")
    log = (await web.get("/history.json")).json()["changes"]
    (logged_user,) = {row["user"] for row in log if row["resource_name"] == topic}
    for row in rows.values():
        assert row.face == "web" and row.user == logged_user and row.cluster == CLUSTER
        assert row.outcome == "applied" and row.cluster_id
    assert f"Recorded in the journal as change set <code>{retention.change_set}</code>" in (
        applied.text
    )


async def test_two_cli_processes_and_the_editor_write_the_journal_at_once(
    web: httpx.AsyncClient, admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    cli_topics = [[unique_name() for _ in range(3)] for _ in range(2)]
    web_topic = unique_name()
    await create_topics(admin_client, [web_topic, *(t for ts in cli_topics for t in ts)])
    page, edit = f"/c/{CLUSTER}/r/topic/{web_topic}", f"/c/{CLUSTER}/edit/topic/{web_topic}"
    await form_post(web, page, edit, {"key": "segment.ms", "value": "3600000", "action": "set"})
    done: list[subprocess.CompletedProcess[bytes]] = []

    async def cli_alter(names: list[str]) -> None:
        topics = [arg for name in names for arg in ("--topic", name)]
        command = [sys.executable, "-m", "kafka_config_admin", "alter", "-b", kafka_bootstrap]
        command += [*topics, "--set", "segment.ms=7200000", "--yes"]
        done.append(await anyio.run_process(command, check=False, stdin=subprocess.DEVNULL))

    async with anyio.create_task_group() as group:
        for names in cli_topics:
            group.start_soon(cli_alter, names)
        applied = await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
    assert ">applied<" in applied.text
    assert [process.returncode for process in done] == [0, 0], [p.stderr for p in done]
    rows = Journal.at().entries(JournalQuery(key="segment.ms"))
    recorded = {(row.resource_name, row.face) for row in rows}
    wanted = {(name, "cli") for names in cli_topics for name in names} | {(web_topic, "web")}
    assert wanted <= recorded
    ours = [row for row in rows if (row.resource_name, row.face) in wanted]
    assert len(ours) == len(wanted)  # one row per change: none lost, none twice
    for row in ours:  # the value before (the default), and the one the cluster reads back
        assert (row.old_value, row.old_set, row.outcome) == ("604800000", False, "applied")
        assert row.new_value == await topic_value(admin_client, row.resource_name, "segment.ms")


async def test_a_secret_set_through_the_editor_is_in_no_journal_row_nor_its_files_bytes(
    web: httpx.AsyncClient, kafka_broker_ids: list[int]
) -> None:
    """A SCRAM password and a broker's per-listener password applied from the editor: each
    recorded as a change with no value, and neither anywhere in the journal's files."""
    secret, user = f"pw-{unique_name()}-secret", unique_name("scram-secret")
    users = f"/c/{CLUSTER}/users"
    upsert = {"user": user, "mechanism": "SCRAM-SHA-256", "iterations": "8192"}
    added = await form_post(web, users, f"{users}/edit", {**upsert, "password": secret})
    assert added.status_code == 303, added.text
    broker = kafka_broker_ids[0]
    page, path = f"/c/{CLUSTER}/r/broker/{broker}", f"/c/{CLUSTER}/edit/broker/{broker}"
    keyed = {"key": PASSWORD_KEY, "value": f"{secret}-key", "action": "set"}
    assert (await form_post(web, page, path, keyed)).status_code == 303
    applied = await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
    assert applied.status_code == 200 and secret not in applied.text
    journal = Journal.at()
    credential = journal.entries(JournalQuery(resource=f"scram-user:{user}"))
    assert [(r.key, r.op, r.sensitive, r.outcome) for r in credential] == [
        ("SCRAM-SHA-256", "UPSERT", True, "applied")
    ]
    password = [
        r
        for r in journal.entries(JournalQuery(key=PASSWORD_KEY))
        if r.change_set == credential[0].change_set
    ]
    assert [(r.resource_name, r.sensitive, r.face) for r in password] == [
        (str(broker), True, "web")
    ]
    for row in [*credential, *password]:
        assert (row.old_value, row.new_value) == (None, None)
    for file in journal.path.parent.iterdir():  # the file, its WAL and shared memory
        assert secret.encode() not in file.read_bytes(), file
    if password[0].outcome == "applied":  # leave the broker as it was for the other tests
        undo = {"key": PASSWORD_KEY, "action": "reset"}
        await form_post(web, page, path, undo)
        await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
