"""Describe calls made at the same moment share one request per broker.

Fifty concurrent calls for one topic each should cost the broker one request, not fifty. The
first call for a broker opens a gathering and yields once to the event loop; calls made in that
same moment join it, and one request answers them all, each call reading its own resources from
the shared response. A call alone in its moment sends its own request, as if this did not exist.
"""

from __future__ import annotations

from typing import Any

import anyio

from ._models import ConfigResource
from ._operations import DescribeConfigs

__all__ = ["Gathering"]


class Gathering:
    """Describe calls waiting for one shared request; the first one is the leader."""

    def __init__(self, leader: DescribeConfigs, resources: list[ConfigResource], limit: int):
        self.leader = leader
        self._limit = limit
        self._calls = 1
        self._keys = {resource: leader.keys[resource] for resource in resources}
        self._done = anyio.Event()
        self._response: dict[str, Any] | None = None
        self._error: Exception | None = None

    @property
    def shared(self) -> bool:
        """Whether other calls joined the leader."""
        return self._calls > 1

    def join(self, operation: DescribeConfigs, resources: list[ConfigResource]) -> bool:
        """Add a call's resources, unless the request would grow too big or disagree.

        The same resource may be in two calls only with the same config names: the request
        carries each resource once.
        """
        if any(r in self._keys and self._keys[r] != operation.keys[r] for r in resources):
            return False
        if len(self._keys) + sum(r not in self._keys for r in resources) > self._limit:
            return False
        self._calls += 1
        for resource in resources:
            self._keys.setdefault(resource, operation.keys[resource])
        return True

    def body(self, version: int) -> dict[str, Any]:
        """The one request body for every call that joined."""
        return self.leader.body_for(self._keys, version)

    def settle(self, response: dict[str, Any] | None, error: Exception | None) -> None:
        """Hand every waiting call the response or the error; only the first call counts."""
        if not self._done.is_set():
            self._response, self._error = response, error
            self._done.set()

    async def response(self) -> dict[str, Any]:
        """The shared response, or the error that sending it raised."""
        await self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._response is not None
        return self._response
