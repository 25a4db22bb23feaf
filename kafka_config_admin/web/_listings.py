"""Each cluster's topics as last listed, kept a short while, with the override counts found
so far: the topic list pages, searches and filters through 10,000 topics without listing
every topic again for each request (one listing costs the broker's answer and its decoding,
hundreds of milliseconds at that size).

A listing older than :data:`LISTING_SECONDS` is taken again; the page says how old the one
shown is and offers a fresh one. The editor's own applies drop the cluster's listing, so what
it changed (a topic created, overrides set or reset) shows at once. Concurrent requests for an
expired listing share one Metadata request.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import anyio

from .. import AdminClient, ConfigResource, ResourceType, TopicListing
from ..state import is_override

__all__ = ["LISTING_SECONDS", "Listing", "Listings"]

#: Seconds a cluster's topic listing (and the override counts found with it) is reused.
LISTING_SECONDS = 30.0


@dataclass
class Listing:
    """Every topic of a cluster (internal ones too), sorted by name, as listed at ``taken``
    (``time.monotonic()``), and the override counts of those described since."""

    topics: list[TopicListing]
    taken: float
    overrides: dict[str, int] = field(default_factory=dict)

    @property
    def age(self) -> float:
        """Seconds since the topics were listed."""
        return time.monotonic() - self.taken

    async def count_overrides(self, admin: AdminClient, names: Sequence[str]) -> dict[str, int]:
        """How many overrides each of ``names`` has: those not counted yet are described (one
        request per broker). A topic whose describe fails is left out (shown as unknown)."""
        missing = [name for name in names if name not in self.overrides]
        if missing:
            resources = [ConfigResource(ResourceType.TOPIC, name) for name in missing]
            described = admin.describe_configs(resources)
            await described.wait()
            for resource, future in described.values.items():
                if future.exception() is None:
                    config = future.result()
                    self.overrides[resource.name] = sum(
                        is_override(resource, entry) for entry in config.values()
                    )
        return self.overrides


class Listings:
    """The listings of every cluster the editor shows."""

    def __init__(self, seconds: float = LISTING_SECONDS) -> None:
        self._seconds = seconds
        self._kept: dict[str, Listing] = {}
        self._locks: dict[str, anyio.Lock] = {}

    async def of(self, cluster: str, admin: AdminClient, *, fresh: bool = False) -> Listing:
        """The cluster's listing: the one kept unless it is too old or ``fresh`` is asked."""
        lock = self._locks.setdefault(cluster, anyio.Lock())
        asked = time.monotonic()
        async with lock:
            kept = self._kept.get(cluster)
            if kept is not None and self._usable(kept, asked, fresh=fresh):
                return kept
            started = time.monotonic()
            topics = await admin.list_topics(include_internal=True)
            listing = self._kept[cluster] = Listing(topics, started)
            return listing

    def _usable(self, listing: Listing, asked: float, *, fresh: bool) -> bool:
        if listing.taken >= asked:  # taken while this request waited for the lock
            return True
        return not fresh and listing.age < self._seconds

    def drop(self, cluster: str) -> None:
        """Forget the cluster's listing (after the editor changed something there)."""
        self._kept.pop(cluster, None)
