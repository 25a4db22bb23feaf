"""``python -m benchmarks scale`` (``nox -s bench -- scale``; slow, opt-in): W1 as topics grow.

W1 (every config of every topic, with synonyms and documentation) for every client and the
floor, at 1,000, 5,000 and 20,000 topics (one partition each) on one broker and on three, in
one run: one cluster per broker count, its topics created once and grown between sizes, each
client in a process of its own (see :mod:`benchmarks.clients`). Beside the times: the memory
of each Python client's first W1 call in a fresh process (RSS growth), its peak Python
allocations (tracemalloc) and what its decoded result keeps.

A size is left out for a broker count when it passes ``--topics-per-broker`` (7,000): this
machine's open-file limit (20,000 a process) stops one broker not far above. Results:
``benchmarks/results/scale.json`` and ``scale.md`` (written after every size: nothing is lost
when a later size fails).

Beside each timed call's wall time (issue 35): the brokers' CPU seconds and bytes written
during it, read from ``/proc/<pid>/stat`` and ``/proc/<pid>/io`` (``wchar``) of the measured
cluster's broker processes by the client's own process just before and after the call
(:data:`benchmarks.BROKER_PIDS`), and, for our client, the bytes it received
(``AdminClient.traffic``). What the brokers write during a describe is its answer to that client
plus a little of their own (the metadata log's no-op records, replication's empty fetches): the
one measure of bytes on the wire that every client, the Java one included, gets alike.
``kafka-config-admin-no-docs`` is our client asking for no documentation; the targets of issue
35 compare ours against it (bytes, broker CPU) and against every peer (wall time). With ``java``
among the peers, our W1 answer is checked equal to the Java client's, entry by entry, at each
size up to ``--answers-up-to`` (:mod:`benchmarks.answers`).

Options: ``--sizes 1000,5000,20000``, ``--brokers 1,3``, ``--fewest-brokers`` (each size only
on the fewest of ``--brokers`` that hold it), ``--rounds 1``, ``--reps 3``, ``--min-reps 1``,
``--no-memory``, ``--peers a,b`` (all), ``--topics-per-broker 7000``, ``--peer-timeout S``,
``--answers-up-to 5000``, ``--profile``, ``--broker-heap 2g`` (each broker's ``-Xmx``; the
harness gives 512m), ``--out DIR``, ``--append``, ``--combine``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import os
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kafka_config_admin.testing import DEFAULT_BROKER_HEAP, KAFKA_VERSION, start_cluster

from . import BROKER_MAIN, BROKER_PIDS, answers, broker_pids, dataset, machine, processes
from .clients import chosen_peers, compile_java_peer, measure_rounds, write_topics
from .peers import NAMES
from .profile import AREAS, w1_time_split
from .report import OURS, median

HERE = Path(__file__).parent
FLOOR = "floor"
SIZES = (1000, 5000, 20000)
BROKERS = (1, 3)
#: A broker holds about 0.8 open files per topic of one partition (``broker_open_files`` in
#: scale.json); this machine's limit is 20,000 a process, and a broker needs room for clients.
TOPICS_PER_BROKER = 7000
#: Targets of issue 23: W1 within this factor of the floor, peak memory of the result's size.
FLOOR_TARGET = 1.2
MEMORY_TARGET = 2.0
#: Our client asking for no documentation, the figure issue 35's targets compare ours with.
NO_DOCS = "kafka-config-admin-no-docs"
#: Targets of issue 35: W1 with documentation against W1 without it.
BYTES_TARGET = 1.25
BROKER_CPU_TARGET = 1.3


def _ints(text: str) -> list[int]:
    """Comma-separated numbers, in the order given, each once."""
    return list(dict.fromkeys(int(part) for part in text.split(",") if part))


def reps_at(size: int, reps: int, least: int = 1) -> int:
    """Repetitions at a size: ``reps`` up to 5,000 topics, fewer above (about the same work),
    at least ``least``. At 20,000 topics the slowest peer takes minutes a call on two cores."""
    return max(least, min(reps, reps * 5000 // size))


def sizes_on(brokers: int, args: argparse.Namespace) -> list[int]:
    """The sizes measured on ``brokers`` brokers: those they hold (``--topics-per-broker``),
    and with ``--fewest-brokers`` only those no smaller count of ``--brokers`` holds."""
    held = [size for size in args.sizes if size <= brokers * args.topics_per_broker]
    if not args.fewest_brokers:
        return held
    fewer = [count for count in args.brokers if count < brokers]
    return [size for size in held if all(size > n * args.topics_per_broker for n in fewer)]


def broker_open_files(cluster: Any) -> list[int]:
    """How many files each broker of ``cluster`` (a JVM cluster) holds open now."""
    root = str(cluster.directory).encode()
    counts = []
    for directory, command in processes():
        if BROKER_MAIN in command and root in command:
            try:
                counts.append(len(list((directory / "fd").iterdir())))
            except OSError:  # gone meanwhile
                continue
    return sorted(counts)


def broker_max_heaps(cluster: Any) -> list[str]:
    """The ``-Xmx`` each broker of ``cluster`` (a JVM cluster) runs with, from its command line:
    what the brokers really got, not what was asked."""
    root = str(cluster.directory).encode()
    return sorted(
        flag.decode()[len("-Xmx") :]
        for _, command in processes()
        if BROKER_MAIN in command and root in command
        for flag in command.split(b"\0")
        if flag.startswith(b"-Xmx")
    )


def run_size(
    peers: list[str],
    cluster: Any,
    directory: Path,
    names: list[str],
    classpath: str,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """W1 for every client on the first ``len(names)`` topics: timings, what the brokers spent
    and wrote, memory; our answer against the Java client's where asked."""
    bootstrap = cluster.bootstrap_servers
    topics_file = write_topics(directory, names)
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    reps = reps_at(len(names), args.reps, args.min_reps)
    # Read by each client's process (inherited): see benchmarks.runner.
    os.environ[BROKER_PIDS] = ",".join(map(str, broker_pids(cluster.directory)))
    runs = measure_rounds(
        peers,
        bootstrap,
        topics_file,
        classpath,
        rounds=args.rounds,
        reps=reps,
        workloads="w1",
        timeout=args.peer_timeout,
        memory=not args.no_memory,
    )
    result = {
        "topics": len(names),
        "reps": reps,
        "seconds_taken": round(time.monotonic() - started),
        "load": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "runs": {run["peer"]: {"w1": run["workloads"]["w1"], **_memory(run)} for run in runs},
    }
    if "java" in peers and len(names) <= args.answers_up_to:
        print(f"{len(names)} topics: our answers against the Java client's ...", flush=True)
        result["answers_equal_java"] = answers.compare(
            bootstrap, names, topics_file, classpath, args.peer_timeout
        )
    return result


