"""docs/architecture.md names every module of the package: the map is the whole house.

A module is named when the row of its package in one of the map's tables (the row whose first
cell names the package, ``desired/``, or one of its modules, ``_ops/topics.py``) quotes it as
code: ``_plan``, ``_plan.py``, ``views/plan.py`` or its whole path. A package's own
``__init__.py`` is named with the package. Moving or adding a module without its line in the
map fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import kafka_config_admin

PACKAGE = Path(kafka_config_admin.__file__).parent
MAP = PACKAGE.parent / "docs" / "architecture.md"
_CODE = re.compile(r"`([^`\n]+)`")


def _rows(text: str) -> list[tuple[set[str], set[str]]]:
    """Each table row: the code its first cell quotes, and the code the whole row quotes."""
    rows = []
    for line in text.splitlines():
        cells = line.split(" | ")
        if line.startswith("| `") and len(cells) >= 2:
            rows.append((set(_CODE.findall(cells[0])), set(_CODE.findall(line))))
    return rows


def _named(module: Path, text: str, rows: list[tuple[set[str], set[str]]]) -> bool:
    parts = module.relative_to(PACKAGE).parts
    if module.name == "__init__.py":
        package = "/".join(parts[:-1])
        return not package or f"{package}/" in text or f"`{parts[-2]}/`" in text
    top = parts[0] if len(parts) > 1 else None
    path = "/".join(parts)
    forms = {path, path.removesuffix(".py")}
    for start in range(1, len(parts)):
        tail = "/".join(parts[start:])
        forms |= {tail, tail.removesuffix(".py")}
    for heads, quoted in rows:
        mine = (
            path in heads
            if top is None
            else any(head == f"{top}/" or head.startswith(f"{top}/") for head in heads)
        )
        if mine and forms & quoted:
            return True
    return False


def _unnamed() -> list[str]:
    text = MAP.read_text(encoding="utf-8")
    rows = _rows(text)
    return sorted(
        str(module.relative_to(PACKAGE))
        for module in PACKAGE.rglob("*.py")
        if not _named(module, text, rows)
    )


def test_the_architecture_map_names_every_module() -> None:
    assert _unnamed() == []


def test_the_check_sees_a_module_the_map_does_not_name() -> None:
    text = MAP.read_text(encoding="utf-8")
    rows = _rows(text)
    assert _named(PACKAGE / "desired" / "_plan.py", text, rows)
    assert _named(PACKAGE / "_ops" / "groups.py", text, rows)
    assert not _named(PACKAGE / "desired" / "_nowhere.py", text, rows)
    # A stem quoted in another package's row is not this package's module.
    assert not _named(PACKAGE / "web" / "_plan.py", text, rows)
