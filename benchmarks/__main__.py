"""``python -m benchmarks`` (``nox -s bench``): every client on one real broker, then the CLI.

``python -m benchmarks peers [...]`` runs only the clients, ``python -m benchmarks cli [...]`` only
the command-line benchmark (:mod:`benchmarks.cli`, its own options), ``python -m benchmarks load
[--alters N] [--describes N] [--clients N] [--seconds S]`` concurrent calls from one client and
from several (:mod:`benchmarks.load`), ``python -m benchmarks spark [--topics N] [--reps N]`` the
Spark snapshot benchmark (see ``benchmarks/spark.py``), ``python -m benchmarks web [--topics N]
[--brokers N]`` the web editor's pages server-side (``benchmarks/web.py``), ``python -m benchmarks
plan-trees --before TREE`` ``plan`` with two source trees side by side
(:mod:`benchmarks.plan_trees`), ``python -m benchmarks feed [--topics N] [--reps N]
[--changes N]`` the change feed's poll cost and detection latency on two clusters
(``benchmarks/feed.py``). Options of the clients' part: ``--topics N`` (2000), ``--rounds N``
(3), ``--reps N`` per round (3), ``--peers a,b`` (all), ``--out DIR``, ``--before TREE`` (our
client from another source tree of the repository runs too, as ``kafka-config-admin-before``,
in the same rounds: a change's cost as a ratio measured side by side).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from kafka_config_admin.testing import KAFKA_VERSION, start_cluster
from kafka_config_admin.testing._artifacts import broker_lib_dir

from . import cli, dataset, plan_trees, report, run_json_module
from .peers import MODULES, NAMES

HERE = Path(__file__).parent
#: Seconds every client leaves the broker before each workload (see ``runner.measure``).
SETTLE_SECONDS = 2.0


def run_python_peer(
    name: str, bootstrap: str, topics_file: Path, reps: int, tree: Path | None = None
) -> dict[str, Any]:
    return run_json_module(
        "benchmarks.runner",
        name,
        bootstrap,
        str(topics_file),
        str(reps),
        str(SETTLE_SECONDS),
        tree=tree,
    )


def compile_java_peer(work: Path) -> str:
    """Compile the Java peer once; its classpath."""
    classpath = f"{broker_lib_dir()}/*"
    subprocess.run(
        ["javac", "-d", str(work), "-cp", classpath, str(HERE / "java/ConfigBench.java")],
        check=True,
    )
    return f"{work}:{classpath}"


def run_java_peer(bootstrap: str, topics_file: Path, classpath: str, reps: int) -> dict[str, Any]:
    output = subprocess.run(
        [
            "java",
            "-Xmx1g",
            "-cp",
            classpath,
            "ConfigBench",
            bootstrap,
            str(topics_file),
            str(reps),
            str(SETTLE_SECONDS),
        ],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def main() -> None:
    part, arguments = sys.argv[1] if sys.argv[1:] else "", sys.argv[2:]
    if part == "cli":
        cli.main(arguments)
    elif part == "plan-trees":
        plan_trees.main(arguments)
    elif part == "spark":
        from . import spark

        spark.main(arguments)
    elif part == "feed":
        from . import feed

        feed.main(arguments)
    elif part == "load":
        from . import load

        load.main(arguments)
    elif part == "web":
        from . import web

        web.main(arguments)
    elif part == "peers":
        peers_main(arguments)
    else:
        peers_main(sys.argv[1:])
        cli.main([])


#: Our client from the tree given by ``peers --before``.
BEFORE = "kafka-config-admin-before"


def peers_main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks peers")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=3, help="repetitions per round")
    parser.add_argument("--peers", default=",".join(NAMES))
    parser.add_argument("--out", type=Path, default=HERE / "results")
    parser.add_argument(
        "--before",
        type=Path,
        help="another source tree of this repository (git archive REV | tar -x -C TREE): its "
        f"client runs too, as '{BEFORE}', in the same rounds (a change's cost as a ratio)",
    )
    args = parser.parse_args(argv)
    peers = [name for name in args.peers.split(",") if name]
    unknown = set(peers) - set(NAMES)
    if unknown:
        parser.error(f"unknown peers: {', '.join(sorted(unknown))}; known: {', '.join(NAMES)}")
    if args.before is not None:
        peers.append(BEFORE)

    with start_cluster(brokers=1) as cluster, tempfile.TemporaryDirectory() as tmp:
        bootstrap = cluster.bootstrap_servers
        print(f"creating {args.topics} topics on {bootstrap} ...", flush=True)
        topics = asyncio.run(dataset.create(bootstrap, args.topics))
        topics_file = Path(tmp) / "topics.json"
        topics_file.write_text(json.dumps(topics))
        (Path(tmp) / "topics.txt").write_text("\n".join(topics) + "\n")
        classpath = compile_java_peer(Path(tmp)) if "java" in peers else ""
        # The broker's JIT warms up over the first few thousand requests; without this the
        # first client measured would pay for it. The floor's run is thrown away.
        print("warming the broker up ...", flush=True)
        run_python_peer("floor", bootstrap, topics_file, 3)
        samples: dict[str, list[dict[str, Any]]] = {name: [] for name in peers}
        for round_index in range(args.rounds):
            # Each round starts with another peer, so that drift in the broker (JIT, GC, a
            # growing metadata log) is spread over every peer rather than charged to one.
            start = round_index % len(peers)
            for name in peers[start:] + peers[:start]:
                print(f"[round {round_index + 1}/{args.rounds}] {name} ...", flush=True)
                if name == BEFORE:
                    run = run_python_peer(
                        report.OURS, bootstrap, topics_file, args.reps, args.before
                    )
                    samples[name].append({**run, "peer": BEFORE})
                elif name in MODULES:
                    samples[name].append(run_python_peer(name, bootstrap, topics_file, args.reps))
                else:
                    samples[name].append(
                        run_java_peer(bootstrap, Path(tmp) / "topics.txt", classpath, args.reps)
                    )
    runs = [report.merge(samples[name]) for name in peers]
    context = {
        "kafka": KAFKA_VERSION,
        "topics": args.topics,
        "rounds": args.rounds,
        "reps": args.reps,
    }
    print(report.write(runs, context, args.out))


if __name__ == "__main__":
    main()
