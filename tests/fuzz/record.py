"""``nox -s fuzz``: fuzz every decoder, then record the run in ``reliability/fuzz.json``.

    python -m tests.fuzz.record --examples 400 --seconds 120

1. the hypothesis tests of ``tests/unit/test_protocol_fuzz.py`` with ``--examples`` examples
   per test and decoded message, counting the examples each message and version really ran
   (this module is also the pytest plugin that counts them, through hypothesis's observability
   callbacks);
2. ``tests/fuzz/fuzz_decoders.py`` (atheris, libFuzzer) for ``--seconds``, counting the inputs
   it executed (libFuzzer's final stats) and the crashes it left (its crash, timeout and
   out-of-memory artifacts).

The record is written whatever happened; the command fails when either part found a problem.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis.internal import observability

from tests.record import ROOT, write_record

TESTS = "tests/unit/test_protocol_fuzz.py"
#: What each hypothesis test of TESTS tries, by the start of its name.
KINDS = {
    "test_every_truncation": "truncations",
    "test_mutated_messages": "mutations",
    "test_random_bytes": "random bytes",
}
_STAT = re.compile(r"^stat::(?P<name>\w+):\s+(?P<value>\d+)$", re.MULTILINE)


# --- the pytest plugin: examples per test and message ------------------------------------------

_counts: Counter[tuple[str, str]] = Counter()
_current: list[pytest.Item] = []


def _observe(observation: Any) -> None:
    if observation.type == "test_case" and _current:
        item = _current[-1]
        callspec = getattr(item, "callspec", None)
        kind = next((k for start, k in KINDS.items() if item.name.startswith(start)), None)
        if callspec is not None and kind is not None:
            _counts[(callspec.id, kind)] += 1


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fuzz-counts", help="write the examples run per message here (JSON)")


def pytest_configure(config: pytest.Config) -> None:
    # Coverage per example is observability's costliest part, and not needed to count.
    observability.OBSERVABILITY_COLLECT_COVERAGE = False
    observability.add_observability_callback(_observe)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    _current.append(item)
    try:
        return (yield)
    finally:
        _current.pop()


def pytest_unconfigure(config: pytest.Config) -> None:
    observability.remove_observability_callback(_observe)
    path = config.getoption("--fuzz-counts")
    if path:
        counts = [{"message": m, "kind": k, "examples": n} for (m, k), n in _counts.items()]
        Path(path).write_text(json.dumps(counts))


# --- the run and its record --------------------------------------------------------------------


def run_hypothesis(examples: int, counts_file: Path) -> tuple[int, list[dict[str, Any]]]:
    """Pytest's exit code, and the examples each message ran per kind of test."""
    completed = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "tests.fuzz.record", TESTS),
            f"--fuzz-counts={counts_file}",
        ],
        cwd=ROOT,
        env={**os.environ, "KAFKA_CONFIG_ADMIN_FUZZ_EXAMPLES": str(examples)},
        check=False,
    )
    counts = json.loads(counts_file.read_text()) if counts_file.exists() else []
    return completed.returncode, counts


def run_atheris(seconds: int, work: Path) -> tuple[int, dict[str, int], list[str], float]:
    """libFuzzer's exit code, its final stats, the artifacts it left and the seconds taken."""
    started = time.monotonic()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "tests.fuzz.fuzz_decoders", f"--corpus={work}/corpus"),
            *(f"-artifact_prefix={work}/", f"-max_total_time={seconds}", "-print_final_stats=1"),
            *("-timeout=5", "-rss_limit_mb=2048"),  # seconds one input may take: a hang is a crash
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    output = []
    for line in process.stderr:  # echoed, so a long run shows its progress
        sys.stderr.write(line)
        output.append(line)
    returncode = process.wait()
    stats = {m["name"]: int(m["value"]) for m in _STAT.finditer("".join(output))}
    artifacts = sorted(
        path.name
        for path in work.iterdir()
        if path.name.startswith(("crash-", "timeout-", "oom-", "leak-"))
    )
    return returncode, stats, artifacts, time.monotonic() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=400, help="per test and message")
    parser.add_argument("--seconds", type=int, default=120, help="of atheris")
    parser.add_argument("--work", type=Path, help="for the corpus and any crash (default: temp)")
    args = parser.parse_args(argv)
    work: Path = args.work or Path(tempfile.mkdtemp(prefix="fuzz-"))
    work.mkdir(parents=True, exist_ok=True)
    pytest_code, counts = run_hypothesis(args.examples, work / "counts.json")
    atheris_code, stats, artifacts, seconds = run_atheris(args.seconds, work)
    per_message: dict[str, dict[str, object]] = {}
    for count in counts:
        message, _, version = count["message"].rpartition("-")
        row = per_message.setdefault(count["message"], {"message": message, "version": version})
        row[f"{count['kind']} examples"] = count["examples"]
    executed = stats.get("number_of_executed_units")
    path = write_record(
        "fuzz",
        title="Decoder fuzzing",
        command=f"KAFKA_CONFIG_ADMIN_FUZZ_EXAMPLES={args.examples} "
        f"python3 -m nox -s fuzz -- {args.seconds}",
        figures=[
            ("messages and versions decoded", len(per_message)),
            ("hypothesis examples run", f"{sum(c['examples'] for c in counts):,}"),
            ("hypothesis tests", "passed" if pytest_code == 0 else f"failed (exit {pytest_code})"),
            ("atheris inputs executed", "not reported" if executed is None else f"{executed:,}"),
            ("atheris wall time, seeds drawn included", f"{seconds:.0f} s"),
            ("atheris peak RSS", f"{stats.get('peak_rss_mb', '?')} MB"),
            ("crashes, hangs and out-of-memory inputs", len(artifacts)),
        ],
        rows=list(per_message.values()),
    )
    print(f"recorded in {path.relative_to(ROOT)}")
    if artifacts:
        print(f"atheris left {', '.join(artifacts)}", file=sys.stderr)
    return 1 if pytest_code or atheris_code or artifacts else 0


if __name__ == "__main__":
    sys.exit(main())
