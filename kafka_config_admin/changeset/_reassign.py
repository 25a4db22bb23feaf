"""Applying partition plans: more partitions, and reassignments followed until they complete.

Partitions are added with CreatePartitions, once the broker accepted them (``validate_only``,
asked by :func:`~._verdict.ask_broker` with the plan's other changes). Kafka has no
``validate_only`` for reassignments: their replica lists are checked when planned (brokers
that exist, distinct, as many as wanted). A reassignment is started, then its partitions are
listed every half second until none is moving or the bound passes. With a throttle, the
replication throttle keys are set on the topics and brokers involved for the duration and put
back as they were at the end, also when the apply is cancelled or interrupted.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio

from .. import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    ConfigSource,
    KafkaConfigAdminError,
    KafkaTimeoutError,
    NewPartitions,
    OpType,
    ResourceType,
    TopicPartition,
)
from ..desired import PartitionPlan
from ..desired._partitions import Replicas
from ..state import BROKER_THROTTLE_KEYS, TOPIC_THROTTLE_KEYS, OutcomeStatus
from ..state._outcomes import status_dict

__all__ = [
    "DEFAULT_REASSIGNMENT_TIMEOUT",
    "INTERRUPTED_NOTE",
    "PartitionOutcome",
    "Progress",
    "apply_partition_plans",
    "settle_topics",
]

#: Seconds :func:`apply_plan` follows reassignments before reporting them still in progress.
DEFAULT_REASSIGNMENT_TIMEOUT = 600.0

#: Called with (partitions done, partitions moving in all) as a reassignment goes on.
Progress = Callable[[int, int], None]

_POLL_PAUSE = 0.5
#: Seconds the throttles' removal may take, even when the apply was cancelled.
_CLEANUP_SECONDS = 30.0
#: The broker throttle rates a ``throttle`` sets (the log-dirs rate is not a replication one).
_RATE_KEYS = BROKER_THROTTLE_KEYS[:2]


@dataclass(frozen=True)
class PartitionOutcome:
    """What became of one topic's partition plan: its status, the error when it failed, and
    a note (what changed, or what is still moving)."""

    topic: str
    status: OutcomeStatus
    summary: str
    error: BaseException | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data."""
        return {
            "topic": self.topic,
            "summary": self.summary,
            **status_dict(self.status, self.error, self.note),
        }


#: The note of a change sent whose answer an interrupted apply did not wait for.
INTERRUPTED_NOTE = "the apply was interrupted before its outcome was known"


def _unconfirmed(plan: PartitionPlan, note: str) -> PartitionOutcome:
    return PartitionOutcome(plan.topic, OutcomeStatus.UNCONFIRMED, plan.summary(), note=note)


async def settle_topics(admin: AdminClient, counts: Mapping[str, int]) -> None:
    """Wait until every broker's metadata shows the topics made or grown, each with its count
    of partitions (:meth:`AdminClient.wait_for_topics`, within the client's timeout). Past it,
    the apply goes on: its read back reports what does not show."""
    if not counts:
        return
    with contextlib.suppress(KafkaTimeoutError):
        await admin.wait_for_topics(counts)


