"""Reviewing a change set against the cluster, and applying what was reviewed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from .. import (
    AdminClient,
    ClientQuotaEntity,
    ClientQuotaFilter,
    ClientQuotaFilterComponent,
    DescribeConfigsResult,
    ResourceType,
    TopicDescription,
    UserScramCredentialUpsertion,
)
from ..desired import (
    DEFAULT_READ_BACK_TIMEOUT,
    ApplyRecorder,
    ApplyReport,
    BrokerVerdict,
    ClusterState,
    ConfigWarning,
    Plan,
    Problem,
    Proposal,
    apply_plan,
    ask_broker,
    describe_state,
    read_scram_credentials,
)
from ._build import build_plan, upsertion_reference
from ._changes import ChangeSet

__all__ = ["Review", "apply", "review"]


@dataclass(frozen=True)
class Review:
    """A change set as reviewed: the plan that :func:`apply` sends (each key with its current
    value and source), what the cluster had, and the broker's verdict.

    ``verdict`` is None when the plan has problems: nothing was asked, and :func:`apply`
    refuses it. The upserts' salted passwords are kept for :func:`apply` and never shown.
    """

    changes: ChangeSet
    plan: Plan
    state: ClusterState
    verdict: BrokerVerdict | None
    upsertions: Mapping[str, UserScramCredentialUpsertion] = field(default_factory=dict, repr=False)

    @property
    def problems(self) -> tuple[Problem, ...]:
        """What the client refuses (an unknown key, a value that does not parse): nothing of
        the change set may be sent while there is one."""
        return self.plan.problems

    @property
    def warnings(self) -> tuple[ConfigWarning, ...]:
        """What is sent all the same but deserves a look (a key the broker's release lacks)."""
        return self.plan.warnings

    @property
    def refused(self) -> bool:
        """Whether the broker's dry run refused a change (apply would fail it)."""
        return self.verdict is not None and bool(self.verdict.refusals())


async def review(
    admin: AdminClient,
    changes: ChangeSet,
    *,
    settle: Callable[[DescribeConfigsResult], Awaitable[None]] | None = None,
) -> Review:
    """Read what ``changes`` are about, check them, and ask the broker's dry run.

    The configs of the resources changed are described with their types (``settle`` is
    handed the describe, to show its progress), the topics that grow, the quotas of the
    entities and the credentials of the users changed are read; then the client's checks
    (those certain for the broker's release: ``check_ops``, a DELETE of a key not set) and,
    when none failed, the broker's ``validate_only`` verdict on every change it can validate.
    Nothing is changed.
    """
    resources = list(changes.configs)
    state = ClusterState()
    if resources:  # the cluster default lists only what it sets: a broker's tells its keys
        needs_schema = any(r.type is ResourceType.BROKER and not r.name for r in resources)
        state = await describe_state(
            admin,
            resources,
            schema_for=[ResourceType.BROKER] if needs_schema else [],
            settle=settle,
        )
    topics = await _read_topics(admin, list(changes.partitions))
    quotas = await _read_quotas(admin, list(changes.quotas))
    users = list(dict.fromkeys(change.user for change in changes.scram))
    scram = await read_scram_credentials(admin, users)
    plan = build_plan(changes, state, topics, quotas, scram)
    verdict = None if plan.problems else await ask_broker(admin, Proposal.of_plan(plan))
    upsertions = {
        upsertion_reference(change): change
        for change in changes.scram
        if isinstance(change, UserScramCredentialUpsertion)
    }
    return Review(changes, plan, state, verdict, upsertions)


async def apply(
    admin: AdminClient,
    reviewed: Review,
    *,
    dry_run: bool = False,
    read_back_timeout: float = DEFAULT_READ_BACK_TIMEOUT,
    recorder: ApplyRecorder | None = None,
) -> ApplyReport:
    """Apply the reviewed plan: validate on the broker, change, read back; one outcome per
    resource, quota entity, SCRAM user and growing topic (:class:`ApplyReport`).

    Raises :class:`~kafka_config_admin.desired.PlanRejectedError`, sending nothing, when the
    review found problems. With ``dry_run`` the broker validates and nothing is changed (SCRAM
    credentials, which Kafka cannot validate, are checked here). A change whose new value a
    describe does not show within ``read_back_timeout`` seconds is ``UNCONFIRMED``.
    ``recorder`` (:class:`kafka_config_admin.journal.Recorder`) records the changes made.
    """
    return await apply_plan(
        admin,
        reviewed.plan,
        dry_run=dry_run,
        read_back_timeout=read_back_timeout,
        upsertions=reviewed.upsertions,
        recorder=recorder,
    )


async def _read_topics(
    admin: AdminClient, names: list[str]
) -> dict[str, TopicDescription | BaseException]:
    """Each topic's description, or why it could not be described."""
    if not names:
        return {}
    described = admin.describe_topics(names)
    await described.wait()
    found: dict[str, TopicDescription | BaseException] = {}
    for name, future in described.values.items():
        error = future.exception()
        found[name] = future.result() if error is None else error
    return found


async def _read_quotas(
    admin: AdminClient, entities: list[ClientQuotaEntity]
) -> dict[ClientQuotaEntity, Mapping[str, float]]:
    """Each entity's quota values now (asked at once, one filter each)."""
    results = [admin.describe_client_quotas(_exactly(entity)) for entity in entities]
    found: dict[ClientQuotaEntity, Mapping[str, float]] = {}
    for entity, result in zip(entities, results, strict=True):
        found[entity] = (await result.all()).get(entity, {})
    return found


def _exactly(entity: ClientQuotaEntity) -> ClientQuotaFilter:
    """The filter matching ``entity`` alone."""
    return ClientQuotaFilter.contains_only(
        ClientQuotaFilterComponent.default(kind)
        if name is None
        else ClientQuotaFilterComponent.exact(kind, name)
        for kind, name in entity.items()
    )
