"""The diff: current configs against a desired state gives a :class:`Plan` of alter operations.

Values are compared by type (``604800000``, ``"604800000"`` and ``7d`` are one LONG), so a
plan never re-applies what the cluster already has. A wanted value equal to the effective
value (a default, or a value inherited from the cluster default) is no change unless the key is
pinned; keys the file does not name are never touched, except overrides when pruning.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .. import (
    HIDDEN,
    AlterConfigOp,
    ClientQuotaEntity,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigType,
    NewTopic,
    OpType,
    ResourceType,
)
from ..state._check import Problem, check_resources, unknown_key_warnings
from ..state._deletions import kept_reason, pruned_keys
from ..state._model import DesiredState, IgnoreSpec, ResourceSpec, TopicSpec
from ..state._quotas import QuotaPlan, plan_quotas
from ..state._references import has_reference, is_reference
from ..state._scram_users import ScramPlan, plan_scram
from ..state._state import ClusterState, is_override
from ..state._types import is_set_like, parse_typed, same_value
from ..state._upcoming import desired_warnings
from ..state._warning import ConfigWarning
from ..toolkit import quota_value_text
from ._audit import Shadowed, find_shadowed
from ._partitions import PartitionPlan, plan_partitions

__all__ = [
    "PLAN_FORMAT_VERSION",
    "ConfigChange",
    "KeptKey",
    "Plan",
    "PlanDifference",
    "ResourceAction",
    "ResourcePlan",
    "SkippedKey",
    "StaleKey",
    "TopicCreation",
    "make_plan",
    "plan_difference",
    "stale_keys",
    "stale_quotas",
    "without_stale",
]

#: The ``format`` number of :meth:`Plan.to_dict`; it changes only when the shape does.
PLAN_FORMAT_VERSION = 1


class ConfigChange(BaseModel):
    """One operation on one key: what is sent, and what the key shows before and after.

    ``value`` is what the operation sends (for APPEND and SUBTRACT: the members added or
    removed); ``wanted`` the key's whole value once applied (None: no override left);
    ``current`` and ``current_source`` the effective value now. Values of sensitive keys are
    never shown by :meth:`Plan.to_dict` nor in a repr.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str
    op: OpType
    value: str | None
    wanted: str | None
    current: str | None
    current_source: ConfigSource
    type: ConfigType = ConfigType.UNKNOWN
    sensitive: bool = False

    def alter_op(self) -> AlterConfigOp:
        """The operation for ``incremental_alter_configs``."""
        return AlterConfigOp(name=self.key, value=self.value, op=self.op, sensitive=self.sensitive)

    def shows_wanted(self, resource: ConfigResource, entry: ConfigEntry | None) -> bool:
        """Whether a described entry shows this change applied (a read back after apply)."""
        if self.wanted is None:
            return not is_override(resource, entry)
        if not is_override(resource, entry):
            return False
        assert entry is not None
        return self.sensitive or same_value(self.type, entry.value, self.wanted, key=self.key)

    def shown(self) -> tuple[str | None, str | None]:
        """The current and wanted values as a plan shows them (a sensitive value hidden, a
        config provider reference shown)."""
        return _shown(self.current, self.sensitive), _shown(self.wanted, self.sensitive)

    def to_dict(self) -> dict[str, Any]:
        """The change in the plan's JSON shape (sensitive values as ``[hidden]``, config
        provider references as they are)."""
        return {
            "key": self.key,
            "op": self.op.name,
            "value": _shown(self.value, self.sensitive),
            "wanted": _shown(self.wanted, self.sensitive),
            "current": _shown(self.current, self.sensitive),
            "current_source": self.current_source.name,
            "type": self.type.name,
            "sensitive": self.sensitive,
        }

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            masked = name in ("value", "wanted", "current") and self.sensitive
            yield name, HIDDEN if masked and value is not None else value


