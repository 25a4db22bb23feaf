"""``python -m benchmarks spark`` (``nox -s bench -- spark``): snapshot throughput on Spark.

Three parts (``--parts``, all by default), each on real brokers, topics described with synonyms
and documentation:

- ``one-broker``: one broker with N topics (``--topics``, 2000): the plain SDK in one process
  (one ``describe_configs`` of every topic), and the ``kafka-configs`` source on ``local[2]``
  with the topics in 1 and in 2 partitions (the full rows materialized by Spark's ``noop``
  sink, planning and topic listing included); and the memory of one partition
  (``benchmarks.spark_partition`` in a process of its own);
- ``fleet-local`` and ``fleet-standalone``: 3 single-broker clusters of the same N topics
  (``--fleet``, 2000): the plain SDK describing every cluster at once in one process, and the
  source reading a clusters file with each cluster's topics in 1 and in 3 partitions, on
  ``local[2]`` and on a standalone cluster of two one-core workers (the one the standalone
  tests start). The clusters are started and filled once for both.

Wall times are medians of ``--reps`` runs after one warm-up run; beside each, the CPU seconds a
run took in the brokers and in everything else this benchmark started (Spark's JVMs and Python
workers, the SDK in this process), from ``/proc``: on this machine the brokers share its cores,
and the split says what a partition costs besides the brokers' own work.

Results: ``benchmarks/results/spark.json`` and ``spark.md``, written after every measurement, so
a run that fails midway keeps what it measured; each part keeps its own command, commit and
load. A run that fails is recorded as failed and the next one goes on. ``--append`` keeps the
parts of the committed run that this one does not make (e.g. ``--parts fleet-standalone
--append`` after a run whose standalone part failed).
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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kafka_config_admin import AdminClient, ConfigResource, ResourceType
from kafka_config_admin.testing import KAFKA_VERSION, start_cluster
from tests.spark.standalone import standalone_cluster

from . import cpu_between, dataset, machine, run_json_module, tree_cpu_seconds

HERE = Path(__file__).parent

PARTS = ("one-broker", "fleet-local", "fleet-standalone")
FLEET_CLUSTERS = 3
LOCAL = "local[2]"
STANDALONE = "standalone (2 workers of 1 core)"
TOPIC_PATTERN = "bench-.*"

#: A run: given nothing, it prepares (a data frame, its row count) and returns what is timed,
#: which returns the config rows it read.
Run = Callable[[], Callable[[], int]]


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


def sdk_run(bootstraps: list[str], names: list[str]) -> Run:
    return lambda: lambda: sdk_snapshot(bootstraps, names)


def timed(run: Callable[[], int], reps: int) -> dict[str, Any]:
    """Median wall time of ``reps`` runs after a warm-up (Python workers, the brokers' JIT,
    caches), with the median CPU seconds of the runs' process trees: brokers and the rest."""
    run()
    walls, cpus, rows = [], [], 0
    for _ in range(reps):
        before = tree_cpu_seconds()
        start = time.perf_counter()
        rows = run()
        walls.append(time.perf_counter() - start)
        cpus.append(cpu_between(before, tree_cpu_seconds()))
    wall = statistics.median(walls)
    return {
        "rows": rows,
        "wall_s": wall,
        "walls_s": walls,
        "rows_per_s": rows / wall,
        "cpu_s": {part: statistics.median(cpu[part] for cpu in cpus) for part in cpus[0]},
    }


def session(master: str = LOCAL) -> Any:
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


def spark_run(spark: Any, options: dict[str, str]) -> Run:
    """The snapshot the options describe (with synonyms and documentation), materialized by
    the ``noop`` sink: planning, topic listing and every row included."""

    def prepare() -> Callable[[], int]:
        frame = (
            spark.read.format("kafka-configs")
            .options(**options)
            .option("topicPattern", TOPIC_PATTERN)
            .option("synonyms", "true")
            .option("documentation", "true")
            .option("timeout", "120")
            .load()
        )
        rows = int(frame.count())

        def materialize() -> int:
            frame.write.format("noop").mode("overwrite").save()
            return rows

        return materialize

    return prepare


def partitions_name(where: str, partitions: int, per: str = "") -> str:
    return f"spark {where}, {partitions} partition{'s' if partitions > 1 else ''}{per}"


def partition_memory(bootstrap: str, topics_file: Path, count: int) -> dict[str, Any]:
    return run_json_module("benchmarks.spark_partition", bootstrap, str(topics_file), str(count))


