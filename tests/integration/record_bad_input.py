"""``nox -s bad_input``: run the bad-input matrix on the real cluster and record the outcome.

    python -m tests.integration.record_bad_input

runs ``tests/integration/test_bad_input_matrix.py`` (it starts the session cluster itself) with
a JUnit XML report, and writes ``benchmarks/results/reliability/bad-input.json``: the cases
tried, the cases passed, and per class of error expected the cases, how many passed and the
slowest. The record is written whatever happened; the command fails when a case failed.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

from tests.integration.test_bad_input_matrix import CASES, Case
from tests.record import ROOT, write_record

MATRIX = "tests/integration/test_bad_input_matrix.py"
TEST = "test_bad_input"


def error_names(case: Case) -> str:
    errors = case.error if isinstance(case.error, tuple) else (case.error,)
    return " or ".join(error.__name__ for error in errors)


def outcomes(report: Path) -> dict[str, tuple[str, float]]:
    """Per case name: ``passed``, ``failed``, ``error`` or ``skipped``, and its seconds."""
    found: dict[str, tuple[str, float]] = {}
    for testcase in ElementTree.parse(report).iter("testcase"):
        name = testcase.get("name", "")
        if not name.startswith(f"{TEST}["):
            continue
        children = {child.tag for child in testcase}
        status = next((s for s in ("failure", "error", "skipped") if s in children), "passed")
        found[name[len(TEST) + 1 : -1]] = (status, float(testcase.get("time", "0")))
    return found


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bad-input-") as directory:
        report = Path(directory) / "junit.xml"
        completed = subprocess.run(
            [
                *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", MATRIX),
                *("-o", "junit_duration_report=call", f"--junitxml={report}"),
            ],
            cwd=ROOT,
            check=False,
        )
        results = outcomes(report) if report.exists() else {}
    by_error: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for case in CASES:
        test_id = case.name.encode("unicode_escape").decode("ascii")  # as pytest escapes ids
        by_error[error_names(case)].append(results.get(test_id, ("not run", 0.0)))
    passed = sum(status == "passed" for cases in by_error.values() for status, _ in cases)
    path = write_record(
        "bad-input",
        title="Bad input",
        command="python3 -m nox -s bad_input",
        figures=[
            ("cases tried", len(CASES)),
            (
                "cases passed (typed error naming the input, in time, nothing changed)",
                f"{passed} of {len(CASES)}",
            ),
            ("classes of error expected", len(by_error)),
            ("slowest case", f"{max((t for _, t in results.values()), default=0):.1f} s"),
        ],
        rows=[
            {
                "error": error,
                "cases": len(cases),
                "passed": sum(status == "passed" for status, _ in cases),
                "slowest (s)": f"{max(t for _, t in cases):.1f}",
            }
            for error, cases in sorted(by_error.items(), key=lambda item: -len(item[1]))
        ],
    )
    print(f"recorded in {path.relative_to(ROOT)}")
    return completed.returncode


if __name__ == "__main__":
    sys.exit(main())
