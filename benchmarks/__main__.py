"""``python -m benchmarks`` (``nox -s bench``): every client on one real broker.

Options: ``--topics N`` (2000), ``--reps N`` (9), ``--peers a,b`` (all), ``--out DIR``.
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

from . import dataset, report
from .peers import MODULES, NAMES

HERE = Path(__file__).parent


def run_python_peer(name: str, bootstrap: str, topics_file: Path, reps: int) -> dict[str, Any]:
    output = subprocess.run(
        [sys.executable, "-m", "benchmarks.runner", name, bootstrap, str(topics_file), str(reps)],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        cwd=HERE.parent,
    ).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def run_java_peer(bootstrap: str, topics: list[str], work: Path, reps: int) -> dict[str, Any]:
    classpath = f"{broker_lib_dir()}/*"
    subprocess.run(
        ["javac", "-d", str(work), "-cp", classpath, str(HERE / "java/ConfigBench.java")],
        check=True,
    )
    lines = work / "topics.txt"
    lines.write_text("\n".join(topics) + "\n")
    output = subprocess.run(
        [
            "java",
            "-Xmx1g",
            "-cp",
            f"{work}:{classpath}",
            "ConfigBench",
            bootstrap,
            str(lines),
            str(reps),
        ],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--peers", default=",".join(NAMES))
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args()
    peers = [name for name in args.peers.split(",") if name]
    unknown = set(peers) - set(NAMES)
    if unknown:
        parser.error(f"unknown peers: {', '.join(sorted(unknown))}; known: {', '.join(NAMES)}")

    with start_cluster(brokers=1) as cluster, tempfile.TemporaryDirectory() as tmp:
        bootstrap = cluster.bootstrap_servers
        print(f"creating {args.topics} topics on {bootstrap} ...", flush=True)
        topics = asyncio.run(dataset.create(bootstrap, args.topics))
        topics_file = Path(tmp) / "topics.json"
        topics_file.write_text(json.dumps(topics))
        # The broker's JIT warms up over the first few thousand requests; without this the
        # first client measured would pay for it. The floor's run is thrown away.
        print("warming the broker up ...", flush=True)
        run_python_peer("floor", bootstrap, topics_file, 3)
        runs = []
        for index, name in enumerate(peers, 1):
            print(f"[{index}/{len(peers)}] {name} ...", flush=True)
            if name in MODULES:
                runs.append(run_python_peer(name, bootstrap, topics_file, args.reps))
            else:
                runs.append(run_java_peer(bootstrap, topics, Path(tmp), args.reps))
    context = {"kafka": KAFKA_VERSION, "topics": args.topics, "reps": args.reps}
    print(report.write(runs, context, args.out))


if __name__ == "__main__":
    main()
