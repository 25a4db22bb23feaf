"""The package's shape at git revisions: files and lines of Python per layer, side by side.

    python -m tools.package_lines ed7ef29 main          # a Markdown table
    python -m tools.package_lines ed7ef29 main --tree   # and each group's modules

Every ``.py`` file under ``kafka_config_admin/`` at each revision is read from git (the work
tree is not used), and put in a group: a core package (``_engine``, ``_models``, ``_net``,
``_ops``, ``_protocol``), the core's modules at the package's top (``__init__``,
``_client``, ...; before issue 20 the whole core was such flat private modules), ``connect``,
or a face (``desired``, ``cli``, ``spark``, ``testing``, ``web``). Lines are all lines;
"code" lines leave out blank lines, comment lines and docstring lines.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

PACKAGE = "kafka_config_admin"
#: The groups in the table's order, with the layer each belongs to.
LAYERS = {
    "_protocol": "core",
    "_models": "core",
    "_net": "core",
    "_ops": "core",
    "_engine": "core",
    "top-level core modules": "core",
    "connect": "connect",
    "desired": "desired",
    "cli": "faces",
    "spark": "faces",
    "web": "faces",
    "testing": "faces",
}


@dataclass
class Group:
    """The ``.py`` files of one group at one revision."""

    modules: list[str] = field(default_factory=list)
    lines: int = 0
    code: int = 0


def group_of(path: str) -> str:
    """The group of a file, by its path under the package."""
    parts = path.split("/")[1:]
    if len(parts) > 1:
        return parts[0]
    return "connect" if parts[0] == "connect.py" else "top-level core modules"


def code_lines(text: str) -> int:
    """Lines that are neither blank, nor comments, nor part of a docstring."""
    docstring_lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                end = value.end_lineno or value.lineno
                docstring_lines.update(range(value.lineno, end + 1))
    return sum(
        1
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.strip().startswith("#") and number not in docstring_lines
    )


def shape(revision: str) -> dict[str, Group]:
    """Each group's modules, lines and code lines at ``revision``."""
    listing = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", revision, PACKAGE],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    groups: dict[str, Group] = defaultdict(Group)
    for path in listing:
        if not path.endswith(".py"):
            continue
        text = subprocess.run(
            ["git", "show", f"{revision}:{path}"], check=True, capture_output=True, text=True
        ).stdout
        group = groups[group_of(path)]
        group.modules.append(path.removeprefix(f"{PACKAGE}/"))
        group.lines += len(text.splitlines())
        group.code += code_lines(text)
    return groups


def table(revisions: Sequence[str], shapes: Sequence[dict[str, Group]]) -> list[str]:
    """A Markdown table: a row per group, a subtotal per layer, then the total."""
    head = "| layer | group | " + " | ".join(f"{rev}: files | lines | code" for rev in revisions)
    rows = [head + " |", "|---|---|" + "---:|---:|---:|" * len(revisions)]

    def cells(selected: Sequence[str]) -> str:
        out = []
        for groups in shapes:
            found = [groups[name] for name in selected if name in groups]
            out.append(
                f"{sum(len(g.modules) for g in found)} | {sum(g.lines for g in found):,} | "
                f"{sum(g.code for g in found):,}"
            )
        return " | ".join(out)

    known = set(LAYERS)
    extra = sorted({name for groups in shapes for name in groups} - known)
    for layer in dict.fromkeys(LAYERS.values()):
        members = [name for name, of in LAYERS.items() if of == layer]
        for name in members:
            if any(name in groups for groups in shapes):
                rows.append(f"| {layer} | {name} | {cells([name])} |")
        if len(members) > 1:
            rows.append(f"| **{layer}** | all | {cells(members)} |")
    for name in extra:
        rows.append(f"| ? | {name} | {cells([name])} |")
    rows.append(f"| **package** | all | {cells([*LAYERS, *extra])} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("revisions", nargs="+", help="git revisions, e.g. ed7ef29 main")
    parser.add_argument("--tree", action="store_true", help="list each group's modules too")
    args = parser.parse_args()
    shapes = [shape(revision) for revision in args.revisions]
    print("\n".join(table(args.revisions, shapes)))
    if args.tree:
        for revision, groups in zip(args.revisions, shapes, strict=True):
            print(f"\n{revision}:")
            for name in [*LAYERS, *sorted(set(groups) - set(LAYERS))]:
                if name in groups:
                    print(f"  {name}: {' '.join(sorted(groups[name].modules))}")


if __name__ == "__main__":
    main()
