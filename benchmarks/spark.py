"""``python -m benchmarks spark`` (``nox -s bench -- spark``): snapshot throughput on Spark.

On one real broker with N topics (2000), described with synonyms and documentation:

- the plain SDK in one process (one ``describe_configs`` of every topic);
- the ``kafka-configs`` source on ``local[2]``, the topics in 1 and in 2 partitions (the full
  rows materialized by Spark's ``noop`` sink, planning and topic listing included);
- the memory of one partition (``benchmarks.spark_partition`` in a process of its own);
- a fleet (``--fleet N``, 3 single-broker clusters of the same N topics; 0 leaves it out): the
  plain SDK describing every cluster at once in one process, and the source reading a clusters
  file with each cluster's topics in 1 and in 3 partitions, on ``local[2]`` and on a standalone
  cluster of two one-core workers (the one the standalone tests start).

Config rows per second and wall times are medians of ``--reps`` runs after one warm-up run.
Results: ``benchmarks/results/spark.json`` and ``spark.md``, with the command, commit and load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from tests.spark.standalone import standalone_cluster

from . import dataset, machine, run_json_module

HERE = Path(__file__).parent


FLEET_CLUSTERS = 3
STANDALONE = "standalone (2 workers of 1 core)"


def sdk_snapshot(bootstraps: list[str], names: list[str]) -> int:
    """Describe every topic of every cluster (at once) with synonyms and documentation; the
    number of config rows."""

    async def one(bootstrap: str) -> int:
        async with AdminClient(bootstrap, timeout=120) as admin:
            resources = [ConfigResource(ResourceType.TOPIC, name) for name in names]
            configs = await admin.describe_configs(
                resources, include_synonyms=True, include_documentation=True
            ).all()
            return sum(len(config) for config in configs.values())

    async def run() -> int:
        return sum(await asyncio.gather(*(one(bootstrap) for bootstrap in bootstraps)))

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


def session(master: str = "local[2]") -> Any:
    """A session on ``master`` with the source registered (executors import this checkout)."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYTHONPATH"] = str(HERE.parent)
    from pyspark.sql import SparkSession

    from kafka_config_admin.spark import register

    spark = (
        SparkSession.builder.master(master)
        .config("spark.executor.memory", "512m")
        .config("spark.python.authenticate.socketTimeout", "120s")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    register(spark)
    return spark


def spark_run(spark: Any, options: dict[str, str], reps: int) -> dict[str, Any]:
    """The snapshot the options describe (with synonyms and documentation), materialized by
    the ``noop`` sink: planning, topic listing and every row included."""
    frame = (
        spark.read.format("kafka-configs")
        .options(**options)
        .option("topicPattern", "bench-.*")
        .option("synonyms", "true")
        .option("documentation", "true")
        .option("timeout", "120")
        .load()
    )
    rows = int(frame.count())

    def materialize() -> int:
        frame.write.format("noop").mode("overwrite").save()
        return rows

    return timed(materialize, reps)


def spark_runs(spark: Any, bootstrap: str, topics: int, reps: int) -> dict[str, dict[str, Any]]:
    results = {}
    for partitions in (1, 2):
        options = {
            "bootstrap.servers": bootstrap,
            "topicsPerPartition": str(-(-topics // partitions)),
        }
        name = f"spark local[2], {partitions} partition{'s' if partitions > 1 else ''}"
        results[name] = spark_run(spark, options, reps)
    return results


def fleet_runs(
    spark: Any, clusters_file: Path, topics: int, reps: int, where: str
) -> dict[str, Any]:
    """The fleet's snapshot with each cluster's topics in 1 and in 3 partitions."""
    results = {}
    for partitions in (1, 3):
        options = {
            "clusters.file": str(clusters_file),
            "topicsPerPartition": str(-(-topics // partitions)),
        }
        name = (
            f"spark {where}, {partitions} partition{'s' if partitions > 1 else ''} a cluster "
            f"({partitions * FLEET_CLUSTERS} tasks)"
        )
        results[name] = spark_run(spark, options, reps)
    return results


def fleet(spark: Any, topics: int, reps: int, directory: Path) -> dict[str, Any]:
    """Start the fleet's clusters, fill them, and measure the SDK and the source on them."""
    with contextlib.ExitStack() as stack:
        bootstraps = []
        for index in range(FLEET_CLUSTERS):
            cluster = stack.enter_context(start_cluster(brokers=1))
            print(f"fleet cluster {index + 1}: creating {topics} topics ...", flush=True)
            asyncio.run(dataset.create(cluster.bootstrap_servers, topics))
            bootstraps.append(cluster.bootstrap_servers)
        names = dataset.topic_names(topics)
        clusters_file = directory / "clusters.yaml"
        clusters_file.write_text(
            "clusters:\n"
            + "".join(
                f"  c{index}:\n    bootstrap_servers: {bootstrap}\n"
                for index, bootstrap in enumerate(bootstraps)
            )
        )
        print("fleet: plain SDK ...", flush=True)
        runs = {
            f"plain SDK, one process, {FLEET_CLUSTERS} clusters at once": timed(
                lambda: sdk_snapshot(bootstraps, names), reps
            )
        }
        print("fleet: spark local[2] ...", flush=True)
        runs.update(fleet_runs(spark, clusters_file, topics, reps, "local[2]"))
        spark.stop()
        print("fleet: spark standalone ...", flush=True)
        (directory / "standalone").mkdir()
        with standalone_cluster(directory / "standalone") as master:
            standalone = session(master)
            try:
                runs.update(fleet_runs(standalone, clusters_file, topics, reps, STANDALONE))
            finally:
                standalone.stop()
    return runs


def partition_memory(bootstrap: str, topics_file: Path, count: int) -> dict[str, Any]:
    return run_json_module("benchmarks.spark_partition", bootstrap, str(topics_file), str(count))


def run_table(runs: dict[str, Any]) -> list[str]:
    """A row per run; the ratio is to the table's first run (the plain SDK)."""
    base = next(iter(runs.values()))["wall_s"]
    lines = [
        "| Run | Config rows | Wall (s) | Rows/s | x plain SDK |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, run in runs.items():
        lines.append(
            f"| {name} | {run['rows']} | {run['wall_s']:.2f} | {run['rows_per_s']:,.0f} | "
            f"{run['wall_s'] / base:.2f} |"
        )
    return lines


def write(results: dict[str, Any], out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    (out / "spark.json").write_text(json.dumps(results, indent=2) + "\n")
    where = results["machine"]
    lines = [
        "# Spark snapshot benchmark",
        "",
        f"`{results['command'].strip()}` at commit `{where['commit']}`: Kafka "
        f"{results['kafka']}, topics described with synonyms and documentation; median of "
        f"{results['reps']} runs after a warm-up. {where['cores']} cores shared with other "
        f"work: load average {'/'.join(map(str, where['load']))} at the start, "
        f"{'/'.join(map(str, results['load_after']))} at the end.",
        "",
        f"One broker, {results['topics']} topics:",
        "",
        *run_table(results["runs"]),
        "",
        "Memory of one partition (the executor's read() path in a process of its own):",
        "",
        "| Topics in the partition | Rows | Arrow batches (MiB) | RSS before (MiB) | "
        "Peak RSS during the read (MiB) |",
        "|---:|---:|---:|---:|---:|",
    ]
    for memory in results["memory"]:
        lines.append(
            f"| {memory['topics']} | {memory['rows']} | {memory['arrow_mib']:.1f} | "
            f"{memory['baseline_rss_mib']:.0f} | {memory['peak_rss_mib']:.0f} |"
        )
    if results["fleet"]:
        lines += [
            "",
            f"A fleet: {FLEET_CLUSTERS} single-broker clusters of {results['fleet_topics']} "
            "topics each, on the same machine:",
            "",
            *run_table(results["fleet"]),
        ]
    text = "\n".join(lines) + "\n"
    (out / "spark.md").write_text(text)
    return text


def one_broker(
    spark: Any, topics: int, reps: int, directory: Path
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The SDK and the source on one broker, and the memory of one partition."""
    with start_cluster(brokers=1) as cluster:
        bootstrap = cluster.bootstrap_servers
        print(f"creating {topics} topics on {bootstrap} ...", flush=True)
        names = asyncio.run(dataset.create(bootstrap, topics))
        topics_file = directory / "topics.json"
        topics_file.write_text(json.dumps(names))
        print("plain SDK ...", flush=True)
        runs = {"plain SDK, one process": timed(lambda: sdk_snapshot([bootstrap], names), reps)}
        print("spark ...", flush=True)
        runs.update(spark_runs(spark, bootstrap, topics, reps))
        print("memory per partition ...", flush=True)
        memory = [
            partition_memory(bootstrap, topics_file, count)
            for count in sorted({topics // 2, topics})
        ]
    return runs, memory


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks spark")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument(
        "--fleet", type=int, default=2000, help="topics a fleet cluster has (0: no fleet)"
    )
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    started = machine()
    spark = session()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            runs, memory = one_broker(spark, args.topics, args.reps, Path(tmp))
            fleet_results = fleet(spark, args.fleet, args.reps, Path(tmp)) if args.fleet else {}
    finally:
        spark.stop()
    results = {
        "kafka": KAFKA_VERSION,
        "command": "python -m benchmarks spark " + " ".join(argv or []),
        "machine": started,
        "load_after": machine()["load"],
        "topics": args.topics,
        "reps": args.reps,
        "runs": runs,
        "memory": memory,
        "fleet_topics": args.fleet,
        "fleet": fleet_results,
    }
    print(write(results, args.out))


if __name__ == "__main__":
    main()
