"""Config documentation asked of each broker once, not with every describe (no I/O).

A key's documentation (KIP-569) is its broker release's text: the same for every resource of
one type on one broker process, and several times the bytes of the rest of an answer. A
describe with documentation is therefore sent without it; each entry is filled from what this
client already holds for the broker process that answered (``Answerer``: its node and
connection) and the resource's type, and only the keys not held yet are asked again, with
documentation, of that same node (``follow_ups``). A new key, a new broker and a broker that
restarted (a new connection, perhaps another release) are asked again. What cannot be filled
this way is described with documentation as before, so the answer is always the broker's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from .._models.configs import Config, ConfigEntry, ConfigResource, ResourceType, config_of, trusted
from .._protocol import Answerer

__all__ = ["Documentation", "FollowUp"]


class FollowUp(NamedTuple):
    """One resource to describe with documentation: the node to ask, the names wanted."""

    node_id: int
    names: list[str]


class _Held:
    """What one broker process said of one resource type's keys, and the entries filled."""

    def __init__(self, session: int) -> None:
        self.session = session
        self.docs: dict[str, str | None] = {}
        # Entries are shared models (``EntryCache``): each is filled once. The originals are
        # kept beside their copies so that an id is never reused while held.
        self.entries: dict[int, tuple[ConfigEntry, ConfigEntry]] = {}
        # Byte-identical configs in a row are one Config (``EntryCache``): the last one, filled.
        self.last: tuple[Config | None, Config | None] = (None, None)


class Documentation:
    """Each broker process's documentation of config keys, per resource type, for one client.

    Never global: a client holds its own, so nothing learned of one cluster fills another's
    answers. Memory is bounded: one documentation per key, and past ``limit`` filled entries a
    broker's copies start again.
    """

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._held: dict[tuple[int, ResourceType], _Held] = {}
        #: The resource types held for some broker (asked on every describe with documentation).
        self.types: set[ResourceType] = set()

    def _for(self, answerer: Answerer, resource_type: ResourceType) -> _Held | None:
        held = self._held.get((answerer.node_id, resource_type))
        return held if held is not None and held.session == answerer.session else None

    def missing(self, answerer: Answerer, resource_type: ResourceType, config: Config) -> set[str]:
        """The keys of ``config`` whose documentation is not held for that broker process."""
        held = self._for(answerer, resource_type)
        docs = {} if held is None else held.docs
        return {name for name in config if name not in docs}

    def learn(self, answerer: Answerer, resource_type: ResourceType, config: Config) -> None:
        """Keep the documentation of ``config``, described with it by ``answerer``.

        Another session of the node (it restarted) replaces everything held of the node.
        """
        key = (answerer.node_id, resource_type)
        held = self._for(answerer, resource_type)
        if held is None:
            held = self._held[key] = _Held(answerer.session)
            self.types.add(resource_type)
        held.docs.update((entry.name, entry.documentation) for entry in config.entries)

    def fill(
        self, answerer: Answerer, resource_type: ResourceType, config: Config
    ) -> Config | None:
        """``config`` with each entry's documentation, or None when one is not held."""
        held = self._held.get((answerer.node_id, resource_type))  # ``_for``, on the hot path
        if held is None or held.session != answerer.session:
            return None
        if held.last[0] is config:
            return held.last[1]
        if len(held.entries) > self.limit:
            held.entries.clear()
        docs, entries = held.docs, held.entries
        filled = []
        for entry in config.entries:
            if entry.name not in docs:
                return None
            done = entries.get(id(entry))
            if done is None:
                done = entries[id(entry)] = (entry, _documented(entry, docs[entry.name]))
            filled.append(done[1])
        documented = config_of(tuple(filled))
        held.last = (config, documented)
        return documented

    def follow_ups(
        self, answers: Mapping[ConfigResource, tuple[Answerer, Config]]
    ) -> dict[ConfigResource, FollowUp]:
        """The fewest describes with documentation that fill every answer.

        Per broker process and resource type, the resource with most of the missing keys is
        asked for them, then the next for what is left (one resource, almost always: every
        resource of a type has the same keys).
        """
        # One resource stands for every config with the same keys missing: a describe of
        # thousands of topics holds a few sets of names, not one per topic.
        wanted: dict[tuple[Answerer, ResourceType], dict[frozenset[str], ConfigResource]] = {}
        seen: dict[tuple[Answerer, ResourceType, int], frozenset[str]] = {}
        for resource, (answerer, config) in answers.items():
            key = (answerer, resource.type, id(config))  # shared configs are asked about once
            missing = seen.get(key)
            if missing is None:
                missing = seen[key] = frozenset(self.missing(answerer, resource.type, config))
            if missing:
                wanted.setdefault((answerer, resource.type), {}).setdefault(missing, resource)
        asks: dict[ConfigResource, FollowUp] = {}
        for (answerer, _), by_names in wanted.items():
            candidates = {resource: set(names) for names, resource in by_names.items()}
            for resource, names in _covering(candidates):
                asks[resource] = FollowUp(answerer.node_id, sorted(names))
        return asks


def _covering(
    candidates: Mapping[ConfigResource, set[str]],
) -> Iterable[tuple[ConfigResource, set[str]]]:
    """Resources whose missing keys together are all of them, greedily: largest first."""
    left = set().union(*candidates.values())
    while left:
        resource = max(candidates, key=lambda r: len(candidates[r] & left))
        names = candidates[resource] & left
        yield resource, names
        left -= names


def _documented(entry: ConfigEntry, documentation: str | None) -> ConfigEntry:
    if entry.documentation == documentation:
        return entry
    return trusted(ConfigEntry, {**entry.__dict__, "documentation": documentation})
