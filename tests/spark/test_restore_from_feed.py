"""``restore --at TIME`` from the history table the ``kafka-config-changes`` stream writes
(Spark's ``json`` sink, read through its log while the stream runs, without Spark): a change
made by another tool, which only the feed saw, put back beside the journal's, read back."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

from kafka_config_admin import AdminClient, AlterConfigOp
from kafka_config_admin.journal import read_feed_table

from ..integration.cli_helpers import overrides, run_cli, settled, with_admin
from .helpers import create_topics, topic, unique, wait_until
from .test_change_feed import check_running, wait_for_baseline

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]


def start_json_table(spark: SparkSession, work: Path, sink: dict[str, Any], name: str) -> None:
    """The feed of topic ``name`` as a JSON table, polled every second, named ``main``."""

    def start() -> None:
        sink["query"] = (
            spark.readStream.format("kafka-config-changes")
            .option("bootstrap.servers", sink["bootstrap"])
            .option("cluster", "main")
            .option("topics", name)
            .option("interval", "1")
            .option("stateLocation", str(work / "state"))
            .load()
            .writeStream.format("json")
            .option("path", str(work / "table"))
            .option("checkpointLocation", str(work / "checkpoint"))
            .trigger(processingTime="500 milliseconds")
            .start()
        )

    sink.update(start_again=start, restarts=0)
    start()


def test_restore_takes_another_tools_change_from_the_streams_json_table(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (name,) = create_topics(kafka_bootstrap, [unique("restore-")], {"retention.ms": "1000000"})
    sink: dict[str, Any] = {"bootstrap": kafka_bootstrap}
    start_json_table(spark, tmp_path, sink, name)
    try:
        wait_for_baseline(sink, tmp_path / "state")
        time.sleep(1.2)
        at = datetime.now(UTC)
        time.sleep(1.2)
        ran = run_cli(
            capsys, "alter", "-b", kafka_bootstrap, name, "--set", "retention.ms=2000000", "-y"
        )
        assert ran.code == 0, ran.err

        async def another_tool(admin: AdminClient) -> None:
            ops = {topic(name): [AlterConfigOp("cleanup.policy", "compact")]}
            await admin.incremental_alter_configs(ops).all()

        with_admin(kafka_bootstrap, another_tool)
        table = tmp_path / "table"

        def both_seen() -> bool:
            check_running(sink)
            if not (table / "_spark_metadata").is_dir():
                return False
            keys = {row.key for row in read_feed_table(table) if row.resource_name == name}
            return {"retention.ms", "cleanup.policy"} <= keys

        wait_until(both_seen, "the stream's rows of both changes", timeout=180)
        restored = run_cli(
            capsys,
            *("restore", "--at", at.isoformat(), "-b", kafka_bootstrap, "--topic", name),
            *("--feed-table", str(table), "--feed-cluster", "main", "-y"),
        )
        assert restored.code == 0, restored.err
        said = " ".join(restored.err.split())
        assert "cleanup.policy: not set then (feed row of" in said
        assert "retention.ms: 1000000 then (journal change" in said
        settled(kafka_bootstrap, topic(name), "retention.ms", "1000000")
        assert overrides(kafka_bootstrap, topic(name)) == {"retention.ms": "1000000"}
    finally:
        sink["query"].stop()
