"""The layering contracts (pyproject.toml, docs/architecture.md) hold, and they bite.

Each violation is planted in a copy of the package, and ``lint-imports`` must then name the
contract it breaks: a contract that cannot fail would guard nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package under ``tree``, with the project's contracts."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_package_keeps_every_contract() -> None:
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout, run.stdout


@pytest.mark.parametrize(
    ("module", "planted", "broken"),
    [
        # A core module reaching up into a face.
        ("_models/configs.py", "from .. import desired", "Layers: each imports"),
        # The core knows nothing of YAML.
        ("_ops/configs.py", "import yaml", "knows nothing of YAML"),
        # A lower core layer importing a higher one.
        ("_protocol/_schema.py", "from .._engine import engine", "Layers: each imports"),
        ("_models/topics.py", "from .._net import transport", "Layers: each imports"),
        # A face importing a private module of the core.
        ("cli/_describe.py", "from .._ops import topics", "only through the public package"),
        # A face using the package roots' lazy-exports helper.
        ("web/_app.py", "from .. import _exports", "Only the package roots"),
        # desired importing a face above it; one face importing another.
        ("desired/_plan.py", "from .. import cli", "Layers: each imports"),
        ("spark/_schema.py", "from ..cli import _main", "Layers: each imports"),
    ],
)
def test_a_planted_violation_breaks_its_contract(
    tmp_path: Path, module: str, planted: str, broken: str
) -> None:
    package = tmp_path / "kafka_config_admin"
    shutil.copytree(
        ROOT / "kafka_config_admin", package, ignore=shutil.ignore_patterns("__pycache__", "java")
    )
    target = package / module
    target.write_text(target.read_text() + f"\n{planted}  # planted by the test\n")
    run = lint_imports(tmp_path)
    assert run.returncode != 0, run.stdout
    report = run.stdout.split("Broken contracts", 1)[-1]
    assert broken in report, run.stdout
