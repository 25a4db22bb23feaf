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
