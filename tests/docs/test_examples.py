"""Every program in examples/ runs to completion against the session's real cluster.

An example is run as a reader would run it: ``python examples/NAME.py`` with
``KAFKA_BOOTSTRAP_SERVERS`` set, no arguments, and must exit 0 on its own. An example that needs
an optional extra of the package says so in a line ``# example-needs-extra: NAME``; when that
extra is not installed, its test fails and says which extra to install: it is never skipped.
A program that needs arguments naming real files and clusters, and is run end to end by
another example, names it in a line ``# example-run-by: OTHER.py``; its test then checks that
OTHER.py exists and runs it (OTHER's own test runs it). An example that a nox session of its
own runs in CI (starting clusters of its own) says ``# example-run-by: nox -s NAME``; its test
checks that the session runs it and that .ci/run runs the session.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from .snippets import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
_NEEDS_EXTRA = re.compile(r"^# example-needs-extra: (?P<extra>[\w-]+)\s*$", re.MULTILINE)
_RUN_BY = re.compile(r"^# example-run-by: (?P<runner>[\w-]+\.py|nox -s [\w-]+)\s*$", re.MULTILINE)
#: The longest example (the Spark audit on two clusters of its own) takes about 5 minutes on a
#: busy 2-core machine; longer means it hangs.
TIMEOUT = 600


def extras_needed(example: Path) -> list[str]:
    return _NEEDS_EXTRA.findall(example.read_text())


def missing_requirements(extra: str) -> list[str]:
    """The distributions the package's ``extra`` asks for that are not installed."""
    requirements = [Requirement(text) for text in metadata.requires("kafka-config-admin") or []]
    wanted = [req for req in requirements if req.marker and req.marker.evaluate({"extra": extra})]
    if not wanted:
        raise AssertionError(f"kafka-config-admin has no extra named {extra!r}")
    missing = []
    for requirement in wanted:
        try:
            metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            missing.append(str(requirement))
    return missing


@pytest.mark.integration
@pytest.mark.timeout(TIMEOUT + 30)
@pytest.mark.parametrize("example", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_example_runs(example: Path, kafka_bootstrap: str) -> None:
    for extra in extras_needed(example):
        missing = missing_requirements(extra)
        if missing:
            pytest.fail(
                f"{example.name} needs the {extra!r} extra, and {', '.join(missing)} is not "
                f"installed: install kafka-config-admin[{extra}] in the test environment"
            )
    run_by = _RUN_BY.search(example.read_text())
    if run_by is not None and run_by.group("runner").startswith("nox -s "):
        session = run_by.group("runner").removeprefix("nox -s ")
        noxfile = (ROOT / "noxfile.py").read_text()
        body = noxfile.partition(f"def {session}(")[2].partition("\n@nox.session")[0]
        assert f"examples/{example.name}" in body, f"nox -s {session} does not run {example.name}"
        assert f"nox -s {session}" in (ROOT / ".ci" / "run").read_text(), (
            f"CI does not run nox -s {session}"
        )
        return
    if run_by is not None:
        runner = example.parent / run_by.group("runner")
        assert runner.is_file(), f"{example.name} says {runner.name} runs it; there is none"
        assert re.search(rf"\b{example.stem}\b", runner.read_text()), (
            f"{runner.name} does not run {example.name}"
        )
        return
    env = {**os.environ, "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap, "PYTHONUNBUFFERED": "1"}
    completed = subprocess.run(
        [sys.executable, str(example)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert completed.returncode == 0, (
        f"{example.name} exited with {completed.returncode}\n"
        f"--- stdout\n{completed.stdout}\n--- stderr\n{completed.stderr}"
    )
    assert completed.stdout.strip(), f"{example.name} printed nothing"


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 3, EXAMPLES  # and each is a test of its own
