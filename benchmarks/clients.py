"""Run the measured clients, each in a process of its own, in rotating rounds.

Every client's process runs :mod:`benchmarks.runner` (Python clients) or ``ConfigBench``
(the Java client) and prints one JSON line; :func:`measure_rounds` pools the rounds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path
from typing import Any

from kafka_config_admin.testing._artifacts import broker_lib_dir

from . import report, run_json_module
from .peers import MODULES, NAMES
from .report import OURS
from .runner import WORKLOADS

HERE = Path(__file__).parent
#: Our client from the tree given by ``peers --before``.
BEFORE = "kafka-config-admin-before"
#: Seconds every client leaves the broker before each workload (see ``runner.measure``).
SETTLE_SECONDS = 2.0


def chosen_peers(parser: argparse.ArgumentParser, given: str) -> list[str]:
    """The clients a ``--peers a,b`` option names; an unknown name is a usage error."""
    peers = [name for name in given.split(",") if name]
    unknown = set(peers) - set(NAMES)
    if unknown:
        parser.error(f"unknown peers: {', '.join(sorted(unknown))}; known: {', '.join(NAMES)}")
    return peers


def write_topics(directory: Path, names: list[str]) -> Path:
    """The topics as JSON (Python clients) and one a line beside it (Java); the JSON file."""
    (directory / "topics.txt").write_text("\n".join(names) + "\n")
    topics_file = directory / "topics.json"
    topics_file.write_text(json.dumps(names))
    return topics_file


def run_python_peer(
    name: str,
    bootstrap: str,
    topics_file: Path,
    reps: int,
    workloads: str = "",
    tree: Path | None = None,
    timeout: float | None = None,
    memory: bool = True,
) -> dict[str, Any]:
    """One Python client's workloads (``workloads``: ``"w1,w3"``; all if empty) in a process,
    importing this checkout's packages or those of another source ``tree``, killed after
    ``timeout`` seconds; W1's memory measured too unless ``memory`` is false."""
    chosen = workloads or ",".join(WORKLOADS)
    return run_json_module(
        "benchmarks.runner",
        name,
        bootstrap,
        str(topics_file),
        str(reps),
        str(SETTLE_SECONDS),
        chosen,
        *([] if memory else ["no-memory"]),
        tree=tree,
        timeout=timeout,
    )


def compile_java_peer(work: Path) -> str:
    """Compile the Java peer once; its classpath."""
    classpath = f"{broker_lib_dir()}/*"
    subprocess.run(
        ["javac", "-d", str(work), "-cp", classpath, str(HERE / "java/ConfigBench.java")],
        check=True,
    )
    return f"{work}:{classpath}"


def java_bench_command(classpath: str, bootstrap: str, topics_file: Path, *args: str) -> list[str]:
    """The command line of the Java client's ``ConfigBench`` over the topics of ``topics_file``
    (the ``.txt`` file :func:`write_topics` put beside it), with its mode's ``args``."""
    # 20,000 topics' configs with their documentation outgrow 1 GiB of heap.
    head = ["java", "-Xmx2g", "-cp", classpath, "ConfigBench", bootstrap]
    return [*head, str(topics_file.with_suffix(".txt")), *args]


def run_java_peer(
    bootstrap: str,
    topics_file: Path,
    classpath: str,
    reps: int,
    workloads: str = "",
    timeout: float | None = None,
) -> dict[str, Any]:
    """The Java client's workloads (as :func:`run_python_peer`; the topics of ``topics_file``
    are read from the ``.txt`` file :func:`write_topics` put beside it)."""
    output = subprocess.run(
        java_bench_command(
            classpath,
            bootstrap,
            topics_file,
            str(reps),
            str(SETTLE_SECONDS),
            *([workloads] if workloads else []),
        ),
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        timeout=timeout,
    ).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def measure_rounds(
    peers: list[str],
    bootstrap: str,
    topics_file: Path,
    classpath: str,
    *,
    rounds: int,
    reps: int,
    workloads: str = "",
    before: Path | None = None,
    timeout: float | None = None,
    memory: bool = True,
) -> list[dict[str, Any]]:
    """Every client's runs, ``rounds`` rounds of ``reps`` each, pooled per client.

    ``classpath``: :func:`compile_java_peer`'s, when ``peers`` has ``java``. ``before``: another
    source tree, whose client runs too as :data:`BEFORE`. ``timeout``: seconds a client's
    process may take (all its workloads of a round); one that takes longer is recorded as
    failed. ``memory``: whether the Python clients' W1 memory is measured (two W1 calls more).
    """
    if before is not None:
        peers = [*peers, BEFORE]
    # The broker's JIT warms up over the first few thousand requests; without this the
    # first client measured would pay for it. The floor's run is thrown away.
    print("warming the broker up ...", flush=True)
    run_python_peer("floor", bootstrap, topics_file, 3, workloads)
    samples: dict[str, list[dict[str, Any]]] = {name: [] for name in peers}
    for round_index in range(rounds):
        # Each round starts with another peer, so that drift in the broker (JIT, GC, a
        # growing metadata log) is spread over every peer rather than charged to one.
        start = round_index % len(peers)
        for name in peers[start:] + peers[:start]:
            print(f"[round {round_index + 1}/{rounds}] {name} ...", flush=True)
            try:
                if name == BEFORE:
                    ours = run_python_peer(
                        OURS, bootstrap, topics_file, reps, workloads, before, timeout, memory
                    )
                    run = {**ours, "peer": BEFORE}
                elif name in MODULES:
                    run = run_python_peer(
                        name,
                        bootstrap,
                        topics_file,
                        reps,
                        workloads,
                        timeout=timeout,
                        memory=memory,
                    )
                else:
                    run = run_java_peer(bootstrap, topics_file, classpath, reps, workloads, timeout)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
                # One client failing (a broker refusing its one huge request) or taking too
                # long is a result too; the others' runs are kept. Its error is in this run's
                # output above.
                reason = (
                    f"failed: not done in {error.timeout:.0f} s"
                    if isinstance(error, subprocess.TimeoutExpired)
                    else f"failed: its process exited with {error.returncode}"
                )
                chosen = workloads.split(",") if workloads else list(WORKLOADS)
                run = {"peer": name, "workloads": {w: {"unsupported": reason} for w in chosen}}
            samples[name].append(run)
    return [report.merge(samples[name]) for name in peers]
