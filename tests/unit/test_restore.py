"""Restore to a time without a broker: the feed's table read back (JSON lines, a Spark json
directory, Parquet refused), what a key was at a time from the journal's and the feed's
changes (a secret and a change neither saw unknown, a change both saw taken once), and the
command's usage errors, each one line and exit 2 before any cluster is reached."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from kafka_config_admin import ConfigResource, ResourceType
from kafka_config_admin.cli import main
from kafka_config_admin.feed import POLL_ROW, ChangeKind, StateChange
from kafka_config_admin.journal import FeedTableError, JournalEntry, read_feed_table
from kafka_config_admin.journal._restore import (
    _feed_changes,
    _journal_changes,
    _once,
    _Value,
    _value_then,
)

from .journal_helpers import ENTRY as SAMPLE

T0 = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)
ORDERS = ConfigResource(ResourceType.TOPIC, "orders")

ENTRY = replace(
    SAMPLE,
    id=1,
    time=T0,
    old_value="1000",
    old_set=True,
    new_value="2000",
)


def feed_row(minutes: float, before: str | None, after: str | None, **more: Any) -> StateChange:
    """A feed row of ``orders``'s retention.ms, a value None where the key is not set."""
    return StateChange(
        cluster="prod",
        resource_type="TOPIC",
        resource_name="orders",
        key=more.pop("key", "retention.ms"),
        change=ChangeKind.CHANGED,
        detected_time=T0 + timedelta(minutes=minutes),
        before_value=before if before is not None else "604800000",
        after_value=after if after is not None else "604800000",
        before_source="TOPIC_CONFIG" if before is not None else "DEFAULT_CONFIG",
        after_source="TOPIC_CONFIG" if after is not None else "DEFAULT_CONFIG",
        **more,
    )


def value_at(
    at: datetime, journal: list[JournalEntry], feed: list[StateChange]
) -> tuple[_Value, str] | str | None:
    """What restore makes of ``orders``'s retention.ms at ``at``."""
    created: dict[ConfigResource, datetime] = {}
    changes = [
        change
        for _, change in _once(
            list(_journal_changes(journal, {ORDERS}, created)),
            list(_feed_changes(feed, {ORDERS}, created)),
        )
    ]
    return _value_then(sorted(changes, key=lambda change: change.time), at)


def test_the_value_then_is_what_the_first_change_after_found() -> None:
    later = replace(ENTRY, id=2, time=T0 + timedelta(hours=1), old_value="2000", new_value="3000")
    assert value_at(T0 + timedelta(minutes=30), [ENTRY, later], []) == (
        _Value(True, "2000"),
        "journal change 2",
    )
    assert value_at(T0 - timedelta(minutes=1), [ENTRY, later], []) == (
        _Value(True, "1000"),
        "journal change 1",
    )
    assert value_at(T0 + timedelta(hours=2), [ENTRY, later], []) is None  # nothing since


def test_a_change_both_saw_is_the_journals_and_another_tools_is_the_feeds() -> None:
    # The feed saw the journal's change a poll later (after the time asked): it is the
    # journal's, made before that time, so the value then is 2000, not 1000.
    seen_late = feed_row(0.5, "1000", "2000")
    other_tool = feed_row(40, "2000", "5000")
    assert value_at(T0 + timedelta(seconds=10), [ENTRY], [seen_late, other_tool]) == (
        _Value(True, "2000"),
        f"feed row of {other_tool.detected_time.isoformat()}",
    )


def test_a_change_neither_saw_makes_the_value_unknown() -> None:
    # 1000 -> 2000 (journal), then something set 3000, then 3000 -> 4000 (journal).
    later = replace(ENTRY, id=2, time=T0 + timedelta(hours=1), old_value="3000", new_value="4000")
    unknown = value_at(T0 + timedelta(minutes=30), [ENTRY, later], [])
    assert isinstance(unknown, str) and "neither the journal nor the feed saw" in unknown
    # The feed saw it, before the time asked: known.
    seen = feed_row(10, "2000", "3000")
    assert value_at(T0 + timedelta(minutes=30), [ENTRY, later], [seen]) == (
        _Value(True, "3000"),
        "journal change 2",
    )


def test_a_secrets_value_is_unknown_and_its_absence_known() -> None:
    secret = replace(ENTRY, sensitive=True, old_value=None, new_value=None)
    unknown = value_at(T0 - timedelta(minutes=1), [secret], [])
    assert isinstance(unknown, str) and "secret" in unknown
    created = replace(secret, old_set=False)
    assert value_at(T0 - timedelta(minutes=1), [created], []) == (
        _Value(False),
        "journal change 1",
    )


def test_failed_changes_inherited_values_and_other_resources_are_not_changes() -> None:
    failed = replace(ENTRY, outcome="failed")
    other = replace(ENTRY, resource_name="payments")
    inherited = feed_row(5, None, None)  # the default moved under the topic
    assert value_at(T0 - timedelta(minutes=1), [failed, other], [inherited]) is None


def test_a_json_lines_table_and_a_spark_json_directory_read_back(tmp_path: Path) -> None:
    row = feed_row(1, "1000", "2000")
    lines = tmp_path / "feed.jsonl"
    lines.write_text(json.dumps(row.to_dict()) + "\n\n")
    assert read_feed_table(lines) == [row]
    # A directory of JSON files written otherwise: each file, a row in two of them once.
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "a.json").write_text(json.dumps(row.to_dict()))
    (plain / "b.json").write_text(json.dumps(row.to_dict()))
    (plain / "_SUCCESS").write_text("")
    assert read_feed_table(plain) == [row]


