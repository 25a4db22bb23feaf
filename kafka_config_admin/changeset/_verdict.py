"""The broker's verdict on changes before any is made: every change sent with ``validate_only``.

One function, :func:`ask_broker`, for every face: ``plan``, ``apply`` (its validation step,
also ``apply --dry-run``), ``alter --dry-run``, the web editor's checks and the Spark source's
dry run all ask it, so that they give the same verdict from the same code. Config changes go as
one IncrementalAlterConfigs, topics to create as one CreateTopics, partition increases as one
CreatePartitions and quota changes as one AlterClientQuotas, all with ``validate_only`` and all
at once (the client makes one request per broker of each); nothing is asked per topic.

A resource the broker refuses is asked again key by key when it changes more than one key: the
keys refused alone are the ones named beside the refusal, else every key of the resource (the
broker refused them together). A change the broker could not be asked about (a timeout, a lost
connection) is neither accepted nor refused: it is ``unknown``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import anyio

from .. import (
    HIDDEN,
    AdminClient,
    AlterConfigOp,
    BrokerError,
    ClientQuotaEntity,
    ConfigResource,
    InvalidArgumentError,
    NewPartitions,
)
from ..desired import Plan, TopicCreation
from ..toolkit import error_line, is_sensitive_name, quota_value_text, shorten

__all__ = ["BrokerVerdict", "Proposal", "Refusal", "ask_broker", "is_refusal"]

K = TypeVar("K", bound=Hashable)

#: Characters of a value a message quotes before cutting it short.
VALUE_LIMIT = 60
#: Characters of the broker's reason a message quotes before cutting it short.
REASON_LIMIT = 500


@dataclass(frozen=True)
class Proposal:
    """Changes to put to the broker: config operations per resource, topics to create,
    partition counts to raise, and quota values per entity (None removes one)."""

    configs: Mapping[ConfigResource, Sequence[AlterConfigOp]] = field(default_factory=dict)
    topics: Sequence[TopicCreation] = ()
    partitions: Mapping[str, NewPartitions] = field(default_factory=dict)
    quotas: Mapping[ClientQuotaEntity, Mapping[str, float | None]] = field(default_factory=dict)

    @classmethod
    def of_plan(cls, plan: Plan) -> Proposal:
        """Every change of ``plan`` the broker can validate (not SCRAM credentials, nor
        reassignments: Kafka has no validate_only for them; their replica lists are checked
        when planned)."""
        return cls(
            configs=plan.alter_ops(),
            topics=plan.creations(),
            partitions={
                p.topic: NewPartitions(p.wanted_partitions)
                for p in plan.partition_plans()
                if p.adds_partitions
            },
            quotas={q.quota_entity: q.alteration() for q in plan.quotas},
        )


@dataclass(frozen=True)
class Refusal:
    """The broker's refusal of one resource's changes (or why it could not be asked): what
    (``subject``, as people read it), the keys with the values sent (sensitive ones
    ``[hidden]``, long ones cut short), the error, and ``reason``: the error on one line, its
    class first, with each long value it echoes cut short."""

    subject: str
    keys: tuple[tuple[str, str | None], ...]
    error: BaseException
    reason: str

    def __str__(self) -> str:
        changes = ", ".join(
            key if value is None else f"{key} = {value}" for key, value in self.keys
        )
        return f"{self.subject}{', ' if changes else ''}{changes}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        """The refusal as JSON-ready data."""
        return {
            "subject": self.subject,
            "keys": [{"key": key, "value": value} for key, value in self.keys],
            "error": {"type": type(self.error).__name__, "message": self.reason},
        }


@dataclass(frozen=True)
class BrokerVerdict:
    """What the broker said of a :class:`Proposal`: the changes it refused and those it could
    not be asked about, each keyed as the proposal keys them (a config resource, a topic to
    create or to grow by its name, a quota entity); it accepts everything else."""

    configs: Mapping[ConfigResource, Refusal] = field(default_factory=dict)
    topics: Mapping[str, Refusal] = field(default_factory=dict)
    partitions: Mapping[str, Refusal] = field(default_factory=dict)
    quotas: Mapping[ClientQuotaEntity, Refusal] = field(default_factory=dict)

    def refusals(self) -> list[Refusal]:
        """Every refusal (the broker said no): configs, creations, partitions, quotas."""
        return [r for r in self._all() if is_refusal(r.error)]

    def unknown(self) -> list[Refusal]:
        """Every change the broker could not be asked about (its error says why)."""
        return [r for r in self._all() if not is_refusal(r.error)]

    @property
    def accepted(self) -> bool:
        """Whether the broker accepts every change."""
        return not self._all()

    def _all(self) -> list[Refusal]:
        return [
            *self.configs.values(),
            *self.topics.values(),
            *self.partitions.values(),
            *self.quotas.values(),
        ]

    def to_dict(self) -> dict[str, Any]:
        """The verdict as JSON-ready data: ``refused`` and ``unknown``."""
        return {
            "refused": [refusal.to_dict() for refusal in self.refusals()],
            "unknown": [refusal.to_dict() for refusal in self.unknown()],
        }


def is_refusal(error: BaseException) -> bool:
    """Whether ``error`` is a verdict: the broker's own answer (an error code it does not ask
    to retry) or input the client refuses to send; not a timeout or a lost connection."""
    if isinstance(error, InvalidArgumentError):
        return True
    return isinstance(error, BrokerError) and not error.retriable


async def ask_broker(admin: AdminClient, proposal: Proposal) -> BrokerVerdict:
    """Send every change of ``proposal`` with ``validate_only``, each kind in one call and all
    at once; nothing is changed. The verdict names each change refused (or not asked)."""
    configs: dict[ConfigResource, Refusal] = {}
    topics: dict[str, Refusal] = {}
    partitions: dict[str, Refusal] = {}
    quotas: dict[ClientQuotaEntity, Refusal] = {}

    async def ask_configs() -> None:
        configs.update(await _config_refusals(admin, proposal.configs))

    async def ask_topics() -> None:
        given = {topic.name: topic for topic in proposal.topics}
        errors = await _validated(
            list(given),
            lambda names: admin.create_topics([given[n].new_topic() for n in names], **_ONLY),
        )
        for name, error in errors.items():
            changes = [(k, v, is_sensitive_name(k)) for k, v in given[name].configs.items()]
            topics[name] = _refusal(f"topic {name!r} (to create)", changes, error)

    async def ask_partitions() -> None:
        wanted = proposal.partitions
        errors = await _validated(
            list(wanted),
            lambda names: admin.create_partitions({n: wanted[n] for n in names}, **_ONLY),
        )
        for name, error in errors.items():
            count = str(wanted[name].total_count)
            partitions[name] = _refusal(f"topic {name!r}", [("partitions", count, False)], error)

    async def ask_quotas() -> None:
        wanted = proposal.quotas
        errors = await _validated(
            list(wanted),
            lambda entities: admin.alter_client_quotas({e: wanted[e] for e in entities}, **_ONLY),
        )
        for entity, error in errors.items():
            changes = [
                (key, quota_value_text(value), False) for key, value in wanted[entity].items()
            ]
            quotas[entity] = _refusal(f"quotas of {entity}", changes, error)

    async with anyio.create_task_group() as group:
        for asked, ask in (
            (proposal.configs, ask_configs),
            (proposal.topics, ask_topics),
            (proposal.partitions, ask_partitions),
            (proposal.quotas, ask_quotas),
        ):
            if asked:
                group.start_soon(ask)
    return BrokerVerdict(configs=configs, topics=topics, partitions=partitions, quotas=quotas)


_ONLY = {"validate_only": True}


class _Answer(Protocol[K]):
    """A call's result, as far as a verdict reads it."""

    async def wait(self) -> None: ...

    def errors(self) -> dict[K, BaseException]: ...


