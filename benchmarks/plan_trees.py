"""``python -m benchmarks plan-trees --before TREE``: ``plan`` for N topics with two source trees,
side by side on one real broker, to see whether a change made the plan slower.

``TREE`` is a source tree holding a ``kafka_config_admin`` package, for instance main as it was
before a change::

    mkdir /tmp/before && git archive <commit> kafka_config_admin | tar -x -C /tmp/before
    python -m benchmarks plan-trees --before /tmp/before

The other tree is this checkout (``--after`` to name another). Both run as a user runs them,
``python -m kafka_config_admin plan FILE`` in a new process, against the same broker and the
same file (every topic's ``retention.ms`` and ``cleanup.policy``: exit 3, changes needed), in
alternation, ``--rounds`` times each. Reported: each run's wall time and CPU time (the plan
process's own, which a loaded machine disturbs less), the best of each, and the ratios
after/before, and the median of each. Options: ``--topics N`` (2000), ``--rounds N`` (3),
``--one-key`` (``retention.ms`` alone, the key ``cli --part verdict``'s file sets: a table that
fits a pipe's 80 columns, where the two keys' table is wider and laid out by rich).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from kafka_config_admin.testing import start_cluster

from . import dataset

HERE = Path(__file__).parent


def desired_file(names: Sequence[str], *, one_key: bool = False) -> str:
    """A desired-state file changing two keys of every topic (``one_key``: ``retention.ms``
    alone, the one key ``benchmarks.cli``'s verdict file sets)."""
    wanted = "    configs:\n      retention.ms: 2h\n"
    if not one_key:
        wanted += "      cleanup.policy: [compact, delete]\n"
    return "topics:\n" + "".join(f"  - name: {name}\n{wanted}" for name in names)


def timed_plan(tree: Path, path: Path, bootstrap: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``plan`` with the package of ``tree``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "kafka_config_admin", "plan", str(path), "-b", bootstrap],
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=path.parent,  # not this checkout: PYTHONPATH alone says which package runs
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 3:
        raise RuntimeError(f"plan with {tree} exited {done.returncode}, not 3:\n{done.stderr}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks plan-trees")
    parser.add_argument("--before", type=Path, required=True, help="the tree to compare with")
    parser.add_argument("--after", type=Path, default=HERE.parent, help="(this checkout)")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one-key", action="store_true", help="plan retention.ms alone")
    args = parser.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    for label, tree in trees.items():
        if not (tree / "kafka_config_admin" / "__init__.py").is_file():
            parser.error(f"--{label} {tree}: no kafka_config_admin package there")
    runs: dict[str, list[tuple[float, float]]] = {label: [] for label in trees}
    with start_cluster(brokers=1) as cluster, tempfile.TemporaryDirectory() as tmp:
        names = asyncio.run(dataset.create(cluster.bootstrap_servers, args.topics))
        path = Path(tmp) / "plan.yaml"
        path.write_text(desired_file(names, one_key=args.one_key))
        for round_ in range(args.rounds):
            for label, tree in trees.items():
                wall, cpu = timed_plan(tree, path, cluster.bootstrap_servers)
                runs[label].append((wall, cpu))
                print(f"round {round_ + 1} {label}: wall {wall:.2f} s, cpu {cpu:.2f} s")
    best = {label: (min(w for w, _ in got), min(c for _, c in got)) for label, got in runs.items()}
    for label, (wall, cpu) in best.items():
        print(f"{label} ({trees[label]}): best wall {wall:.2f} s, best cpu {cpu:.2f} s")
    for label, got in runs.items():
        wall, cpu = (statistics.median(run[index] for run in got) for index in (0, 1))
        print(f"{label}: median wall {wall:.2f} s, median cpu {cpu:.3f} s")
    median_cpu = {label: statistics.median(c for _, c in got) for label, got in runs.items()}
    print(f"median cpu after/before: {median_cpu['after'] / median_cpu['before']:.3f}")
    print(
        f"after/before, {args.topics} topics: wall {best['after'][0] / best['before'][0]:.2f}, "
        f"cpu {best['after'][1] / best['before'][1]:.2f} (load average "
        f"{os.getloadavg()[0]:.1f})"
    )
