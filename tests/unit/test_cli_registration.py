"""Every CLI command is declared in one light module, and its help and usage errors load none of
the SDK.

``cli._commands`` declares every command (click alone); each command imports its work when it
runs. A command declared anywhere else would be missing from the group unless its module
happened to be imported, and an SDK import slipped into the declarations would make every
``--help`` pay for the SDK.
"""

from __future__ import annotations

import ast
import gc
import importlib
import inspect
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest

import kafka_config_admin.cli
from kafka_config_admin import DEFAULT_TIMEOUT
from kafka_config_admin.changeset import DEFAULT_REASSIGNMENT_TIMEOUT
from kafka_config_admin.cli import _main, _options, cli
from kafka_config_admin.cli._entities import ENTITY_TYPES
from kafka_config_admin.state import ResourceKind

CLI_PACKAGE = Path(kafka_config_admin.cli.__file__).parent
COMMANDS = sorted(cli.commands)
#: What may be loaded before a command runs: click's own modules and these of ours.
LIGHT = {
    "kafka_config_admin",
    "kafka_config_admin.__main__",
    "kafka_config_admin._exceptions",
    "kafka_config_admin._exports",
    "kafka_config_admin.cli",
    "kafka_config_admin.cli._commands",
    "kafka_config_admin.cli._exit",
    "kafka_config_admin.cli._main",
    "kafka_config_admin.cli._options",
    # the toolkit's root, as light as the package's: _main's error_line is _exceptions'
    "kafka_config_admin.toolkit",
}


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


def test_every_command_is_declared_in_the_commands_module() -> None:
    declared = {
        path.name: commands_defined_in(path.read_text(encoding="utf-8"))
        for path in sorted(CLI_PACKAGE.glob("*.py"))
    }
    assert declared.pop("_commands.py") == COMMANDS
    assert not any(declared.values()), declared
    assert set(COMMANDS) >= {"alter", "apply", "audit", "describe", "diff", "docs", "plan"}


def test_the_values_the_help_shows_are_the_sdks() -> None:
    assert _options.SDK_DEFAULT_TIMEOUT == DEFAULT_TIMEOUT
    assert _options.REASSIGNMENT_TIMEOUT == DEFAULT_REASSIGNMENT_TIMEOUT
    assert _options.ENTITY_TYPES == ENTITY_TYPES
    assert tuple(kind.value for kind in ResourceKind) == _options.RESOURCE_KINDS


def run_lines(lines: list[list[str]]) -> tuple[list[int], list[str], str]:
    """Each command line run in turn in one fresh interpreter: their exit codes, the heavy
    modules loaded by the end, and what they printed on stdout."""
    script = (
        "import json, sys\n"
        "from kafka_config_admin.cli import main\n"
        "codes = []\n"
        "for line in json.loads(sys.argv[1]):\n"
        "    try:\n"
        "        main(line)\n"
        "    except SystemExit as done:\n"
        "        codes.append(done.code)\n"
        "heavy = ('aiokafka', 'pydantic', 'rich', 'yaml', 'anyio', 'kafka_config_admin')\n"
        f"light = {sorted(LIGHT)!r}\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(heavy) and m not in light)\n"
        "print(json.dumps([codes, loaded]), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(lines)],
        capture_output=True,
        text=True,
        check=True,
    )
    codes, loaded = json.loads(done.stderr.splitlines()[-1])
    return codes, loaded, done.stdout


@pytest.mark.parametrize(
    "arguments", [["--help"], ["--version"], ["no-such-command"], ["--no-such-option"], []]
)
def test_the_group_answers_without_importing_the_sdk(arguments: list[str]) -> None:
    """``--help``, ``--version`` and the group's usage errors load none of the SDK, aiokafka,
    pydantic, rich or a command's work (no timing here: ``nox -s bench -- cli`` times it)."""
    codes, loaded, stdout = run_lines([arguments])
    assert codes in ([0], [2])
    assert loaded == []
    if arguments == ["--help"]:
        assert all(f"  {name} " in stdout for name in COMMANDS), stdout


