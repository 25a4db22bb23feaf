"""``restore --at TIME`` on the real broker: three changes put back, two of them the journal's
and one made by another tool that only the change feed saw (the feed run as ``watch --output
json``, its rows the table); what neither can tell listed as unknown and left alone."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType

from .cli_helpers import make_topic, overrides, run_cli, settled, topic, with_admin
from .helpers import unique_name
from .test_cli_journal import change_set_of, history

pytestmark = pytest.mark.integration


class Feed:
    """The change feed as ``watch --output json``: its rows go to a file, the table."""

    def __init__(self, table: Path, *args: str) -> None:
        self.table = table
        self.log = table.with_suffix(".log")
        with table.open("w") as out, self.log.open("w") as err:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kafka_config_admin", "watch", "-o", "json", *args],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env={**os.environ, "COLUMNS": "200"},
            )

    def wait_for(self, found: str, where: str = "table", timeout: float = 120) -> None:
        path = self.table if where == "table" else self.log
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if found in path.read_text():
                return
            assert self.process.poll() is None, self.log.read_text()
            time.sleep(0.3)
        raise AssertionError(f"no {found!r} in the feed's {where}: {path.read_text()}")

    def keys(self) -> set[str]:
        rows = [json.loads(line) for line in self.table.read_text().splitlines() if line]
        return {row["key"] for row in rows if row["key"] is not None}

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=60)


@pytest.fixture
def feeds() -> Iterator[list[Feed]]:
    started: list[Feed] = []
    yield started
    for feed in started:
        feed.stop()


def a_moment() -> datetime:
    """A time strictly between what was done before and what is done after."""
    time.sleep(1.2)
    now = datetime.now(UTC)
    time.sleep(1.2)
    return now


def another_tool_sets(bootstrap: str, name: str, key: str, value: str) -> None:
    """A change made with a raw AdminClient: never journaled."""

    async def alter(admin: AdminClient) -> None:
        await admin.incremental_alter_configs({topic(name): [AlterConfigOp(key, value)]}).all()

    with_admin(bootstrap, alter)
    settled(bootstrap, topic(name), key, value)


def cli_sets(capsys: pytest.CaptureFixture[str], bootstrap: str, name: str, change: str) -> str:
    ran = run_cli(capsys, "alter", "-b", bootstrap, "--topic", name, "--set", change, "-y")
    assert ran.code == 0, ran.err
    return change_set_of(ran.err)


def test_restore_to_a_time_before_three_changes_one_seen_only_by_the_feed(
    kafka_bootstrap: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    feeds: list[Feed],
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "1000000"})
    table = tmp_path / "feed.jsonl"
    feed = Feed(table, "-b", kafka_bootstrap, "--topic", name, "--interval", "1")
    feeds.append(feed)
    feed.wait_for("baseline", where="log")
    at = a_moment()
    cli_sets(capsys, kafka_bootstrap, name, "retention.ms=2000000")
    cli_sets(capsys, kafka_bootstrap, name, "segment.ms=3600000")
    another_tool_sets(kafka_bootstrap, name, "cleanup.policy", "compact")
    feed.wait_for('"cleanup.policy"')
    feed.wait_for('"segment.ms"')
    feed.stop()
    assert feed.keys() >= {"retention.ms", "segment.ms", "cleanup.policy"}
    selection = ["-b", kafka_bootstrap, "--match", re.escape(name)]

    # The journal alone knows its two changes, and says that it sees no other tool's.
    journal_only = run_cli(capsys, "restore", "--at", at.isoformat(), *selection, "--dry-run")
    assert journal_only.code == 0, journal_only.err
    assert "only changes made through kafka-config-admin are known" in journal_only.err
    said = " ".join(journal_only.err.split())
    assert "retention.ms: 1000000 then (journal change" in said
    assert "segment.ms: not set then (journal change" in said
    assert "cleanup.policy:" not in said
    assert overrides(kafka_bootstrap, topic(name)) == {
        "retention.ms": "2000000",
        "segment.ms": "3600000",
        "cleanup.policy": "compact",
    }

    # With the feed's table: the other tool's change too; the journal's are taken once. The
    # feed named the cluster "main" here (as a clusters file would): --feed-cluster says so.
    renamed = tmp_path / "main.jsonl"
    rows = [json.loads(line) for line in table.read_text().splitlines() if line]
    renamed.write_text("".join(json.dumps({**row, "cluster": "main"}) + "\n" for row in rows))
    wrong = run_cli(
        capsys, "restore", "--at", at.isoformat(), *selection, "--feed-table", str(renamed)
    )
    assert wrong.code == 2 and "has no rows of cluster" in wrong.err and "'main'" in wrong.err
    ran = run_cli(
        capsys,
        "restore",
        "--at",
        at.isoformat(),
        *selection,
        *("--feed-table", str(renamed), "--feed-cluster", "main", "-y"),
    )
    assert ran.code == 0, ran.err
    said = " ".join(ran.err.split())
    assert "retention.ms: 1000000 then (journal change" in said
    assert "cleanup.policy: not set then (feed row of" in said
    settled(kafka_bootstrap, topic(name), "retention.ms", "1000000")
    assert overrides(kafka_bootstrap, topic(name)) == {"retention.ms": "1000000"}
    restored = history(capsys, "--change-set", change_set_of(ran.err))
    assert {(r["key"], r["op"], r["new_value"]) for r in restored} == {
        ("retention.ms", "SET", "1000000"),
        ("segment.ms", "DELETE", None),
        ("cleanup.policy", "DELETE", None),
    }
    assert all(r["note"] == f"restore to {at.isoformat()}" for r in restored)
    # Done again: nothing is left to restore.
    again = run_cli(
        capsys, "restore", "--at", at.isoformat(), *selection, "--feed-table", str(table), "-y"
    )
    assert again.code == 0, again.err
    assert "nothing to restore" in again.err


def test_what_neither_source_can_tell_is_listed_unknown_and_left_alone(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    moved = make_topic(kafka_bootstrap, {"retention.ms": "1000000"})
    kept = make_topic(kafka_bootstrap, {"segment.ms": "3600000"})
    cli_sets(capsys, kafka_bootstrap, moved, "retention.ms=2000000")
    another_tool_sets(kafka_bootstrap, moved, "retention.ms", "3000000")  # unseen: no feed
    cli_sets(capsys, kafka_bootstrap, kept, "segment.ms=7200000")
    at = a_moment()
    cli_sets(capsys, kafka_bootstrap, moved, "retention.ms=4000000")
    cli_sets(capsys, kafka_bootstrap, kept, "segment.ms=10800000")
    created = unique_name()
    file = tmp_path / "kafka.yaml"
    file.write_text(
        f"topics:\n  - name: {created}\n    partitions: 1\n    replication_factor: 1\n"
        "    configs: {segment.ms: 1h}\n"
    )
    applied = run_cli(capsys, "apply", str(file), "-b", kafka_bootstrap, "-y")
    assert applied.code == 0, applied.err
    settled(kafka_bootstrap, topic(created), "segment.ms", "3600000")

    missing = unique_name()  # never created
    ran = run_cli(
        capsys,
        "restore",
        "--at",
        at.isoformat(),
        "-b",
        kafka_bootstrap,
        *("--topic", moved, "--topic", kept, "--topic", created, "--topic", missing),
        "-y",
    )
    assert ran.code == 1, ran.err  # something could not be told: not all is as it was
    lines = ran.err.splitlines()
    unknown = [line for line in lines if line.startswith("unknown, left as it is: ")]
    assert len(unknown) == 3, ran.err
    assert unknown[0].startswith(
        f"unknown, left as it is: topic {moved} retention.ms: something neither the journal "
        "nor the feed saw changed it between "
    )
    assert unknown[1].startswith(
        f"unknown, left as it is: topic {created}: it did not exist then (created "
    )
    assert unknown[2].startswith(
        f"unknown, left as it is: topic {missing}: it cannot be read now: "
    )
    assert f"topic {kept} segment.ms: 7200000 then (journal change" in ran.err
    settled(kafka_bootstrap, topic(kept), "segment.ms", "7200000")
    assert overrides(kafka_bootstrap, topic(moved)) == {"retention.ms": "4000000"}
    assert overrides(kafka_bootstrap, topic(created)) == {"segment.ms": "3600000"}


BACKOFF = "log.cleaner.backoff.ms"


def test_restore_of_the_brokers_and_the_cluster_default(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    broker = with_admin(kafka_bootstrap, lambda admin: _first_broker(admin))
    default, own = (
        ConfigResource(ResourceType.BROKER, ""),
        ConfigResource(ResourceType.BROKER, broker),
    )
    target = ["-b", kafka_bootstrap, "--entity-type", "brokers"]

    def alter(resource: str, value: str) -> None:
        ran = run_cli(capsys, "alter", *target[:2], resource, "--set", f"{BACKOFF}={value}", "-y")
        assert ran.code == 0, ran.err

    try:
        alter("broker:", "16000")
        at = a_moment()
        alter("broker:", "17000")
        alter(f"broker:{broker}", "18000")
        ran = run_cli(capsys, "restore", "--at", at.isoformat(), *target, "-y")
        assert ran.code == 0, ran.err
        settled(kafka_bootstrap, default, BACKOFF, "16000")
        assert overrides(kafka_bootstrap, default).get(BACKOFF) == "16000"
        assert BACKOFF not in overrides(kafka_bootstrap, own)
    finally:
        with_admin(kafka_bootstrap, lambda admin: _forget(admin, [default, own]))


async def _first_broker(admin: AdminClient) -> str:
    return str(min(admin.broker_ids()))


async def _forget(admin: AdminClient, resources: list[ConfigResource]) -> None:
    delete = [AlterConfigOp(BACKOFF, op=OpType.DELETE)]
    await admin.incremental_alter_configs({resource: delete for resource in resources}).all()