class SkippedKey(BaseModel):
    """A key the file names that the plan leaves alone, and why (a sensitive key, say)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str
    reason: str


class KeptKey(BaseModel):
    """An override the plan would delete and keeps instead, and why: the broker will not
    remove it, or it is a replication throttle the file does not name."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str
    current: str | None
    reason: str
    sensitive: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The kept key in the plan's JSON shape."""
        return {
            "key": self.key,
            "current": _shown(self.current, self.sensitive),
            "reason": self.reason,
        }


class TopicCreation(BaseModel):
    """A topic apply creates: its name, partitions, replication factor and configs."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    name: str
    partitions: int
    replication_factor: int
    configs: dict[str, str] = Field(default_factory=dict)

    def new_topic(self) -> NewTopic:
        """The topic for ``create_topics`` (raises :class:`InvalidArgumentError` for a name
        or count the client cannot send)."""
        return NewTopic(self.name, self.partitions, self.replication_factor, self.configs)


class ResourceAction(StrEnum):
    """What a plan does with one resource."""

    ALTER = "alter"  #: change its configs
    CREATE = "create"  #: create the (missing) topic with its configs
    MISSING = "missing"  #: a named topic the cluster lacks, without partitions/RF (a problem)
    UNCHANGED = "unchanged"  #: nothing to do (listed when keys were skipped, kept or shadowed)


class ResourcePlan(BaseModel):
    """The plan for one resource."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    resource: ConfigResource
    action: ResourceAction
    changes: tuple[ConfigChange, ...] = ()
    create: TopicCreation | None = None
    skipped: tuple[SkippedKey, ...] = ()
    kept: tuple[KeptKey, ...] = ()
    shadowed: tuple[Shadowed, ...] = ()
    partitions: PartitionPlan | None = None

    def to_dict(self) -> dict[str, Any]:
        """The resource in the plan's JSON shape."""
        creation = self.create
        hidden = {change.key for change in self.changes if change.sensitive}
        return {
            "resource": _resource_dict(self.resource),
            "action": self.action.value,
            "changes": [change.to_dict() for change in self.changes],
            "create": None
            if creation is None
            else {
                "partitions": creation.partitions,
                "replication_factor": creation.replication_factor,
                "configs": {
                    key: _shown(value, key in hidden)
                    for key, value in sorted(creation.configs.items())
                },
            },
            "skipped": [{"key": skip.key, "reason": skip.reason} for skip in self.skipped],
            "kept": [kept.to_dict() for kept in self.kept],
            "shadowed": [shadow.to_dict() for shadow in self.shadowed],
            "partitions": None if self.partitions is None else self.partitions.to_dict(),
        }


