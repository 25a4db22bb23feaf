"""The faces' toolkit (``kafka_config_admin.toolkit``): what only the faces share, apart from
the SDK. The names that moved there from the package root are still read at the root for one
release: each warns, naming its new home, and is the very object of its new home."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import kafka_config_admin
from kafka_config_admin import toolkit

_PACKAGE = Path(kafka_config_admin.__file__).parent


@pytest.mark.parametrize("name", sorted(kafka_config_admin._MOVED))
def test_an_old_root_name_warns_and_is_the_toolkits_object(name: str) -> None:
    assert kafka_config_admin._MOVED[name] == f"kafka_config_admin.toolkit.{name}"
    with pytest.warns(
        DeprecationWarning,
        match=rf"kafka_config_admin\.{name} moved to kafka_config_admin\.toolkit\.{name}: "
        r"import it from kafka_config_admin\.toolkit",
    ):
        old = getattr(kafka_config_admin, name)
    assert old is getattr(toolkit, name)


#: The toolkit's names that were never at the package root (added after the move).
_NEVER_AT_THE_ROOT = {"gc_paused"}


def test_the_moved_names_are_the_toolkit_and_gone_from_the_root() -> None:
    assert set(kafka_config_admin._MOVED) == set(toolkit.__all__) - _NEVER_AT_THE_ROOT
    assert not set(toolkit.__all__) & set(kafka_config_admin.__all__)
    assert not set(toolkit.__all__) & set(dir(kafka_config_admin))
    # the 126 public names the root had besides __version__: the SDK's and the toolkit's
    assert len(kafka_config_admin.__all__) - 1 + len(kafka_config_admin._MOVED) == 126


def test_from_import_of_an_old_root_name_warns_too() -> None:
    with pytest.warns(DeprecationWarning, match="import it from kafka_config_admin.toolkit"):
        from kafka_config_admin import shorten
    assert shorten is toolkit.shorten


def test_every_read_warns_not_only_the_first() -> None:
    for _ in range(2):
        with pytest.warns(DeprecationWarning, match="kafka_config_admin.error_line moved"):
            kafka_config_admin.error_line  # noqa: B018


def test_importing_the_toolkit_imports_none_of_the_sdk() -> None:
    script = (
        "import sys, kafka_config_admin.toolkit; "
        "print(sorted(m for m in sys.modules if m.startswith(('kafka_config_admin.', 'aiokafka', "
        "'pydantic'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    assert loaded.strip() == "['kafka_config_admin._exports', 'kafka_config_admin.toolkit']"


def _imports_of_moved_names_from_the_root(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            target = path.parent
            for _ in range(node.level - 1):
                target = target.parent
            from_root = node.module is None and target == _PACKAGE
        else:
            from_root = node.module == "kafka_config_admin"
        if from_root:
            found += [a.name for a in node.names if a.name in kafka_config_admin._MOVED]
    return found


def test_no_module_of_the_package_reads_a_moved_name_from_the_root() -> None:
    """The faces and layers import the toolkit's names from the toolkit (a read at the root
    warns, and the test run turns warnings into errors; this says where, before any runs)."""
    found = {
        str(path.relative_to(_PACKAGE)): names
        for path in sorted(_PACKAGE.rglob("*.py"))
        if path.name != "__init__.py" or path.parent != _PACKAGE
        if (names := _imports_of_moved_names_from_the_root(path))
    }
    assert found == {}
