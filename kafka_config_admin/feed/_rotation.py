"""A poll that describes at most so many resources, in turn: freshness traded for cost.

The change feed describes every resource it watches at every poll. With a :class:`ReadRotation`
a poll describes at most ``max_per_poll`` of those it holds values for, in turn; the others
keep the values the feed last read, so they show no change until their turn comes. Resources
the feed has no values for yet (new, or whose last read failed) are always described, past the
bound: a resource is never reported added, changed or gone from a read that did not happen.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from .. import ConfigResource, InvalidArgumentError
from ._changes import ObservedState, ResourceKey, ResourceObservation

__all__ = ["ReadRotation", "resources_read"]


class ReadRotation:
    """Which resources each poll describes: at most ``max_per_poll`` in turn, and past the
    bound every resource the feed holds no values for.

    Keep one per cluster across its polls (it remembers where the last turn ended). The first
    poll of a cluster, and every poll after one that could not read the cluster, describes
    everything. The turn goes round the held resources in the order of their keys (type, then
    name), from the one after where the last turn ended, so topics created or deleted between
    polls never shift another's turn; and a resource read past the bound at every poll (one
    that keeps failing) never takes another's turn. With T resources held, each is described
    at least once every ceil(T / max_per_poll) polls. Where each poll runs in another process
    (the Spark stream's executors), keep :attr:`resume_after` with the state and start the
    next poll's rotation from it.
    """

    def __init__(self, max_per_poll: int, *, resume_after: ResourceKey | None = None) -> None:
        if isinstance(max_per_poll, bool) or not isinstance(max_per_poll, int) or max_per_poll < 1:
            raise InvalidArgumentError(f"max_per_poll must be a positive int, got {max_per_poll!r}")
        if resume_after is not None and not _is_key(resume_after):
            raise InvalidArgumentError(
                "resume_after must be a resource key (resource type name, resource name) or "
                f"None, got {resume_after!r}"
            )
        self.max_per_poll = max_per_poll
        #: How many resources the last poll described.
        self.last_read = 0
        self._after = resume_after

    @property
    def resume_after(self) -> ResourceKey | None:
        """The key of the resource the last turn ended on (what
        ``ReadRotation(n, resume_after=...)`` goes on from); None before any turn."""
        return self._after

    def pick(
        self, resources: Sequence[ConfigResource], before: ObservedState | None
    ) -> list[ConfigResource]:
        """The resources this poll describes, of the ``resources`` listed now: those the feed
        holds no values for (new, or whose last read failed) first, then the turn."""
        if before is None or not before.known or before.error is not None:
            chosen = list(resources)
        else:
            held: list[ConfigResource] = []
            unsure: list[ConfigResource] = []
            for resource in resources:
                (held if _held(before.resources.get(_key(resource))) else unsure).append(resource)
            chosen = unsure + self._turn(held)
        self.last_read = len(chosen)
        return chosen

    def _turn(self, held: list[ConfigResource]) -> list[ConfigResource]:
        """The next ``max_per_poll`` of ``held`` in key order, going round from the first
        after the key the last turn ended on."""
        if not held:
            return []
        ordered = sorted(held, key=_key)
        start = 0 if self._after is None else bisect_right(ordered, self._after, key=_key)
        turn = (ordered[start:] + ordered[:start])[: self.max_per_poll]
        self._after = _key(turn[-1])
        return turn


def resources_read(observed: ObservedState, rotation: ReadRotation | None) -> int:
    """How many resources a poll described, as its cost counts them (``watch --stats``, the
    Spark stream's ``poll_resources_read``, the web editor's cost line): none when the poll
    failed, the rotation's pick when a bound was given, else every resource observed."""
    if observed.error is not None:
        return 0
    return len(observed.resources) if rotation is None else rotation.last_read


def _key(resource: ConfigResource) -> ResourceKey:
    return resource.type.name, resource.name


def _is_key(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(part, str) for part in value)
    )


def _held(observation: ResourceObservation | None) -> bool:
    """Whether the feed holds values of a resource, read without an error."""
    return observation is not None and observation.configs is not None and not observation.error