def test_a_polls_row_of_the_streams_stats_is_not_a_change_and_is_skipped(tmp_path: Path) -> None:
    row = feed_row(1, "1000", "2000")
    poll = {"cluster": "prod", "change": POLL_ROW, "detected_time": "2026-01-01T00:00:00Z"}
    table = tmp_path / "feed.jsonl"
    table.write_text(json.dumps(poll) + "\n" + json.dumps(row.to_dict()) + "\n")
    assert read_feed_table(table) == [row]


def test_of_a_spark_sink_only_the_committed_files_are_read(tmp_path: Path) -> None:
    table = tmp_path / "table"
    log = table / "_spark_metadata"
    log.mkdir(parents=True)
    rows = [feed_row(minutes, "1000", str(minutes)) for minutes in (1, 2, 3)]
    # Spark's json sink: null columns left out, times with a Z.
    for name, row in zip(("old", "kept", "later"), rows, strict=True):
        spark_row = {k: v for k, v in row.to_dict().items() if v is not None}
        spark_row["detected_time"] = row.detected_time.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        (table / f"part-{name}.json").write_text(json.dumps(spark_row) + "\n")
    (table / "part-failed.json").write_text('{"cluster": "prod", "chan')  # never committed

    def entries(*names: str, action: str = "add") -> str:
        return "v1\n" + "".join(
            json.dumps({"path": (table / f"part-{name}.json").as_uri(), "action": action}) + "\n"
            for name in names
        )

    (log / "0").write_text(entries("old"))
    (log / "1.compact").write_text(entries("kept"))  # the files up to batch 1: not "old"
    (log / "1").write_text(entries("old"))  # superseded by its compaction
    (log / "2").write_text(entries("later"))
    (log / ".2.crc").write_text("")
    assert read_feed_table(table) == rows[1:]
    (log / "3").write_text(entries("later", action="delete"))
    assert read_feed_table(table) == rows[1:2]
    (log / "4").write_text("v1\n" + json.dumps({"path": "hdfs://nn/t/part-x.json"}) + "\n")
    with pytest.raises(FeedTableError, match="only files on this machine"):
        read_feed_table(table)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"PAR1\x00\x00", "is Parquet"),
        (b"not json\n", "not a JSON row of the change feed"),
        (b'{"cluster": "prod"}\n', "no change, detected_time"),
        (b'{"cluster": "p", "change": "moved", "detected_time": "x"}\n', "not a row"),
        (b"[1, 2]\n", "not a JSON object"),
    ],
)
def test_a_table_that_is_not_the_feeds_is_refused_by_name(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    table = tmp_path / "feed"
    table.write_bytes(content)
    with pytest.raises(FeedTableError, match=problem):
        read_feed_table(table)
    with pytest.raises(FeedTableError, match="does not exist"):
        read_feed_table(tmp_path / "missing")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(["restore", "-b", "127.0.0.1:1", *args])
    code = exited.value.code
    return (code if isinstance(code, int) else 1), capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--at", "yesterday", "--topic", "t"], "--at 'yesterday': not a time"),
        (["--at", "2999-01-01T00:00:00Z", "--topic", "t"], "is in the future"),
        (["--at", "2h"], "name what to restore"),
        (["--at", "2h", "--entity-type", "users", "--entity-name", "a"], "put back by undo"),
        (["--at", "2h", "broker-logger:1"], "does not put back broker loggers"),
        (["--at", "2h", "--topic", "t", "--feed-table", "/nonexistent"], "does not exist"),
        (["--at", "2h", "--topic", "t", "--feed-cluster", "main"], "give --feed-table"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], problem: str
) -> None:
    code, err = run(capsys, *args)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and problem in err, err


def test_a_parquet_table_is_refused_before_the_cluster_is_reached(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    table = tmp_path / "kafka-changes"
    table.mkdir()
    (table / "part-00000.snappy.parquet").write_bytes(b"PAR1")
    code, err = run(capsys, "--at", "2h", "--topic", "t", "--feed-table", str(table))
    assert code == 2 and "is Parquet" in err and "format('json')" in err, err


def test_a_resource_the_feed_or_the_journal_saw_created_is_dated() -> None:
    appeared = StateChange("prod", "TOPIC", "orders", None, ChangeKind.ADDED, T0)
    created: dict[ConfigResource, datetime] = {}
    assert list(_feed_changes([appeared], {ORDERS}, created)) == []
    assert created == {ORDERS: T0}
    again = replace(ENTRY, op="CREATE", key="", time=T0 + timedelta(hours=1))
    assert list(_journal_changes([again], {ORDERS}, created)) == []
    assert created == {ORDERS: T0 + timedelta(hours=1)}  # deleted and created again: the latest


def test_a_feed_row_seen_before_the_journals_time_is_the_same_change_dated_by_the_feed() -> None:
    # The journal's time is when the apply ended (after its read back); the feed polled 5 s
    # before: one change, made by then.
    seen_first = feed_row(-5 / 60, "1000", "2000")
    assert value_at(T0 - timedelta(seconds=10), [ENTRY], [seen_first]) == (
        _Value(True, "1000"),
        "journal change 1",
    )
    between = T0 - timedelta(seconds=2)  # after the feed saw it: the change was made
    assert value_at(between, [ENTRY], [seen_first]) is None
    # The same values an hour before the journal's change: another change, not this one.
    long_before = feed_row(-60, "1000", "2000")
    assert value_at(T0 - timedelta(hours=2), [ENTRY], [long_before]) == (
        _Value(True, "1000"),
        f"feed row of {long_before.detected_time.isoformat()}",
    )
    unknown = value_at(T0 - timedelta(minutes=30), [ENTRY], [long_before])
    assert isinstance(unknown, str) and "neither the journal nor the feed saw" in unknown