def failure(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"[:300]


class Recorder:
    """The results so far, written to ``out`` after every measurement."""

    def __init__(self, out: Path, command: str, reps: int, append: bool) -> None:
        self.out = out
        self.command = command
        self.reps = reps
        previous = out / "spark.json"
        self.results: dict[str, Any] = {"kafka": KAFKA_VERSION, "parts": {}}
        if append and previous.exists():
            kept = json.loads(previous.read_text())
            if "parts" not in kept:
                raise SystemExit(f"{previous} is from an older version of this benchmark")
            self.results["parts"] = kept["parts"]

    @contextlib.contextmanager
    def part(self, name: str, title: str, topics: int) -> Iterator[dict[str, Any]]:
        """A part of the run: what it measures is kept when it fails; the run goes on."""
        print(f"{title} ...", flush=True)
        record: dict[str, Any] = {
            "title": title,
            "command": self.command,
            "machine": machine(),
            "topics": topics,
            "reps": self.reps,
            "runs": {},
        }
        self.results["parts"][name] = record
        try:
            yield record
        except Exception as error:  # recorded, and the next part runs
            record["failed"] = failure(error)
            print(f"{title}: FAILED: {record['failed']}", flush=True)
        finally:
            record["load_after"] = machine()["load"]
            self.save()

    def measure(self, part: dict[str, Any], name: str, run: Run) -> None:
        print(f"  {name} ...", flush=True)
        try:
            part["runs"][name] = timed(run(), self.reps)
        except Exception as error:  # a Spark or broker failure: recorded, the next run goes on
            part["runs"][name] = {"failed": failure(error)}
            print(f"  {name}: FAILED: {part['runs'][name]['failed']}", flush=True)
        self.save()

    def save(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "spark.json").write_text(json.dumps(self.results, indent=2) + "\n")
        (self.out / "spark.md").write_text(markdown(self.results))


def run_table(runs: dict[str, Any]) -> list[str]:
    """A row per run; the ratio is to the table's first run (the plain SDK)."""
    first: dict[str, Any] = next(iter(runs.values()), {})
    base = first.get("wall_s")
    lines = [
        "| Run | Config rows | Wall (s) | Rows/s | x plain SDK | Brokers' CPU (s) | "
        "Spark's and the client's CPU (s) | Cores busy |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, run in runs.items():
        if "failed" in run:
            lines.append(f"| {name} | failed: {run['failed']} | | | | | | |")
            continue
        cpu = run["cpu_s"]
        ratio = f"{run['wall_s'] / base:.2f}" if base else "-"
        lines.append(
            f"| {name} | {run['rows']} | {run['wall_s']:.2f} | {run['rows_per_s']:,.0f} | "
            f"{ratio} | {cpu['brokers']:.1f} | {cpu['rest']:.1f} | "
            f"{(cpu['brokers'] + cpu['rest']) / run['wall_s']:.2f} |"
        )
    return lines


def part_markdown(record: dict[str, Any]) -> list[str]:
    where = record["machine"]
    load_after = record.get("load_after")
    lines = [
        f"### {record['title']}",
        "",
        f"`{record['command'].strip()}` at commit `{where['commit']}`, median of "
        f"{record['reps']} runs after a warm-up; load average {'/'.join(map(str, where['load']))} "
        "at the start" + (f", {'/'.join(map(str, load_after))} at the end." if load_after else "."),
        "",
        *run_table(record["runs"]),
    ]
    if "failed" in record:
        lines += ["", f"The part failed: {record['failed']}"]
    if record.get("memory"):
        lines += [
            "",
            "Memory of one partition (the executor's read() path in a process of its own):",
            "",
            "| Topics in the partition | Rows | Arrow batches (MiB) | RSS before (MiB) | "
            "Peak RSS during the read (MiB) |",
            "|---:|---:|---:|---:|---:|",
        ]
        for memory in record["memory"]:
            lines.append(
                f"| {memory['topics']} | {memory['rows']} | {memory['arrow_mib']:.1f} | "
                f"{memory['baseline_rss_mib']:.0f} | {memory['peak_rss_mib']:.0f} |"
            )
    return lines


def markdown(results: dict[str, Any]) -> str:
    first: dict[str, Any] = next(iter(results["parts"].values()), {})
    cores = first.get("machine", {}).get("cores", "?")
    lines = [
        "# Spark snapshot benchmark",
        "",
        f"Kafka {results['kafka']}, topics described with synonyms and documentation, on "
        f"{cores} cores shared with other work (the brokers too). CPU: seconds a run took in "
        "the brokers and in everything else the benchmark started (Spark's JVMs and Python "
        "workers, the SDK's process; at least: a worker that ends during a run takes its time "
        "with it), medians; cores busy: both over the wall time.",
    ]
    for name in PARTS:
        if name in results["parts"]:
            lines += ["", *part_markdown(results["parts"][name])]
    return "\n".join(lines) + "\n"


def one_broker(recorder: Recorder, spark: Callable[[], Any], topics: int, tmp: Path) -> None:
    """The SDK and the source on one broker, and the memory of one partition."""
    with (
        recorder.part("one-broker", f"One broker, {topics} topics", topics) as part,
        start_cluster(brokers=1) as cluster,
    ):
        bootstrap = cluster.bootstrap_servers
        print(f"creating {topics} topics on {bootstrap} ...", flush=True)
        names = asyncio.run(dataset.create(bootstrap, topics))
        topics_file = tmp / "topics.json"
        topics_file.write_text(json.dumps(names))
        recorder.measure(part, "plain SDK, one process", sdk_run([bootstrap], names))
        for partitions in (1, 2):
            options = {
                "bootstrap.servers": bootstrap,
                "topicsPerPartition": str(-(-topics // partitions)),
            }
            recorder.measure(part, partitions_name(LOCAL, partitions), spark_run(spark(), options))
        print("  memory per partition ...", flush=True)
        part["memory"] = [
            partition_memory(bootstrap, topics_file, count)
            for count in sorted({topics // 2, topics})
        ]


def fleet_on(
    recorder: Recorder,
    spark: Any,
    where: str,
    part: dict[str, Any],
    clusters_file: Path,
    topics: int,
) -> None:
    """The fleet's snapshot on ``spark`` with each cluster's topics in 1 and in 3 partitions."""
    for partitions in (1, 3):
        options = {
            "clusters.file": str(clusters_file),
            "topicsPerPartition": str(-(-topics // partitions)),
        }
        name = partitions_name(
            where, partitions, f" a cluster ({partitions * FLEET_CLUSTERS} tasks)"
        )
        recorder.measure(part, name, spark_run(spark, options))


@contextlib.contextmanager
def fleet_clusters(topics: int, tmp: Path) -> Iterator[tuple[list[str], Path]]:
    """The fleet's clusters, filled: their bootstrap servers and a clusters file naming them."""
    with contextlib.ExitStack() as stack:
        bootstraps = []
        for index in range(FLEET_CLUSTERS):
            cluster = stack.enter_context(start_cluster(brokers=1))
            print(f"fleet cluster {index + 1}: creating {topics} topics ...", flush=True)
            asyncio.run(dataset.create(cluster.bootstrap_servers, topics))
            bootstraps.append(cluster.bootstrap_servers)
        clusters_file = tmp / "clusters.yaml"
        clusters_file.write_text(
            "clusters:\n"
            + "".join(
                f"  c{index}:\n    bootstrap_servers: {bootstrap}\n"
                for index, bootstrap in enumerate(bootstraps)
            )
        )
        yield bootstraps, clusters_file


def fleet(
    recorder: Recorder,
    local: Callable[[], Any],
    stop_local: Callable[[], None],
    parts: list[str],
    topics: int,
    tmp: Path,
) -> None:
    """The fleet parts on one set of clusters: each measures the plain SDK beside the source."""
    title = f"A fleet on {{}}: {FLEET_CLUSTERS} single-broker clusters of {topics} topics each"
    sdk_name = f"plain SDK, one process, {FLEET_CLUSTERS} clusters at once"
    names = dataset.topic_names(topics)
    with fleet_clusters(topics, tmp) as (bootstraps, clusters_file):
        if "fleet-local" in parts:
            with recorder.part("fleet-local", title.format(LOCAL), topics) as part:
                recorder.measure(part, sdk_name, sdk_run(bootstraps, names))
                fleet_on(recorder, local(), LOCAL, part, clusters_file, topics)
        if "fleet-standalone" in parts:
            stop_local()  # one SparkContext a process
            with recorder.part("fleet-standalone", title.format(STANDALONE), topics) as part:
                recorder.measure(part, sdk_name, sdk_run(bootstraps, names))
                (tmp / "standalone").mkdir()
                with standalone_cluster(tmp / "standalone") as master:
                    standalone = session(master)
                    try:
                        fleet_on(recorder, standalone, STANDALONE, part, clusters_file, topics)
                    finally:
                        standalone.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks spark")
    parser.add_argument("--topics", type=int, default=2000, help="topics of the one broker")
    parser.add_argument("--fleet", type=int, default=2000, help="topics of a fleet cluster")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument(
        "--parts",
        default=",".join(PARTS),
        help=f"which parts to run, comma-separated (default: all of {', '.join(PARTS)})",
    )
    parser.add_argument(
        "--append",
        action="store_true",
        help="keep the parts of OUT/spark.json that this run does not make",
    )
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    parts = [part for part in args.parts.split(",") if part]
    if unknown := set(parts) - set(PARTS):
        parser.error(f"unknown parts {sorted(unknown)} (known: {', '.join(PARTS)})")
    recorder = Recorder(
        args.out, "python -m benchmarks spark " + " ".join(argv or []), args.reps, args.append
    )
    local: list[Any] = []  # the local[2] session, made when a part first needs it

    def local_session() -> Any:
        if not local:
            local.append(session())
        return local[0]

    def stop_local() -> None:
        if local:
            local.pop().stop()

    try:
        with tempfile.TemporaryDirectory() as tmp:
            if "one-broker" in parts:
                one_broker(recorder, local_session, args.topics, Path(tmp))
            if {"fleet-local", "fleet-standalone"} & set(parts):
                fleet(recorder, local_session, stop_local, parts, args.fleet, Path(tmp))
    finally:
        stop_local()
    print(markdown(recorder.results))


if __name__ == "__main__":
    main()