async def apply_partition_plans(
    admin: AdminClient,
    partition_plans: Iterable[PartitionPlan],
    *,
    refused: Mapping[str, BaseException],
    dry_run: bool,
    throttle: int | None,
    bound: float,
    read_back_timeout: float,
    progress: Progress | None,
    wait_for_metadata: bool = True,
    sent: dict[str, PartitionOutcome] | None = None,
) -> tuple[PartitionOutcome, ...]:
    """Add partitions (the topics in ``refused`` excepted: the broker refused them more
    partitions), start reassignments and follow them (see the module docstring); with
    ``wait_for_metadata``, the partitions added are waited for until every broker shows them.
    ``sent``: each topic whose partitions were added, with its outcome as far as known (what
    an interrupted apply records)."""
    plans = {plan.topic: plan for plan in partition_plans}
    if not plans:
        return ()
    outcomes: dict[str, PartitionOutcome] = {}

    def fail(topic: str, error: BaseException) -> None:
        outcomes[topic] = PartitionOutcome(
            topic, OutcomeStatus.FAILED, plans[topic].summary(), error=error
        )

    for topic, error in refused.items():
        if topic in plans:
            fail(topic, error)
    wanted = {
        topic: NewPartitions(plan.wanted_partitions)
        for topic, plan in plans.items()
        if plan.adds_partitions and topic not in outcomes
    }
    if wanted and not dry_run:
        known = {} if sent is None else sent
        known.update((t, _unconfirmed(plans[t], INTERRUPTED_NOTE)) for t in wanted)
        result = admin.create_partitions(wanted)
        await result.wait()
        note = "partitions added; the apply was interrupted before every broker showed them"
        known.update((t, _unconfirmed(plans[t], note)) for t in wanted)
        for topic, error in result.errors().items():
            fail(topic, error)
            known[topic] = outcomes[topic]
        if wait_for_metadata:
            await settle_topics(
                admin, {t: new.total_count for t, new in wanted.items() if t not in outcomes}
            )
    if dry_run:
        note = (
            "partitions validated by the broker; replica lists checked here (Kafka cannot "
            "validate a reassignment)"
        )
        return tuple(
            outcomes.get(topic)
            or PartitionOutcome(topic, OutcomeStatus.VALIDATED, plan.summary(), note=note)
            for topic, plan in plans.items()
        )
    moves: dict[TopicPartition, Replicas] = {}
    for topic, plan in plans.items():
        if topic not in outcomes:
            moves.update(plan.moves())
    following = {
        TopicPartition(topic, partition)
        for topic, plan in plans.items()
        if topic not in outcomes
        for partition in plan.in_progress
    }
    throttled = _Throttled(admin, moves, throttle)
    async with throttled:
        if moves:
            started = admin.alter_partition_reassignments(moves)
            await started.wait()
            for key, error in started.errors().items():
                if key.topic not in outcomes:
                    fail(key.topic, error)
        following |= {key for key in moves if key.topic not in outcomes}
        still_moving = await _follow(admin, following, bound, progress)
    unconfirmed = await _read_back(
        admin,
        {t: p for t, p in plans.items() if t not in outcomes},
        {key.topic for key in still_moving},
        read_back_timeout,
    )
    for topic, plan in plans.items():
        if topic in outcomes:
            continue
        moving = sorted(key.partition for key in still_moving if key.topic == topic)
        if moving:
            note = (
                f"partitions {moving} are still moving after {bound:g} s: plan shows the "
                "reassignment in progress until it completes"
            )
            outcomes[topic] = PartitionOutcome(
                topic, OutcomeStatus.UNCONFIRMED, plan.summary(), note=note
            )
        elif topic in unconfirmed:
            note = "done, but the metadata did not show it in time"
            outcomes[topic] = PartitionOutcome(
                topic, OutcomeStatus.UNCONFIRMED, plan.summary(), note=note
            )
        else:
            outcomes[topic] = PartitionOutcome(topic, OutcomeStatus.APPLIED, plan.summary())
    if throttled.error is not None:
        for topic, outcome in outcomes.items():
            outcomes[topic] = PartitionOutcome(
                topic,
                OutcomeStatus.FAILED,
                outcome.summary,
                error=throttled.error,
                note="the replication throttles set for the move could not be put back",
            )
    return tuple(outcomes[topic] for topic in plans)


async def _follow(
    admin: AdminClient,
    keys: set[TopicPartition],
    bound: float,
    progress: Progress | None,
) -> set[TopicPartition]:
    """List the moving partitions until none of ``keys`` is left or ``bound`` passes; the
    ones still moving."""
    left = set(keys)
    if not left:
        return left
    with anyio.move_on_after(bound):
        while True:
            moving = await admin.list_partition_reassignments(sorted(left))
            left = {key for key in left if key in moving}
            if progress is not None:
                progress(len(keys) - len(left), len(keys))
            if not left:
                break
            await anyio.sleep(_POLL_PAUSE)
    return left