class Plan(BaseModel):
    """What apply would do: per resource, the operations to send or the topic to create.

    ``problems`` lists every check that failed; apply refuses a plan with problems and sends
    nothing. ``warnings`` lists the file's values a coming Kafka release has announced it will
    refuse (:data:`UPCOMING_CHANGES`) and its broker keys the release does not define
    (:func:`unknown_key_warnings`): they are planned and applied all the same. Resources
    with nothing to do and nothing to say are left out.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    resources: tuple[ResourcePlan, ...] = ()
    problems: tuple[Problem, ...] = ()
    warnings: tuple[ConfigWarning, ...] = ()
    prune: bool = False
    quotas: tuple[QuotaPlan, ...] = ()
    scram: tuple[ScramPlan, ...] = ()
    cluster_id: str | None = None

    @property
    def digest(self) -> str:
        """A sha256 (64 hex digits) of what the plan would do and what it was made against.

        It covers the cluster id, ``prune``, every change with the current value and source
        it was made against, the topics to create, the quota, SCRAM and partition changes;
        not the problems, warnings, skipped, kept or shadowed keys, which apply never sends.
        It is the same for the same plan whatever order the file named things in, and
        changes when any of those does. Values of sensitive keys are hashed in with the rest
        (a changed secret changes the digest) and never appear in it: each is sealed first
        (PBKDF2, so that the digest, shown on a web page, is no cheap test of a guessed
        secret). Computed on each read, never cached: ``model_copy`` would carry a cached
        digest to a changed copy.
        """
        text = json.dumps(_canonical(self), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def has_changes(self) -> bool:
        """Whether applying would change anything (a config, a quota, a SCRAM credential, a
        topic to create)."""
        return (
            bool(self.quotas)
            or bool(self.scram)
            or any(
                plan.action in (ResourceAction.ALTER, ResourceAction.CREATE)
                for plan in self.resources
            )
        )

    @property
    def missing_topics(self) -> list[str]:
        """Named topics the cluster lacks that the file gives no partitions/RF to create."""
        return [
            plan.resource.name for plan in self.resources if plan.action is ResourceAction.MISSING
        ]

    def alter_ops(self) -> dict[ConfigResource, list[AlterConfigOp]]:
        """The operations for ``incremental_alter_configs``, per resource."""
        return {
            plan.resource: [change.alter_op() for change in plan.changes]
            for plan in self.resources
            if plan.action is ResourceAction.ALTER and plan.changes
        }

    def partition_plans(self) -> list[PartitionPlan]:
        """The topics whose partitions change (or are moving), in plan order."""
        return [plan.partitions for plan in self.resources if plan.partitions is not None]

    def get(self, resource: ConfigResource) -> ResourcePlan | None:
        """The plan for ``resource``, or None when it has nothing to do."""
        for plan in self.resources:
            if plan.resource == resource:
                return plan
        return None

    def creations(self) -> list[TopicCreation]:
        """The topics to create, in plan order."""
        return [plan.create for plan in self.resources if plan.create is not None]

    def to_dict(self) -> dict[str, Any]:
        """The plan as plain JSON-ready data, in the stable shape docs/desired-state.md shows."""
        return {
            "format": PLAN_FORMAT_VERSION,
            "digest": self.digest,
            "cluster_id": self.cluster_id,
            "has_changes": self.has_changes,
            "prune": self.prune,
            "problems": [_problem_dict(problem) for problem in self.problems],
            "warnings": [warning.to_dict() for warning in self.warnings],
            "resources": [plan.to_dict() for plan in self.resources],
            "quotas": [plan.to_dict() for plan in self.quotas],
            "scram": [plan.to_dict() for plan in self.scram],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)


class StaleKey(BaseModel):
    """A key whose value changed between a plan and a fresh read of the cluster.

    ``planned`` is the effective value the plan was made against, ``now`` the value the fresh
    read shows (both ``[hidden]`` for sensitive keys, which are never shown). A quota key has
    no source (``UNKNOWN``); its values are numbers as text.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str
    planned: str | None
    planned_source: ConfigSource = ConfigSource.UNKNOWN
    now: str | None
    now_source: ConfigSource = ConfigSource.UNKNOWN


def stale_keys(plan: Plan, state: ClusterState) -> dict[ConfigResource, tuple[StaleKey, ...]]:
    """The keys of ``plan``'s config changes whose value moved since it was made, per resource.

    ``state`` is a fresh read of the plan's resources (:func:`read_state` of the plan's
    desired state, :func:`plan_desired_state` for a saved plan): a key whose effective value
    or source differs from what the plan was made against was changed by someone else since,
    and applying the plan could undo their change. A resource the fresh read could not
    describe has every key stale (its value now unknown: ``now`` None, source ``UNKNOWN``).
    """
    stale: dict[ConfigResource, tuple[StaleKey, ...]] = {}
    for item in plan.resources:
        if item.action is not ResourceAction.ALTER:
            continue
        config = state.configs.get(item.resource)
        keys = []
        for change in item.changes:
            entry = None if config is None else state.effective_entry(item.resource, change.key)
            now = (None, ConfigSource.UNKNOWN) if entry is None else (entry.value, entry.source)
            if config is not None and now == (change.current, change.current_source):
                continue
            keys.append(
                StaleKey(
                    key=change.key,
                    planned=_shown(change.current, change.sensitive),
                    planned_source=change.current_source,
                    now=_shown(now[0], change.sensitive),
                    now_source=now[1],
                )
            )
        if keys:
            stale[item.resource] = tuple(keys)
    return stale


