"""Spark's ``apply_ops`` records its changes in the journal: face spark, the application's id
and its user, each key's old and new values, never a secret; a journal it cannot write is said
in the rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from kafka_config_admin.connect import Connection
from kafka_config_admin.journal import Journal, JournalQuery
from kafka_config_admin.spark import OPS_SCHEMA, apply_ops

from .helpers import config_value, create_topics, topic, unique

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]


def test_apply_ops_is_journaled(spark: SparkSession, kafka_bootstrap: str, tmp_path: Path) -> None:
    target = Connection(name="main", bootstrap_servers=kafka_bootstrap)
    (name,) = create_topics(kafka_bootstrap, [unique("journal")], {"retention.ms": "3600000"})
    ops = spark.createDataFrame(
        [
            ("main", "topic", name, "retention.ms", "SET", "7200000"),
            ("main", "topic", name, "segment.ms", "SET", "3600000"),
        ],
        OPS_SCHEMA,
    )
    journal = Journal.at(tmp_path / "spark-journal.sqlite")
    outcomes = apply_ops(ops, target, journal=journal.path)
    assert {row.status for row in outcomes.collect()} == {"applied"}
    assert config_value(kafka_bootstrap, topic(name), "retention.ms") == "7200000"
    rows = {r.key: r for r in journal.entries(JournalQuery(resource=f"topic:{name}"))}
    assert set(rows) == {"retention.ms", "segment.ms"}
    retention = rows["retention.ms"]
    assert (retention.old_value, retention.old_set, retention.new_value) == (
        "3600000",
        True,
        "7200000",
    )
    assert (rows["segment.ms"].old_set, rows["segment.ms"].new_value) == (False, "3600000")
    for row in rows.values():
        assert row.face == "spark" and row.cluster == "main" and row.outcome == "applied"
        assert row.application == spark.sparkContext.applicationId
        assert row.user == spark.sparkContext.sparkUser()


def test_a_journal_spark_cannot_write_is_said_in_each_row(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path
) -> None:
    target = Connection(name="main", bootstrap_servers=kafka_bootstrap)
    (name,) = create_topics(kafka_bootstrap, [unique("journal")])
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    ops = spark.createDataFrame(
        [("main", "topic", name, "segment.ms", "SET", "3600000")], OPS_SCHEMA
    )
    (row,) = apply_ops(ops, target, journal=blocker / "journal.sqlite").collect()
    assert row.status == "applied"
    assert row.error_message.startswith("not recorded in the journal: the journal ")
    assert config_value(kafka_bootstrap, topic(name), "segment.ms") == "3600000"


def test_the_writer_is_journaled(spark: SparkSession, kafka_bootstrap: str, tmp_path: Path) -> None:
    (name,) = create_topics(kafka_bootstrap, [unique("journal")])
    journal = Journal.at(tmp_path / "writer-journal.sqlite")
    (
        spark.createDataFrame([("main", "topic", name, "segment.ms", "SET", "3600000")], OPS_SCHEMA)
        .write.format("kafka-configs")
        .option("bootstrap.servers", kafka_bootstrap)
        .option("cluster", "main")
        .option("journal", str(journal.path))
        .mode("append")
        .save()
    )
    (row,) = journal.entries(JournalQuery(resource=f"topic:{name}"))
    assert (row.key, row.old_set, row.new_value, row.outcome) == (
        "segment.ms",
        False,
        "3600000",
        "applied",
    )
    assert row.face == "spark" and row.cluster == "main" and row.user


def test_a_secret_set_by_apply_ops_is_in_no_journal_row_nor_its_files_bytes(
    spark: SparkSession, kafka_bootstrap: str, kafka_broker_ids: list[int], tmp_path: Path
) -> None:
    """A broker's per-listener password set through ``apply_ops``: recorded as changed with no
    value, and nowhere in the journal's files; a delete puts the broker back."""
    target = Connection(name="main", bootstrap_servers=kafka_bootstrap)
    secret, broker = f"pw-{unique('secret')}-secret", str(kafka_broker_ids[0])
    key = "listener.name.plaintext.ssl.key.password"
    journal = Journal.at(tmp_path / "journal" / "spark-journal.sqlite")
    ops = spark.createDataFrame([("main", "broker", broker, key, "SET", secret)], OPS_SCHEMA)
    (outcome,) = apply_ops(ops, target, journal=journal.path).collect()
    (row,) = journal.entries(JournalQuery(key=key))
    assert (row.resource_name, row.face, row.sensitive) == (broker, "spark", True)
    assert (row.old_value, row.new_value, row.outcome) == (None, None, outcome.status)
    for file in journal.path.parent.iterdir():  # the file, its WAL and shared memory
        assert secret.encode() not in file.read_bytes(), file
    if outcome.status == "applied":
        back = spark.createDataFrame([("main", "broker", broker, key, "DELETE", None)], OPS_SCHEMA)
        assert apply_ops(back, target).collect()[0].status == "applied"
