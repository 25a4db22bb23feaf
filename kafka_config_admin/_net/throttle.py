"""Throttling: a broker that says it throttled us gets no request of ours until the time it gave.

From a request's ``throttle_from_version`` on (KIP-219), a broker answers at once with the time
it throttles the client for, and leaves the holding back to the client: each broker's time is
kept here, and the transport writes to a broker only once its time has passed.
"""

from __future__ import annotations

import time

import anyio

__all__ = ["Throttles"]


class Throttles:
    """Until when each broker throttles us (``time.monotonic()``), by node id."""

    __slots__ = ("_until",)

    def __init__(self) -> None:
        self._until: dict[int, float] = {}

    def hold(self, node_id: int, throttle_ms: int) -> None:
        """The broker throttles us for ``throttle_ms`` from now."""
        self._until[node_id] = time.monotonic() + throttle_ms / 1000

    def holds(self, node_id: int) -> bool:
        """Whether the broker throttles us now."""
        return self._until.get(node_id, 0.0) > time.monotonic()

    async def wait(self, node_id: int) -> None:
        """Return once the broker throttles us no more."""
        delay = self._until.get(node_id, 0.0) - time.monotonic()
        if delay > 0:
            await anyio.sleep(delay)