def stale_quotas(plan: Plan, state: ClusterState) -> dict[ClientQuotaEntity, tuple[StaleKey, ...]]:
    """The quota keys of ``plan`` whose value moved since it was made, per entity (``state``
    a fresh read with the plan's quota entities described, as for :func:`stale_keys`)."""
    stale: dict[ClientQuotaEntity, tuple[StaleKey, ...]] = {}
    for quota in plan.quotas:
        values = state.quotas.get(quota.quota_entity, {})
        keys = tuple(
            StaleKey(
                key=change.key,
                planned=quota_value_text(change.current),
                now=quota_value_text(now),
            )
            for change in quota.changes
            if (now := values.get(change.key)) != change.current
        )
        if keys:
            stale[quota.quota_entity] = keys
    return stale


def without_stale(
    made: Plan,
    configs: Mapping[ConfigResource, tuple[StaleKey, ...]],
    quotas: Mapping[ClientQuotaEntity, tuple[StaleKey, ...]],
) -> Plan:
    """``made`` without its stale keys (:func:`stale_keys`, :func:`stale_quotas`): a resource
    or quota entity left with no change is left out; a topic to create stays."""
    stale = {(resource, key.key) for resource, keys in configs.items() for key in keys}
    resources = []
    for item in made.resources:
        changes = tuple(c for c in item.changes if (item.resource, c.key) not in stale)
        if changes or item.action is not ResourceAction.ALTER:
            resources.append(item.model_copy(update={"changes": changes}))
    moved = {(entity, key.key) for entity, keys in quotas.items() for key in keys}
    kept_quotas = []
    for quota in made.quotas:
        kept = tuple(c for c in quota.changes if (quota.quota_entity, c.key) not in moved)
        if kept:
            kept_quotas.append(quota.model_copy(update={"changes": kept}))
    return made.model_copy(update={"resources": tuple(resources), "quotas": tuple(kept_quotas)})


