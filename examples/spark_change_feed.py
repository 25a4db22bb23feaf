"""Stream a cluster's config changes into a Parquet table and alert when a retention drops.

    python examples/spark_change_feed.py --table /data/kafka-changes --state /data/feed-state

One ``kafka-config-changes`` query polls the cluster every ``--interval`` seconds; each
micro-batch (the changes since the poll before) is appended to the Parquet ``--table``,
partitioned by poll, and searched for a ``retention.ms`` that went down: each such drop prints
an ``ALERT`` line. The checkpoint (under ``--state``) makes the query exactly once: restarted,
it reports what changed while it was down, and nothing twice.

With ``--demo`` (the default when no ``--table`` is given) it watches one topic it creates,
lowers that topic's retention itself, stops at the alert and prints the table.
The cluster is ``$KAFKA_BOOTSTRAP_SERVERS`` (default ``127.0.0.1:9092``), or
``--clusters-file`` for a fleet. docs/change-feed.md explains the stream.
"""

# example-needs-extra: spark

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import threading
from collections.abc import Sequence

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    NewTopic,
    OpType,
    ResourceType,
)
from kafka_config_admin.spark import register

#: retention.ms of -1 keeps records forever: larger than any other retention.
FOREVER = 2**63 - 1
#: How long the demo waits for its alert before it gives up.
DEMO_TIMEOUT = 300


def retention(column: str) -> Column:
    """A ``retention.ms`` value as a comparable number (-1, forever, is the largest)."""
    value = F.col(column).cast("long")
    return F.when(value == -1, F.lit(FOREVER)).otherwise(value)


def retention_drops(changes: DataFrame) -> DataFrame:
    """The rows of ``changes`` where a topic's ``retention.ms`` went down."""
    return changes.where(
        (F.col("key") == "retention.ms")
        & (F.col("change") != "error")
        & (retention("after_value") < retention("before_value"))
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", help="the Parquet table the changes are appended to")
    parser.add_argument("--state", help="the directory of the checkpoint and the poll states")
    parser.add_argument("--clusters-file", help="watch a fleet instead of one cluster")
    parser.add_argument("--topic-pattern", default=".*", help="the topics to watch (a regex)")
    parser.add_argument("--interval", default="30", help="seconds between polls")
    parser.add_argument("--demo", action="store_true", help="make a change and stop at its alert")
    args = parser.parse_args(argv)
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    if args.table is None:
        args.demo = True
    work = tempfile.mkdtemp(prefix="change-feed-")
    table = args.table or f"{work}/changes"
    state = args.state or f"{work}/state"
    topic = f"change-feed-demo-{os.getpid()}" if args.demo else None
    if topic is not None:
        asyncio.run(create_topic(bootstrap, topic))
        args.topic_pattern, args.interval = topic, "2"

    # Spark's Python workers run this interpreter (with the package), not the first python3.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.appName("kafka-config-changes")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    register(spark)
    source = (
        {"clusters.file": args.clusters_file}
        if args.clusters_file
        else {"bootstrap.servers": bootstrap, "cluster": "main"}
    )
    alerted = threading.Event()

    def store_and_alert(batch: DataFrame, batch_id: int) -> None:
        # Written per batch, so a batch replayed after a crash replaces its own rows.
        batch.write.mode("overwrite").parquet(f"{table}/batch={batch_id}")
        for row in retention_drops(batch).collect():
            print(
                f"ALERT {row.cluster}: {row.resource_type.lower()} {row.resource_name!r} "
                f"retention.ms {row.before_value} -> {row.after_value} "
                f"(seen {row.detected_time:%Y-%m-%d %H:%M:%S})",
                flush=True,
            )
            alerted.set()

    query = (
        spark.readStream.format("kafka-config-changes")
        .options(**source)
        .option("resourceTypes", "topic,broker_default")
        .option("topicPattern", args.topic_pattern)
        .option("interval", args.interval)
        .option("stateLocation", f"{state}/polls")
        .load()
        .writeStream.foreachBatch(store_and_alert)
        .option("checkpointLocation", f"{state}/checkpoint")
        .start()
    )
    print(f"streaming changes into {table} (Ctrl-C to stop)", flush=True)
    try:
        if topic is None:
            query.awaitTermination()
            return 0
        query.processAllAvailable()  # the first poll: the baseline
        asyncio.run(set_retention(bootstrap, topic, "3600000"))
        if not alerted.wait(DEMO_TIMEOUT):
            print(f"no alert within {DEMO_TIMEOUT}s", flush=True)
            return 1
    except KeyboardInterrupt:
        return 130
    finally:
        query.stop()
    spark.read.parquet(table).select(
        "cluster", "resource_name", "key", "change", "before_value", "after_value"
    ).show(truncate=False)
    return 0


async def create_topic(bootstrap: str, name: str) -> None:
    async with AdminClient(bootstrap) as admin:
        await admin.create_topics([NewTopic(name, num_partitions=1)]).all()


async def set_retention(bootstrap: str, name: str, value: str) -> None:
    op = AlterConfigOp(name="retention.ms", value=value, op=OpType.SET)
    async with AdminClient(bootstrap) as admin:
        await admin.incremental_alter_configs(
            {ConfigResource(ResourceType.TOPIC, name): [op]}
        ).all()


if __name__ == "__main__":
    raise SystemExit(main())
