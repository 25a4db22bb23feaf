"""Two sides' overrides compared key by key: the one comparison the CLI's ``diff`` and the web
editor's compare page share. Only overrides count as set (a value a resource inherits is not
the resource's own); values are compared by their KIP-569 type (:func:`same_value`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .. import (
    ConfigEntry,
    ConfigResource,
    ConfigType,
    DescribeConfigsResult,
    ResourceNotFoundError,
    ResourceType,
    UnknownTopicOrPartitionError,
)
from ._model import DesiredState
from ._state import is_override
from ._types import same_value

__all__ = [
    "KeyComparison",
    "KeyMatch",
    "Overrides",
    "ResourceComparison",
    "compare_overrides",
    "desired_overrides",
    "overrides_of",
    "overrides_read",
]

#: A side's overrides: per resource, key -> (value, type); a resource it lacks is absent.
Overrides = dict[ConfigResource, dict[str, tuple[str | None, ConfigType]]]


class KeyMatch(Enum):
    """How a key's overrides on the two sides compare."""

    SAME = "same"
    DIFFERENT = "different"
    LEFT_ONLY = "left only"
    RIGHT_ONLY = "right only"


@dataclass(frozen=True)
class KeyComparison:
    """One key of a resource both sides have: its value on each side (None: not set there,
    or a sensitive value the broker never returns: ``hidden``)."""

    key: str
    match: KeyMatch
    left: str | None
    right: str | None
    #: A side sets the key but its value cannot be read (sensitive): the comparison is of
    #: presence only, and no value can be copied from it.
    hidden: bool


@dataclass(frozen=True)
class ResourceComparison:
    """A resource as the two sides have it: on both (with every key either sets), or on one."""

    resource: ConfigResource
    on_left: bool
    on_right: bool
    keys: tuple[KeyComparison, ...]

    @property
    def differences(self) -> tuple[KeyComparison, ...]:
        """The keys that are not the same on both sides."""
        return tuple(key for key in self.keys if key.match is not KeyMatch.SAME)

    @property
    def same(self) -> bool:
        """On both sides, with the same overrides."""
        return self.on_left and self.on_right and not self.differences


def overrides_of(
    resource: ConfigResource, entries: Iterable[ConfigEntry]
) -> dict[str, tuple[str | None, ConfigType]]:
    """The values set on the resource itself, with their types."""
    return {
        entry.name: (entry.value, entry.type) for entry in entries if is_override(resource, entry)
    }


def overrides_read(
    result: DescribeConfigsResult,
) -> tuple[Overrides, list[tuple[ConfigResource, BaseException]]]:
    """A settled describe's overrides per resource, and the resources it could not read; a
    resource the cluster does not have is absent from both (absent, never failed: a failed
    read is never reported as a resource gone)."""
    overrides: Overrides = {}
    failures: list[tuple[ConfigResource, BaseException]] = []
    for resource, future in result.values.items():
        error = future.exception()
        if error is None:
            overrides[resource] = overrides_of(resource, future.result().values())
        elif not isinstance(error, UnknownTopicOrPartitionError | ResourceNotFoundError):
            failures.append((resource, error))
    return overrides, failures


def compare_overrides(left: Overrides, right: Overrides) -> list[ResourceComparison]:
    """Every resource either side has, in the order the left then the right name them, with
    each key either side sets compared by its type."""
    compared = []
    for resource in dict.fromkeys([*left, *right]):
        mine, theirs = left.get(resource), right.get(resource)
        keys: tuple[KeyComparison, ...] = ()
        if mine is not None and theirs is not None:
            keys = tuple(_key(key, mine, theirs) for key in sorted(set(mine) | set(theirs)))
        compared.append(ResourceComparison(resource, mine is not None, theirs is not None, keys))
    return compared


def desired_overrides(desired: DesiredState, cluster: Overrides) -> tuple[Overrides, Overrides]:
    """A desired-state file's overrides and the cluster's, side by side as the file's plan
    (without prune) sees them: for every resource the file is about (its topics, named or
    matching its patterns among the topics ``cluster`` has, and its other resources), the keys
    the file names; a key it sets to null is one it wants gone. Keys the file does not name are left
    out on both sides (its plan leaves them alone), and so are the cluster's resources the
    file is not about; a resource of the file the cluster lacks is on the file's side only."""
    existing = [resource.name for resource in cluster if resource.type is ResourceType.TOPIC]
    wanted: Overrides = {}
    current: Overrides = {}
    for resource, spec in desired.resources(existing).items():
        wanted[resource] = {
            key: (value, ConfigType.UNKNOWN)
            for key, value in spec.configs.items()
            if value is not None
        }
        have = cluster.get(resource)
        if have is not None:
            current[resource] = {key: have[key] for key in spec.configs if key in have}
    return wanted, current


def _key(
    key: str,
    mine: dict[str, tuple[str | None, ConfigType]],
    theirs: dict[str, tuple[str | None, ConfigType]],
) -> KeyComparison:
    (value, kind), (other, other_kind) = (
        mine.get(key, (None, ConfigType.UNKNOWN)),
        theirs.get(key, (None, ConfigType.UNKNOWN)),
    )
    hidden = (key in mine and value is None) or (key in theirs and other is None)
    if key not in theirs:
        match = KeyMatch.LEFT_ONLY
    elif key not in mine:
        match = KeyMatch.RIGHT_ONLY
    else:
        known = kind if kind is not ConfigType.UNKNOWN else other_kind
        same = same_value(known, value, other, key=key)
        match = KeyMatch.SAME if same else KeyMatch.DIFFERENT
    return KeyComparison(key, match, value, other, hidden)