class PlanDifference(BaseModel):
    """One change that one plan makes and another does not make the same way.

    ``subject`` names what it changes (``topic 'orders'``, ``quota user='alice'``,
    ``SCRAM user 'bob'``), ``key`` the key (``(create)`` for a topic's creation); ``shown`` is
    the change as the first plan makes it and ``now`` as the second does (``SET 3600000``,
    ``DELETE``; a sensitive value ``[hidden]``; None: that plan does not make it).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    subject: str
    key: str
    shown: str | None
    now: str | None


def plan_difference(
    shown: Plan, now: Plan, *, leaving: Iterable[ConfigResource | ClientQuotaEntity] = ()
) -> tuple[PlanDifference, ...]:
    """The changes ``shown`` and ``now`` do not make alike, in ``shown``'s order then
    ``now``'s; the resources and quota entities in ``leaving`` (stale ones, whose changes may
    follow the values that moved) are left out. Empty when both plans would send the same
    changes."""
    left = set(leaving)
    before, after = _intents(shown, left), _intents(now, left)
    return tuple(
        PlanDifference(subject=subject, key=key, shown=before.get(item), now=after.get(item))
        for item in dict.fromkeys([*before, *after])
        if before.get(item) != after.get(item)
        for subject, key in [item]
    )


def _intents(
    plan: Plan, leaving: set[ConfigResource | ClientQuotaEntity]
) -> dict[tuple[str, str], str]:
    """What ``plan`` would send, change by change, as ``PlanDifference`` words it."""
    intents: dict[tuple[str, str], str] = {}
    for item in plan.resources:
        if item.resource in leaving:
            continue
        subject = f"{item.resource.type.name.lower()} {item.resource.name!r}"
        if item.create is not None:
            creation = item.create
            intents[subject, "(create)"] = (
                f"CREATE {creation.partitions} partitions, RF {creation.replication_factor}"
            )
        if item.partitions is not None:
            intents[subject, "(partitions)"] = item.partitions.summary()
        for change in item.changes:
            value = _shown(change.value, change.sensitive)
            intents[subject, change.key] = change.op.name + ("" if value is None else f" {value}")
    for quota in plan.quotas:
        if quota.quota_entity in leaving:
            continue
        entity = " ".join(f"{kind}={name!r}" for kind, name in sorted(quota.entity.items()))
        for quota_change in quota.changes:
            wanted = quota_value_text(quota_change.wanted)
            intents[f"quota {entity}", quota_change.key] = (
                "DELETE" if wanted is None else f"SET {wanted}"
            )
    for user in plan.scram:
        for scram in user.changes:
            iterations = "" if scram.iterations is None else f" {scram.iterations} iterations"
            intents[f"SCRAM user {user.user!r}", scram.mechanism] = scram.op + iterations
    return intents


def make_plan(
    desired: DesiredState,
    state: ClusterState,
    *,
    prune: bool = False,
    include_sensitive: bool = False,
) -> Plan:
    """Diff ``state`` against ``desired``: the operations that make the cluster as wanted.

    Args:
        desired: the desired state (see :func:`load_desired_state`).
        state: what the cluster has (see :func:`read_state`), described with types.
        prune: also delete overrides of the file's resources that the file does not name
            (broker loggers excepted: a broker reports every logger as set), quota values of
            the file's entities and SCRAM credentials of its users that it does not name.
            Never pruned: keys the file's ``ignore`` section names, replication throttles the
            file does not name, and overrides the broker refused to remove
            (``state.undeletable``, as :func:`read_state` asks with ``prune=True``): those
            are listed as ``kept``, with the reason.
        include_sensitive: set (and prune) sensitive keys; without it they are skipped, since
            their current value cannot be read and so never compared.

    Every type-check problem is in ``Plan.problems``; the keys with problems get no operation.
    A named topic the cluster lacks that the file gives no partitions and replication factor
    for is a problem too (listed as ``missing``): apply could not make it as wanted.
    """
    resources = desired.resources(state.existing_topics())
    problems = check_resources(resources, state)
    refused = {(problem.resource, problem.key) for problem in problems}
    plans: list[ResourcePlan] = []
    for resource, spec in resources.items():
        plan = _resource_plan(
            resource, spec, state, refused, prune, include_sensitive, desired.ignore
        )
        if isinstance(spec, TopicSpec) and resource.name in state.topic_descriptions:
            partitions, found = plan_partitions(
                state.topic_descriptions[resource.name],
                spec.partitions,
                spec.replication_factor,
                state.racks,
                state.reassignments,
            )
            problems += found
            plan = _with_partitions(plan, resource, partitions)
        if resource == _CLUSTER_DEFAULT and (resource, None) not in refused:
            plan = _with_shadows(plan, resource, _shadows(desired, state))
        if plan is not None and plan.action is ResourceAction.MISSING:
            problems.append(_missing_problem(resource))
        if plan is not None:
            plans.append(plan)
    return Plan(
        resources=tuple(plans),
        problems=tuple(problems),
        warnings=(*desired_warnings(desired, state), *unknown_key_warnings(desired, state)),
        prune=prune,
        quotas=plan_quotas(desired.quotas, state.quotas, prune=prune),
        scram=plan_scram(desired.scram_users, state.scram, prune=prune),
    )


def _resource_plan(
    resource: ConfigResource,
    spec: ResourceSpec,
    state: ClusterState,
    refused: set[tuple[ConfigResource, str | None]],
    prune: bool,
    include_sensitive: bool,
    ignore: IgnoreSpec,
) -> ResourcePlan | None:
    if (resource, None) in refused:
        return None
    if resource.type is ResourceType.TOPIC and not state.topic_exists(resource.name):
        assert isinstance(spec, TopicSpec)
        return _missing_topic_plan(resource, spec, state)
    config = state.configs.get(resource) or _no_config()  # not a Config() per resource
    diff = _ResourceDiff(resource, spec, config, state, include_sensitive)
    for key, wanted in spec.configs.items():
        if (resource, key) not in refused:
            diff.want(key, wanted)
    if prune:
        for key in pruned_keys(resource, spec, config, ignore):
            diff.delete(key, config[key], kept_reason(state, resource, key))
    if diff.changes:
        action = ResourceAction.ALTER
    elif diff.skipped or diff.kept:
        action = ResourceAction.UNCHANGED
    else:
        return None
    return ResourcePlan(
        resource=resource,
        action=action,
        changes=tuple(diff.changes),
        skipped=tuple(diff.skipped),
        kept=tuple(diff.kept),
    )


def _with_partitions(
    plan: ResourcePlan | None, resource: ConfigResource, partitions: PartitionPlan | None
) -> ResourcePlan | None:
    if partitions is None:
        return plan
    if plan is None:
        return ResourcePlan(resource=resource, action=ResourceAction.ALTER, partitions=partitions)
    return plan.model_copy(update={"action": ResourceAction.ALTER, "partitions": partitions})


def _shadows(desired: DesiredState, state: ClusterState) -> tuple[Shadowed, ...]:
    """The brokers that will keep their own value of a key the file wants on the cluster
    default (those the file's ``brokers`` section sets the key for excepted)."""
    assert desired.cluster_default is not None
    declared = {broker: list(spec.configs) for broker, spec in desired.brokers.items()}
    return tuple(find_shadowed(state, desired.cluster_default.configs, declared=declared))


def _with_shadows(
    plan: ResourcePlan | None, resource: ConfigResource, shadowed: tuple[Shadowed, ...]
) -> ResourcePlan | None:
    if not shadowed:
        return plan
    if plan is None:
        return ResourcePlan(resource=resource, action=ResourceAction.UNCHANGED, shadowed=shadowed)
    return plan.model_copy(update={"shadowed": shadowed})


#: Why a named topic the cluster lacks, and the file cannot create, is a problem.
MISSING_TOPIC = "the topic does not exist; give partitions and replication_factor to create it"


def _missing_problem(resource: ConfigResource) -> Problem:
    return Problem(
        resource=resource, key=None, value=None, expected_type=None, message=MISSING_TOPIC
    )


def _missing_topic_plan(
    resource: ConfigResource, spec: TopicSpec, state: ClusterState
) -> ResourcePlan:
    """Create the topic when the file says how, else report it missing.

    A topic to create lists its configs as SET changes too: they show in the plan like any
    change, with their types, and apply reads them back the same way.
    """
    if spec.partitions is None or spec.replication_factor is None:
        return ResourcePlan(resource=resource, action=ResourceAction.MISSING)
    configs = {key: value for key, value in spec.configs.items() if value is not None}
    creation = TopicCreation(
        name=resource.name,
        partitions=spec.partitions,
        replication_factor=spec.replication_factor,
        configs=configs,
    )
    diff = _ResourceDiff(resource, spec, _no_config(), state, include_sensitive=True)
    for key, value in configs.items():
        diff.add(key, OpType.SET, value, value, None)
    return ResourcePlan(
        resource=resource,
        action=ResourceAction.CREATE,
        create=creation,
        changes=tuple(diff.changes),
    )


class _ResourceDiff:
    """The changes for one resource, key by key."""

    def __init__(
        self,
        resource: ConfigResource,
        spec: ResourceSpec,
        config: Config,
        state: ClusterState,
        include_sensitive: bool,
    ) -> None:
        self.resource = resource
        self.spec = spec
        self.config = config
        self.state = state
        self.include_sensitive = include_sensitive
        self.changes: list[ConfigChange] = []
        self.skipped: list[SkippedKey] = []
        self.kept: list[KeptKey] = []
        self._facts: dict[str, tuple[ConfigType, bool]] = {}

    def want(self, key: str, wanted: str | None) -> None:
        entry = self.state.effective_entry(self.resource, key)
        own = is_override(self.resource, entry)
        if wanted is None:
            if own:
                assert entry is not None
                self.delete(key, entry, self.state.undeletable_reason(self.resource, key))
            return
        if self._sensitive(key):
            self.add(key, OpType.SET, wanted, wanted, entry)  # cannot compare: always set
            return
        kind = self._type(key)
        current = entry.value if entry is not None else None
        if same_value(kind, current, wanted, key=key) and (own or not self.spec.is_pinned(key)):
            return
        op, value = OpType.SET, wanted
        references = has_reference(current) or has_reference(wanted)
        if own and kind is ConfigType.LIST and current is not None and not references:
            op, value = _list_op(current, wanted, set_like=is_set_like(key))
        self.add(key, op, value, wanted, entry)

    def delete(self, key: str, entry: ConfigEntry, kept_because: str | None) -> None:
        """A DELETE of an override, or the override kept when there is a reason to."""
        if kept_because is None:
            self.add(key, OpType.DELETE, None, None, entry)
            return
        self.kept.append(
            KeptKey(
                key=key, current=entry.value, reason=kept_because, sensitive=self._sensitive(key)
            )
        )

    def add(
        self,
        key: str,
        op: OpType,
        value: str | None,
        wanted: str | None,
        entry: ConfigEntry | None,
    ) -> None:
        """Add one operation (``entry`` is the key's entry now), or skip a sensitive key."""
        sensitive = self._sensitive(key)
        if sensitive and not self.include_sensitive:
            self.skipped.append(
                SkippedKey(key=key, reason="sensitive: changed only when sensitive keys are asked")
            )
            return
        self.changes.append(
            ConfigChange(
                key=key,
                op=op,
                value=value,
                wanted=wanted,
                current=entry.value if entry is not None else None,
                current_source=entry.source if entry is not None else ConfigSource.UNKNOWN,
                type=self._type(key),
                sensitive=sensitive,
            )
        )

    def _key_facts(self, key: str) -> tuple[ConfigType, bool]:
        facts = self._facts.get(key)
        if facts is None:
            facts = self._facts[key] = self.state.key_facts(self.resource, key)
        return facts

    def _type(self, key: str) -> ConfigType:
        return self._key_facts(key)[0]

    def _sensitive(self, key: str) -> bool:
        return self._key_facts(key)[1]


_CLUSTER_DEFAULT = ConfigResource(ResourceType.BROKER, "")


@functools.cache
def _no_config() -> Config:
    """The configs of a resource not described (a topic to create, a failed describe).

    Made when first needed, not at import: making a Config builds its validator, which a plan
    of described resources never needs.
    """
    return Config()


def _list_op(current: str, wanted: str, *, set_like: bool = False) -> tuple[OpType, str]:
    """APPEND when the list only gains members at its end, SUBTRACT when it only loses some,
    else SET: APPEND and SUBTRACT leave members others add meanwhile alone. A set-like list
    (order meaningless) gains or loses members wherever they stand."""
    try:
        have = parse_typed(ConfigType.LIST, current)
        want = parse_typed(ConfigType.LIST, wanted)
    except ValueError:
        return OpType.SET, wanted
    assert isinstance(have, tuple) and isinstance(want, tuple)
    if set_like:
        gained = [member for member in dict.fromkeys(want) if member not in have]
        lost = [member for member in dict.fromkeys(have) if member not in want]
        if gained and not lost:
            return OpType.APPEND, ",".join(gained)
        if lost and not gained:
            return OpType.SUBTRACT, ",".join(lost)
        return OpType.SET, wanted
    added = want[len(have) :]
    if (
        len(want) > len(have)
        and want[: len(have)] == have
        and len(set(added)) == len(added)
        and not set(added) & set(have)
    ):
        return OpType.APPEND, ",".join(added)
    removed = [member for member in dict.fromkeys(have) if member not in want]
    if removed and tuple(member for member in have if member not in removed) == want:
        return OpType.SUBTRACT, ",".join(removed)
    return OpType.SET, wanted


def _shown(value: str | None, sensitive: bool) -> str | None:
    """A value as the plan shows it: a sensitive one hidden, unless it is only config provider
    references (they name where the secret is, not the secret)."""
    return HIDDEN if sensitive and value is not None and not is_reference(value) else value


def _resource_dict(resource: ConfigResource) -> dict[str, str]:
    return {"type": resource.type.name, "name": resource.name}


def _problem_dict(problem: Problem) -> dict[str, Any]:
    return {
        "resource": _resource_dict(problem.resource),
        "key": problem.key,
        "value": problem.value,
        "expected_type": None if problem.expected_type is None else problem.expected_type.name,
        "message": problem.message,
    }


def _canonical(plan: Plan) -> dict[str, Any]:
    """What :attr:`Plan.digest` covers, in one order whatever order the plan was made in.

    A config change is written field by field (``_DIGEST_CHANGE_FIELDS``, every field of
    :class:`ConfigChange`, a test keeps them in step), not dumped: a plan of thousands of
    changes is hashed in a few milliseconds. The rarer parts are dumped whole.
    """
    resources = []
    for item in sorted(plan.resources, key=lambda item: _resource_key(item.resource)):
        changes = sorted(
            (_change_fields(item.resource, change) for change in item.changes),
            key=lambda fields: (fields[0], int(fields[1])),
        )
        resources.append(
            {
                "resource": _resource_key(item.resource),
                "action": item.action.value,
                "create": None if item.create is None else _creation(item),
                "partitions": None
                if item.partitions is None
                else item.partitions.model_dump(mode="json"),
                "changes": [[_plain(value) for value in change] for change in changes],
            }
        )
    quotas = [
        {
            "entity": quota.entity,
            "changes": _in_order(change.model_dump(mode="json") for change in quota.changes),
        }
        for quota in plan.quotas
    ]
    scram = [
        {
            "user": user.user,
            "changes": _in_order(change.model_dump(mode="json") for change in user.changes),
        }
        for user in plan.scram
    ]
    return {
        "cluster_id": plan.cluster_id,
        "prune": plan.prune,
        "resources": resources,
        "quotas": _in_order(quotas),
        "scram": _in_order(scram),
    }


#: The fields of a :class:`ConfigChange` the digest covers, in the order it writes them.
_DIGEST_CHANGE_FIELDS = (
    "key",
    "op",
    "value",
    "wanted",
    "current",
    "current_source",
    "type",
    "sensitive",
)


def _change_fields(resource: ConfigResource, change: ConfigChange) -> list[Any]:
    fields = [getattr(change, name) for name in _DIGEST_CHANGE_FIELDS]
    if change.sensitive:
        salt = _seal_salt(resource, change.key)
        fields[2:5] = [_sealed(value, salt) for value in fields[2:5]]
    return fields


def _creation(item: ResourcePlan) -> dict[str, Any]:
    """A topic to create as the digest covers it: its sensitive configs sealed."""
    assert item.create is not None
    dumped = item.create.model_dump(mode="json")
    secret = {change.key for change in item.changes if change.sensitive}
    dumped["configs"] = {
        key: _sealed(value, _seal_salt(item.resource, key)) if key in secret else value
        for key, value in dumped["configs"].items()
    }
    return dumped


def _seal_salt(resource: ConfigResource, key: str) -> str:
    return f"{_SEAL_SALT}:{int(resource.type)}:{resource.name}:{key}"


#: Sealing a secret for the digest: PBKDF2-HMAC-SHA256, salted with this, the resource and the
#: key (a secret's seal differs per key), iterated so that guessing a weak secret from a
#: digest, whose other inputs a page shows, costs as much as guessing it from a stored hash.
_SEAL_SALT = "kafka-config-admin plan digest"
_SEAL_ITERATIONS = 20_000


def _sealed(value: str | None, salt: str) -> str | None:
    """A sensitive value as the digest covers it (a config provider reference as it is)."""
    if value is None or is_reference(value):
        return value
    sealed = hashlib.pbkdf2_hmac("sha256", value.encode(), salt.encode(), _SEAL_ITERATIONS)
    return "sealed:" + sealed.hex()


def _plain(value: Any) -> Any:
    """A field's value as JSON writes it (an enum as its Kafka number)."""
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _in_order(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``items`` sorted by their canonical JSON: one order whatever order they came in."""
    return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))


def _resource_key(resource: ConfigResource) -> tuple[int, str]:
    return int(resource.type), resource.name
