"""``spark.read.format("kafka-config-journal")``: the journal as a DataFrame, from the SQLite
file and from a journal topic, each row as the journal reads it back."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

from kafka_config_admin.connect import Connection, JournalTopic
from kafka_config_admin.journal import Journal, JournalEntry, TopicJournal
from kafka_config_admin.spark import JOURNAL_SCHEMA, OPS_SCHEMA, apply_ops

from .helpers import create_topics, unique

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]


def as_row(entry: JournalEntry) -> dict[str, Any]:
    """What the DataFrame's row holds for ``entry``."""
    return {**entry.to_dict(), "time": entry.time}


def read_rows(spark: SparkSession, **options: str) -> list[dict[str, Any]]:
    frame = spark.read.format("kafka-config-journal").options(**options).load()
    assert frame.schema == JOURNAL_SCHEMA
    return [row.asDict() for row in frame.orderBy("id").collect()]


def same(row: dict[str, Any], entry: JournalEntry) -> None:
    wanted = as_row(entry)
    got = {**row, "time": row["time"].astimezone(entry.time.tzinfo)}  # Spark: session zone
    assert got == wanted


@pytest.fixture
def recorded(spark: SparkSession, kafka_bootstrap: str, tmp_path: Path) -> Journal:
    """An SQLite journal holding two changes apply_ops made and a quota row."""
    target = Connection(name="main", bootstrap_servers=kafka_bootstrap)
    (name,) = create_topics(kafka_bootstrap, [unique("journal-df")], {"retention.ms": "3600000"})
    ops = spark.createDataFrame(
        [
            ("main", "topic", name, "retention.ms", "SET", "7200000"),
            ("main", "topic", name, "segment.ms", "SET", "3600000"),
        ],
        OPS_SCHEMA,
    )
    journal = Journal.at(tmp_path / "journal.sqlite")
    assert {row.status for row in apply_ops(ops, target, journal=journal.path).collect()} == {
        "applied"
    }
    (first, _) = journal.entries()
    quota = replace(
        first,
        id=None,
        resource_type="quota",
        resource_name="user=alice,client-id=<default>",
        entity={"user": "alice", "client-id": None},
        key="producer_byte_rate",
    )
    journal.record([quota])
    return journal


def test_the_sqlite_journal_reads_as_a_dataframe(spark: SparkSession, recorded: Journal) -> None:
    entries = recorded.entries()
    assert len(entries) == 3
    rows = read_rows(spark, path=str(recorded.path))
    assert len(rows) == 3
    for row, entry in zip(rows, entries, strict=True):
        same(row, entry)
    assert rows[2]["entity"] == {"user": "alice", "client-id": None}
    assert {r["face"] for r in rows[:2]} == {"spark"}


def test_the_journal_topic_reads_as_a_dataframe(
    spark: SparkSession, recorded: Journal, kafka_bootstrap: str, tmp_path: Path
) -> None:
    name = unique("journal-topic")
    team = Connection(name="team", bootstrap_servers=kafka_bootstrap)
    shared = TopicJournal(team, JournalTopic(topic=name))
    shared.record(recorded.entries())
    entries = shared.entries()
    assert len(entries) == 3
    by_servers = read_rows(spark, **{"bootstrap.servers": kafka_bootstrap, "topic": name})
    clusters = tmp_path / "clusters.yaml"
    entry = {"bootstrap_servers": kafka_bootstrap, "journal": {"topic": name}}
    clusters.write_text(json.dumps({"clusters": {"team": entry}}))
    by_file = read_rows(spark, **{"clusters.file": str(clusters), "cluster": "team"})
    for rows in (by_servers, by_file):
        assert len(rows) == 3
        for row, wanted in zip(rows, entries, strict=True):
            same(row, wanted)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"path": "/tmp/j.sqlite", "bootstrap.servers": "127.0.0.1:1"}, "not both"),
        ({"topic": "journal"}, "topic needs its cluster"),
        ({"bootstrap.servers": "127.0.0.1:1"}, "names no journal topic"),
    ],
)
def test_options_that_name_no_one_journal_are_refused(
    spark: SparkSession, options: dict[str, str], said: str
) -> None:
    with pytest.raises(Exception, match=said):
        spark.read.format("kafka-config-journal").options(**options).load().collect()


def test_apply_ops_records_in_the_targets_journal_topic(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path
) -> None:
    name = unique("journal-ops")
    target = Connection(
        name="main", bootstrap_servers=kafka_bootstrap, journal=JournalTopic(topic=name)
    )
    (changed,) = create_topics(
        kafka_bootstrap, [unique("journal-ops")], {"retention.ms": "3600000"}
    )
    ops = spark.createDataFrame(
        [("main", "topic", changed, "retention.ms", "SET", "7200000")], OPS_SCHEMA
    )
    file = tmp_path / "journal.sqlite"
    assert [row.status for row in apply_ops(ops, target, journal=file).collect()] == ["applied"]
    assert not file.exists()  # the target's topic, not the file
    rows = read_rows(spark, **{"bootstrap.servers": kafka_bootstrap, "topic": name})
    assert [(r["face"], r["resource"], r["old_value"], r["new_value"]) for r in rows] == [
        ("spark", f"topic:{changed}", "3600000", "7200000")
    ]
