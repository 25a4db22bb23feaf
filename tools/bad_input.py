"""``python -m tools.bad_input`` (``nox -s bad_input``): the bad-input figures (reliability page).

Runs the SDK's and the command line's bad-input matrices against a real cluster (pytest starts
it) and writes ``benchmarks/results/reliability/bad-input.json``: how many cases each layer
tried and how many ended as they must, with each case's time (the first one's includes starting
the cluster). Each case's own checks (typed error
or exit code, one line naming the mistake, no traceback, nothing changed) are the tests'.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks/results/reliability/bad-input.json"
MATRICES = {
    "SDK": "tests/integration/test_bad_input_matrix.py",
    "CLI": "tests/integration/test_cli_bad_input.py",
}
COMMAND = "python3 -m nox -s bad_input"


def run_matrices(report: Path) -> int:
    """pytest over both matrices, its JUnit XML report in ``report``; pytest's exit code."""
    argv = [sys.executable, "-m", "pytest", *MATRICES.values(), "-q", f"--junitxml={report}"]
    return subprocess.run(argv, cwd=ROOT, check=False).returncode


def rows_of(report: Path) -> list[dict[str, str]]:
    rows = []
    for case in ElementTree.parse(report).iter("testcase"):
        if "[" not in case.get("name", ""):
            continue  # not a case of a matrix (a check of the matrix itself)
        path = case.get("classname", "").replace(".", "/") + ".py"
        layer = next((name for name, file in MATRICES.items() if path.endswith(file)), "?")
        failed = any(child.tag in ("failure", "error") for child in case)
        skipped = any(child.tag == "skipped" for child in case)
        outcome = "failed" if failed else "skipped" if skipped else "passed"
        name = case.get("name", "")
        rows.append(
            {
                "layer": layer,
                "case": name[name.find("[") + 1 : -1],
                "outcome": outcome,
                "seconds": f"{float(case.get('time', '0')):.1f}",
            }
        )
    return rows


def figures(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    out = []
    for layer in MATRICES:
        mine = [row for row in rows if row["layer"] == layer]
        passed = sum(row["outcome"] == "passed" for row in mine)
        out.append({"label": f"{layer} bad inputs tried", "value": str(len(mine))})
        out.append(
            {"label": f"{layer} cases that ended as they must", "value": f"{passed} of {len(mine)}"}
        )
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as work:
        report = Path(work) / "report.xml"
        code = run_matrices(report)
        rows = rows_of(report)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    document = {
        "title": "Bad input",
        "command": COMMAND,
        "recorded": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit,
        "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}",
        "figures": figures(rows),
        "rows": rows,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(rows)} cases, pytest exit {code}")
    return code


if __name__ == "__main__":
    sys.exit(main())