def test_every_commands_help_loads_none_of_the_sdk() -> None:
    codes, loaded, stdout = run_lines([[name, "--help"] for name in COMMANDS])
    assert codes == [0] * len(COMMANDS)
    assert all(f"Usage: kafka-config-admin {name} " in stdout for name in COMMANDS), stdout
    assert loaded == []


#: Values no typed option takes: not a number, not a choice offered, not an existing file.
_WRONG = "no-such-value"


def usage_errors(name: str) -> list[list[str]]:
    """A command's lines that click refuses itself: an unknown option, the required arguments
    left out, each option that takes a value given none, each typed option a wrong value."""
    command = cli.commands[name]
    lines = [[name, "--no-such-option"]]
    if any(isinstance(param, click.Argument) and param.required for param in command.params):
        lines.append([name])
    for param in command.params:
        if not isinstance(param, click.Option) or param.is_flag:
            continue
        lines.append([name, param.opts[0]])
        typed = param.type
        if isinstance(typed, click.Choice | click.FloatRange | click.IntRange) or (
            isinstance(typed, click.Path) and typed.exists
        ):
            lines.append([name, f"{param.opts[0]}={_WRONG}"])
    return lines


def test_every_usage_error_click_finds_loads_none_of_the_sdk() -> None:
    lines = [line for name in COMMANDS for line in usage_errors(name)]
    assert len(lines) > 3 * len(COMMANDS)  # the scan still finds the options
    codes, loaded, _ = run_lines(lines)
    assert dict(zip(map(" ".join, lines), codes, strict=True)) == {
        " ".join(line): 2 for line in lines
    }
    assert loaded == []


def work_of(name: str) -> tuple[str, Callable[..., int]]:
    """The module and function that do a command's work: the one function of that name whose
    options are all keyword-only."""
    found = []
    for path in sorted(CLI_PACKAGE.glob("_*.py")):
        if path.stem == "_commands":
            continue
        module = importlib.import_module(f"kafka_config_admin.cli.{path.stem}")
        function = getattr(module, name.replace("-", "_"), None)
        if inspect.isfunction(function) and function.__module__ == module.__name__:
            found.append((module.__name__, function))
    assert len(found) == 1, (name, found)
    return found[0]


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_hands_its_work_every_option_by_name(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a command's declaration collects (its options, as the shared option decorators
    shape them) is exactly what the function doing its work takes."""
    module, work = work_of(name)
    taken = inspect.signature(work).parameters
    assert all(option.kind is option.KEYWORD_ONLY for option in taken.values())
    given: list[dict[str, object]] = []
    monkeypatch.setattr(module + "." + work.__name__, lambda **options: given.append(options))
    a_file = tmp_path / "file.yaml"
    a_file.touch()
    arguments = [  # each required argument, given: a file that exists, or a word
        str(a_file) if isinstance(param.type, click.Path) else "x"
        for param in cli.commands[name].params
        if isinstance(param, click.Argument) and param.required
    ]
    required = [  # each required option, given a word
        word
        for param in cli.commands[name].params
        if isinstance(param, click.Option) and param.required
        for word in (param.opts[0], "x")
    ]
    cli.main([name, *arguments, *required], standalone_mode=False)
    assert [set(options) for options in given] == [set(taken)]


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


def test_a_command_collects_garbage_in_larger_batches_and_puts_the_setting_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[int, ...]] = []
    monkeypatch.setattr(cli, "main", lambda **_: seen.append(gc.get_threshold()))
    before = gc.get_threshold()
    with pytest.raises(SystemExit):
        _main.main(["plan", "kafka.yaml"])
    assert seen == [(_main.YOUNG_COLLECTION_THRESHOLD, *before[1:])]
    assert gc.get_threshold() == before
