"""Journal writes on daemon threads: a write an interrupted apply stopped waiting for (its
bound ran out) must not hold the process at its exit, as a non-daemon thread would."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.from_thread

__all__ = ["in_daemon_thread", "run_in_daemon_thread"]

_T = TypeVar("_T")


def in_daemon_thread(work: Callable[[], _T]) -> _T:
    """``work()`` on a daemon thread of its own, waited for; its result or its error."""
    outcome: list[_T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # handed to the caller, raised there
            failure.append(error)

    thread = threading.Thread(target=run, name="journal", daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


async def run_in_daemon_thread(work: Callable[..., _T], *args: Any) -> _T:
    """``work(*args)`` on a daemon thread, awaited; cancelled, the wait ends at once and the
    thread is left to finish (or to end with the process)."""
    done = anyio.Event()
    outcome: list[_T] = []
    failure: list[BaseException] = []
    token = anyio.lowlevel.current_token()

    def run() -> None:
        try:
            outcome.append(work(*args))
        except BaseException as error:  # handed to the awaiting task, raised there
            failure.append(error)
        with contextlib.suppress(RuntimeError):  # the loop ended, its waiter gone with it
            anyio.from_thread.run_sync(done.set, token=token)

    threading.Thread(target=run, name="journal", daemon=True).start()
    await done.wait()
    if failure:
        raise failure[0]
    return outcome[0]
