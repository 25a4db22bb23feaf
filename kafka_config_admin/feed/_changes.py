"""What changed between two observations of a cluster: the one diff of the change feed.

Pure (no I/O): :func:`kafka_config_admin.feed.observe_cluster` reads an
:class:`ObservedState`, :func:`next_state` carries what a failed read could not see over from
the last state, and :func:`diff_states` turns two states into :class:`StateChange` rows. The
Spark stream (``kafka-config-changes``) and the CLI's ``watch`` both use exactly these.

The rules, for each resource present in both states:

- a key set on the resource itself (its override source: ``TOPIC_CONFIG`` on a topic,
  ``DYNAMIC_DEFAULT_BROKER_CONFIG`` on the cluster default...) that was not before is
  ``added``; one that no longer is, ``removed``; any other difference in value or source is
  ``changed`` (an inherited value that moved with the cluster default too);
- a sensitive key never shows a value: it is ``added`` or ``removed`` as any key (values
  null), ``changed`` when its source moves; a new value with the same source cannot be seen
  (Kafka returns no sensitive value), so it gives no row;
- a broker logger's level counts as set when it differs from the level it inherits (its
  nearest listed ancestor's, else the root logger's; :func:`observed_values`): Kafka reports
  every logger, lazily created ones too, as ``DYNAMIC_BROKER_LOGGER_CONFIG``;
- a resource (topic, broker, group, quota entity, SCRAM user) that appears is one ``added``
  row with no key, followed by its overrides; one that disappears, one ``removed`` row and
  the overrides it had.

A read that fails is an ``error`` row, never a removal: a cluster that cannot be reached keeps
its last known resources, and so does a resource whose describe failed alone. A broker (and
its loggers) that was read before and is not in the cluster's metadata now (stopped,
restarting, fenced) is unknown, not gone: an ``error`` row, its last known keys kept, until it
has been missing for ``broker_gone_after`` seconds (:func:`next_state`). A resource never seen
before is a baseline: nothing is reported for it until it has been seen once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, NamedTuple

from .. import Config, ConfigResource, ConfigSource, ResourceType
from ..state import ERROR_COLUMNS, RESOURCE_COLUMNS, override_source

__all__ = [
    "BROKER_GONE_AFTER",
    "POLL_ROW",
    "ChangeKind",
    "ObservedState",
    "ObservedValue",
    "ResourceKey",
    "ResourceObservation",
    "StateChange",
    "diff_states",
    "next_state",
    "observed_state",
    "observed_values",
]

#: The resource types of the feed beyond the config resources: quota entities, SCRAM users.
QUOTA = "QUOTA"
SCRAM_USER = "SCRAM_USER"
#: The source shown for quota values and SCRAM credentials: set on the entity or user itself.
ENTITY_SOURCE = "ENTITY"

#: The ``change`` of a row that says what a poll cost rather than what changed (the Spark
#: stream's ``stats`` rows): a feed table's reader skips it.
POLL_ROW = "poll"

#: A resource as the feed names it: (resource type, name); ``BROKER ""`` is the cluster default.
ResourceKey = tuple[str, str]

#: Seconds a broker read before may be missing from the metadata (stopped, restarting,
#: fenced) before the feed reports it gone: one day unless the feed is told otherwise.
BROKER_GONE_AFTER = 86400.0
#: The resource types listed from the brokers in the metadata, which holds only live brokers.
_LISTED_LIVE = frozenset({ResourceType.BROKER.name, ResourceType.BROKER_LOGGER.name})
#: The error an unlisted broker's row carries (the SDK's class for a broker that is not there).
_NOT_LISTED = "BrokerNotAvailableError"
#: An :class:`ObservedValue` made from its four fields without the Python call of its
#: ``__new__`` (the feed makes one per key and resource at every poll).
_new_value = tuple.__new__
#: The name Kafka gives the root logger, which every logger inherits from.
_ROOT_LOGGER = "root"


class ChangeKind(StrEnum):
    """What a :class:`StateChange` row says happened."""

    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"
    ERROR = "error"


class ObservedValue(NamedTuple):
    """One key as read: its value (None when sensitive), source and KIP-569 type.

    A named tuple: a poll of 20,000 topics makes well over a million of them, and two
    resources' values compare as a whole at C speed (:func:`diff_states`).
    """

    value: str | None
    source: str
    config_type: str = "UNKNOWN"
    sensitive: bool = False


@dataclass(frozen=True)
class ResourceObservation:
    """One resource's keys, and the error when this read of it failed.

    ``configs`` is None while the resource has never been read successfully (its first read
    failed): the feed then has nothing to compare it with. ``missing_since`` is set on a
    broker (or its loggers) that was read before and is not listed now: since when its last
    known keys stand in for it.
    """

    configs: Mapping[str, ObservedValue] | None
    error: tuple[str, str] | None = None
    missing_since: datetime | None = None


@dataclass(frozen=True, repr=False)
class ObservedState:
    """One cluster at one poll: its resources and what could not be read.

    Attributes:
        cluster: the cluster's name in the rows.
        time: when the poll read the cluster (UTC).
        resources: every resource seen, with its keys (or its error).
        error: set when the cluster could not be read at all; ``resources`` then holds the last
            known ones.
        type_errors: resource types whose listing failed alone (quota entities or SCRAM users
            on a broker without those APIs), with the error; their last known resources stay.
        known: whether ``resources`` come from a successful read (now or earlier): a cluster
            never read yet has nothing to compare a later read with.
    """

    cluster: str
    time: datetime
    resources: Mapping[ResourceKey, ResourceObservation] = field(default_factory=dict)
    error: tuple[str, str] | None = None
    type_errors: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    known: bool = True

    def __repr__(self) -> str:
        # A summary: a state of 20,000 topics would repr as a hundred megabytes, and
        # asyncio.run reprs its main task, result included, when it puts back Ctrl-C's handler
        # (Python 3.11), so a poll run with it returning its state paid for one at every poll.
        return (
            f"ObservedState(cluster={self.cluster!r}, time={self.time.isoformat()!r}, "
            f"resources=<{len(self.resources)} resources>, error={self.error!r}, "
            f"type_errors={dict(self.type_errors)!r}, known={self.known!r})"
        )

    def to_json(self) -> str:
        """The state as JSON text (what the stream keeps per poll)."""
        return json.dumps(
            {
                "cluster": self.cluster,
                "time": self.time.isoformat(),
                "error": self.error,
                "type_errors": dict(self.type_errors),
                "known": self.known,
                "resources": [
                    [
                        kind,
                        name,
                        None
                        if observation.configs is None
                        else dict(observation.configs),  # each value a tuple: a JSON array
                        observation.error,
                        None
                        if observation.missing_since is None
                        else observation.missing_since.isoformat(),
                    ]
                    for (kind, name), observation in self.resources.items()
                ],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> ObservedState:
        """The state :meth:`to_json` wrote."""
        data: dict[str, Any] = json.loads(text)
        resources: dict[ResourceKey, ResourceObservation] = {}
        for kind, name, configs, error, *since in data["resources"]:
            missing = since[0] if since else None  # states written before it was kept
            resources[(kind, name)] = ResourceObservation(
                None
                if configs is None
                else {key: ObservedValue(*entry) for key, entry in configs.items()},
                None if error is None else (error[0], error[1]),
                None if missing is None else datetime.fromisoformat(missing),
            )
        return cls(
            cluster=data["cluster"],
            time=datetime.fromisoformat(data["time"]),
            resources=resources,
            error=None if data["error"] is None else (data["error"][0], data["error"][1]),
            type_errors={kind: (e[0], e[1]) for kind, e in data["type_errors"].items()},
            known=data["known"],
        )


@dataclass(frozen=True)
class StateChange:
    """One row of the feed: a key (or a whole resource) added, removed or changed, or an error.

    ``key`` is None on a row about a whole resource (it appeared or disappeared) and on an
    error row; ``resource_type`` and ``resource_name`` are None on an error row about the
    whole cluster. Values are None for sensitive keys.
    """

    cluster: str
    resource_type: str | None
    resource_name: str | None
    key: str | None
    change: ChangeKind
    detected_time: datetime
    before_value: str | None = None
    after_value: str | None = None
    before_source: str | None = None
    after_source: str | None = None
    config_type: str | None = None
    error: str | None = None
    error_message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready values (the time in ISO 8601)."""
        resource_type, resource_name = RESOURCE_COLUMNS
        error, error_message = ERROR_COLUMNS
        return {
            "cluster": self.cluster,
            resource_type: self.resource_type,
            resource_name: self.resource_name,
            "key": self.key,
            "change": self.change.value,
            "before_value": self.before_value,
            "after_value": self.after_value,
            "before_source": self.before_source,
            "after_source": self.after_source,
            "config_type": self.config_type,
            "detected_time": self.detected_time.isoformat(),
            error: self.error,
            error_message: self.error_message,
        }


