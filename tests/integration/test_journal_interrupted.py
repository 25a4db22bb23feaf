"""An apply interrupted after its changes reached the broker records what it sent, with honest
outcomes: the SDK's ``apply_plan`` cancelled, and the CLI sent Ctrl-C or SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from kafka_config_admin import AdminClient, ConfigResource, ResourceType
from kafka_config_admin._net.transport import Transport
from kafka_config_admin.changeset import INTERRUPTED_NOTE, apply_plan
from kafka_config_admin.changeset import _apply as changeset_apply
from kafka_config_admin.desired import make_plan, parse_desired_state
from kafka_config_admin.journal import Journal, JournalEntry, Origin, Recorder
from kafka_config_admin.state import read_state

from .cli_helpers import run_cli, settled, with_admin
from .helpers import new_topic, unique_name

pytestmark = pytest.mark.integration

TOPICS = 12
ACCEPTED_NOTE = "the broker accepted it; the apply was interrupted before a describe showed it"


def on_written(
    monkeypatch: pytest.MonkeyPatch, api: str, nth: int, then: Callable[[], object]
) -> list[str]:
    """Call ``then`` once the ``nth`` request of ``api`` is written to the broker; the APIs
    written, in order."""
    written: list[str] = []
    submit = Transport.submit

    def watching_submit(self: Transport, *args: Any, **kwargs: Any) -> bool:
        done = submit(self, *args, **kwargs)
        if done:
            written.append(args[1].name)
            if written.count(api) == nth and written[-1] == api:
                then()
        return done

    monkeypatch.setattr(Transport, "submit", watching_submit)
    return written


async def cancelled_apply(
    admin: AdminClient,
    monkeypatch: pytest.MonkeyPatch,
    journal: Journal,
    desired_text: str,
    api: str,
) -> list[str]:
    """Apply ``desired_text``, cancelled as the apply's own (second: the first is the
    broker's dry run) request of ``api`` is written; the APIs written."""
    desired = parse_desired_state(desired_text)
    plan = make_plan(desired, await read_state(admin, desired))
    recorder = Recorder(journal, Origin.of_process("sdk", "test"))
    task = asyncio.ensure_future(apply_plan(admin, plan, recorder=recorder))
    written = on_written(monkeypatch, api, 2, task.cancel)
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.undo()
    assert written.count(api) == 2, written
    return written


def desired_file(names: list[str], created: str, user: str) -> str:
    """A file that sets retention.ms on ``names``, creates topic ``created`` and gives ``user``
    a quota: three kinds of request, so a test can cut the apply off between them."""
    text = "topics:\n" + "".join(
        f"  - {{name: {name}, configs: {{retention.ms: 3600000}}}}\n" for name in names
    )
    text += f"  - {{name: {created}, partitions: 1, replication_factor: 1}}\n"
    return (
        text + f"quotas:\n  - entity: {{user: {user}}}\n    values: {{producer_byte_rate: 1024}}\n"
    )


def rows(journal: Journal) -> dict[tuple[str, str], JournalEntry]:
    return {(entry.resource_name, entry.key): entry for entry in journal.entries()}


