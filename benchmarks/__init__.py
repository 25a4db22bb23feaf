"""Benchmarks: kafka-config-admin against every peer, on one real broker (`nox -s bench`).

- ``dataset``: the topics the workloads read and change.
- ``peers``: one module per client, each used the way its own docs recommend, plus ``floor``,
  the same requests pre-encoded over a plain socket with responses read but not decoded.
- ``runner``: runs one client's workloads in a subprocess of its own and prints JSON.
- ``report``: medians, spread and ratios to our SDK, as markdown and JSON.
- ``spark`` (``python -m benchmarks spark``): snapshot throughput and memory of the Spark source.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_json_module(module: str, *args: str, tree: Path | None = None) -> dict[str, Any]:
    """Run ``python -m module args`` from the repository root (or from another source ``tree``
    of it, whose packages it then imports); its last output line, as JSON."""
    output = subprocess.run(
        [sys.executable, "-m", module, *args],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        cwd=tree or Path(__file__).parent.parent,
    ).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def machine() -> dict[str, Any]:
    """What the figures were measured on, and how busy it was (load averages now)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent,
    ).stdout.strip()
    return {
        "cores": os.cpu_count(),
        "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30),
        "commit": commit or "unknown",
        "load": [round(value, 1) for value in os.getloadavg()],
        "open_files_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    }


def memory_mb(field: str = "VmRSS") -> float:
    """A memory figure of this process from /proc/self/status (Linux), in MB: ``VmRSS`` now,
    ``VmHWM`` its peak since :func:`reset_peak_rss`."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024 / 1e6  # kB
    raise RuntimeError(f"/proc/self/status has no {field}")


def reset_peak_rss() -> None:
    """Make the peak RSS (``VmHWM``) the current RSS: what follows is measured on its own.

    ``getrusage``'s peak cannot be reset, and a process forked from a larger one starts with
    that one's peak.
    """
    Path("/proc/self/clear_refs").write_text("5")
