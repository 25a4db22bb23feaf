"""``python -m benchmarks import-trees --before TREE``: the SDK's import with two source trees,
side by side, each against a bare ``import aiokafka, pydantic`` measured in the same round.

``TREE`` is a source tree holding a ``kafka_config_admin`` package (a ``git worktree add
--detach`` of the commit before a change, for instance); the other is this checkout
(``--after``). Each round runs, for each tree in turn and each a new process: the bare import,
the bare import with one pydantic model made (what any pydantic model costs: the floor of an
SDK whose models are pydantic's), ``from kafka_config_admin import AdminClient``, and
(``--topics N``, 0 for none) that import followed by a first describe of every config of N
topics on a fresh client, what a program's first call pays on top of the import. Reported:
the median CPU seconds (user + system) of each step over ``--rounds`` rounds (11), and each
step's median over the bare import's; the load average before and after. Compare the trees
within one run: on a shared machine the figures of two runs differ by more than the changes
measured.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from kafka_config_admin.testing import start_cluster

from . import dataset

HERE = Path(__file__).parent
BARE_IMPORT = "import aiokafka, pydantic"
SDK_IMPORT = "from kafka_config_admin import AdminClient"
#: What any pydantic model costs before a line of ours: BaseModel, and one model class made
#: (its field machinery), its validator deferred as the SDK's are.
PYDANTIC_MODEL = f"""{BARE_IMPORT}
from pydantic import BaseModel, ConfigDict, Field
class Model(BaseModel):
    model_config = ConfigDict(defer_build=True)
    value: int = Field(default=1)
"""
#: The import, then one describe of every config of the topics named in argv[2] on a fresh
#: client (the ConfigResource the call needs imported and made as the docs do, by keyword).
FIRST_DESCRIBE = """
import asyncio, sys
from kafka_config_admin import AdminClient
from kafka_config_admin import ConfigResource, ResourceType

async def main():
    names = open(sys.argv[2]).read().split()
    async with AdminClient(sys.argv[1], timeout=120) as admin:
        configs = await admin.describe_configs(
            [ConfigResource(type=ResourceType.TOPIC, name=name) for name in names]
        ).all()
    assert len(configs) == len(names)

asyncio.run(main())
"""


def cpu_seconds(tree: Path, code: str, *args: str) -> float:
    """CPU seconds (user + system) of ``python -c code *args`` with the package of ``tree``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
        capture_output=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def load_average() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks import-trees")
    parser.add_argument("--before", type=Path, required=True, help="the tree to compare with")
    parser.add_argument("--after", type=Path, default=HERE.parent, help="(this checkout)")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--topics", type=int, default=200, help="0: no broker, no describe")
    args = parser.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    for label, tree in trees.items():
        if not (tree / "kafka_config_admin" / "__init__.py").is_file():
            parser.error(f"--{label} {tree}: no kafka_config_admin package there")
        compileall.compile_dir(tree / "kafka_config_admin", quiet=1)  # as installed: byte code
    steps: dict[str, tuple[str, ...]] = {
        "bare import": (BARE_IMPORT,),
        "one pydantic model": (PYDANTIC_MODEL,),
        "SDK import": (SDK_IMPORT,),
    }
    runs: dict[tuple[str, str], list[float]] = {
        (label, step): [] for label in trees for step in [*steps, "import + describe"]
    }
    with tempfile.TemporaryDirectory() as tmp:
        cluster = start_cluster(brokers=1) if args.topics else None
        try:
            if cluster is not None:
                names = asyncio.run(dataset.create(cluster.bootstrap_servers, args.topics))
                path = Path(tmp) / "topics.txt"
                path.write_text("\n".join(names))
                steps["import + describe"] = (FIRST_DESCRIBE, cluster.bootstrap_servers, str(path))
            load_before = load_average()
            for round_ in range(args.rounds):
                for label, tree in trees.items():
                    for step, command in steps.items():
                        runs[label, step].append(cpu_seconds(tree, *command))
                print(f"round {round_ + 1}/{args.rounds} done", flush=True)
            load_after = load_average()
        finally:
            if cluster is not None:
                cluster.stop()
    print(f"load average (1, 5, 15 min) before: {load_before}; after: {load_after}")
    for label, tree in trees.items():
        bare = statistics.median(runs[label, "bare import"])
        for step in steps:
            cpu = statistics.median(runs[label, step])
            print(f"{label} ({tree}): {step}: median CPU {cpu:.3f} s, {cpu / bare:.2f}x bare")