def observed_values(
    config: Config, resource_type: ResourceType | None = None
) -> dict[str, ObservedValue]:
    """A described config's keys as the feed compares them (sensitive values dropped).

    Of a broker logger (``resource_type`` BROKER_LOGGER), only the loggers whose level is set:
    the root logger, and each logger whose level is not the one it inherits (its nearest
    ancestor's among the listed loggers, by the dotted name, else the root's). Kafka lists
    every logger the broker has made, each as ``DYNAMIC_BROKER_LOGGER_CONFIG``, and makes
    loggers lazily, so the others come and go with the broker's work and restarts.
    """
    entries = config.entries
    if resource_type is ResourceType.BROKER_LOGGER:
        levels = {entry.name: entry.value for entry in entries}
        entries = tuple(e for e in entries if e.value != _inherited_level(e.name, levels))
    values: dict[str, ObservedValue] = {}
    for entry in entries:
        sensitive = entry.sensitive  # a property: asked once per entry
        # An enum's _name_ is its name without the property's lookup: a poll of 20,000
        # topics reads it 3 million times.
        values[entry.name] = _new_value(
            ObservedValue,
            (None if sensitive else entry.value, entry.source._name_, entry.type._name_, sensitive),
        )
    return values


def _inherited_level(logger: str, levels: Mapping[str, str | None]) -> str | None:
    """The level ``logger`` would have unset: its nearest listed ancestor's, else the root's
    (None for the root itself, which inherits nothing)."""
    if logger == _ROOT_LOGGER:
        return None
    name = logger
    while "." in name:
        name = name.rsplit(".", 1)[0]
        if name in levels:
            return levels[name]
    return levels.get(_ROOT_LOGGER)


