"""Every CLI command module is registered: a command exists only once its module is imported.

``kafka_config_admin.cli`` imports its command modules for their ``@cli.command()`` side
effect; a new module left out of that import would silently drop its commands.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import kafka_config_admin.cli

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


def test_every_command_module_is_registered_by_importing_the_cli() -> None:
    defined = {
        path.stem: commands_defined_in(path.read_text(encoding="utf-8"))
        for path in sorted(CLI_PACKAGE.glob("*.py"))
    }
    defined = {module: names for module, names in defined.items() if names}
    assert defined, "no command found: the scan no longer matches how commands are declared"
    # A fresh interpreter: this one may have imported command modules for other tests.
    script = "import json, kafka_config_admin.cli as c; print(json.dumps(sorted(c.cli.commands)))"
    registered = json.loads(
        subprocess.run(
            [sys.executable, "-c", script], check=True, capture_output=True, text=True
        ).stdout
    )
    missing = {
        module: [name for name in names if name not in registered]
        for module, names in defined.items()
    }
    assert not {module: names for module, names in missing.items() if names}, registered


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
