"""``python -m benchmarks`` (``nox -s bench``): every client on one real broker, W1 with and
without documentation, then the CLI.

``python -m benchmarks peers [...]`` runs only the clients, ``python -m benchmarks cli [...]`` only
the command-line benchmark (:mod:`benchmarks.cli`, its own options), ``python -m benchmarks load
[--alters N] [--describes N] [--clients N] [--seconds S]`` concurrent calls from one client and
from several (:mod:`benchmarks.load`), ``python -m benchmarks spark [--topics N] [--fleet N]
[--reps N] [--parts one-broker,fleet-local,fleet-standalone] [--append]`` the Spark snapshot
benchmark (see ``benchmarks/spark.py``), ``python -m benchmarks web [--part pages|compare]
[--topics N] [--brokers N]`` the web editor's pages server-side (``benchmarks/web.py``;
``--part compare`` the compare page over two clusters, ``benchmarks/web_compare.py``),
``python -m benchmarks plan-trees --before TREE`` ``plan`` with two source trees side by side
(:mod:`benchmarks.plan_trees`), ``python -m benchmarks import-trees --before TREE [--topics N]
[--rounds N]`` the SDK's import (and a first describe) with two source trees side by side
(:mod:`benchmarks.import_trees`), ``python -m benchmarks feed [--topics N] [--reps N]
[--changes N] [--clusters N] [--brokers N] [--max-per-poll N]`` the change feed's poll cost
and detection latency on two clusters by default (``benchmarks/feed.py``),
``python -m benchmarks documentation [--topics N] [--reps N]`` W1 with documentation against
W1 without it: bytes received, the broker's CPU, wall time (``benchmarks/documentation.py``),
``python -m benchmarks scale [--sizes 1000,5000,20000] [--brokers 1,3]`` W1 for every client
at ten times the scale, time and memory (:mod:`benchmarks.scale`; slow: about an hour).
Options of the clients' part: ``--topics N`` (2000), ``--rounds N`` (3), ``--reps N`` per
round (3), ``--peers a,b`` (all), ``--out DIR``, ``--before TREE`` (our client from another
source tree of the repository runs too, as ``kafka-config-admin-before``, in the same rounds:
a change's cost as a ratio measured side by side).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from kafka_config_admin.testing import KAFKA_VERSION, start_cluster

from . import cli, dataset, plan_trees, report
from .clients import BEFORE, chosen_peers, compile_java_peer, measure_rounds, write_topics
from .peers import NAMES

HERE = Path(__file__).parent


def main() -> None:
    part, arguments = sys.argv[1] if sys.argv[1:] else "", sys.argv[2:]
    if part == "cli":
        cli.main(arguments)
    elif part == "plan-trees":
        plan_trees.main(arguments)
    elif part == "import-trees":
        from . import import_trees

        import_trees.main(arguments)
    elif part == "spark":
        from . import spark

        spark.main(arguments)
    elif part == "feed":
        from . import feed

        feed.main(arguments)
    elif part == "documentation":
        from . import documentation

        documentation.main(arguments)
    elif part == "scale":
        from . import scale

        scale.main(arguments)
    elif part == "load":
        from . import load

        load.main(arguments)
    elif part == "web":
        from . import web

        web.main(arguments)
    elif part == "peers":
        peers_main(arguments)
    else:
        from . import documentation

        peers_main(sys.argv[1:])
        documentation.main([])
        cli.main([])


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
    peers = chosen_peers(parser, args.peers)

    with start_cluster(brokers=1) as cluster, tempfile.TemporaryDirectory() as tmp:
        bootstrap = cluster.bootstrap_servers
        print(f"creating {args.topics} topics on {bootstrap} ...", flush=True)
        topics_file = write_topics(Path(tmp), asyncio.run(dataset.create(bootstrap, args.topics)))
        classpath = compile_java_peer(Path(tmp)) if "java" in peers else ""
        runs = measure_rounds(
            peers,
            bootstrap,
            topics_file,
            classpath,
            rounds=args.rounds,
            reps=args.reps,
            before=args.before,
        )
    context = {
        "kafka": KAFKA_VERSION,
        "topics": args.topics,
        "rounds": args.rounds,
        "reps": args.reps,
    }
    print(report.write(runs, context, args.out))


if __name__ == "__main__":
    main()
