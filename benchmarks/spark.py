"""``python -m benchmarks spark`` (``nox -s bench -- spark``): snapshot throughput on Spark.

On one real broker with N topics (2000), described with synonyms and documentation:

- the plain SDK in one process (one ``describe_configs`` of every topic);
- the ``kafka-configs`` source on ``local[2]``, the topics in 1 and in 2 partitions (the full
  rows materialized by Spark's ``noop`` sink, planning and topic listing included);
- the memory of one partition (``benchmarks.spark_partition`` in a process of its own).

Config rows per second and wall times are medians of ``--reps`` runs after one warm-up run.
Results: ``benchmarks/results/spark.json`` and ``spark.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kafka_config_admin import AdminClient, ConfigResource, ResourceType
from kafka_config_admin.testing import KAFKA_VERSION, start_cluster

from . import dataset, run_json_module

HERE = Path(__file__).parent


def sdk_snapshot(bootstrap: str, names: list[str]) -> int:
    """Describe every topic with synonyms and documentation; the number of config rows."""

    async def run() -> int:
        async with AdminClient(bootstrap, timeout=120) as admin:
            resources = [ConfigResource(ResourceType.TOPIC, name) for name in names]
            configs = await admin.describe_configs(
                resources, include_synonyms=True, include_documentation=True
            ).all()
            return sum(len(config) for config in configs.values())

    return asyncio.run(run())


def timed(run: Callable[[], int], reps: int) -> dict[str, Any]:
    run()  # warm-up: Python workers, JIT of the broker, caches
    walls, rows = [], 0
    for _ in range(reps):
        start = time.perf_counter()
        rows = run()
        walls.append(time.perf_counter() - start)
    wall = statistics.median(walls)
    return {"rows": rows, "wall_s": wall, "walls_s": walls, "rows_per_s": rows / wall}


def spark_runs(bootstrap: str, topics: int, reps: int) -> dict[str, dict[str, Any]]:
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    from kafka_config_admin.spark import register

    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    register(spark)
    results = {}
    try:
        for partitions in (1, 2):
            frame = (
                spark.read.format("kafka-configs")
                .option("bootstrap.servers", bootstrap)
                .option("topicPattern", "bench-.*")
                .option("synonyms", "true")
                .option("documentation", "true")
                .option("timeout", "120")
                .option("topicsPerPartition", str(-(-topics // partitions)))
                .load()
            )

            rows = int(frame.count())

            def materialize(frame: Any = frame, rows: int = rows) -> int:
                frame.write.format("noop").mode("overwrite").save()
                return rows

            results[f"spark local[2], {partitions} partition{'s' if partitions > 1 else ''}"] = (
                timed(materialize, reps)
            )
    finally:
        spark.stop()
    return results


def partition_memory(bootstrap: str, topics_file: Path, count: int) -> dict[str, Any]:
    return run_json_module("benchmarks.spark_partition", bootstrap, str(topics_file), str(count))


def write(results: dict[str, Any], out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    (out / "spark.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = [
        "# Spark snapshot benchmark",
        "",
        f"Kafka {results['kafka']}, one broker, {results['topics']} topics described with "
        f"synonyms and documentation; median of {results['reps']} runs after a warm-up.",
        "",
        "| Run | Config rows | Wall (s) | Rows/s |",
        "|---|---:|---:|---:|",
    ]
    for name, run in results["runs"].items():
        lines.append(f"| {name} | {run['rows']} | {run['wall_s']:.2f} | {run['rows_per_s']:,.0f} |")
    lines += [
        "",
        "Memory of one partition (the executor's read() path in a process of its own):",
        "",
        "| Topics in the partition | Rows | Arrow batches (MiB) | Peak RSS before (MiB) | "
        "Peak RSS after (MiB) |",
        "|---:|---:|---:|---:|---:|",
    ]
    for memory in results["memory"]:
        lines.append(
            f"| {memory['topics']} | {memory['rows']} | {memory['arrow_mib']:.1f} | "
            f"{memory['baseline_rss_mib']:.0f} | {memory['peak_rss_mib']:.0f} |"
        )
    text = "\n".join(lines) + "\n"
    (out / "spark.md").write_text(text)
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks spark")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    with start_cluster(brokers=1) as cluster, tempfile.TemporaryDirectory() as tmp:
        bootstrap = cluster.bootstrap_servers
        print(f"creating {args.topics} topics on {bootstrap} ...", flush=True)
        names = asyncio.run(dataset.create(bootstrap, args.topics))
        topics_file = Path(tmp) / "topics.json"
        topics_file.write_text(json.dumps(names))
        print("plain SDK ...", flush=True)
        runs = {"plain SDK, one process": timed(lambda: sdk_snapshot(bootstrap, names), args.reps)}
        print("spark ...", flush=True)
        runs.update(spark_runs(bootstrap, args.topics, args.reps))
        print("memory per partition ...", flush=True)
        memory = [
            partition_memory(bootstrap, topics_file, count)
            for count in sorted({args.topics // 2, args.topics})
        ]
    results = {
        "kafka": KAFKA_VERSION,
        "topics": args.topics,
        "reps": args.reps,
        "runs": runs,
        "memory": memory,
    }
    print(write(results, args.out))


if __name__ == "__main__":
    main()
