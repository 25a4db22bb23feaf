"""Every CLI command is registered, and ``--help`` answers without importing the SDK.

A command exists only once its module is imported: the group imports a command's module when it
is chosen, from ``_main.COMMANDS``; a command left out of that table would silently be missing,
and a stale summary there would show wrong help.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import kafka_config_admin.cli
from kafka_config_admin.cli._main import COMMANDS

CLI_PACKAGE = Path(kafka_config_admin.cli.__file__).parent


def commands_defined_in(source: str) -> list[str]:
    """The names of the commands a module adds to the ``cli`` group (``@cli.command()`` or
    ``@cli.group()``, with or without an explicit name)."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            target = call.func if call is not None else decorator
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "cli"
                and target.attr in ("command", "group")
            ):
                given = call.args[0] if call is not None and call.args else None
                name = given.value if isinstance(given, ast.Constant) else None
                names.append(str(name or node.name.replace("_", "-")))
    return names


def test_every_command_is_in_the_table_with_its_module_and_summary() -> None:
    defined = {
        name: f"._{path.stem.lstrip('_')}"
        for path in sorted(CLI_PACKAGE.glob("*.py"))
        for name in commands_defined_in(path.read_text(encoding="utf-8"))
    }
    assert defined, "no command found: the scan no longer matches how commands are declared"
    assert {name: module for name, (module, _) in COMMANDS.items()} == defined
    # A fresh interpreter: this one may have imported command modules for other tests.
    script = (
        "import json, click, kafka_config_admin.cli as c\n"
        "ctx = click.Context(c.cli)\n"
        "found = {n: c.cli.get_command(ctx, n) for n in c.cli.list_commands(ctx)}\n"
        "print(json.dumps({n: cmd.get_short_help_str(limit=10**6) for n, cmd in found.items()}))"
    )
    summaries = json.loads(
        subprocess.run(
            [sys.executable, "-c", script], check=True, capture_output=True, text=True
        ).stdout
    )
    assert summaries == {name: summary for name, (_, summary) in COMMANDS.items()}


@pytest.mark.parametrize(
    "arguments", [["--help"], ["--version"], ["no-such-command"], ["--no-such-option"], []]
)
def test_the_group_answers_without_importing_the_sdk(arguments: list[str]) -> None:
    """``--help``, ``--version`` and the group's usage errors load none of the SDK, aiokafka,
    pydantic, rich or a command's module (no timing here: ``nox -s bench -- cli`` times it)."""
    script = (
        "import sys\n"
        "from kafka_config_admin.__main__ import run\n"
        "try:\n"
        "    run()\n"
        "finally:\n"
        "    heavy = ('aiokafka', 'pydantic', 'rich', 'yaml', 'anyio', 'kafka_config_admin.')\n"
        "    light = ('kafka_config_admin._exceptions', 'kafka_config_admin.cli', "
        "'kafka_config_admin.cli._main', 'kafka_config_admin.__main__')\n"
        "    print(sorted(m for m in sys.modules if m.startswith(heavy) and m not in light),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *arguments], capture_output=True, text=True, check=False
    )
    assert done.returncode in (0, 2), done.stderr
    assert done.stderr.splitlines()[-1] == "[]"
    if arguments == ["--help"]:
        assert all(f"  {name} " in done.stdout for name in COMMANDS), done.stdout


def test_the_scan_finds_commands_however_they_are_named() -> None:
    source = """
@cli.command()
def describe_all(): ...

@cli.command("watch")
def run_watch(): ...

@cli.group()
def quotas(): ...

@quotas.command()
def alter(): ...
"""
    assert commands_defined_in(source) == ["describe-all", "watch", "quotas"]