async def test_a_cancelled_alter_records_exactly_the_ops_sent_as_unconfirmed(
    admin_client: AdminClient,
    kafka_bootstrap: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    names = [await new_topic(admin_client, kafka_bootstrap) for _ in range(TOPICS)]
    created, user = unique_name(), unique_name()
    text = desired_file(names, created, user)
    journal = Journal.at(tmp_path / "journal.sqlite")
    written = await cancelled_apply(
        admin_client, monkeypatch, journal, text, "IncrementalAlterConfigs"
    )
    # Cancelled while the alter was in flight: the topic to create and the quota never went
    # (their one request each is the broker's dry run).
    assert written.count("CreateTopics") == written.count("AlterClientQuotas") == 1, written
    recorded = rows(journal)
    assert set(recorded) == {(name, "retention.ms") for name in names}
    for entry in recorded.values():
        assert (entry.outcome, entry.note, entry.op) == ("unconfirmed", INTERRUPTED_NOTE, "SET")
        assert (entry.old_value, entry.new_value, entry.old_set) == ("604800000", "3600000", False)
    assert len({entry.change_set for entry in recorded.values()}) == 1


async def test_an_apply_cancelled_as_it_creates_records_the_alters_answered_and_the_creation(
    admin_client: AdminClient,
    kafka_bootstrap: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    names = [await new_topic(admin_client, kafka_bootstrap) for _ in range(TOPICS)]
    created, user = unique_name(), unique_name()
    text = desired_file(names, created, user)
    journal = Journal.at(tmp_path / "journal.sqlite")
    written = await cancelled_apply(admin_client, monkeypatch, journal, text, "CreateTopics")
    assert written.count("AlterClientQuotas") == 1, written  # the dry run's: the quota never went
    recorded = rows(journal)
    assert set(recorded) == {(name, "retention.ms") for name in names} | {(created, "")}
    for name in names:  # answered by the broker, not yet read back
        entry = recorded[(name, "retention.ms")]
        assert (entry.outcome, entry.note) == ("unconfirmed", ACCEPTED_NOTE)
    creation = recorded[(created, "")]
    assert (creation.op, creation.outcome, creation.note) == (
        "CREATE",
        "unconfirmed",
        INTERRUPTED_NOTE,
    )


@pytest.mark.parametrize("kind", ["quota", "partitions"])
async def test_a_quota_or_partitions_cancelled_in_flight_are_recorded_unconfirmed(
    admin_client: AdminClient,
    kafka_bootstrap: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    kind: str,
) -> None:
    if kind == "quota":
        user = unique_name()
        text = f"quotas:\n  - entity: {{user: {user}}}\n    values: {{producer_byte_rate: 2048}}\n"
        api, key = "AlterClientQuotas", (f"user={user}", "producer_byte_rate")
    else:
        name = await new_topic(admin_client, kafka_bootstrap)
        text = f"topics:\n  - {{name: {name}, partitions: 2}}\n"
        api, key = "CreatePartitions", (name, "partitions")
    journal = Journal.at(tmp_path / "journal.sqlite")
    await cancelled_apply(admin_client, monkeypatch, journal, text, api)
    [(recorded_key, entry)] = rows(journal).items()
    assert recorded_key == key
    assert (entry.outcome, entry.note) == ("unconfirmed", INTERRUPTED_NOTE)


async def test_an_apply_that_raises_after_its_alter_records_the_alters_answered(
    admin_client: AdminClient,
    kafka_bootstrap: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    names = [await new_topic(admin_client, kafka_bootstrap) for _ in range(3)]
    desired = parse_desired_state(
        "topics:\n"
        + "".join(f"  - {{name: {name}, configs: {{retention.ms: 1h}}}}\n" for name in names)
    )
    plan = make_plan(desired, await read_state(admin_client, desired))
    journal = Journal.at(tmp_path / "journal.sqlite")

    def failing_read(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the read back broke")

    def break_the_read_back() -> None:  # once the apply's alter is written
        monkeypatch.setattr(admin_client, "describe_configs", failing_read)

    on_written(monkeypatch, "IncrementalAlterConfigs", 2, break_the_read_back)
    recorder = Recorder(journal, Origin.of_process("sdk", "test"))
    with pytest.raises(RuntimeError, match="the read back broke") as raised:
        await apply_plan(admin_client, plan, recorder=recorder)
    monkeypatch.undo()
    recorded = rows(journal)
    assert set(recorded) == {(name, "retention.ms") for name in names}
    assert {(e.outcome, e.note) for e in recorded.values()} == {("unconfirmed", ACCEPTED_NOTE)}
    [change_set] = {entry.change_set for entry in recorded.values()}
    assert raised.value.__notes__ == [
        "the changes sent before the apply was interrupted were recorded in the journal as "
        f"change set {change_set}"
    ]


class _StuckRecorder:
    """An ``ApplyRecorder`` whose recording never ends (a journal that cannot be reached)."""

    async def prepare(self, admin: AdminClient, plan: Any) -> _StuckRecorder:
        return self

    async def record(self, report: Any) -> Any:
        await anyio.sleep_forever()


async def _notes_of_cancelled_apply(
    admin: AdminClient, monkeypatch: pytest.MonkeyPatch, name: str, recorder: Any
) -> list[str]:
    """The notes of the cancellation of an apply of ``name``'s retention, cancelled as its
    alter is written (caught in the apply's own task, where the notes are)."""
    desired = parse_desired_state(f"topics:\n  - {{name: {name}, configs: {{retention.ms: 1h}}}}\n")
    plan = make_plan(desired, await read_state(admin, desired))

    async def run() -> list[str]:
        try:
            await apply_plan(admin, plan, recorder=recorder)
        except asyncio.CancelledError as cancelled:
            return list(getattr(cancelled, "__notes__", []))
        raise AssertionError("the apply was not cancelled")

    task = asyncio.ensure_future(run())
    on_written(monkeypatch, "IncrementalAlterConfigs", 2, task.cancel)
    notes = await task
    monkeypatch.undo()
    return notes


async def test_an_interrupted_apply_says_where_it_recorded_and_a_stuck_recorder_is_bounded(
    admin_client: AdminClient,
    kafka_bootstrap: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    name, other = [await new_topic(admin_client, kafka_bootstrap) for _ in range(2)]
    journal = Journal.at(tmp_path / "journal.sqlite")
    recorder = Recorder(journal, Origin.of_process("sdk", "test"))
    [note] = await _notes_of_cancelled_apply(admin_client, monkeypatch, name, recorder)
    [entry] = journal.entries()
    assert note == (
        "the changes sent before the apply was interrupted were recorded in the journal as "
        f"change set {entry.change_set}"
    )
    # A recording that does not end is left after the bound: the cancellation goes on.
    monkeypatch.setattr(changeset_apply, "INTERRUPTED_RECORD_TIMEOUT", 1.0)
    started = time.monotonic()
    notes = await _notes_of_cancelled_apply(admin_client, monkeypatch, other, _StuckRecorder())
    assert time.monotonic() - started < 10
    assert notes == [
        "the changes sent before the apply was interrupted could not be recorded: the "
        "recorder did not record them within 1 s"
    ]


@pytest.mark.parametrize(
    ("command", "interrupt", "store"),
    [
        ("apply", signal.SIGINT, "file"),
        ("apply", signal.SIGTERM, "file"),
        ("alter", signal.SIGINT, "topic"),
        ("alter", signal.SIGTERM, "file"),
    ],
    ids=["apply-ctrl-c", "apply-sigterm", "alter-ctrl-c-journal-topic", "alter-sigterm"],
)
def test_a_cli_change_interrupted_mid_alter_exits_130_and_history_shows_its_rows(
    kafka_bootstrap: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    interrupt: signal.Signals,
    store: str,
) -> None:
    names = [with_admin(kafka_bootstrap, _made(kafka_bootstrap)) for _ in range(TOPICS)]
    cluster, journal_of = ["-b", kafka_bootstrap], []  # history reads the file's journal
    if store == "topic":  # the journal on a topic of the cluster, as a clusters file names it
        clusters = tmp_path / "clusters.yaml"
        journal = {"topic": f"journal-{unique_name()}", "retention_ms": 3_600_000}
        entry = {"bootstrap_servers": kafka_bootstrap, "journal": journal}
        clusters.write_text(json.dumps({"clusters": {"team": entry}}))  # JSON is YAML
        monkeypatch.setenv("KAFKA_CONFIG_ADMIN_CLUSTERS", str(clusters))
        cluster = journal_of = ["--cluster", "team"]
    args = ["alter", *[a for name in names for a in ("--topic", name)], "--set", "retention.ms=1h"]
    if command == "apply":  # with a topic to create, which is never sent
        file = tmp_path / "desired.yaml"
        file.write_text(
            "topics:\n"
            + "".join(f"  - {{name: {n}, configs: {{retention.ms: 3600000}}}}\n" for n in names)
            + f"  - {{name: {unique_name()}, partitions: 1, replication_factor: 1}}\n"
        )
        args = ["apply", str(file)]
    # The CLI itself, as a process that sends itself the signal once its alter is written.
    child = tmp_path / "interrupted_cli.py"
    child.write_text(_CHILD.format(signal=int(interrupt), then=""))
    ran = subprocess.run(
        [sys.executable, str(child), *args, "--yes", *cluster],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
    )
    err = ran.stderr.decode()
    assert ran.returncode == 130, err
    assert err.rstrip().endswith("interrupted"), err
    line = next(line for line in err.splitlines() if "before the apply was interrupted" in line)
    change_set = line.split("change set ")[1].split()[0]
    shown = run_cli(capsys, "history", "-o", "json", "--change-set", change_set, *journal_of)
    assert shown.code == 0, shown.err
    changes = shown.json()["changes"]
    assert {(c["resource_name"], c["key"], c["outcome"]) for c in changes} == {
        (name, "retention.ms", "unconfirmed") for name in names
    }
    # The alter reached the broker, and an undo of an unconfirmed row plans the old value back.
    undone_name = changes[0]["resource_name"]
    settled(kafka_bootstrap, _topic(undone_name), "retention.ms", "3600000")
    undone = run_cli(capsys, "undo", str(changes[0]["id"]), *cluster, "--yes")
    assert undone.code == 0, undone.err
    settled(kafka_bootstrap, _topic(undone_name), "retention.ms", "604800000")


def test_a_journal_topic_that_does_not_answer_is_left_after_the_bound_and_said(
    kafka_bootstrap: str, tmp_path: Path
) -> None:
    name = with_admin(kafka_bootstrap, _made(kafka_bootstrap))
    clusters = tmp_path / "clusters.yaml"
    journal = {"topic": f"journal-{unique_name()}", "retention_ms": 3_600_000}
    entry = {"bootstrap_servers": kafka_bootstrap, "journal": journal}
    clusters.write_text(json.dumps({"clusters": {"team": entry}}))  # JSON is YAML
    child = tmp_path / "interrupted_cli.py"
    child.write_text(_CHILD.format(signal=int(signal.SIGINT), then=_SLOW_TOPIC))
    command = [sys.executable, str(child), "alter", "--topic", name, "--set", "retention.ms=1h"]
    started = time.monotonic()
    ran = subprocess.run(
        [*command, "--yes", "--cluster", "team"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        env=os.environ | {"KAFKA_CONFIG_ADMIN_CLUSTERS": str(clusters)},
    )
    took = time.monotonic() - started
    err = ran.stderr.decode()
    assert ran.returncode == 130, err
    assert [line for line in err.splitlines() if line][-2:] == [
        "error: the changes sent before the apply was interrupted were not recorded within 2 s",
        "interrupted",
    ], err
    assert took < 60, err  # the write left behind does not hold the process at its exit


def _made(bootstrap: str) -> Callable[[AdminClient], Any]:
    async def make(admin: AdminClient) -> str:
        return await new_topic(admin, bootstrap)

    return make


def _topic(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


#: The CLI, sending itself ``signal`` once its apply's alter (the second
#: IncrementalAlterConfigs: the first is the broker's dry run) is written to the broker.
_CHILD = """\
import os
import signal
import sys

from kafka_config_admin._net.transport import Transport
from kafka_config_admin.cli import main

signal.signal(signal.SIGINT, signal.default_int_handler)
submit = Transport.submit
written = []


def watching_submit(self, *args, **kwargs):
    done = submit(self, *args, **kwargs)
    if done:
        written.append(args[1].name)
        if args[1].name == "IncrementalAlterConfigs" and written.count(args[1].name) == 2:
            os.kill(os.getpid(), {signal})
    return done


Transport.submit = watching_submit
{then}
sys.argv[0] = "kafka-config-admin"
main()
"""

#: What the CLI child does besides: its journal topic's writes never end, its bound is 2 s.
_SLOW_TOPIC = """\
import asyncio

from kafka_config_admin import changeset
from kafka_config_admin.changeset import _apply
from kafka_config_admin.journal._topic import TopicJournal


async def never_written(self, entries):
    await asyncio.sleep(3600)


TopicJournal._record = never_written
changeset.INTERRUPTED_RECORD_TIMEOUT = _apply.INTERRUPTED_RECORD_TIMEOUT = 2.0
"""
