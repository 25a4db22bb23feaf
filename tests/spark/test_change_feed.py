"""The ``kafka-config-changes`` stream on local[2], against the real brokers: each change once.

Changes are made by the SDK while the query runs (and while it is stopped); every test waits
for a change's row before making the next one, so each lands in a poll of its own.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiokafka.admin import AIOKafkaAdminClient
from pyspark.sql import Row, SparkSession
from pyspark.sql.streaming.query import StreamingQuery

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin.spark import CHANGES_SCHEMA
from kafka_config_admin.testing import KafkaCluster

from .helpers import create_topics, unique, wait_until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

#: Seconds between polls: short, so that the tests stay quick on a shared machine.
INTERVAL = "1"
#: A cluster-wide key that changes every topic's inherited ``retention.bytes`` and harms none.
DEFAULT_KEY = "log.retention.bytes"


def alter(bootstrap: str, resource: ConfigResource, op: AlterConfigOp) -> None:
    async def run() -> None:
        async with AdminClient(bootstrap) as admin:
            await admin.incremental_alter_configs({resource: [op]}).all()

    asyncio.run(run())


def set_key(bootstrap: str, resource: ConfigResource, key: str, value: str) -> None:
    alter(bootstrap, resource, AlterConfigOp(name=key, value=value, op=OpType.SET))


def delete_key(bootstrap: str, resource: ConfigResource, key: str) -> None:
    alter(bootstrap, resource, AlterConfigOp(name=key, op=OpType.DELETE))


def delete_topic(bootstrap: str, name: str) -> None:
    async def run() -> None:
        client = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
        await client.start()
        try:
            await client.delete_topics([name])
        finally:
            await client.close()

    asyncio.run(run())


def topic(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


CLUSTER_DEFAULT = ConfigResource(ResourceType.BROKER, "")


def start_stream(
    spark: SparkSession, state: Path, sink: dict[str, Any], **options: str
) -> StreamingQuery:
    reader = (
        spark.readStream.format("kafka-config-changes")
        .option("interval", INTERVAL)
        .option("stateLocation", str(state))
        .options(**options)
        .load()
    )
    if "memory" in sink:
        query = reader.writeStream.format("memory").queryName(sink["memory"]).start()
    else:
        query = (
            reader.writeStream.format("parquet")
            .option("path", str(sink["path"]))
            .option("checkpointLocation", str(sink["checkpoint"]))
            .trigger(processingTime="500 milliseconds")
            .start()
        )
    sink["query"] = query  # the one running now: wait_for_row stops when it fails
    sink["start_again"] = lambda: start_stream(spark, state, sink, **options)
    sink.setdefault("restarts", 0)
    return query


def check_running(sink: dict[str, Any]) -> None:
    """Fail at once, with Spark's reason, when the sink's query died, rather than time out.

    Spark gives the driver's Python planner a fixed 10 s to start and connect back to the
    JVM, too short on a loaded machine (seen at a load of 17 on 2 cores): a query that failed
    so is started again from its checkpoint, as a supervisor would, after a pause that grows,
    up to five times.
    """
    failure = sink["query"].exception()
    if failure is None:
        return
    if _CONNECT_BACK in str(failure) and sink["restarts"] < 5:
        sink["restarts"] += 1
        time.sleep(5 * sink["restarts"])
        sink["start_again"]()
        return
    raise AssertionError(f"the query failed: {failure}")


def wait_for_baseline(sink: dict[str, Any], state: Path) -> None:
    """Wait until the stream has read the clusters once (its first poll: the baseline)."""

    def polled() -> bool:
        check_running(sink)
        return any(state.glob("*/*.json"))

    wait_until(polled, "the baseline poll", timeout=120)


def rows_of(spark: SparkSession, sink: dict[str, Any]) -> list[Row]:
    if "memory" in sink:
        return spark.table(sink["memory"]).collect()
    if not Path(sink["path"]).is_dir():
        return []
    # Through the sink's log (_spark_metadata): only the files of committed batches.
    return spark.read.schema(CHANGES_SCHEMA).parquet(str(sink["path"])).collect()


#: How Spark says that a Python worker did not start in time.
_CONNECT_BACK = "Python worker failed to connect back"


def wait_for_row(spark: SparkSession, sink: dict[str, Any], what: str, **match: Any) -> Row:
    """Wait until a row has every column value in ``match``; that row. The sink is a dict
    naming a memory table, or a Parquet path and checkpoint, and the running query."""
    found: list[Row] = []

    def seen() -> bool:
        check_running(sink)
        found[:] = [
            row
            for row in rows_of(spark, sink)
            if all(row[column] == value for column, value in match.items())
        ]
        return bool(found)

    wait_until(seen, what, timeout=90)
    return found[0]


def assert_each_once(rows: list[Row]) -> None:
    """No change appears twice: every row differs from every other one."""
    keys = Counter(
        (
            row.cluster,
            row.resource_type,
            row.resource_name,
            row.key,
            row.change,
            row.before_value,
            row.after_value,
            row.before_source,
            row.after_source,
        )
        for row in rows
        if row.change != "error"
    )
    assert [key for key, count in keys.items() if count > 1] == []
    assert len({row.poll for row in rows}) == len({(row.poll, row.snapshot_id) for row in rows})


@pytest.fixture
def stopping(spark: SparkSession) -> Iterator[None]:
    """Every query a test started (and started again) is stopped however the test ends."""
    yield
    for query in spark.streams.active:
        query.stop()


def test_each_change_made_mid_stream_is_one_row(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path, stopping: None
) -> None:
    prefix = unique("feed-")
    (kept,) = create_topics(kafka_bootstrap, [f"{prefix}-kept"])
    sink: dict[str, Any] = {"memory": prefix.replace("-", "_")}
    start_stream(
        spark,
        tmp_path / "state",
        sink,
        **{
            "bootstrap.servers": kafka_bootstrap,
            "cluster": "main",
            "resourceTypes": "topic,broker_default",
            "topicPattern": f"{prefix}-.*",
            "documentation": "true",
        },
    )
    wait_for_baseline(sink, tmp_path / "state")
    assert rows_of(spark, sink) == []  # the first poll is the baseline: nothing changed yet

    set_key(kafka_bootstrap, topic(kept), "retention.ms", "7200000")
    row = wait_for_row(spark, sink, "the override set", resource_name=kept, key="retention.ms")
    assert (row.change, row.after_value, row.after_source) == ("added", "7200000", "TOPIC_CONFIG")
    assert (row.before_source, row.config_type, row.cluster) == ("DEFAULT_CONFIG", "LONG", "main")

    set_key(kafka_bootstrap, topic(kept), "retention.ms", "3600000")
    row = wait_for_row(spark, sink, "the override changed", key="retention.ms", change="changed")
    assert (row.before_value, row.after_value) == ("7200000", "3600000")

    delete_key(kafka_bootstrap, topic(kept), "retention.ms")
    row = wait_for_row(spark, sink, "the override deleted", key="retention.ms", change="removed")
    assert (row.before_value, row.after_source) == ("3600000", "DEFAULT_CONFIG")

    set_key(kafka_bootstrap, CLUSTER_DEFAULT, DEFAULT_KEY, "1099511627776")
    try:
        row = wait_for_row(spark, sink, "the cluster default set", key=DEFAULT_KEY)
        assert (row.resource_type, row.resource_name, row.change) == ("BROKER", "", "added")
        assert row.after_source == "DYNAMIC_DEFAULT_BROKER_CONFIG"
        inherited = wait_for_row(spark, sink, "the inherited value", key="retention.bytes")
        assert (inherited.resource_name, inherited.change) == (kept, "changed")
        assert inherited.after_value == "1099511627776"
    finally:
        delete_key(kafka_bootstrap, CLUSTER_DEFAULT, DEFAULT_KEY)
    wait_for_row(spark, sink, "the cluster default deleted", key=DEFAULT_KEY, change="removed")

    (created,) = create_topics(kafka_bootstrap, [f"{prefix}-new"], {"cleanup.policy": "compact"})
    row = wait_for_row(spark, sink, "the topic created", resource_name=created, key=None)
    assert row.change == "added"
    override = wait_for_row(
        spark, sink, "its override", resource_name=created, key="cleanup.policy"
    )
    assert (override.change, override.after_value) == ("added", "compact")

    delete_topic(kafka_bootstrap, created)
    wait_for_row(
        spark, sink, "the topic deleted", resource_name=created, key=None, change="removed"
    )

    rows = rows_of(spark, sink)
    assert_each_once(rows)
    assert [row for row in rows if row.change == "error"] == []
    # Exactly the changes made: the override thrice, the default twice (and each time the
    # one inherited value on each topic), the topic twice with its one override each time.
    assert Counter(row.change for row in rows if row.resource_type == "BROKER") == {
        "added": 1,
        "removed": 1,
    }
    keys = Counter((row.resource_name, row.key, row.change) for row in rows)
    assert keys[(kept, "retention.ms", "added")] == 1
    assert keys[(created, None, "added")] == keys[(created, None, "removed")] == 1


def test_a_restart_from_the_checkpoint_sees_each_change_made_while_down_once(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path, stopping: None
) -> None:
    prefix = unique("feedrs-")
    (kept,) = create_topics(kafka_bootstrap, [f"{prefix}-kept"])
    sink: dict[str, Any] = {"path": tmp_path / "changes", "checkpoint": tmp_path / "checkpoint"}
    options = {
        "bootstrap.servers": kafka_bootstrap,
        "cluster": "main",
        "topicPattern": f"{prefix}-.*",
    }
    start_stream(spark, tmp_path / "state", sink, **options)
    wait_for_baseline(sink, tmp_path / "state")
    set_key(kafka_bootstrap, topic(kept), "retention.ms", "7200000")
    wait_for_row(spark, sink, "the override set", key="retention.ms", change="added")
    sink["query"].stop()

    # While the query is down: a change, a new topic with an override, a change undone.
    set_key(kafka_bootstrap, topic(kept), "retention.ms", "3600000")
    (created,) = create_topics(kafka_bootstrap, [f"{prefix}-new"], {"cleanup.policy": "compact"})
    set_key(kafka_bootstrap, topic(kept), "max.message.bytes", "2000000")
    delete_key(kafka_bootstrap, topic(kept), "max.message.bytes")

    # A restarted job is a new driver: the query starts again from its checkpoint there.
    restarted = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.spark.feed_restart_job",
            kafka_bootstrap,
            options["topicPattern"],
            str(tmp_path / "state"),
            str(sink["path"]),
            str(sink["checkpoint"]),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert restarted.returncode == 0, restarted.stderr[-5000:]
    assert "RESULT" in restarted.stdout
    row = wait_for_row(spark, sink, "the change made while down", change="changed")
    assert (row.key, row.before_value, row.after_value) == ("retention.ms", "7200000", "3600000")
    first = row.poll
    rows = rows_of(spark, sink)
    assert_each_once(rows)
    assert Counter((row.resource_name, row.key, row.change) for row in rows) == {
        (kept, "retention.ms", "added"): 1,
        (kept, "retention.ms", "changed"): 1,
        (created, None, "added"): 1,
        (created, "cleanup.policy", "added"): 1,
    }
    # Everything made while down is in the first poll after the restart.
    assert {row.poll for row in rows if row.poll >= first} == {first}


def test_a_cluster_that_cannot_be_read_gives_error_rows_and_no_false_removals(
    spark: SparkSession,
    kafka_cluster: KafkaCluster,
    tmp_path: Path,
    stopping: None,
) -> None:
    bootstrap = kafka_cluster.bootstrap_servers
    prefix = unique("feedfl-")
    (name,) = create_topics(bootstrap, [f"{prefix}-t"], {"retention.ms": "7200000"})
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        f"clusters:\n  main:\n    bootstrap_servers: {bootstrap}\n"
        "  gone:\n    bootstrap_servers: 127.0.0.1:1\n"
    )
    sink: dict[str, Any] = {"memory": prefix.replace("-", "_")}
    start_stream(
        spark,
        tmp_path / "state",
        sink,
        **{
            "clusters.file": str(clusters),
            "resourceTypes": "topic,broker",
            "topicPattern": f"{prefix}-.*",
            "timeout": "3",
        },
    )
    wait_for_baseline(sink, tmp_path / "state")
    gone = wait_for_row(spark, sink, "the unreachable cluster's error", cluster="gone")
    assert (gone.change, gone.error, gone.resource_type) == ("error", "KafkaConnectionError", None)

    # The cluster that was read goes quiet for a few polls, then answers again.
    with kafka_cluster.paused_broker(kafka_cluster.broker_ids[0]):
        frozen = wait_for_row(spark, sink, "the frozen cluster's error", cluster="main")
        assert frozen.change == "error"
    set_key(bootstrap, topic(name), "retention.ms", "3600000")
    row = wait_for_row(spark, sink, "the change after it answers", key="retention.ms")
    assert (row.cluster, row.change, row.before_value) == ("main", "changed", "7200000")

    rows = rows_of(spark, sink)
    # The topic and the broker were never reported gone (nor back), whoever failed.
    assert [row for row in rows if row.change in ("added", "removed")] == []
    assert {row.cluster for row in rows if row.change == "error"} == {"main", "gone"}
    assert all(row.key is None and row.before_value is None for row in rows if row.error)