def _memory(run: dict[str, Any]) -> dict[str, Any]:
    return {"memory": run["w1_memory"]} if "w1_memory" in run else {}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks scale")
    parser.add_argument("--sizes", type=_ints, default=list(SIZES))
    parser.add_argument("--brokers", type=_ints, default=list(BROKERS))
    parser.add_argument(
        "--fewest-brokers",
        action="store_true",
        help="measure each size only on the fewest of --brokers that hold it",
    )
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--reps", type=int, default=3, help="repetitions per round")
    parser.add_argument(
        "--min-reps", type=int, default=1, help="repetitions per round at any size, at least"
    )
    parser.add_argument(
        "--no-memory",
        action="store_true",
        help="measure no memory (each Python client makes two W1 calls fewer)",
    )
    parser.add_argument(
        "--answers-up-to",
        type=int,
        default=5000,
        help="with java among the peers, check our answers equal its at each size up to this",
    )
    parser.add_argument("--peers", default=",".join(NAMES))
    parser.add_argument("--topics-per-broker", type=int, default=TOPICS_PER_BROKER)
    parser.add_argument(
        "--peer-timeout",
        type=float,
        help="seconds a client's process may take at a size (all its W1 calls); one that "
        "takes longer is recorded as failed (default: no limit)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also split our W1 time at each size: waiting for the brokers, decoding, shaping "
        "(benchmarks.profile.w1_time_split, in this process)",
    )
    parser.add_argument(
        "--broker-heap",
        help="each broker's maximum heap, as the JVM's -Xmx takes it (e.g. 2g; the test "
        "harness gives 512m): for answers a 512m broker cannot build",
    )
    parser.add_argument("--out", type=Path, default=HERE / "results")
    parser.add_argument(
        "--append",
        action="store_true",
        help="add the clusters of this run to the scale.json in --out (a run made in parts: "
        "each part's command, commit and load are kept)",
    )
    parser.add_argument(
        "--combine",
        nargs="+",
        type=Path,
        metavar="SCALE_JSON",
        help="measure nothing: write the runs of these scale.json files as one into --out",
    )
    args = parser.parse_args(argv)
    if args.combine:
        print(write(combine([json.loads(path.read_text()) for path in args.combine]), args.out))
        return
    peers = chosen_peers(parser, args.peers)
    if not args.sizes or not args.brokers or min(args.sizes + args.brokers) < 1:
        parser.error("--sizes and --brokers need positive numbers")

    part = {
        "command": "python -m benchmarks scale " + " ".join(argv or []),
        "recorded": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "broker_heap": args.broker_heap or DEFAULT_BROKER_HEAP,
    }
    results: dict[str, Any] = {
        "context": {
            "kafka": KAFKA_VERSION,
            "rounds": args.rounds,
            "reps": args.reps,
            "topics_per_broker": args.topics_per_broker,
            "parts": [],
        },
        "clusters": [],
    }
    if args.append:
        results = json.loads((args.out / "scale.json").read_text())
    results["context"]["parts"].append(part)
    for brokers in args.brokers:
        sizes = sizes_on(brokers, args)
        cluster_results: dict[str, Any] = {
            "brokers": brokers,
            "part": len(results["context"]["parts"]) - 1,
            "left_out": [
                size
                for size in args.sizes
                if size > brokers * args.topics_per_broker
                and not (
                    args.fewest_brokers and any(size in sizes_on(n, args) for n in args.brokers)
                )
            ],
            "sizes": [],
        }
        results["clusters"].append(cluster_results)
        if not sizes:
            continue
        with (
            start_cluster(brokers=brokers, broker_heap=args.broker_heap) as cluster,
            tempfile.TemporaryDirectory() as tmp,
        ):
            bootstrap = cluster.bootstrap_servers
            cluster_results["broker_max_heaps"] = broker_max_heaps(cluster)
            classpath = compile_java_peer(Path(tmp)) if "java" in peers else ""
            created = 0
            for size in sorted(sizes):
                print(f"{brokers} broker(s): creating topics up to {size} ...", flush=True)
                names = asyncio.run(dataset.create(bootstrap, size, first=created))
                created = size
                run = run_size(peers, cluster, Path(tmp), names, classpath, args)
                run["broker_open_files"] = broker_open_files(cluster)
                if args.profile:
                    print(f"{brokers} broker(s), {size} topics: profile of ours ...", flush=True)
                    run["profile"] = w1_time_split(bootstrap, names)
                cluster_results["sizes"].append(run)
                print(write(results, args.out), flush=True)
    part["load_after"] = machine()["load"]
    print(write(results, args.out))


