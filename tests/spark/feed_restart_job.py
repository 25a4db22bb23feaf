"""The ``kafka-config-changes`` stream started again from its checkpoint, in a driver of its own.

Run by tests/spark/test_change_feed.py as
``python -m tests.spark.feed_restart_job BOOTSTRAP PATTERN STATE SINK CHECKPOINT``: what a
restarted job is, a new driver process. (Starting a Python source's query again in the same
driver failed there now and then: Spark's planner worker for the second query missed its
fixed 10 s to connect back.) It runs the query until the sink holds a ``changed`` row and
three more batches have run, then stops and prints ``RESULT`` and the batches it ran.
"""

from __future__ import annotations

import sys
import time

from pyspark.errors import AnalysisException
from pyspark.sql.streaming.query import StreamingQuery

from kafka_config_admin.spark import CHANGES_SCHEMA, register
from tests.spark.conftest import spark_builder

#: How long the job waits for the change's row, then for three more batches.
TIMEOUT = 300


def batch_id(query: StreamingQuery) -> int:
    """The id of the query's last micro-batch (-1 before the first)."""
    progress = query.lastProgress
    return -1 if progress is None else int(progress["batchId"])


def main(bootstrap: str, pattern: str, state: str, sink: str, checkpoint: str) -> None:
    spark = spark_builder("local[2]").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    register(spark)
    query = (
        spark.readStream.format("kafka-config-changes")
        .option("bootstrap.servers", bootstrap)
        .option("cluster", "main")
        .option("topicPattern", pattern)
        .option("interval", "1")
        .option("stateLocation", state)
        .load()
        .writeStream.format("parquet")
        .option("path", sink)
        .option("checkpointLocation", checkpoint)
        .trigger(processingTime="500 milliseconds")
        .start()
    )

    def changed() -> bool:
        try:
            rows = spark.read.schema(CHANGES_SCHEMA).parquet(sink)
            return rows.where("change = 'changed'").count() > 0
        except AnalysisException:
            return False

    try:
        deadline = time.monotonic() + TIMEOUT
        while not changed():
            if query.exception() is not None or time.monotonic() > deadline:
                raise SystemExit(f"no change seen: {query.exception()}")
            time.sleep(1)
        first = batch_id(query)
        while batch_id(query) < first + 3:
            if query.exception() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the query stopped polling: {query.exception()}")
            time.sleep(0.5)
        print(f"RESULT batches {first}..{batch_id(query)}", flush=True)
    finally:
        query.stop()
        spark.stop()


if __name__ == "__main__":
    main(*sys.argv[1:6])
