"""Restore to a time: the overrides resources had at a past time, as a change set.

What a key was at TIME is the value its first known change after TIME found. The changes
are the journal's (every face of this tool, each dated when its apply ended) and, when given,
the change feed's rows (which see other tools too, dated by the poll that saw them). A change
both saw is taken once, from the journal, dated by the earlier of the two times. What neither
can tell is :class:`Unknown`, never guessed: a secret's value (never recorded), a key whose
known changes do not join up (something neither saw moved it), a resource that did not exist
at TIME. A key with no known change after TIME is left as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from .. import AdminClient, AlterConfigOp, Config, ConfigResource, OpType, ResourceType
from ..changeset import ChangeSet
from ..state import describe_state, is_override, same_value
from ..state import override_source as own_source
from ..toolkit import error_line
from ._entries import JournalEntry

if TYPE_CHECKING:  # the feed's modules load when its rows are read (apply never needs them)
    from ..feed import StateChange

__all__ = ["Restore", "Restored", "Unknown", "plan_restore"]


@dataclass(frozen=True)
class Unknown:
    """What restore cannot tell of a resource (``key`` None: the whole resource), and why."""

    resource: ConfigResource
    key: str | None
    reason: str


@dataclass(frozen=True)
class Restored:
    """A key put back: its value at the time (None: not set on the resource), and which
    recorded change told it (``journal change 12``, ``feed row of 2026-11-27T09:00:00``)."""

    resource: ConfigResource
    key: str
    value: str | None
    told_by: str


@dataclass(frozen=True)
class Restore:
    """The change set that puts the resources back as they were (review and apply it), the
    keys it puts back, and what could not be told."""

    changes: ChangeSet
    restored: tuple[Restored, ...]
    unknown: tuple[Unknown, ...]


@dataclass(frozen=True)
class _Value:
    """A key as set on the resource itself: ``is_set``, its value, ``hidden`` when it was set
    and its value was never recorded (a secret)."""

    is_set: bool
    value: str | None = None
    hidden: bool = False

    def same(self, other: _Value) -> bool:
        if self.is_set != other.is_set:
            return False
        if not self.is_set or self.hidden or other.hidden:
            return self.hidden == other.hidden
        return self.value == other.value


@dataclass(frozen=True)
class _Change:
    """One known change of one key."""

    time: datetime
    before: _Value
    after: _Value
    told_by: str


_Subject = tuple[ConfigResource, str]

#: How long before a journal row's time the feed may have seen its change: the row's time is
#: when its apply ended, and an apply reads its changes back before it ends.
APPLY_SLACK = timedelta(minutes=1)


async def plan_restore(
    admin: AdminClient,
    resources: Sequence[ConfigResource],
    at: datetime,
    *,
    journal: Iterable[JournalEntry],
    feed: Iterable[StateChange] = (),
) -> Restore:
    """The change set that puts ``resources`` back as they were at ``at``, from ``journal``'s
    rows and ``feed``'s rows of this cluster (the caller chooses them: ``admin`` is the
    cluster they were recorded on), after reading what the cluster has now."""
    wanted = set(resources)
    changes: dict[ConfigResource, dict[str, list[_Change]]] = {}
    created: dict[ConfigResource, datetime] = {}
    journal_changes = list(_journal_changes(journal, wanted, created))
    feed_changes = list(_feed_changes(feed, wanted, created))
    for (resource, key), change in _once(journal_changes, feed_changes):
        changes.setdefault(resource, {}).setdefault(key, []).append(change)
    state = await describe_state(admin, list(wanted))
    unknown: list[Unknown] = []
    restored: list[Restored] = []
    ops: dict[ConfigResource, list[AlterConfigOp]] = {}
    for resource in resources:
        config: Config | BaseException | None = state.configs.get(resource)
        if config is None:
            config = state.errors.get(resource)
        if not isinstance(config, Config):
            why = "it cannot be read now" + (f": {error_line(config)}" if config else "")
            unknown.append(Unknown(resource, None, why))
            continue
        if resource in created and created[resource] > at:
            when = created[resource].isoformat()
            unknown.append(Unknown(resource, None, f"it did not exist then (created {when})"))
            continue
        for key, of_key in sorted(changes.get(resource, {}).items()):
            known = sorted(of_key, key=lambda change: change.time)
            outcome = _value_then(known, at)
            if outcome is None:
                continue
            if isinstance(outcome, str):
                unknown.append(Unknown(resource, key, outcome))
                continue
            then, told_by = outcome
            if _now(resource, key, config).same(then) or _same_typed(config, key, then):
                continue
            op = AlterConfigOp(key, then.value, OpType.SET if then.is_set else OpType.DELETE)
            ops.setdefault(resource, []).append(op)
            restored.append(Restored(resource, key, then.value if then.is_set else None, told_by))
    return Restore(ChangeSet(configs=ops), tuple(restored), tuple(unknown))


def _value_then(known: Sequence[_Change], at: datetime) -> tuple[_Value, str] | str | None:
    """The key's value at ``at`` and what told it, why it cannot be told, or None when no
    change of it is known after ``at`` (it is left as it is)."""
    later = [change for change in known if change.time > at]
    if not later:
        return None
    first = later[0]
    earlier = [change for change in known if change.time <= at]
    if earlier and not earlier[-1].after.same(first.before):
        return (
            f"something neither the journal nor the feed saw changed it between "
            f"{earlier[-1].time.isoformat()} ({earlier[-1].told_by}) and "
            f"{first.time.isoformat()} ({first.told_by})"
        )
    if first.before.hidden:
        return "a secret: its value is never recorded (set it again yourself)"
    return first.before, first.told_by


def _now(resource: ConfigResource, key: str, config: Config) -> _Value:
    entry = config.get(key)
    if not is_override(resource, entry):
        return _Value(False)
    assert entry is not None
    return _Value(True, entry.value, hidden=entry.value is None)


def _same_typed(config: Config, key: str, then: _Value) -> bool:
    """Whether the value now equals ``then``'s once both are parsed (``7d`` is 604800000)."""
    entry = config.get(key)
    if entry is None or not then.is_set or then.hidden or entry.value is None:
        return False
    return same_value(entry.type, entry.value, then.value, key=key)