def combine(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Runs made in parts (each its own command, commit and load) as one set of results."""
    combined: dict[str, Any] = {"context": dict(runs[0]["context"], parts=[]), "clusters": []}
    for run in runs:
        first = len(combined["context"]["parts"])
        combined["context"]["parts"] += run["context"]["parts"]
        combined["clusters"] += [
            dict(cluster, part=cluster.get("part", 0) + first) for cluster in run["clusters"]
        ]
    return combined


# --- the report --------------------------------------------------------------------------------


def _w1_median(run: dict[str, Any]) -> float | None:
    seconds = run["w1"].get("seconds")
    return median(seconds) if seconds else None


def _time_cell(run: dict[str, Any] | None, reference: float | None) -> str:
    if run is None:
        return "-"
    seconds = _w1_median(run)
    if seconds is None:
        return "n/a: " + str(run["w1"].get("unsupported", "no timing"))
    text = f"{seconds:.2f}"
    if reference:
        text += f" ({seconds / reference:.2f}x)"
    return text


def _rows(results: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """Every size measured, as (brokers, size), by broker count (in the order first met) and
    topics; the clusters of a run made in parts are taken together."""
    order = list(dict.fromkeys(c["brokers"] for c in results["clusters"]))
    rows = [
        (c["brokers"], dict(size, part=c.get("part", 0)))
        for c in results["clusters"]
        for size in c["sizes"]
    ]
    return sorted(rows, key=lambda row: (order.index(row[0]), row[1]["topics"]))


def time_table(results: dict[str, Any], peers: list[str]) -> list[str]:
    lines = [
        "| brokers | topics | " + " | ".join(peers) + " | ours / floor | load | reps | part |",
        "|---:|---:|" + "---:|" * len(peers) + "---:|---|---:|---:|",
    ]
    for brokers, size in _rows(results):
        runs = size["runs"]
        ours = _w1_median(runs[OURS]) if OURS in runs else None
        floor = _w1_median(runs[FLOOR]) if FLOOR in runs else None
        cells = [_time_cell(runs.get(peer), ours) for peer in peers]
        versus_floor = f"{ours / floor:.2f}" if ours and floor else "-"
        load = "-".join(f"{value:.0f}" for value in size["load"])
        lines.append(
            f"| {brokers} | {size['topics']:,} | " + " | ".join(cells) + f" | {versus_floor} | "
            f"{load} | {size.get('reps', results['context']['reps'])} | {size['part'] + 1} |"
        )
    return lines


def memory_table(results: dict[str, Any], peers: list[str]) -> list[str]:
    measured = [peer for peer in peers if peer not in (FLOOR, "java")]
    lines = [
        "| brokers | topics | "
        + " | ".join(f"{peer}: result / peak / RSS growth" for peer in measured)
        + " | ours: peak / result |",
        "|---:|---:|" + "---:|" * (len(measured) + 1),
    ]
    for brokers, size in _rows(results):
        cells = []
        for peer in measured:
            memory = size["runs"].get(peer, {}).get("memory")
            cells.append(
                f"{memory['result_mb']:.1f} / {memory['peak_mb']:.1f} / "
                f"{memory['rss_growth_mb']:.0f}"
                if memory
                else "-"
            )
        ours = size["runs"].get(OURS, {}).get("memory")
        ratio = f"{ours['peak_mb'] / ours['result_mb']:.2f}" if ours else "-"
        lines.append(f"| {brokers} | {size['topics']:,} | " + " | ".join(cells) + f" | {ratio} |")
    return lines


def memory_lines(results: dict[str, Any], peers: list[str]) -> list[str]:
    """The memory table with its title, where the run measured memory (not ``--no-memory``)."""
    if not any("memory" in run for _, size in _rows(results) for run in size["runs"].values()):
        return []
    return [
        "W1 memory (MB) of each Python client's first call in a fresh process: what the decoded "
        "result keeps and the peak of Python allocations while the call ran (tracemalloc), and "
        "the growth of the process's RSS from before the call to its peak:",
        "",
        *memory_table(results, peers),
        "",
    ]


def growth(points: list[tuple[int, float]]) -> str:
    """How a figure grows between sizes: the exponent k of ``figure ~ topics**k`` for each
    step (1.00 is linear), from the smallest size to the largest."""
    steps = [
        f"{math.log(y2 / y1) / math.log(x2 / x1):.2f}"
        for (x1, y1), (x2, y2) in itertools.pairwise(points)
        if y1 > 0 and y2 > 0 and x2 != x1  # a size measured again (another part) is no step
    ]
    return ", ".join(steps) if steps else "-"


def growth_table(results: dict[str, Any]) -> list[str]:
    lines = [
        "| brokers | figure (ours) | per 1,000 topics, by size | growth exponent per step |",
        "|---:|---|---|---|",
    ]
    figures = {
        "W1 wall time (s)": lambda run: _w1_median(run),
        "W1 client CPU (s)": lambda run: median(run["w1"]["cpu_seconds"]),
        "floor wall time (s)": None,
        "result kept (MB)": lambda run: run["memory"]["result_mb"],
        "peak Python allocations (MB)": lambda run: run["memory"]["peak_mb"],
        "RSS growth (MB)": lambda run: run["memory"]["rss_growth_mb"],
    }
    rows = _rows(results)
    for brokers in dict.fromkeys(brokers for brokers, _ in rows):
        sizes = [size for count, size in rows if count == brokers]
        for title, figure in figures.items():
            peer = FLOOR if figure is None else OURS
            points: list[tuple[int, float]] = []
            for size in sizes:
                run = size["runs"].get(peer)
                value = None
                if run is not None:
                    value = _w1_median(run) if figure is None else _safe(figure, run)
                if value is not None:
                    points.append((size["topics"], value))
            if not points:
                continue
            per_thousand = ", ".join(f"{y * 1000 / x:.3g} ({x:,})" for x, y in points)
            lines.append(f"| {brokers} | {title} | {per_thousand} | {growth(points)} |")
    return lines


def _safe(figure: Any, run: dict[str, Any]) -> float | None:
    try:
        value = figure(run)
    except KeyError:
        return None
    return float(value) if value is not None else None


def _w1_figure(run: dict[str, Any] | None, figure: str) -> float | None:
    """The median of one per-call figure of a client's W1 runs; None where it has none."""
    values = run["w1"].get(figure) if run else None
    return median(values) if values else None


def wire_table(results: dict[str, Any], peers: list[str]) -> list[str]:
    """Each client's W1 at each size: wall time, the brokers' CPU and bytes written, and the
    bytes our client received, per call (medians)."""
    lines = [
        "| brokers | topics | client | wall (s) | client CPU (s) | brokers' CPU (s) | "
        "brokers wrote (MB) | received, own count (MB) | vs ours: wall | part |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for brokers, size in _rows(results):
        runs = size["runs"]
        if not any("broker_cpu_seconds" in run["w1"] for run in runs.values()):
            continue  # measured before these figures were
        ours = _w1_median(runs[OURS]) if OURS in runs else None
        for peer in peers:
            run = runs.get(peer)
            if run is None:
                continue
            seconds = _w1_median(run)
            if seconds is None:
                failed = run["w1"].get("unsupported", "no timing")
                lines.append(
                    f"| {brokers} | {size['topics']:,} | {peer} | {failed} | | | | | | "
                    f"{size['part'] + 1} |"
                )
                continue
            figures = [
                _w1_figure(run, "cpu_seconds"),
                _w1_figure(run, "broker_cpu_seconds"),
                _w1_figure(run, "broker_bytes_written"),
                _w1_figure(run, "bytes_received"),
            ]
            client_cpu, cpu, written, received = (
                "-" if value is None else f"{value / scale:.{digits}f}"
                for value, scale, digits in zip(
                    figures, (1, 1, 1e6, 1e6), (2, 2, 1, 1), strict=True
                )
            )
            versus = f"{seconds / ours:.2f}x" if ours else "-"
            lines.append(
                f"| {brokers} | {size['topics']:,} | {peer} | {seconds:.2f} | {client_cpu} | "
                f"{cpu} | {written} | {received} | {versus} | {size['part'] + 1} |"
            )
    return lines


def _ratio(ours: float | None, other: float | None) -> float | None:
    return ours / other if ours is not None and other else None


def target_checks(size: dict[str, Any]) -> list[tuple[str, float | None, float, bool | None]]:
    """Issue 35's targets at one size: (what, measured ratio, target, met), met None where a
    figure is missing. Bytes are the brokers' bytes written, CPU the brokers' CPU, per call."""
    runs = size["runs"]
    ours, bare = runs.get(OURS), runs.get(NO_DOCS)
    checks: list[tuple[str, float | None, float, bool | None]] = []
    for what, figure, target in (
        ("bytes, with documentation / without", "broker_bytes_written", BYTES_TARGET),
        ("brokers' CPU, with documentation / without", "broker_cpu_seconds", BROKER_CPU_TARGET),
    ):
        ratio = _ratio(_w1_figure(ours, figure), _w1_figure(bare, figure))
        checks.append((what, ratio, target, None if ratio is None else ratio <= target))
    ours_wall = _w1_median(ours) if ours else None
    for peer, run in runs.items():
        if peer in (OURS, NO_DOCS, FLOOR):  # ours, and the floor, which decodes nothing
            continue
        other = _w1_median(run)
        ratio = _ratio(ours_wall, other)
        met = None if ours_wall is None or other is None else ours_wall < other
        checks.append((f"wall time, ours / {peer}", ratio, 1.0, met))
    return checks


def targets_table(results: dict[str, Any]) -> list[str]:
    """Every target of issue 35 at every size measured with the brokers' figures."""
    lines = [
        "| brokers | topics | target | measured | at most | met | part |",
        "|---:|---:|---|---:|---:|---|---:|",
    ]
    for brokers, size in _rows(results):
        if NO_DOCS not in size["runs"]:
            continue
        for what, ratio, target, met in target_checks(size):
            shown = "-" if ratio is None else f"{ratio:.2f}"
            verdict = {True: "yes", False: "**no**", None: "not measured"}[met]
            failed = size["runs"].get(what.rpartition(" / ")[2], {}).get("w1", {})
            if met is None and "unsupported" in failed:
                verdict = f"not measured: the peer {failed['unsupported']}"
            lines.append(
                f"| {brokers} | {size['topics']:,} | {what} | {shown} | "
                f"{target:.2f}{'' if 'wall' not in what else ' (below)'} | {verdict} | "
                f"{size['part'] + 1} |"
            )
    return lines


def answers_lines(results: dict[str, Any]) -> list[str]:
    """Where our W1 answer was checked against the Java client's, and what it found."""
    checked = [(b, size) for b, size in _rows(results) if "answers_equal_java" in size]
    if not checked:
        return []
    lines = ["", "Our W1 answer against the Java Admin client's, entry by entry:", ""]
    for brokers, size in checked:
        check = size["answers_equal_java"]
        where = f"{size['topics']:,} topics on {brokers} broker(s) (part {size['part'] + 1})"
        if not check["checked"]:
            lines.append(f"- {where}: not checked ({check['reason']}).")
        elif check["differing"] == 0:
            lines.append(
                f"- {where}: equal, all {check['entries']:,} entries of {check['topics']:,} topics."
            )
        else:
            lines.append(
                f"- {where}: **{check['differing']:,} lines differ** of {check['entries']:,} "
                f"entries; ours only: {check['only_ours']}; Java's only: {check['only_java']}."
            )
    return lines


def profile_table(results: dict[str, Any]) -> list[str]:
    """Where our W1 time went at each size profiled (``--profile``)."""
    profiled = [(brokers, size) for brokers, size in _rows(results) if "profile" in size]
    if not profiled:
        return []
    lines = [
        "",
        "Where our W1 time goes (`--profile`, in the benchmark's own process after a warm-up): "
        "one call's wall time, our process's CPU and the brokers' CPU during it, then the "
        "share of a second call's wall time, under cProfile, in each area (a builtin counts "
        "with its callers; the profiler's overhead inflates the Python areas, so shares, not "
        "seconds):",
        "",
        "| brokers | topics | wall (s) | our CPU (s) | brokers' CPU (s) | "
        + " | ".join(AREAS)
        + " | part |",
        "|---:|---:|---:|---:|---:|" + "---:|" * len(AREAS) + "---:|",
    ]
    for brokers, size in profiled:
        profile = size["profile"]
        shares = " | ".join(f"{profile['profiled_shares'][area]:.0%}" for area in AREAS)
        lines.append(
            f"| {brokers} | {size['topics']:,} | {profile['wall_s']:.2f} | "
            f"{profile['client_cpu_s']:.2f} | {profile['brokers_cpu_s']:.2f} | {shares} | "
            f"{size['part'] + 1} |"
        )
    return lines


def _part_line(index: int, part: dict[str, Any]) -> str:
    load = "/".join(map(str, part["machine"]["load"]))
    after = part.get("load_after")
    return (
        f"Part {index + 1}: `{part['command'].strip()}` at commit "
        f"`{part['machine']['commit']}`, recorded {part['recorded']}, brokers' heap (-Xmx) "
        f"{part.get('broker_heap', DEFAULT_BROKER_HEAP)}, load average {load} at "
        "the start" + (f", {'/'.join(map(str, after))} at the end." if after else ".")
    )


def markdown(results: dict[str, Any]) -> str:
    context = results["context"]
    where = context["parts"][0]["machine"]
    peers = list(dict.fromkeys(peer for _, size in _rows(results) for peer in size["runs"]))
    left_out = [
        f"{size:,} topics on {c['brokers']} broker(s)"
        for c in results["clusters"]
        for size in c["left_out"]
    ]
    lines = [
        "# W1 at scale",
        "",
        f"Apache Kafka {context['kafka']} (KRaft, JVM brokers), topics of one partition (every "
        "10th with two overrides), described with synonyms and documentation. "
        f"{where['cores']} cores and {where['memory_gib']} GiB shared with other work. "
        f"{context['rounds']} round(s), {context['reps']} repetitions a round after a warm-up "
        "(fewer above 5,000 topics: the column reps), each client in a process of its own. "
        + " ".join(_part_line(index, part) for index, part in enumerate(context["parts"])),
        "",
        "W1 wall time, median (s), and the ratio to ours; load average (1 min) before and after "
        "each size:",
        "",
        *time_table(results, peers),
        "",
        *memory_lines(results, peers),
        "How our cost grows with the topics (the floor's time beside it): each figure per "
        "1,000 topics at each size, and the exponent k of `figure ~ topics^k` between "
        "successive sizes (1.00 is linear, below 1 fixed costs spread out, above 1 "
        "worse than linear):",
        "",
        *growth_table(results),
        *profile_table(results),
    ]
    wire = wire_table(results, peers)
    if len(wire) > 2:
        lines += [
            "",
            "Each client's W1 per call (medians of the timed calls): wall time; the CPU the "
            "brokers used and the bytes they wrote (`wchar`: their answers plus a little of "
            "their own), read from `/proc` of the broker processes by the client's process just "
            "before and after each call; the bytes our client counted itself "
            "(`AdminClient.traffic`). `kafka-config-admin-no-docs` is ours asking for no "
            "documentation, aiokafka never asks for it:",
            "",
            *wire,
            "",
            f"Targets (issue 35): W1 with documentation at most {BYTES_TARGET}x the bytes and "
            f"{BROKER_CPU_TARGET}x the brokers' CPU of W1 without it, and faster than every "
            "peer (ours' wall time / the peer's below 1):",
            "",
            *targets_table(results),
        ]
    lines += answers_lines(results)
    lines += [
        "",
        "Open files of each broker after each size: "
        + "; ".join(
            f"{size['topics']:,} topics on {brokers}: "
            + ", ".join(map(str, size.get("broker_open_files", [])))
            for brokers, size in _rows(results)
        )
        + f" (the limit: {where['open_files_limit']:,} a process).",
    ]
    if left_out:
        lines += [
            "",
            "Not measured: "
            + ", ".join(left_out)
            + f" (more than {context['topics_per_broker']:,} topics a broker).",
        ]
    lines += [
        "",
        f"Targets (issue 23): W1 within {FLOOR_TARGET}x the floor; peak memory within "
        f"{MEMORY_TARGET}x the result's size.",
    ]
    return "\n".join(lines) + "\n"


def write(results: dict[str, Any], out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    (out / "scale.json").write_text(json.dumps(results, indent=2) + "\n")
    text = markdown(results)
    (out / "scale.md").write_text(text)
    return text


if __name__ == "__main__":
    main()