def observed_state(
    cluster: str,
    time: datetime,
    configs: Mapping[ConfigResource, Config],
    errors: Mapping[ConfigResource, BaseException] | None = None,
) -> ObservedState:
    """A cluster's described configs (and the resources that failed) as an observed state:
    how a snapshot that was read some other way (a Spark snapshot table) is compared."""
    resources: dict[ResourceKey, ResourceObservation] = {
        (resource.type.name, resource.name): ResourceObservation(
            observed_values(config, resource.type)
        )
        for resource, config in configs.items()
    }
    for resource, error in (errors or {}).items():
        resources[(resource.type.name, resource.name)] = ResourceObservation(
            None, (type(error).__name__, str(error))
        )
    return ObservedState(cluster, time, resources)


def next_state(
    before: ObservedState | None,
    observed: ObservedState,
    *,
    broker_gone_after: float = BROKER_GONE_AFTER,
) -> ObservedState:
    """The state to keep after a poll: what it read, plus what it failed to read from ``before``.

    A cluster that could not be read keeps ``before``'s resources; a resource whose describe
    failed keeps its last known keys (with the error); a resource type whose listing failed
    keeps its last known resources. A broker or broker logger of ``before`` that the poll did
    not list (the metadata lists live brokers only: a broker stopped, restarting or fenced is
    not in it) is unknown, not gone: it keeps its last known keys, with an error saying so,
    until it has been missing for ``broker_gone_after`` seconds; then it counts as removed.
    So the next diff compares with the last thing known.
    """
    if before is None:
        return observed
    if observed.error is not None:
        return replace(observed, resources=before.resources, type_errors={}, known=before.known)
    resources = dict(observed.resources)
    for key, observation in resources.items():
        if observation.error is not None and key in before.resources:
            resources[key] = replace(observation, configs=before.resources[key].configs)
    for key, observation in before.resources.items():
        if key in resources:
            continue
        if key[0] in observed.type_errors:
            resources[key] = observation
        elif key[0] in _LISTED_LIVE and key[1] and observation.configs is not None:
            since = observation.missing_since or observed.time
            if observed.time - since < timedelta(seconds=broker_gone_after):
                resources[key] = replace(
                    observation, error=_not_listed(key[1], broker_gone_after), missing_since=since
                )
    return replace(observed, resources=resources)


def _not_listed(broker: str, gone_after: float) -> tuple[str, str]:
    return _NOT_LISTED, (
        f"broker {broker} is not in the cluster's metadata (stopped, restarting or fenced): "
        f"its last known keys are kept until it is listed again, or reported removed after "
        f"{gone_after:g}s missing"
    )


