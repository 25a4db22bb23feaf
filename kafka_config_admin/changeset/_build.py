"""A change set as the plan the desired-state pipeline applies (no I/O).

Each change becomes the plan entry that ``apply_plan`` sends, reads back and reports on: a
config operation a :class:`ConfigChange` with the key's current value and source (what the
table shows and the stale check compares) and the whole value wanted once applied (what the
read back waits for), a quota a :class:`QuotaPlan`, a SCRAM credential a :class:`ScramPlan`, a
partition increase a :class:`PartitionPlan`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .. import (
    AlterConfigOp,
    ClientQuotaEntity,
    ConfigResource,
    ConfigSource,
    ConfigType,
    OpType,
    ResourceType,
    TopicDescription,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from ..desired import ConfigChange, PartitionPlan, Plan, ResourceAction, ResourcePlan
from ..state import (
    ClusterState,
    Problem,
    QuotaChange,
    QuotaPlan,
    ScramChange,
    ScramPlan,
    check_ops,
    is_override,
    parse_typed,
    unknown_key_warnings,
)
from ._changes import ChangeSet, UnsetDeletes

__all__ = ["SkippedChange", "build_plan", "deletes_of_keys_not_set", "upsertion_reference"]


@dataclass(frozen=True)
class SkippedChange:
    """A change of a change set left out, never sent, and why (``reason``, one line)."""

    resource: ConfigResource
    key: str
    reason: str


def upsertion_reference(upsertion: UserScramCredentialUpsertion) -> str:
    """How a plan names an upsert the caller made (in ``password_env``): never a variable
    name, so never read from the environment."""
    return f"given:{upsertion.user}:{upsertion.mechanism.mechanism_name}"


def build_plan(
    changes: ChangeSet,
    state: ClusterState,
    topics: Mapping[str, TopicDescription | BaseException],
    quotas: Mapping[ClientQuotaEntity, Mapping[str, float]],
    scram: Mapping[str, Mapping[str, int]],
) -> tuple[Plan, tuple[SkippedChange, ...]]:
    """The plan of ``changes`` against what the cluster has: ``state`` (the configs of the
    resources changed, with types), the ``topics`` whose partitions grow (each described, or
    why not), the ``quotas`` of the entities and the ``scram`` credentials of the users
    changed. Every problem the client can be sure of is in ``Plan.problems``; a DELETE of a
    key not set is one, or with ``changes.unset_deletes`` SKIP a change left out (returned
    beside the plan, which sends nothing of a resource all of whose changes are)."""
    problems = check_ops(changes.configs, state)
    unset = deletes_of_keys_not_set(changes.configs, state, problems)
    skipped: list[SkippedChange] = []
    if changes.unset_deletes is UnsetDeletes.SKIP:
        skipped = [_skipped(problem) for problem in unset]
    else:
        problems += unset
    refused = {(problem.resource, problem.key) for problem in problems}
    left_out = refused | {(change.resource, change.key) for change in skipped}
    plans: dict[ConfigResource, ResourcePlan] = {}
    for resource, ops in changes.configs.items():
        if ops and (resource, None) not in refused:
            kept = [op for op in ops if (resource, op.name) not in left_out]
            if not kept and any(change.resource == resource for change in skipped):
                continue
            plans[resource] = ResourcePlan(
                resource=resource,
                action=ResourceAction.ALTER,
                changes=tuple(_config_change(resource, op, state) for op in kept),
            )
    for topic, count in changes.partitions.items():
        resource = ConfigResource(ResourceType.TOPIC, topic)
        partitions = _partition_plan(resource, topics[topic], count, problems)
        if partitions is not None:
            plan = plans.get(resource) or ResourcePlan(
                resource=resource, action=ResourceAction.ALTER
            )
            plans[resource] = plan.model_copy(update={"partitions": partitions})
    built = Plan(
        resources=tuple(plans.values()),
        problems=tuple(problems),
        warnings=tuple(unknown_key_warnings(changes.configs, state)),
        quotas=tuple(_quota_plan(e, v, quotas.get(e, {})) for e, v in changes.quotas.items()),
        scram=_scram_plans(changes, scram),
    )
    return built, tuple(skipped)


def _skipped(unset: Problem) -> SkippedChange:
    assert unset.key is not None
    return SkippedChange(
        resource=unset.resource,
        key=unset.key,
        reason=f"not sent: {unset.key} {unset.message}; the state the DELETE asks for holds",
    )


def deletes_of_keys_not_set(
    changes: Mapping[ConfigResource, Sequence[AlterConfigOp]],
    state: ClusterState,
    known: Sequence[Problem] = (),
) -> list[Problem]:
    """A DELETE of a key not set on the resource itself, refused as kafka-configs.sh refuses
    it ("Invalid config(s)"): the broker would take it and change nothing, and the change
    would be called made. Keys already refused (``known``) are not said twice."""
    said = {(problem.resource, problem.key) for problem in known}
    problems = []
    for resource, ops in changes.items():
        config = state.configs.get(resource)
        for op in ops:
            if config is None or op.op is not OpType.DELETE or (resource, op.name) in said:
                continue
            entry = config.get(op.name)
            if is_override(resource, entry):
                continue
            source = "" if entry is None else f" (its value comes from {entry.source.name})"
            problems.append(
                Problem(
                    resource=resource,
                    key=op.name,
                    value=None,
                    expected_type=None,
                    message=f"is not set on it, so there is nothing to delete{source}",
                )
            )
    return problems


def _config_change(
    resource: ConfigResource, op: AlterConfigOp, state: ClusterState
) -> ConfigChange:
    kind, sensitive = state.key_facts(resource, op.name)
    entry = state.effective_entry(resource, op.name)
    current = entry.value if entry is not None else None
    return ConfigChange(
        key=op.name,
        op=op.op,
        value=op.value,
        wanted=_wanted(op, current),
        current=current,
        current_source=entry.source if entry is not None else ConfigSource.UNKNOWN,
        type=kind,
        sensitive=sensitive or op.sensitive,
    )


def _wanted(op: AlterConfigOp, current: str | None) -> str | None:
    """The key's whole value once ``op`` is applied (None: no override left), as the broker
    makes it: APPEND adds the members the list lacks at its end, SUBTRACT removes members."""
    if op.op is OpType.DELETE:
        return None
    if op.op is OpType.SET or op.value is None:
        return op.value
    try:
        have = _members(current)
        given = _members(op.value)
    except ValueError:
        return op.value
    if op.op is OpType.APPEND:
        return ",".join([*have, *(m for m in dict.fromkeys(given) if m not in have)])
    return ",".join(member for member in have if member not in given)


def _members(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    members = parse_typed(ConfigType.LIST, value)
    assert isinstance(members, tuple)
    return tuple(str(member) for member in members)


def _partition_plan(
    resource: ConfigResource,
    described: TopicDescription | BaseException,
    count: int,
    problems: list[Problem],
) -> PartitionPlan | None:
    """The topic's partition increase, or its problem (added to ``problems``)."""
    if isinstance(described, BaseException):
        problems.append(_problem(resource, count, f"could not be described: {described}"))
        return None
    have = len(described.partitions)
    if count < have:
        problems.append(
            _problem(
                resource,
                count,
                f"the topic has {have} partitions; Kafka cannot remove partitions: nothing is sent",
            )
        )
        return None
    if count == have:
        return None
    factor = max((len(info.replicas) for info in described.partitions), default=0)
    return PartitionPlan(
        topic=resource.name,
        current_partitions=have,
        wanted_partitions=count,
        current_replication_factor=factor,
        wanted_replication_factor=factor,
    )


