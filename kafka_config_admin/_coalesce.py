"""Describe calls made at the same moment share one request per broker.

Fifty concurrent calls for one topic each should cost the broker one request, not fifty. A
describe that fits in one request opens a gathering for its broker and flags; calls made in the
same moment (before the event loop turns) join it. When the loop turns, the request is written
for all of them, and each call reads its own resources from the shared response. A call alone in
its moment waits for its own answer, as if this did not exist.
"""

from __future__ import annotations

from typing import Any

import anyio

from ._models import ConfigResource
from ._operations import DescribeConfigs
from ._results import _Result
from ._transport import Reply

__all__ = ["Gathering"]


class Gathering:
    """Describe calls waiting for one shared request; the first one is the leader."""

    def __init__(
        self, node: int | None, leader: DescribeConfigs, resources: list[ConfigResource], limit: int
    ):
        self.node = node
        self.leader = leader
        self._limit = limit
        #: The calls that share the request; their tasks start once it is written.
        self.calls: list[tuple[DescribeConfigs, _Result[Any], float]] = []
        self._keys = {resource: leader.keys[resource] for resource in resources}
        self._done = anyio.Event()
        self._response: dict[str, Any] | None = None
        self._error: Exception | None = None
        #: The written request's answer, when the leader alone waits for it.
        self._own_reply: Reply | None = None

    @property
    def shared(self) -> bool:
        """Whether other calls joined the leader."""
        return len(self.calls) > 1

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

    def hand_to_leader(self, reply: Reply) -> None:
        """The leader, alone, waits for the answer itself: no task in between.

        Its task is started right after and always reaches :meth:`response` (anyio cancels
        only tasks that have started), so the reply is always awaited.
        """
        self._own_reply = reply

    def settle(self, response: dict[str, Any] | None, error: Exception | None) -> None:
        """Hand every waiting call the response or the error; only the first call counts."""
        if not self._done.is_set():
            self._response, self._error = response, error
            self._done.set()

    async def response(self) -> dict[str, Any]:
        """The shared response, or the error that sending it raised."""
        reply, self._own_reply = self._own_reply, None
        if reply is not None:
            return await reply.wait()
        await self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._response is not None
        return self._response
