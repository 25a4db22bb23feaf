"""A job for ``spark-submit`` on a standalone cluster: snapshot some topics, apply ops.

Run by tests/spark/test_standalone.py as
``spark-submit --master spark://... standalone_job.py BOOTSTRAP TOPIC...``; prints one JSON
line with what it saw, for the test to check.
"""

from __future__ import annotations

import json
import sys

from pyspark.sql import SparkSession

from kafka_config_admin.connect import Connection
from kafka_config_admin.spark import OPS_SCHEMA, apply_ops, register


def main(bootstrap: str, topics: list[str]) -> None:
    spark = SparkSession.builder.appName("kafka-config-admin-standalone").getOrCreate()
    register(spark)
    frame = (
        spark.read.format("kafka-configs")
        .option("bootstrap.servers", bootstrap)
        .option("cluster", "main")
        .option("topics", ",".join(topics))
        .option("topicsPerPartition", "1")
        .option("synonyms", "true")
        .option("documentation", "true")
        .load()
    )
    rows = frame.select("resource_name", "name", "value", "error").collect()
    ops = spark.createDataFrame(
        [("main", "topic", name, "retention.ms", "SET", "7200000") for name in topics], OPS_SCHEMA
    )
    outcomes = apply_ops(ops, Connection(name="main", bootstrap_servers=bootstrap))
    executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1
    print(
        "RESULT "
        + json.dumps(
            {
                "partitions": frame.rdd.getNumPartitions(),
                "executors": executors,
                "rows": [row.asDict() for row in rows],
                "outcomes": [
                    (row.resource_name, row.status, row.error) for row in outcomes.collect()
                ],
            }
        )
    )
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
