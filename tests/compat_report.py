"""Gather a ``nox -s compat`` run into the committed results the docs are made from.

For each Kafka release the run tried, ``<runs>/junit-<version>.xml`` holds the ``compat`` test
outcomes and ``<runs>/apis-<version>.json`` what the broker advertised and the client chose
(written by ``tests/integration/test_generations.py``). This writes
``benchmarks/results/compat.json`` (docs/compatibility.md's table) and
``benchmarks/results/reliability/generations.json`` (docs/reliability.md's figures), and exits
1 when a release failed a test or left no record.

    python -m tests.compat_report --runs DIR --command "python3 -m nox -s compat" 4.4.0 3.9.1
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

from kafka_config_admin.testing._generations import generation_of

from .record import commit, machine, write_record

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"


def outcomes(junit: Path) -> dict[str, int]:
    """Passed, failed and skipped test counts of one pytest run (its JUnit XML)."""
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            counts["failed"] += 1
        elif case.find("skipped") is not None:
            counts["skipped"] += 1
        else:
            counts["passed"] += 1
    return counts


def broker_run(runs: Path, version: str) -> dict[str, Any]:
    """What one release's run left: its test counts and its negotiated versions."""
    junit, apis = runs / f"junit-{version}.xml", runs / f"apis-{version}.json"
    tests = outcomes(junit) if junit.exists() else None
    negotiated = json.loads(apis.read_text())["apis"] if apis.exists() else None
    return {
        "kafka_version": version,
        "generation": generation_of(version).name,
        "tests": tests,
        "apis": negotiated,
    }


def passed(run: dict[str, Any]) -> bool:
    tests = run["tests"]
    return bool(tests and tests["passed"] and not tests["failed"] and run["apis"])


def figures(runs: list[dict[str, Any]]) -> list[tuple[str, object]]:
    """The headline numbers: releases passed, then the tests of each."""
    ok = [run["kafka_version"] for run in runs if passed(run)]
    lines: list[tuple[str, object]] = [
        ("broker versions passed", f"{len(ok)} of {len(runs)} ({', '.join(ok) or 'none'})")
    ]
    for run in runs:
        tests = run["tests"] or {"passed": 0, "failed": 0, "skipped": 0}
        lines.append(
            (
                f"compat tests on Kafka {run['kafka_version']} ({run['generation']})",
                f"{tests['passed']} passed, {tests['failed']} failed, {tests['skipped']} skipped",
            )
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, required=True, help="where the runs left files")
    parser.add_argument("--command", required=True, help="the command that made the run")
    parser.add_argument("versions", nargs="+", help="the Kafka releases the run tried")
    args = parser.parse_args(argv)
    runs = [broker_run(args.runs, version) for version in args.versions]
    header = {
        "command": args.command,
        "recorded": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit(),
        "machine": machine(),
    }
    (RESULTS / "compat.json").write_text(json.dumps({**header, "brokers": runs}, indent=1) + "\n")
    write_record(
        "generations",
        title="Broker generations",
        command=args.command,
        figures=figures(runs),
        rows=[
            {"Kafka": run["kafka_version"], "generation": run["generation"], **(run["tests"] or {})}
            for run in runs
        ],
    )
    failed = [run["kafka_version"] for run in runs if not passed(run)]
    if failed:
        print(f"compat: failed on Kafka {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
