"""The ``kafka-config-admin`` command: the group, its entry point and the one place errors end.

Nothing here imports the SDK's engine, aiokafka, pydantic or rich: ``--help``, ``--version`` and
a usage error of the group are answered before any of them is loaded. Each command's module is
imported when the command is chosen (:data:`COMMANDS`).

Exit codes (see docs/cli.md): 0 every resource succeeded (``plan``: nothing to change),
1 a resource failed or the cluster could not be used, 2 a usage error or input refused before
anything was sent, 3 ``plan``: changes needed, ``audit``: rules violated.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from enum import IntEnum
from importlib import import_module
from typing import NoReturn

import click

from .. import InvalidArgumentError, KafkaConfigAdminError, __version__, error_line

#: Each command: the module that defines it (relative to this package) and the first sentence
#: of its help, which the group's ``--help`` lists without importing the module.
#: tests/unit/test_cli_registration.py checks both against the commands themselves.
COMMANDS: dict[str, tuple[str, str]] = {
    "alter": (
        "._alter",
        "Change configs incrementally on one or many resources, or a quota entity's quotas or "
        "SCRAM credentials (--entity-type users|clients|ips, as kafka-configs.sh).",
    ),
    "apply": (
        "._desired",
        "Make the cluster as FILE says: validate on the brokers, apply, read back.",
    ),
    "audit": (
        "._desired",
        "Check the cluster against the rules of FILE: configs, client quotas, SCRAM users.",
    ),
    "describe": (
        "._describe",
        "Show the configs of topics, brokers, broker loggers, groups and client-metrics, or the "
        "quotas of users, client ids and IPs (with users' SCRAM credentials).",
    ),
    "diff": (
        "._diff",
        "Compare the overrides of the cluster with a snapshot or with another cluster.",
    ),
    "docs": (
        "._describe",
        "Print KEY's type, default, valid values and update mode beside its live documentation.",
    ),
    "export": (
        "._export",
        "Write the cluster's current overrides as a desired-state file (to stdout).",
    ),
    "plan": ("._desired", "Show what apply would change to make the cluster as FILE says."),
    "watch": ("._watch", "Print config changes as they happen, until Ctrl-C."),
    "web": ("._web", "Start the web config editor at http://HOST:PORT (until Ctrl-C)."),
}


class ExitCode(IntEnum):
    """What the command's exit status means."""

    OK = 0
    FAILED = 1
    USAGE = 2
    CHANGES = 3
    INTERRUPTED = 130  # Ctrl-C or SIGTERM, as shells report SIGINT


class LazyGroup(click.Group):
    """A group whose commands are imported when chosen, and listed from :data:`COMMANDS`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            import_module(COMMANDS[cmd_name][0], __package__)  # registers it in self.commands
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, self._listed(name).get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def _listed(self, name: str) -> click.Command:
        """The command if it is loaded, else a stand-in with its summary (loads nothing)."""
        loaded = self.commands.get(name)
        return loaded if loaded is not None else click.Command(name, help=COMMANDS[name][1])


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="kafka-config-admin")
def cli() -> None:
    """Read and change Kafka configs: describe, alter, plan and apply a desired-state file."""


def say(line: str) -> None:
    """One line on stderr, as it is (no markup)."""
    click.echo(line, err=True)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """The console script: run the command line and exit with its code; errors end here."""
    # aiokafka logs connection failures that the SDK reports as typed errors: say them once.
    # Only for the command: a program that runs the CLI in-process keeps its own logging.
    aiokafka_logger = logging.getLogger("aiokafka")
    level = aiokafka_logger.level
    aiokafka_logger.setLevel(logging.CRITICAL)
    try:
        code = cli.main(args=argv, prog_name="kafka-config-admin", standalone_mode=False)
    except click.exceptions.Abort as abort:
        # click turns Ctrl-C during a command into Abort; the cause tells them apart.
        interrupted = isinstance(abort.__cause__, KeyboardInterrupt)
        say("interrupted" if interrupted else "aborted")
        code = ExitCode.INTERRUPTED if interrupted else ExitCode.FAILED
    except click.UsageError as error:
        where = error.ctx.command_path if error.ctx is not None else "kafka-config-admin"
        say(f"error: {error.format_message()} (see '{where} --help')")
        code = ExitCode.USAGE
    except click.ClickException as error:
        say(f"error: {error.format_message()}")
        code = error.exit_code
    except click.exceptions.Exit as done:
        code = done.exit_code
    except InvalidArgumentError as error:
        say(f"error: {error_line(error)}")
        code = ExitCode.USAGE
    except KafkaConfigAdminError as error:
        say(f"error: {error_line(error)}")
        code = ExitCode.FAILED
    except KeyboardInterrupt:
        say("interrupted")
        code = ExitCode.INTERRUPTED
    finally:
        aiokafka_logger.setLevel(level)
    sys.exit(int(code or 0))
