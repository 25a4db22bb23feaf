"""What Kafka's next major release has announced it will refuse: warnings, never refusals.

The running broker is the judge of a value today; a value it takes may still be one that Kafka
has announced the next major release will refuse (a raised minimum, a key that goes). Those
announcements are carried here as data, one table (:data:`UPCOMING_CHANGES`), each row naming
where Kafka said so, and every face reads it: ``plan`` and ``audit`` (as warnings beside the
plan and the violations), the web editor's check of an edit, and ``docs KEY``. A warning never
stops anything: the value is still planned, applied and passed by the audit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pydantic import BaseModel, ConfigDict

from .. import HIDDEN, ConfigResource, ConfigType, ResourceType
from ._model import DesiredState
from ._references import has_reference
from ._state import ClusterState, is_override
from ._types import parse_typed
from ._warning import ConfigWarning

__all__ = [
    "UPCOMING_CHANGES",
    "UpcomingChange",
    "UpcomingWarning",
    "desired_warnings",
    "state_warnings",
    "upcoming_changes",
    "upcoming_warning",
]


class UpcomingChange(BaseModel):
    """One announced change of a coming Kafka release about a key's values.

    ``minimum``: values below it will be refused; ``removed``: the key goes (any value set
    for it will be refused). ``source`` names where Kafka announced it (a KIP, or a release's
    own deprecation message).
    """

    # Built on first validation: the table below is made without one, so a command that never
    # warns (a plan whose values no coming release refuses) builds no validator for it.
    model_config = ConfigDict(frozen=True, defer_build=True)

    release: str
    resource_type: ResourceType
    key: str
    source: str
    minimum: int | None = None
    removed: bool = False

    def refuses(self, value: str) -> bool:
        """Whether the coming release will refuse ``value`` (a reference is never resolved, so
        never said to be refused)."""
        if has_reference(value):
            return False
        if self.removed:
            return True
        if self.minimum is None:
            return False
        try:
            number = parse_typed(ConfigType.LONG, value)
        except ValueError:
            return False  # not a number: today's checks and the broker say so
        return isinstance(number, int) and number < self.minimum

    def describe(self) -> str:
        """The change in words: ``Kafka 5.0 will refuse values below 60000 (KIP-1030)``."""
        if self.removed:
            what = "will remove this key"
        else:
            what = f"will refuse values below {self.minimum}"
        return f"Kafka {self.release} {what} ({self.source})"


_KIP_1030 = "KIP-1030"
_CLEANER_ALWAYS_ON = "Kafka 4.4's deprecation of log.cleaner.enable: the log cleaner always runs"

#: Every announced change, in one place. KIP-1030 planned raised minimums for 5.0 beyond those
#: it made in 4.x (log.segment.bytes at least 1 MiB in 4.0, segment.bytes in 4.1: already in
#: the catalogs); the others are announced by Kafka 4.4.0's own deprecation messages for 5.0.
#: Our own constants, so made without validation (``model_construct``: importing this module
#: builds no validator); ``tests/unit/test_desired_references.py`` validates every entry.
UPCOMING_CHANGES: tuple[UpcomingChange, ...] = (
    UpcomingChange.model_construct(
        release="5.0",
        resource_type=ResourceType.TOPIC,
        key="segment.ms",
        source=_KIP_1030,
        minimum=60_000,
    ),
    UpcomingChange.model_construct(
        release="5.0",
        resource_type=ResourceType.BROKER,
        key="log.roll.ms",
        source=_KIP_1030,
        minimum=60_000,
    ),
    UpcomingChange.model_construct(
        release="5.0",
        resource_type=ResourceType.BROKER,
        key="log.cleaner.threads",
        source=_CLEANER_ALWAYS_ON,
        minimum=1,
    ),
    UpcomingChange.model_construct(
        release="5.0",
        resource_type=ResourceType.BROKER,
        key="log.cleaner.enable",
        source=_CLEANER_ALWAYS_ON,
        removed=True,
    ),
    UpcomingChange.model_construct(
        release="5.0",
        resource_type=ResourceType.BROKER,
        key="group.coordinator.rebalance.protocols",
        source="Kafka 4.4's deprecation: the protocols follow the group, streams and share "
        "feature versions",
        removed=True,
    ),
    UpcomingChange.model_construct(
        release="5.0",
        resource_type=ResourceType.BROKER,
        key="broker.id",
        source="Kafka 4.4's deprecation: node.id names a node",
        removed=True,
    ),
)


#: The keys, by resource type, that an announced change is about: a warning is looked for only
#: there (a plan of 2,000 topics asks no key's sensitivity that no change is about).
_ANNOUNCED = frozenset((change.resource_type, change.key) for change in UPCOMING_CHANGES)
_ANNOUNCED_KEYS = frozenset(key for _, key in _ANNOUNCED)


def upcoming_changes(resource_type: ResourceType, key: str) -> list[UpcomingChange]:
    """The announced changes about ``key`` of ``resource_type`` (for ``docs KEY``)."""
    return [
        change
        for change in UPCOMING_CHANGES
        if change.resource_type is resource_type and change.key == key
    ]


class UpcomingWarning(ConfigWarning):
    """A value set (or to be set) that a coming Kafka release has announced it will refuse."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    change: UpcomingChange


def upcoming_warning(
    resource: ConfigResource, key: str, value: str | None, *, sensitive: bool = False
) -> UpcomingWarning | None:
    """The warning for setting ``key`` to ``value`` on ``resource``, or None (a reset, or a
    value no announced change refuses). A sensitive value is shown hidden."""
    if value is None:
        return None
    for change in upcoming_changes(resource.type, key):
        if change.refuses(value):
            shown = HIDDEN if sensitive else value
            return UpcomingWarning(
                resource=resource,
                key=key,
                value=shown,
                change=change,
                release=change.release,
                source=change.source,
                message=change.describe(),
            )
    return None


def _found(
    pairs: Iterable[tuple[ConfigResource, str, str | None, bool]],
) -> Iterator[UpcomingWarning]:
    for resource, key, value, sensitive in pairs:
        warning = upcoming_warning(resource, key, value, sensitive=sensitive)
        if warning is not None:
            yield warning


def state_warnings(state: ClusterState) -> list[UpcomingWarning]:
    """The warnings for what a cluster sets (its overrides: a default is Kafka's to change),
    in state order (for ``audit``)."""
    return list(
        _found(
            (resource, key, entry.value, entry.sensitive)
            for resource, config in state.configs.items()
            for key, entry in config.items()
            if (resource.type, key) in _ANNOUNCED and is_override(resource, entry)
        )
    )


def desired_warnings(desired: DesiredState, state: ClusterState) -> list[UpcomingWarning]:
    """The warnings for every value a desired-state file sets, in file order (for ``plan``:
    whether or not the cluster has the value already)."""
    # A file that sets no announced key anywhere (most) warns of nothing: its thousands of
    # topics are not listed one by one to find that out.
    specs = [*desired.topics, *desired.other_resources().values()]
    if not any(key in _ANNOUNCED_KEYS for spec in specs for key in spec.configs):
        return []
    return list(
        _found(
            (resource, key, value, state.is_sensitive(resource, key))
            for resource, spec in desired.resources(state.existing_topics()).items()
            for key, value in spec.configs.items()
            if (resource.type, key) in _ANNOUNCED
        )
    )
