"""A task group that any task may close: the client's calls live in it.

An anyio task group must be left by the task that entered it, but a service opens its client in
one task (startup) and closes it in another (shutdown), and may close two clients in the order
it opened them. So the group is entered and left by a task of its own, which waits for the
word to close.
"""

from __future__ import annotations

import asyncio

import anyio
from anyio.abc import TaskGroup

__all__ = ["TaskGroupHost"]


class TaskGroupHost:
    """Holds one task group open in a task of its own, from :meth:`open` to :meth:`close`."""

    def __init__(self) -> None:
        self._closing = asyncio.Event()
        self._holder: asyncio.Task[None] | None = None

    async def open(self) -> TaskGroup:
        """Start the holding task; returns its task group once it is entered."""
        opened: asyncio.Future[TaskGroup] = asyncio.get_running_loop().create_future()
        self._holder = asyncio.ensure_future(self._hold(opened))
        return await opened

    async def _hold(self, opened: asyncio.Future[TaskGroup]) -> None:
        async with anyio.create_task_group() as group:
            opened.set_result(group)
            await self._closing.wait()
            group.cancel_scope.cancel()  # what still runs is cancelled, then waited for

    async def close(self) -> None:
        """Cancel what runs in the group and wait until it has ended, from any task."""
        holder, self._holder = self._holder, None
        if holder is None:
            return
        self._closing.set()
        with anyio.CancelScope(shield=True):
            await holder
