"""``python -m benchmarks cli --part breakdown``: where a command's fixed cost goes, no broker.

What ``plan FILE`` pays besides the SDK's own reads (issue 23: ``plan`` of 2,000 topics within
1.3x of the SDK's describe), step by step, CPU seconds (user + system), medians of
``--repeats`` (5):

- imports, each in a new interpreter (byte code cached, as an installed package runs), layer
  on layer: a bare ``import aiokafka, pydantic``; ``import kafka_config_admin``; the SDK's
  ``AdminClient``; what ``plan`` uses of ``desired`` (load, read, plan); the ``plan`` command's
  own module (tables, YAML, the CLI's other modules);
- in a new interpreter with those imported, collecting garbage as a command does, on a file
  of ``--topics`` topics (2,000) each setting ``retention.ms``: the file read and validated;
  the plan against the state ``read_state`` reads for it (every topic listed, its
  ``retention.ms`` at the broker's default, the catalog of the newest release: what a broker
  answers, without a broker); the plan's table printed as the command prints it to a pipe;
  the plan as JSON (``--output json``).

Run by :mod:`benchmarks.cli`; ``python -m benchmarks.cli_breakdown FILE`` is the in-process
part alone, once (prints JSON).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: Import layers: name, the layer it adds to (None: none), code, what it is. Each runs in a
#: new interpreter.
IMPORTS: list[tuple[str, str | None, str, str]] = [
    ("bare", None, "import aiokafka, pydantic", "bare `import aiokafka, pydantic`"),
    ("package", None, "import kafka_config_admin", "`import kafka_config_admin`"),
    ("sdk", "bare", "from kafka_config_admin import AdminClient", "the SDK's `AdminClient`"),
    (
        "desired",
        "sdk",
        "from kafka_config_admin import AdminClient\n"
        "from kafka_config_admin.desired import load_desired_state, make_plan, read_state",
        "+ what `plan` uses of `desired` (load, read, plan)",
    ),
    (
        "command",
        "desired",
        "from kafka_config_admin.cli._desired import plan",
        "+ the `plan` command's module (CLI, tables, YAML)",
    ),
]

#: In-process steps: name, what it is.
STEPS = [
    ("load", "read and validate the file"),
    ("plan", "plan against the state read_state reads"),
    ("table", "the plan's table, printed to a pipe"),
    ("json", "the plan as JSON (`--output json`)"),
]

#: Every command as an installed package runs: byte code cached, not compiled at each start.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def child_cpu(command: Sequence[str]) -> tuple[float, str]:
    """CPU seconds (user + system) of one child process, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done.stdout


def write_file(path: Path, topics: int) -> list[str]:
    """A desired-state file setting ``retention.ms`` on ``topics`` topics; their names."""
    names = [f"bench-{index:05d}" for index in range(topics)]
    entries = "".join(
        f"  - name: {name}\n    configs: {{retention.ms: 7200000}}\n" for name in names
    )
    path.write_text(f"version: 1\ntopics:\n{entries}")
    return names


def steps(file: Path) -> dict[str, float]:
    """Each in-process step's CPU seconds, once, as a command does them (run in a new
    interpreter: see :func:`measure`)."""
    from kafka_config_admin import (
        CatalogMatch,
        Config,
        ConfigEntry,
        ConfigResource,
        ConfigSource,
        ConfigType,
        ResourceType,
    )
    from kafka_config_admin.cli._desired import print_plan
    from kafka_config_admin.cli._main import fewer_collections
    from kafka_config_admin.desired import Plan, load_desired_state, make_plan
    from kafka_config_admin.state import ClusterState
    from kafka_config_admin.toolkit import catalog_releases, load_catalog

    found: dict[str, float] = {}

    def timed(name: str, step: Callable[[], T]) -> T:
        start = time.process_time()
        done = step()
        found[name] = time.process_time() - start
        return done

    with fewer_collections():  # as the command runs
        desired = timed("load", lambda: load_desired_state(file))
        default = ConfigEntry(
            name="retention.ms",
            value="604800000",
            source=ConfigSource.DEFAULT_CONFIG,
            is_default=True,
            type=ConfigType.LONG,
        )
        names = [spec.name for spec in desired.named_topics if spec.name is not None]
        state = ClusterState(
            configs={
                ConfigResource(ResourceType.TOPIC, n): Config(entries=(default,)) for n in names
            },
            topics=frozenset(names),
            catalog=CatalogMatch(load_catalog(catalog_releases()[-1]), exact=True),
        )
        made: Plan = timed("plan", lambda: make_plan(desired, state))
        timed("table", lambda: print_plan(made, "bench"))
        timed("json", made.to_json)
    return found


def measure(topics: int, repeats: int, work: Path) -> dict[str, Any]:
    """Every import layer and in-process step, ``repeats`` times in turn, each in a new
    interpreter."""
    file = work / "breakdown.yaml"
    write_file(file, topics)
    imports: dict[str, list[float]] = {name: [] for name, _, _, _ in IMPORTS}
    inside: dict[str, list[float]] = {name: [] for name, _ in STEPS}
    for _ in range(repeats):
        for name, _, code, _ in IMPORTS:
            imports[name].append(child_cpu([sys.executable, "-c", code])[0])
        _, output = child_cpu([sys.executable, "-m", "benchmarks.cli_breakdown", str(file)])
        for name, seconds in json.loads(output).items():
            inside[name].append(seconds)
    return {"topics": topics, "imports": imports, "steps": inside}


def markdown(part: dict[str, Any]) -> list[str]:
    """The breakdown as a table: each step's median CPU seconds and its share."""
    imports = {name: statistics.median(v) for name, v in part["imports"].items()}
    inside = {name: statistics.median(v) for name, v in part["steps"].items()}
    lines = [
        "### Where a command's fixed cost goes (no broker)",
        "",
        f"`{part['command']}` at commit {part['commit']}: {part['topics']} topics, "
        f"{len(part['imports']['bare'])} repeats. Load average (1, 5, 15 min) before: "
        f"{part['load_before']}; after: {part['load_after']}. Median CPU seconds (user + "
        "system); imports each in a new interpreter, layer on layer (cost: what a layer adds to "
        "the one it is built on; the SDK's is built on the bare import); the other steps in a "
        "new interpreter each repeat, on a fake state as `read_state` reads it, collecting "
        "garbage as a command does.",
        "",
        "| step | CPU s | cost s |",
        "|---|---|---|",
    ]
    for name, base, _, said in IMPORTS:
        cost = "-" if base is None else f"{imports[name] - imports[base]:+.3f}"
        lines.append(f"| {said} | {imports[name]:.3f} | {cost} |")
    for name, said in STEPS:
        lines.append(f"| {said} | {inside[name]:.3f} | {inside[name]:+.3f} |")
    fixed = imports["command"] - imports["sdk"] + inside["load"] + inside["plan"] + inside["table"]
    lines += [
        "",
        f"`plan`'s fixed cost beyond the SDK's import (its imports, the file, the plan, the "
        f"table): {fixed:.3f} s CPU.",
        "",
    ]
    return lines


if __name__ == "__main__":
    # The table goes to stderr (a pipe) as the command's does; the bench reads only stdout.
    print(json.dumps(steps(Path(sys.argv[1]))))
