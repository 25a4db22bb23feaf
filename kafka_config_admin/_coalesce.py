"""Describe calls made at the same moment share one request per broker.

Fifty concurrent calls for one topic each should cost the broker one request, not fifty. A
describe that fits in one request opens a gathering for its broker and flags; calls made in the
same moment (before the event loop turns) join it. When the loop turns, the request is written
for all of them, and each call reads its own resources from the shared response. A describe made
when nothing for its broker and flags is in flight is written at once, in a gathering of its
own: one call after another never waits for the loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ._models import ConfigResource
from ._operations import DescribeConfigs
from ._results import _Result

__all__ = ["GatheredCall", "Gathering", "GatheringKey"]

#: Calls may share a request when they go to the same broker (None: any) with the same flags,
#: and their resources need not be kept apart (``Operation.kept_apart``).
GatheringKey = tuple[int | None, bool, bool, object]


class GatheredCall:
    """One describe call in a gathering, with its own deadline (in the event loop's clock)."""

    __slots__ = ("expires", "operation", "result", "timeout")

    def __init__(
        self,
        operation: DescribeConfigs,
        result: _Result[ConfigResource, Any],
        timeout: float,
        expires: float,
    ) -> None:
        self.operation = operation
        self.result = result
        self.timeout = timeout
        self.expires = expires


class Gathering:
    """Describe calls waiting for one shared request; the first one is the leader."""

    def __init__(
        self,
        key: GatheringKey,
        node: int | None,
        leader: DescribeConfigs,
        resources: list[ConfigResource],
        limit: int,
    ):
        self.key = key
        self.node = node
        self.leader = leader
        self._limit = limit
        #: The calls that share the request.
        self.calls: list[GatheredCall] = []
        #: Fires at the earliest deadline of a call still waiting.
        self.timer: asyncio.TimerHandle | None = None
        self._keys = {resource: leader.keys[resource] for resource in resources}

    def join(self, operation: DescribeConfigs, resources: list[ConfigResource]) -> bool:
        """Add a call's resources, unless the request would grow too big or disagree.

        The same resource may be in two calls only with the same config names: the request
        carries each resource once.
        """
        if any(r in self._keys and self._keys[r] != operation.keys[r] for r in resources):
            return False
        if len(self._keys) + sum(r not in self._keys for r in resources) > self._limit:
            return False
        for resource in resources:
            self._keys.setdefault(resource, operation.keys[resource])
        return True

    def body(self, version: int) -> dict[str, Any]:
        """The one request body for every call that joined."""
        return self.leader.body_for(self._keys, version)

    def waiting(self) -> list[GatheredCall]:
        """The calls with a resource still waiting for its outcome."""
        return [call for call in self.calls if not call.result._settled()]
