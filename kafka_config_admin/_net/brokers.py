"""Broker choice: which broker a request that any broker can answer goes to, and its hedges.

Requests are kept in lanes: reads and changes each prefer a broker the other does not use, and
each lane has its own connection to a broker (``ConnectionPool``), so that where they meet (one
broker, a broker's own configs) they still do not share one. A broker answers one connection's
requests one at a time, and a describe must not wait behind hundreds of alters that the
controller handles slowly, nor behind a change forwarded to a frozen controller (held by the
broker for its own 30 s). When each broker last answered tells a busy broker (it answers
others' requests meanwhile) from a silent one, for hedging.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from .._exceptions import KafkaConnectionError

__all__ = ["CHANGES", "LANES", "READS", "BrokerChoice", "lane_of"]

#: The lanes of :meth:`BrokerChoice.any_broker`: requests that read, and requests that change.
READS, CHANGES = 0, 1
LANES = 2


def lane_of(mutates: bool) -> int:
    """The lane of a request: ``CHANGES`` for one that changes the cluster, else ``READS``."""
    return CHANGES if mutates else READS


class BrokerChoice:
    """Chooses brokers among ``broker_ids()``, preferring those ``is_open(node, lane)`` says
    the lane is connected to.

    With ``leader`` (a controller quorum's active controller, when known), changes go to it:
    only the active controller commits a change, the others answer NOT_CONTROLLER.
    """

    __slots__ = ("_broker_ids", "_is_open", "_leader", "answered_at", "chosen")

    def __init__(
        self,
        broker_ids: Callable[[], list[int]],
        is_open: Callable[[int, int], bool],
        leader: Callable[[], int | None] | None = None,
    ) -> None:
        self._broker_ids = broker_ids
        self._is_open = is_open
        self._leader = leader
        #: The broker chosen for "any broker" requests, per lane (see ``any_broker``).
        self.chosen: list[int | None] = [None] * LANES
        #: When each broker last answered a request of ours (``time.monotonic()``).
        self.answered_at: dict[int, float] = {}

    def any_broker(self, lane: int = READS) -> int:
        """A broker for requests any broker can answer; one we are connected to if possible.

        The broker chosen last is kept while its connection is open: one call after another
        then costs a dict lookup, not a walk over the cluster. Each ``lane`` prefers a broker
        the other lanes do not use. A quorum's changes go to its leader.
        """
        leader = None if self._leader is None or lane != CHANGES else self._leader()
        if leader is not None:
            self.chosen[lane] = leader  # so that the other lanes keep off it
            return leader
        last = self.chosen[lane]
        if last is not None and self._is_open(last, lane):
            return last
        ids = self._broker_ids()
        if not ids:
            raise KafkaConnectionError("the cluster metadata lists no brokers")
        connected = [node for node in ids if self._is_open(node, lane)]
        candidates = connected or ids
        taken = self._taken_by_other_lanes(lane)
        chosen = random.choice([node for node in candidates if node not in taken] or candidates)
        self.chosen[lane] = chosen
        return chosen

    def prefer(self, lane: int, node_id: int) -> None:
        """Send the lane's next requests to ``node_id`` while its connection stays open."""
        self.chosen[lane] = node_id

    def hedge_targets(self, lane: int, first: int) -> list[int]:
        """Where a request of ``lane`` sent to ``first`` is hedged to, in turn (shuffled).

        Not the other lanes' brokers while there is another: a change forwarded to a frozen
        controller holds its connection until the broker gives up on it (30 s), and the
        describes that go there would wait behind it.
        """
        others = [node for node in self._broker_ids() if node != first]
        random.shuffle(others)
        taken = self._taken_by_other_lanes(lane)
        return [node for node in others if node not in taken] or others

    def hedge_won(self, lane: int, node: int) -> None:
        """A hedge to ``node`` had the answer: the lane's next requests go there.

        Not when another lane uses it: the lanes stay apart.
        """
        if node not in self._taken_by_other_lanes(lane):
            self.chosen[lane] = node

    def answered_within(self, node_id: int, seconds: float) -> bool:
        """Whether the broker answered any request of ours in the last ``seconds``."""
        return time.monotonic() - self.answered_at.get(node_id, -1e9) < seconds

    def _taken_by_other_lanes(self, lane: int) -> set[int]:
        """The brokers the other lanes send to now."""
        return {
            node for other, node in enumerate(self.chosen) if other != lane and node is not None
        }
