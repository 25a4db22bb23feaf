"""A poll that describes at most so many resources, in turn: freshness traded for cost.

The change feed describes every resource it watches at every poll. With a :class:`ReadRotation`
a poll describes at most ``max_per_poll`` of them; the others keep the values the feed last
read, so they show no change until their turn comes. Resources the feed has no values for yet
(new, or whose last read failed) are always described: a resource is never reported added,
changed or gone from a read that did not happen.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import ConfigResource, InvalidArgumentError
from ._changes import ObservedState, ResourceKey, ResourceObservation

__all__ = ["ReadRotation", "resources_read"]


class ReadRotation:
    """Which resources each poll describes: at most ``max_per_poll``, in turn.

    Keep one per cluster across its polls (it remembers whose turn is next). The first poll of
    a cluster, and every poll after one that could not read the cluster, describes everything.
    Where each poll runs in another process (the Spark stream's executors), keep
    :attr:`next_turn` with the state and start the next poll's rotation from it.
    """

    def __init__(self, max_per_poll: int, *, next_turn: int = 0) -> None:
        if isinstance(max_per_poll, bool) or not isinstance(max_per_poll, int) or max_per_poll < 1:
            raise InvalidArgumentError(f"max_per_poll must be a positive int, got {max_per_poll!r}")
        if isinstance(next_turn, bool) or not isinstance(next_turn, int) or next_turn < 0:
            raise InvalidArgumentError(f"next_turn must be an int, at least 0, got {next_turn!r}")
        self.max_per_poll = max_per_poll
        #: How many resources the last poll described.
        self.last_read = 0
        self._next = next_turn

    @property
    def next_turn(self) -> int:
        """Where the next poll's turn starts among the resources held (what
        ``ReadRotation(n, next_turn=...)`` resumes from)."""
        return self._next

    def pick(
        self, resources: Sequence[ConfigResource], before: ObservedState | None
    ) -> list[ConfigResource]:
        """The resources this poll describes, of the ``resources`` listed now."""
        if before is None or not before.known or before.error is not None:
            chosen = list(resources)
        else:
            known = before.resources
            unsure = [r for r in resources if not _held(known.get(_key(r)))]
            held = [r for r in resources if _held(known.get(_key(r)))]
            room = max(0, self.max_per_poll - len(unsure))
            start = self._next % len(held) if held else 0
            turn = (held[start:] + held[:start])[:room]
            self._next = start + len(turn)
            chosen = unsure + turn
        self.last_read = len(chosen)
        return chosen


def resources_read(observed: ObservedState, rotation: ReadRotation | None) -> int:
    """How many resources a poll described, as its cost counts them (``watch --stats``, the
    Spark stream's ``poll_resources_read``, the web editor's cost line): none when the poll
    failed, the rotation's pick when a bound was given, else every resource observed."""
    if observed.error is not None:
        return 0
    return len(observed.resources) if rotation is None else rotation.last_read


def _key(resource: ConfigResource) -> ResourceKey:
    return resource.type.name, resource.name


def _held(observation: ResourceObservation | None) -> bool:
    """Whether the feed holds values of a resource, read without an error."""
    return observation is not None and observation.configs is not None and not observation.error