def diff_states(before: ObservedState | None, after: ObservedState) -> list[StateChange]:
    """The changes from ``before`` to ``after`` (a state from :func:`next_state`), then errors.

    Without ``before`` (the first poll), or while the cluster has never been read, only errors
    are reported: the first state read is the baseline. Rows come in a stable order: per
    resource, the resource row, then keys by name.
    """
    rows: list[StateChange] = []
    time = after.time
    if after.error is not None:
        error, message = after.error
        return [
            StateChange(
                after.cluster,
                None,
                None,
                None,
                ChangeKind.ERROR,
                time,
                error=error,
                error_message=message,
            )
        ]
    for kind, (error, message) in sorted(after.type_errors.items()):
        rows.append(
            StateChange(
                after.cluster,
                kind,
                None,
                None,
                ChangeKind.ERROR,
                time,
                error=error,
                error_message=message,
            )
        )
    baseline = before is None or not before.known
    last = {} if before is None else before.resources
    for resource in sorted(set(last) | set(after.resources)):
        rows.extend(_resource_changes(after.cluster, time, resource, last, after.resources))
    if baseline:
        return [row for row in rows if row.change is ChangeKind.ERROR]
    return rows


def _resource_changes(
    cluster: str,
    time: datetime,
    resource: ResourceKey,
    before: Mapping[ResourceKey, ResourceObservation],
    after: Mapping[ResourceKey, ResourceObservation],
) -> Iterator[StateChange]:
    kind, name = resource
    old, new = before.get(resource), after.get(resource)
    if new is not None and new.error is not None:
        error, message = new.error
        yield StateChange(
            cluster, kind, name, None, ChangeKind.ERROR, time, error=error, error_message=message
        )
        return
    old_configs = None if old is None else old.configs
    new_configs = None if new is None else new.configs
    if old is not None and new is not None and old_configs == new_configs:
        return  # every key the same (most resources at most polls): none can have changed
    own = _own_source(kind, name)
    if old is None and new_configs is not None:
        yield StateChange(cluster, kind, name, None, ChangeKind.ADDED, time)
        old_configs, new_configs = {}, _set_on_it(new_configs, own)
    elif new is None and old_configs is not None:
        yield StateChange(cluster, kind, name, None, ChangeKind.REMOVED, time)
        old_configs, new_configs = _set_on_it(old_configs, own), {}
    if old_configs is None or new_configs is None:
        return  # never read successfully: a baseline, not a change
    for key in sorted(set(old_configs) | set(new_configs)):
        change = _key_change(old_configs.get(key), new_configs.get(key), own)
        if change is not None:
            yield _row(
                cluster, kind, name, key, change, time, old_configs.get(key), new_configs.get(key)
            )


def _set_on_it(
    configs: Mapping[str, ObservedValue], own: str | None
) -> Mapping[str, ObservedValue]:
    """The keys set on the resource itself: what a resource that appears or goes is shown with."""
    return {key: value for key, value in configs.items() if own is None or value.source == own}


def _own_source(kind: str, name: str) -> str | None:
    """The source of a value set on the resource itself; every key of a quota entity or SCRAM
    user is its own."""
    if kind in (QUOTA, SCRAM_USER):
        return ENTITY_SOURCE
    if kind not in ResourceType.__members__:
        return None
    source: ConfigSource = override_source(ConfigResource(ResourceType[kind], name))
    return source.name


def _key_change(
    old: ObservedValue | None, new: ObservedValue | None, own: str | None
) -> ChangeKind | None:
    if old is None and new is None:
        return None
    if old is None or new is None:
        change = ChangeKind.ADDED if old is None else ChangeKind.REMOVED
    elif old.source != own and new.source == own:
        change = ChangeKind.ADDED
    elif old.source == own and new.source != own:
        change = ChangeKind.REMOVED
    elif old.value != new.value or old.source != new.source:
        change = ChangeKind.CHANGED
    else:
        return None  # a sensitive key's new value with the same source reads the same: None
    return change


def _row(
    cluster: str,
    kind: str,
    name: str,
    key: str,
    change: ChangeKind,
    time: datetime,
    old: ObservedValue | None,
    new: ObservedValue | None,
) -> StateChange:
    sensitive = (old is not None and old.sensitive) or (new is not None and new.sensitive)
    typed = new if new is not None else old
    return StateChange(
        cluster,
        kind,
        name,
        key,
        change,
        time,
        before_value=None if old is None or sensitive else old.value,
        after_value=None if new is None or sensitive else new.value,
        before_source=None if old is None else old.source,
        after_source=None if new is None else new.source,
        config_type=None if typed is None else typed.config_type,
    )
