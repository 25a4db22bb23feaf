"""What one poll of the change feed cost the client: the one measure every face reports.

``watch --stats`` prints it, the ``kafka-config-changes`` stream puts it in its ``poll_*``
columns and the web editor's live pages send it as their ``cost`` event: each face measures a
poll with :meth:`PollCost.measure` and says it its own way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .. import AdminClient, WireTraffic
from ._changes import ObservedState
from ._rotation import ReadRotation, resources_read

__all__ = ["PollCost"]


@dataclass(frozen=True)
class PollCost:
    """What one poll of a cluster cost the client.

    Attributes:
        resources_read: the resources the poll described (:func:`resources_read`).
        requests: the requests its clients wrote.
        bytes_received: the bytes of their answers (:meth:`AdminClient.traffic`).
        seconds: how long the poll took.
    """

    resources_read: int
    requests: int
    bytes_received: int
    seconds: float

    @classmethod
    def measure(
        cls,
        observed: ObservedState,
        rotation: ReadRotation | None,
        clients: Iterable[AdminClient],
        seconds: float,
        *,
        carried_before: WireTraffic | None = None,
    ) -> PollCost:
        """The cost of the poll that read ``observed`` (with ``rotation``, if it had one)
        through ``clients`` in ``seconds``; ``carried_before`` is what the clients had carried
        before the poll began (a client kept across polls), left out of the count."""
        traffic = [admin.traffic() for admin in clients]
        requests = sum(carried.requests for carried in traffic)
        received = sum(carried.bytes_received for carried in traffic)
        if carried_before is not None:
            requests -= carried_before.requests
            received -= carried_before.bytes_received
        return cls(resources_read(observed, rotation), requests, received, seconds)