def _problem(resource: ConfigResource, count: int, message: str) -> Problem:
    return Problem(
        resource=resource, key="partitions", value=str(count), expected_type=None, message=message
    )


def _quota_plan(
    entity: ClientQuotaEntity, values: Mapping[str, float | None], now: Mapping[str, float]
) -> QuotaPlan:
    """Every value asked is sent, also one the entity has already: what was asked is made."""
    changes = [QuotaChange(key=k, current=now.get(k), wanted=v) for k, v in values.items()]
    return QuotaPlan(entity=dict(entity), changes=tuple(changes))


def _scram_plans(changes: ChangeSet, now: Mapping[str, Mapping[str, int]]) -> tuple[ScramPlan, ...]:
    """Each user's credential changes, users in the order first named. An upsert is sent even
    when the iterations are the same: its password may be new, and Kafka never shows one."""
    by_user: dict[str, list[ScramChange]] = {}
    for change in changes.scram:
        mechanism = change.mechanism.mechanism_name
        have = now.get(change.user, {}).get(mechanism)
        if isinstance(change, UserScramCredentialDeletion):
            planned = ScramChange(mechanism=mechanism, op="DELETE", current_iterations=have)
        else:
            planned = ScramChange(
                mechanism=mechanism,
                op="UPSERT",
                current_iterations=have,
                iterations=change.iterations,
                password_env=upsertion_reference(change),
            )
        by_user.setdefault(change.user, []).append(planned)
    return tuple(ScramPlan(user=user, changes=tuple(c)) for user, c in by_user.items())
