"""Write a reliability record: ``benchmarks/results/reliability/<topic>.json``.

The docs site renders every such file into docs/reliability.md (``tools/docs/hooks.py``), so
each figure on that page comes from a committed run of the command that wrote it. The shape:
``title``, ``command`` (what to run to record it again), ``recorded`` (UTC), ``commit``,
``machine``, ``figures`` (ordered ``label``/``value`` strings) and optional ``rows`` (flat
dicts, shown as a table).
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELIABILITY = ROOT / "benchmarks" / "results" / "reliability"


def commit() -> str:
    """The short hash of the checked-out commit, ``+changes`` when tracked files differ."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run(
        [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if not head:
        return "unknown"
    dirty = subprocess.run([*git, "diff", "--quiet", "HEAD", "--", "kafka_config_admin", "tests"])
    return head if dirty.returncode == 0 else f"{head}+changes"


def machine() -> str:
    """The cores and the load while the run ends: figures from a busy shared machine differ."""
    return f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"


def write_record(
    topic: str,
    *,
    title: str,
    command: str,
    figures: Sequence[tuple[str, object]],
    rows: Sequence[Mapping[str, object]] = (),
) -> Path:
    """Write the record of one run and return its path."""
    record = {
        "title": title,
        "command": command,
        "recorded": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit(),
        "machine": machine(),
        "figures": [{"label": label, "value": str(value)} for label, value in figures],
        "rows": [dict(row) for row in rows],
    }
    RELIABILITY.mkdir(parents=True, exist_ok=True)
    path = RELIABILITY / f"{topic}.json"
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    return path
