"""How a command's work runs: on a fresh event loop, with a client of the chosen cluster, after
a confirmation. Imported when a command runs (never for ``--help`` or a usage error)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
import click

from .. import AdminClient
from ..connect import Connection
from ..state import match_budget
from ._connect import resolve_connection
from ._options import ConnectionOptions
from ._output import stderr
from ._resources import UsageError

T = TypeVar("T")


def run(work: Callable[[], Awaitable[T]]) -> T:
    """Run a command's async work on a fresh event loop. A user's regular expression (a file's
    topic patterns, ignore entries and rule selectors, ``--match``) that backtracks without end
    is stopped after :data:`~kafka_config_admin.state.MATCH_SECONDS` of processor time in
    one match and named in the error (exit code 2), instead of running until Ctrl-C."""
    with match_budget(per_match=True):
        return anyio.run(work)


def open_client(options: ConnectionOptions) -> tuple[AdminClient, str]:
    """A (not yet opened) client for the chosen cluster, and the cluster's label."""
    connection, label = resolve_connection(options)
    return client_for(connection), label


def client_for(connection: Connection) -> AdminClient:
    """A (not yet opened) client for ``connection``, as the command line names itself."""
    return AdminClient(
        timeout=connection.timeout,
        client_id="kafka-config-admin-cli",
        **connection.admin_client_kwargs(),
    )


def confirmed(yes: bool, question: str) -> bool:
    """Whether to go on: ``--yes``, or a yes on a terminal; never waits without a terminal."""
    if yes:
        return True
    if not sys.stdin.isatty():
        raise UsageError("not asking for confirmation without a terminal: pass --yes")
    if click.confirm(question, default=False, err=True):
        return True
    stderr.print("nothing was changed")
    return False


async def cancelled_on_sigterm(work: Awaitable[T]) -> T:
    """``work``, cancelled on SIGTERM as Ctrl-C cancels it, so that its cleanup (the
    throttles put back) runs before the process ends; then ``KeyboardInterrupt``."""
    done: list[T] = []
    failed: list[Exception] = []
    async with anyio.create_task_group() as group:

        async def watch() -> None:
            with anyio.open_signal_receiver(signal.SIGTERM) as signals:
                async for _ in signals:
                    group.cancel_scope.cancel()

        group.start_soon(watch)
        try:
            done.append(await work)
        except Exception as error:  # raised below as itself: the group would wrap it in a
            failed.append(error)  # group of exceptions, and the CLI's typed-error lines miss it
        group.cancel_scope.cancel()
    if failed:
        raise failed[0]
    if not done:
        raise KeyboardInterrupt
    return done[0]
