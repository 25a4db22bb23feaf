"""A job for ``spark-submit`` on a standalone cluster: the ``kafka-config-changes`` stream.

Run by tests/spark/test_standalone.py as
``spark-submit --master spark://... standalone_feed_job.py BOOTSTRAP TOPIC STATE_DIR``: it
starts the stream on the topic, waits for the baseline poll, sets the topic's
``retention.ms`` through the SDK, waits for the stream's row of it, and prints one JSON line
with the rows it saw and the executors that ran them, for the test to check.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from pyspark.sql import SparkSession

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin.spark import register

#: How long the job waits for the baseline poll, then for the change's row.
TIMEOUT = 300


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.5)


async def set_retention(bootstrap: str, topic: str) -> None:
    op = AlterConfigOp(name="retention.ms", value="7200000", op=OpType.SET)
    async with AdminClient(bootstrap) as admin:
        await admin.incremental_alter_configs(
            {ConfigResource(ResourceType.TOPIC, topic): [op]}
        ).all()


def main(bootstrap: str, topic: str, state: str) -> None:
    spark = SparkSession.builder.appName("kafka-config-admin-standalone-feed").getOrCreate()
    register(spark)
    query = (
        spark.readStream.format("kafka-config-changes")
        .option("bootstrap.servers", bootstrap)
        .option("cluster", "main")
        .option("topics", topic)
        .option("interval", "1")
        .option("stateLocation", state)
        .load()
        .writeStream.format("memory")
        .queryName("changes")
        .start()
    )
    try:
        wait_until(lambda: any(Path(state).glob("*/*.json")), "the baseline poll")
        asyncio.run(set_retention(bootstrap, topic))
        wait_until(
            lambda: spark.table("changes").where("key = 'retention.ms'").count() > 0,
            "the change's row",
        )
        rows = [row.asDict() for row in spark.table("changes").collect()]
    finally:
        query.stop()
    executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1
    print("RESULT " + json.dumps({"executors": executors, "rows": rows}, default=str))
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
