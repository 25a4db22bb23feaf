"""The ``kafka-config-admin`` program: its entry point, its exit codes and the one place errors end.

Nothing here imports the SDK's engine, aiokafka, pydantic or rich: ``--help``, ``--version`` and
usage errors are answered before any of them is loaded. The commands are declared in
:mod:`._commands`; each imports its work when it runs.

Exit codes (see docs/cli.md): 0 every resource succeeded (``plan``: nothing to change),
1 a resource failed, the cluster could not be used or the output could not be written (a full
disk), 2 a usage error or input refused before anything was sent, 3 ``plan``: changes needed,
``audit``: rules violated, 141 the output's reader closed the pipe (any output format).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from typing import NoReturn

import click

from .. import InvalidArgumentError, KafkaConfigAdminError
from ..toolkit import error_line
from ._commands import NotWritten, cli
from ._exit import ExitCode, say

#: Objects allocated between two collections of the youngest generation while a command runs
#: (CPython's default: 700).
YOUNG_COLLECTION_THRESHOLD = 20_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect cyclic garbage less often while a command runs.

    A command allocates hundreds of thousands of objects that live until it ends (the SDK's
    modules, a file's entries, a cluster's configs); with CPython's default threshold the
    collector runs thousands of times, and its older generations walk them again each time:
    about a quarter of the CPU of a 2,000-topic ``plan`` (``nox -s bench -- cli --part
    breakdown``). Garbage is still collected (``watch`` and ``web`` run for days), only in
    larger batches. The process's own setting, put back after: a program that runs the CLI
    in-process keeps its own.
    """
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _not_written(error: OSError) -> ExitCode:
    """Output that could not be written (the reader closed the pipe, the disk is full), or a
    file the system refused: one line and the exit code, never a traceback."""
    _discard_stdout()
    if isinstance(error, BrokenPipeError):
        say("error: the output's reader closed the pipe before all of it was written")
        return ExitCode.CLOSED_PIPE
    problem = error.strerror or error_line(error)
    say(
        f"error: {error.filename}: {problem}"
        if error.filename is not None
        else f"error: cannot write the output: {problem}"
    )
    return ExitCode.FAILED


def _discard_stdout() -> None:
    """Send what stdout still holds nowhere: flushing it again at exit would fail again (and
    Python would print its own complaint)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """The console script: run the command line and exit with its code; errors end here."""
    # aiokafka logs connection failures that the SDK reports as typed errors: say them once.
    # Only for the command: a program that runs the CLI in-process keeps its own logging.
    aiokafka_logger = logging.getLogger("aiokafka")
    level = aiokafka_logger.level
    aiokafka_logger.setLevel(logging.CRITICAL)
    try:
        with fewer_collections():
            code = cli.main(args=argv, prog_name="kafka-config-admin", standalone_mode=False)
            try:
                sys.stdout.flush()  # a write that fails fails here, not at the interpreter's exit
            except OSError as error:
                raise NotWritten(error) from error
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
    except NotWritten as failed:
        code = _not_written(failed.error)
    finally:
        aiokafka_logger.setLevel(level)
    sys.exit(int(code or 0))