async def _read_back(
    admin: AdminClient,
    plans: Mapping[str, PartitionPlan],
    skipped: set[str],
    seconds: float,
) -> set[str]:
    """The topics whose metadata does not show their new partitions and replica lists
    within ``seconds`` (brokers learn of them a moment apart)."""
    pending = {topic: plan for topic, plan in plans.items() if topic not in skipped}
    with anyio.move_on_after(seconds):
        while pending:
            result = admin.describe_topics(list(pending))
            await result.wait()
            for topic, future in result.values.items():
                if future.exception() is None and _shows(pending[topic], future.result()):
                    del pending[topic]
            if pending:
                await anyio.sleep(_POLL_PAUSE / 10)
    return set(pending)


def _shows(plan: PartitionPlan, description: Any) -> bool:
    replicas = {info.partition: info.replicas for info in description.partitions}
    if len(replicas) < plan.wanted_partitions:
        return False
    targets = {**plan.in_progress, **plan.reassignments}
    return all(replicas.get(p) == wanted for p, wanted in targets.items())


class _Throttled:
    """The replication throttle set on the topics and brokers of ``moves`` for the duration.

    Each key is put back as it was (its own value, or no override) when the block ends, even
    when it ends by cancellation: the removal is shielded and bounded.
    """

    def __init__(
        self, admin: AdminClient, moves: Mapping[TopicPartition, Replicas], rate: int | None
    ) -> None:
        self._admin = admin
        self._rate = rate
        self._before: dict[ConfigResource, dict[str, str | None]] = {}
        self.error: KafkaConfigAdminError | None = None
        if rate is None or not moves:
            return
        for key in moves:
            topic = ConfigResource(ResourceType.TOPIC, key.topic)
            self._before[topic] = dict.fromkeys(TOPIC_THROTTLE_KEYS)
        brokers = {broker for replicas in moves.values() for broker in replicas}
        for broker in sorted(brokers):
            resource = ConfigResource(ResourceType.BROKER, str(broker))
            self._before[resource] = dict.fromkeys(_RATE_KEYS)

    async def __aenter__(self) -> None:
        if not self._before:
            return
        described = await self._admin.describe_configs(
            {resource: list(keys) for resource, keys in self._before.items()}
        ).all()
        for resource, config in described.items():
            for key in self._before[resource]:
                entry = config.get(key)
                own = entry is not None and entry.source in _OWN_SOURCES
                self._before[resource][key] = entry.value if own and entry else None
        try:
            await self._admin.incremental_alter_configs(
                {
                    resource: [AlterConfigOp(key, self._value(resource)) for key in keys]
                    for resource, keys in self._before.items()
                }
            ).all()
        except BaseException:
            await self._restore()
            raise

    def _value(self, resource: ConfigResource) -> str:
        return "*" if resource.type is ResourceType.TOPIC else str(self._rate)

    async def __aexit__(self, *exc: object) -> None:
        await self._restore()

    async def _restore(self) -> None:
        if not self._before:
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(_CLEANUP_SECONDS):
            try:
                await self._admin.incremental_alter_configs(
                    {
                        resource: [
                            AlterConfigOp(key, value)
                            if value is not None
                            else AlterConfigOp(key, op=OpType.DELETE)
                            for key, value in keys.items()
                        ]
                        for resource, keys in self._before.items()
                    }
                ).all()
            except KafkaConfigAdminError as error:
                self.error = error  # every topic's outcome says so


#: The sources of a value set on the resource itself (topic or broker id).
_OWN_SOURCES = frozenset({ConfigSource.TOPIC_CONFIG, ConfigSource.DYNAMIC_BROKER_CONFIG})
