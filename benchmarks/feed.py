"""``python -m benchmarks feed`` (``nox -s bench -- feed``): the change feed's cost and latency.

Real clusters (``--clusters``, 2; of ``--brokers`` brokers each, 1) with N topics each
(``--topics``, 2000; every 10th with two overrides):

- poll cost: one poll of every cluster with nothing changed (list the topics, describe them,
  diff with the poll before), as ``watch`` runs it, beside a plain ``describe_configs`` of the
  same topics (what any snapshot costs) and a full one (synonyms and documentation): the
  median of ``--reps`` polls after a warm-up, and the size of one cluster's state as the
  stream keeps it; with ``--max-per-poll N``, also the poll that describes at most N topics
  of each cluster, in turn (``watch --max-per-poll``, the stream's ``maxPerPoll``);
- the same poll as a micro-batch of the ``kafka-config-changes`` stream on ``local[2]``
  (Spark's own ``triggerExecution`` time of the batches that found no change);
- detection latency at a 1-second interval: from a change made by the SDK (one topic's
  ``retention.ms``, on the first cluster) to its row, in ``watch``'s loop and in the stream,
  ``--changes`` times each.

Results: ``benchmarks/results/feed.json`` and ``feed.md``, with the machine's load.

20,000 topics need three brokers a cluster (a broker here holds about one open file per
topic, and a process may open 20,000): ``--topics 20000 --brokers 3 --clusters 1``.
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
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin.cli._commands import WATCH_INTERVAL
from kafka_config_admin.feed import (
    ObservedState,
    ReadRotation,
    diff_states,
    next_state,
    observe_once,
)
from kafka_config_admin.spark._feed import DEFAULT_INTERVAL as STREAM_INTERVAL
from kafka_config_admin.state import ResourceScope
from kafka_config_admin.testing import KAFKA_VERSION, start_cluster

from . import cpu_between, dataset, machine, tree_cpu_seconds

if TYPE_CHECKING:
    from pyspark.sql.streaming.query import StreamingQuery

HERE = Path(__file__).parent
#: Seconds between polls while latency is measured.
INTERVAL = 1.0
#: The topic whose retention the latency runs change, and the values they alternate.
CHANGED_TOPIC = "bench-00001"
RETENTIONS = ("7200000", "10800000")
#: Spark gives the Python process that plans a streaming source a fixed 10 s to start and
#: connect back (PythonWorkerFactory.createSimpleWorker); on a loaded machine it may not, and
#: the query fails at once with this message. The benchmark starts it again, this many times,
#: a little later each time.
CONNECT_BACK = "Python worker failed to connect back"
STARTS = 10


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def poll_both(
    bootstraps: dict[str, str],
    states: dict[str, ObservedState | None],
    rotations: dict[str, ReadRotation] | None = None,
) -> tuple[int, int]:
    """One poll of every cluster at once, as ``watch`` makes it (with ``rotations``, as
    ``watch --max-per-poll`` does): the number of change rows, and the bytes it received."""
    clients = {name: AdminClient(bootstrap, timeout=120) for name, bootstrap in bootstraps.items()}

    async def run() -> list[ObservedState]:
        scope = ResourceScope()
        return list(
            await asyncio.gather(
                *(
                    observe_once(
                        admin,
                        scope,
                        name,
                        rotation=None if rotations is None else rotations[name],
                        before=states[name],
                    )
                    for name, admin in clients.items()
                )
            )
        )

    rows = 0
    for observed in asyncio.run(run()):
        if observed.error is not None:
            raise RuntimeError(f"{observed.cluster}: {observed.error}")
        after = next_state(states[observed.cluster], observed)
        rows += len(diff_states(states[observed.cluster], after))
        states[observed.cluster] = after
    return rows, sum(admin.traffic().bytes_received for admin in clients.values())


def describe_both(bootstraps: dict[str, str], names: list[str], *, full: bool = False) -> int:
    """A describe of every topic of every cluster at once (``full``: with synonyms and
    documentation, as W1); the bytes it received."""

    async def one(bootstrap: str) -> int:
        async with AdminClient(bootstrap, timeout=120) as admin:
            resources = [ConfigResource(ResourceType.TOPIC, name) for name in names]
            await admin.describe_configs(
                resources, include_synonyms=full, include_documentation=full
            ).all()
            return admin.traffic().bytes_received

    async def run() -> int:
        return sum(await asyncio.gather(*(one(b) for b in bootstraps.values())))

    return asyncio.run(run())


def measured(run: Callable[[], int], reps: int) -> dict[str, Any]:
    """Medians of ``reps`` runs after a warm-up (for the poll, the baseline): the wall time,
    the bytes received (what ``run`` returns) and the CPU seconds the brokers used."""
    run()
    walls, received, broker_cpu = [], [], []
    for _ in range(reps):
        before, start = tree_cpu_seconds(), time.perf_counter()
        received.append(run())
        walls.append(time.perf_counter() - start)
        broker_cpu.append(cpu_between(before, tree_cpu_seconds())["brokers"])
    return {
        "wall_s": statistics.median(walls),
        "walls_s": walls,
        "bytes": statistics.median(received),
        "broker_cpu_s": statistics.median(broker_cpu),
    }


def set_retention(bootstrap: str) -> float:
    """Change the topic's retention to the value it does not have; the wall-clock time (epoch
    seconds) the change returned.

    Its value is read first: a value set again is no change, and the loop waiting for its row
    would wait in vain (with an odd ``--changes``, the stream's first change set the value
    ``watch``'s last change had left, and the benchmark never ended).
    """
    resource = ConfigResource(ResourceType.TOPIC, CHANGED_TOPIC)

    async def run() -> None:
        async with AdminClient(bootstrap) as admin:
            config = await admin.describe_configs([resource]).all()
            entry = config[resource].get("retention.ms")
            value = (
                RETENTIONS[1]
                if entry is not None and entry.value == RETENTIONS[0]
                else RETENTIONS[0]
            )
            op = AlterConfigOp(name="retention.ms", value=value, op=OpType.SET)
            await admin.incremental_alter_configs({resource: [op]}).all()

    asyncio.run(run())
    return time.time()


def watch_latency(bootstraps: dict[str, str], bootstrap: str, changes: int) -> list[float]:
    """Seconds from each change to its row, in a loop that polls as ``watch`` does."""
    seen: list[float] = []
    stop = threading.Event()

    def loop() -> None:
        states: dict[str, ObservedState | None] = dict.fromkeys(bootstraps)
        while not stop.is_set():
            started = time.monotonic()
            if poll_both(bootstraps, states)[0]:
                seen.append(time.time())
            stop.wait(max(0.0, INTERVAL - (time.monotonic() - started)))

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    time.sleep(INTERVAL * 3)  # past the baseline
    latencies = []
    try:
        for _ in range(changes):
            count = len(seen)
            made = set_retention(bootstrap)
            deadline = time.monotonic() + 120
            while len(seen) == count and time.monotonic() < deadline:
                time.sleep(0.02)
            if len(seen) == count:
                raise RuntimeError("watch's loop did not see the change in 120 s")
            latencies.append(max(0.0, seen[-1] - made))
            time.sleep(INTERVAL * 1.5)
    finally:
        stop.set()
        thread.join()
    return latencies


def stream_runs(bootstraps: dict[str, str], changes: int, work: Path) -> dict[str, Any]:
    """The stream on local[2]: its batches' times with no change, and the latency of changes."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import DataFrame, SparkSession

    from kafka_config_admin.spark import register

    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        # As the Spark tests: Python workers get 120 s to authenticate on a loaded machine.
        .config("spark.python.authenticate.socketTimeout", "120s")
        # Spark matches a failed query's message with a regular expression that can overflow
        # its stream thread's default stack: the thread then dies, the query never says it
        # failed, and the benchmark waited for ever. With a larger stack the error shows.
        .config("spark.driver.extraJavaOptions", "-Xss16m")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    register(spark)
    clusters = work / "clusters.yaml"
    clusters.write_text(
        "clusters:\n"
        + "".join(f"  {name}:\n    bootstrap_servers: {b}\n" for name, b in bootstraps.items())
    )
    seen: list[tuple[float, int]] = []  # (when, rows) per batch with rows
    quiet_polls: list[tuple[int, float]] = []  # (bytes, seconds) per poll past the baseline
    quiet_batches: set[int] = set()  # the batches of those polls

    def record(batch: DataFrame, batch_id: int) -> None:
        counts = {row.change: row["count"] for row in batch.groupBy("change").count().collect()}
        rows = sum(count for change, count in counts.items() if change not in ("error", "poll"))
        if rows:
            seen.append((time.time(), rows))
        elif counts.get("poll") and batch_id > 0:
            # Every cluster's poll row: the bytes of them all, the time of the slowest (the
            # clusters are read at once, one task each).
            polls = batch.where("change = 'poll'").collect()
            received = sum(poll.poll_bytes_received for poll in polls)
            quiet_polls.append((received, max(poll.poll_seconds for poll in polls)))
            quiet_batches.add(batch_id)

    def start(attempt: int) -> StreamingQuery:
        return (
            spark.readStream.format("kafka-config-changes")
            .option("clusters.file", str(clusters))
            .option("timeout", "120")
            .option("interval", str(INTERVAL))
            .option("pollTimeout", "120")  # as the clients' timeout: a slow poll is measured
            .option("stateLocation", str(work / f"state-{attempt}"))
            .option("stats", "true")  # a poll row per cluster, with its cost, changes or not
            .load()
            .writeStream.foreachBatch(record)
            .start()
        )

    first = next(iter(bootstraps.values()))
    query = start(0)
    try:
        # The baseline: its first batch (processAllAvailable would wait for a quiet moment, which
        # a poll longer than the interval never leaves).
        for attempt in range(1, STARTS + 1):
            try:
                wait_for(query, lambda q: bool(q.recentProgress), "on its first batch", 600)
                break
            except QueryStoppedError as stopped:
                if CONNECT_BACK not in str(stopped) or attempt == STARTS:
                    raise
                print(f"{stopped}; starting the query again", flush=True)
                time.sleep(5 * attempt)
                query = start(attempt)
        time.sleep(INTERVAL * 5)  # a few batches with no change
        latencies = []
        for _ in range(changes):
            count = len(seen)
            made = set_retention(first)
            wait_for(query, lambda _: len(seen) > count, "seeing a change", 300)  # noqa: B023
            latencies.append(max(0.0, seen[-1][0] - made))
            time.sleep(INTERVAL * 1.5)
        quiet = [
            progress["durationMs"]["triggerExecution"] / 1000
            for progress in query.recentProgress
            if progress["batchId"] in quiet_batches  # its poll rows are its only rows
        ]
    finally:
        query.stop()
        spark.stop()
    return {
        "quiet_batch_s": quiet,
        "quiet_poll_bytes": [received for received, _ in quiet_polls],
        "quiet_poll_s": [seconds for _, seconds in quiet_polls],
        "latency_s": latencies,
    }


class QueryStoppedError(RuntimeError):
    """The stream stopped while the benchmark waited on it."""


def wait_for(
    query: StreamingQuery, done: Callable[[StreamingQuery], bool], what: str, seconds: float
) -> None:
    """Wait until ``done(query)``; fail at once if the query stops (it would never be done)."""
    deadline = time.monotonic() + seconds
    while not done(query):
        if not query.isActive:
            raise QueryStoppedError(f"the stream stopped while {what}: {query.exception()}")
        if time.monotonic() > deadline:
            batches = [
                (progress["batchId"], progress["numInputRows"], progress["durationMs"])
                for progress in query.recentProgress[-5:]
            ]
            raise RuntimeError(
                f"the stream took more than {seconds:g} s {what}; its status: {query.status}; "
                f"its last batches (id, rows, durations in ms): {batches}"
            )
        time.sleep(0.02)


def state_bytes(bootstrap: str) -> int:
    """The size of one cluster's state as the stream keeps it (JSON)."""
    observed = asyncio.run(
        observe_once(AdminClient(bootstrap, timeout=120), ResourceScope(), "bench")
    )
    return len(observed.to_json().encode())


def write(results: dict[str, Any], out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    (out / "feed.json").write_text(json.dumps(results, indent=2) + "\n")
    poll, plain, full = results["poll"], results["plain_describe"], results["full_describe"]
    stream = results["stream"]
    quiet = stream["quiet_batch_s"] if stream else []

    def row(what: str, run: dict[str, Any]) -> str:
        return (
            f"| {what} | {run['wall_s']:.2f} | {run['wall_s'] / plain['wall_s']:.2f} | "
            f"{run['bytes'] / 1e6:.2f} | {run['bytes'] / plain['bytes']:.2f} | "
            f"{run['broker_cpu_s']:.2f} | {run['broker_cpu_s'] / plain['broker_cpu_s']:.2f} |"
        )

    lines = [
        "# Change feed benchmark",
        "",
        f"Kafka {results['kafka']}, {clusters_text(results)} with {results['topics']} topics"
        f"{' each' if results.get('clusters', 2) > 1 else ''}; `{results['command']}` "
        "(what `nox -s bench -- feed` runs) at commit "
        f"{results.get('commit', 'unknown')}, machine load {results['load_before']} before and "
        f"{results['load_after']} after (1, 5, 15 min). Medians of {results['reps']} runs; "
        "bytes are what the clients received, broker CPU what the brokers' JVMs used "
        "(`/proc/<pid>/stat`).",
        "",
        "| One poll of every cluster, nothing changed | Wall (s) | vs a plain describe | "
        "Received (MB) | vs a plain describe | Broker CPU (s) | vs a plain describe |",
        "|---|---:|---:|---:|---:|---:|---:|",
        row("plain `describe_configs` of every topic (no listing, no diff)", plain),
        row("full describe: with synonyms and documentation (W1)", full),
        row("`watch`'s poll: list, describe, diff", poll),
        *(
            [row(f"`--max-per-poll {results['max_per_poll']}`'s poll", results["bounded_poll"])]
            if results.get("bounded_poll")
            else []
        ),
        f"| the stream's micro-batch on local[2] (median of {len(quiet)}) | "
        f"{statistics.median(quiet):.2f} | {statistics.median(quiet) / plain['wall_s']:.2f} "
        "| | | | |"
        if quiet
        else "| the stream's micro-batch on local[2] | "
        f"{'no batch without a change' if stream else 'not run (--no-stream)'} | | | | | |",
        *([stream_poll_row(stream, plain)] if stream and stream.get("quiet_poll_bytes") else []),
        "",
        per_minute(results),
        "",
        f"One cluster's state as the stream keeps it: {results['state_bytes'] / 2**20:.1f} MiB "
        "of JSON per poll.",
        "",
        f"Detection latency at a {INTERVAL:g}-second interval (a change made by the SDK to its "
        f"row), {len(results['watch_latency_s'])} changes:",
        "",
        "| Where | Median (s) | Max (s) |",
        "|---|---:|---:|",
    ]
    runs = [("`watch`'s loop", results["watch_latency_s"])]
    if stream:
        runs.append(("the stream, local[2]", stream["latency_s"]))
    for name, latencies in runs:
        lines.append(f"| {name} | {statistics.median(latencies):.2f} | {max(latencies):.2f} |")
    text = "\n".join(lines) + "\n"
    (out / "feed.md").write_text(text)
    return text


def stream_poll_row(stream: dict[str, Any], plain: dict[str, Any]) -> str:
    """The stream's polls that found no change, as its ``stats`` rows say: the executors' time
    and the bytes received (the brokers' CPU is not in a row)."""
    received = statistics.median(stream["quiet_poll_bytes"])
    seconds = statistics.median(stream["quiet_poll_s"])
    return (
        f"| the stream's poll, from its `stats` rows (median of "
        f"{len(stream['quiet_poll_bytes'])}) | {seconds:.2f} | {seconds / plain['wall_s']:.2f} | "
        f"{received / 1e6:.2f} | {received / plain['bytes']:.2f} | | |"
    )


def clusters_text(results: dict[str, Any]) -> str:
    """``two one-broker clusters``, ``one cluster of 3 brokers``: what the run polled."""
    clusters, brokers = results.get("clusters", 2), results.get("brokers", 1)
    count = {1: "one", 2: "two"}.get(clusters, str(clusters))
    plural = "s" if clusters > 1 else ""
    if brokers == 1:
        return f"{count} one-broker cluster{plural}"
    return f"{count} cluster{plural} of {brokers} brokers"


def per_minute(results: dict[str, Any]) -> str:
    """What polling costs per 1,000 topics a minute at ``watch``'s and the stream's default
    intervals."""
    thousands = results.get("clusters", 2) * results["topics"] / 1000  # every cluster's topics
    lines = []
    for key, what in (("poll", "the poll"), ("bounded_poll", "the `--max-per-poll` poll")):
        poll = results.get(key)
        if not poll:
            continue
        costs = []
        for who, interval in (("`watch`'s", WATCH_INTERVAL), ("the stream's", STREAM_INTERVAL)):
            polls = 60 / interval
            costs.append(
                f"at {who} default interval ({interval:g} s: {polls:g} polls a minute), "
                f"{poll['bytes'] / thousands * polls / 1e6:.2f} MB received and "
                f"{poll['broker_cpu_s'] / thousands * polls:.2f} broker CPU seconds"
            )
        lines.append(f"From {what}'s medians, each 1,000 topics cost a minute: {'; '.join(costs)}.")
    return "\n\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks feed")
    parser.add_argument("--topics", type=int, default=2000, help="topics a cluster")
    parser.add_argument("--clusters", type=int, default=2, help="clusters polled together")
    parser.add_argument("--brokers", type=int, default=1, help="brokers a cluster")
    parser.add_argument(
        "--max-per-poll",
        type=int,
        default=None,
        help="also measure a poll that describes at most this many topics a cluster, in turn",
    )
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--changes", type=int, default=5)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    parser.add_argument(
        "--no-stream", action="store_true", help="leave out the Spark stream (poll and watch only)"
    )
    args = parser.parse_args(argv)
    counts = (args.topics, args.clusters, args.brokers, args.max_per_poll or 1)
    if min(counts) < 1:
        parser.error("--topics, --clusters, --brokers and --max-per-poll need positive numbers")
    command = "python -m benchmarks feed" + (f" {' '.join(argv)}" if argv else "")
    load_before, commit = load(), machine()["commit"]  # the code that runs, not a later one
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        bootstraps = {
            f"c{index}": stack.enter_context(start_cluster(brokers=args.brokers)).bootstrap_servers
            for index in range(1, args.clusters + 1)
        }
        first = next(iter(bootstraps.values()))
        names: list[str] = []
        for bootstrap in bootstraps.values():
            print(f"creating {args.topics} topics on {bootstrap} ...", flush=True)
            names = asyncio.run(dataset.create(bootstrap, args.topics))
        print("plain describe ...", flush=True)
        plain = measured(lambda: describe_both(bootstraps, names), args.reps)
        full = measured(lambda: describe_both(bootstraps, names, full=True), args.reps)
        print("watch's poll ...", flush=True)
        states: dict[str, ObservedState | None] = dict.fromkeys(bootstraps)
        poll = measured(lambda: poll_both(bootstraps, states)[1], args.reps)
        bounded = None
        if args.max_per_poll is not None:
            print(f"watch --max-per-poll {args.max_per_poll}'s poll ...", flush=True)
            # Its warm-up is the rotation's first poll, which reads everything.
            rotations = {name: ReadRotation(args.max_per_poll) for name in bootstraps}
            turns: dict[str, ObservedState | None] = dict.fromkeys(bootstraps)
            bounded = measured(lambda: poll_both(bootstraps, turns, rotations)[1], args.reps)
        print("watch's latency ...", flush=True)
        watch = watch_latency(bootstraps, first, args.changes)
        stream = None
        if not args.no_stream:
            print("the stream ...", flush=True)
            stream = stream_runs(bootstraps, args.changes, Path(tmp))
        size = state_bytes(first)
    results = {
        "kafka": KAFKA_VERSION,
        "topics": args.topics,
        "clusters": args.clusters,
        "brokers": args.brokers,
        "max_per_poll": args.max_per_poll,
        "reps": args.reps,
        "command": command,
        "commit": commit,
        "time": datetime.now(UTC).isoformat(),
        "load_before": load_before,
        "load_after": load(),
        "plain_describe": plain,
        "full_describe": full,
        "poll": poll,
        "bounded_poll": bounded,
        "state_bytes": size,
        "watch_latency_s": watch,
        "stream": stream,
    }
    print(write(results, args.out))


if __name__ == "__main__":
    main()