def _journal_changes(
    entries: Iterable[JournalEntry],
    wanted: set[ConfigResource],
    created: dict[ConfigResource, datetime],
) -> Iterable[tuple[_Subject, _Change]]:
    for entry in entries:
        kind = _resource(entry.resource_type)
        if kind is None or not entry.applied:
            continue
        resource = ConfigResource(kind, entry.resource_name)
        if resource not in wanted or entry.op == "ADD_PARTITIONS":
            continue
        if entry.op == "CREATE":
            _keep_latest(created, resource, entry.time)
            continue
        before = _Value(
            entry.old_set,
            entry.old_value if entry.old_set else None,
            entry.sensitive and entry.old_set,
        )
        after = _Value(
            entry.new_set,
            entry.new_value if entry.new_set else None,
            entry.sensitive and entry.new_set,
        )
        yield (
            (resource, entry.key),
            _Change(entry.time, before, after, f"journal change {entry.id}"),
        )


def _feed_changes(
    rows: Iterable[StateChange],
    wanted: set[ConfigResource],
    created: dict[ConfigResource, datetime],
) -> Iterable[tuple[_Subject, _Change]]:
    from ..feed import ChangeKind  # loaded with the rows (see the imports)

    for row in rows:
        kind = None if row.resource_type is None else _resource(row.resource_type)
        if kind is None or row.resource_name is None or row.change is ChangeKind.ERROR:
            continue
        resource = ConfigResource(kind, row.resource_name)
        if resource not in wanted:
            continue
        if row.key is None:
            if row.change is ChangeKind.ADDED:
                _keep_latest(created, resource, row.detected_time)
            continue
        own = own_source(resource).name
        before = _feed_value(row.before_source == own, row.before_value)
        after = _feed_value(row.after_source == own, row.after_value)
        if not before.is_set and not after.is_set:
            continue  # an inherited value moved: not this resource's override
        told_by = f"feed row of {row.detected_time.isoformat()}"
        yield (resource, row.key), _Change(row.detected_time, before, after, told_by)


def _feed_value(is_set: bool, value: str | None) -> _Value:
    if not is_set:
        return _Value(False)
    return _Value(True, value, hidden=value is None)  # the feed never shows a secret


def _keep_latest(
    created: dict[ConfigResource, datetime], resource: ConfigResource, time: datetime
) -> None:
    """The latest creation of ``resource`` (a topic deleted and created again)."""
    created[resource] = max(created.get(resource, time), time)


def _once(
    journal: Sequence[tuple[_Subject, _Change]], feed: Sequence[tuple[_Subject, _Change]]
) -> Iterable[tuple[_Subject, _Change]]:
    """Every journal change, and the feed's changes the journal does not explain.

    A feed row (in time order) is a journal change of the same key, from the same value to the
    same value, made after the feed's row before it of that key and at most
    :data:`APPLY_SLACK` after the row (a journal row's time is when its apply ended, after the
    read back: the feed may have polled in between); the earliest such, each used once. The
    change is then dated by the earlier of the two times: both are when it had been made.
    """
    changes = [change for _, change in journal]
    open_by_subject: dict[_Subject, list[int]] = {}
    for index, (subject, _) in enumerate(journal):
        open_by_subject.setdefault(subject, []).append(index)
    previous: dict[_Subject, datetime] = {}
    for subject, seen in sorted(feed, key=lambda item: item[1].time):
        after = previous.get(subject)
        previous[subject] = seen.time
        candidates = [
            index
            for index in open_by_subject.get(subject, [])
            if (after is None or changes[index].time > after)
            and changes[index].time - APPLY_SLACK <= seen.time
            and changes[index].before.same(seen.before)
            and changes[index].after.same(seen.after)
        ]
        if not candidates:
            yield subject, seen
            continue
        index = min(candidates, key=lambda index: changes[index].time)
        open_by_subject[subject].remove(index)
        changes[index] = replace(changes[index], time=min(changes[index].time, seen.time))
    for (subject, _), change in zip(journal, changes, strict=True):
        yield subject, change


def _resource(kind: str) -> ResourceType | None:
    """A config resource's type from a journal row's (``topic``) or a feed row's (``TOPIC``);
    None for quotas, SCRAM users and broker loggers (restore puts back configs)."""
    name = kind.upper().replace("-", "_")
    if name not in ResourceType.__members__ or name == ResourceType.BROKER_LOGGER.name:
        return None
    return ResourceType[name]