async def _validated(
    keys: Sequence[K], send: Callable[[Sequence[K]], _Answer[K]]
) -> dict[K, BaseException]:
    """Each key's error of one validate_only call (``send`` of the keys). When the client
    refuses the call as a whole (one key's input it cannot send), each key is asked alone, so
    that only the one at fault is refused."""
    if not keys:
        return {}
    try:
        answer = send(keys)
    except InvalidArgumentError as error:
        if len(keys) == 1:
            return {keys[0]: error}
        errors: dict[K, BaseException] = {}
        for key in keys:
            errors.update(await _validated([key], send))
        return errors
    await answer.wait()
    return answer.errors()


async def _config_refusals(
    admin: AdminClient, configs: Mapping[ConfigResource, Sequence[AlterConfigOp]]
) -> dict[ConfigResource, Refusal]:
    """Each refused resource with the keys it was refused for (see the module docstring)."""

    def alter(chosen: Mapping[ConfigResource, Sequence[AlterConfigOp]]) -> Any:
        return lambda keys: admin.incremental_alter_configs({r: chosen[r] for r in keys}, **_ONLY)

    errors = await _validated(list(configs), alter(configs))
    several = {r: configs[r] for r, e in errors.items() if is_refusal(e) and len(configs[r]) > 1}
    refused_alone: dict[ConfigResource, set[str]] = {}
    # One call per position (a resource may be named once per request): the first key of
    # each resource, then the second; only resources refused already, so rarely any.
    for index in range(max(map(len, several.values()), default=0)):
        alone = {r: [ops[index]] for r, ops in several.items() if index < len(ops)}
        for resource, error in (await _validated(list(alone), alter(alone))).items():
            if is_refusal(error):
                refused_alone.setdefault(resource, set()).add(alone[resource][0].name)
    refusals = {}
    for resource, error in errors.items():
        named = refused_alone.get(resource)
        ops = [op for op in configs[resource] if named is None or op.name in named]
        changes = [(op.name, op.value, op.sensitive) for op in ops]
        refusals[resource] = _refusal(str(resource), changes, error)
    return refusals


def _refusal(
    subject: str, changes: Iterable[tuple[str, str | None, bool]], error: BaseException
) -> Refusal:
    """A refusal of ``changes`` (key, value sent, whether it is secret): secrets hidden (the
    client hid them from the broker's message already), long values cut short, in the
    message too."""
    changes = list(changes)
    message = error_line(error)
    for _, value, secret in changes:
        if value is not None and not secret and len(value) > VALUE_LIMIT:
            message = message.replace(value, shorten(value, VALUE_LIMIT))
    if len(message) > REASON_LIMIT:
        message = f"{message[:REASON_LIMIT]}... ({len(message)} characters)"
    keys = tuple(
        (key, None if value is None else HIDDEN if secret else shorten(value, VALUE_LIMIT))
        for key, value, secret in changes
    )
    return Refusal(subject, keys, error, f"{type(error).__name__}: {message}")
