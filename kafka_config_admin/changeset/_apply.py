"""Applying a plan to a cluster (what it has is read by :mod:`._read_state`).

:func:`apply_plan` sends a :class:`Plan`: the broker validates every
change first (:func:`~._verdict.ask_broker`, as ``plan`` asks it), then the changes that
passed are made, and each applied
resource is read back until it shows its new values, since brokers apply a committed change a
few milliseconds apart. One resource failing never stops the others; every resource gets an
outcome in the :class:`ApplyReport`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol, TypeVar

import anyio

from .. import (
    AdminClient,
    ClientQuotaEntity,
    Config,
    ConfigResource,
    InvalidArgumentError,
    KafkaConfigAdminError,
    NewTopic,
    ResourceType,
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from ..desired import Plan, ResourceAction, ResourcePlan, StaleKey
from ..state import (
    OutcomeStatus,
    Problem,
    QuotaPlan,
    Rule,
    ScramChange,
    ScramPlan,
    read_scram_credentials,
)
from ..state._outcomes import status_dict
from ..toolkit import error_line
from ._guard import RuleCheck, check_plan_rules
from ._reassign import (
    DEFAULT_REASSIGNMENT_TIMEOUT,
    INTERRUPTED_NOTE,
    PartitionOutcome,
    Progress,
    apply_partition_plans,
    settle_topics,
)
from ._verdict import BrokerVerdict, Proposal, Refusal, ask_broker

__all__ = [
    "DEFAULT_READ_BACK_TIMEOUT",
    "INTERRUPTED_NOTE",
    "INTERRUPTED_RECORD_TIMEOUT",
    "ApplyRecorder",
    "ApplyRecording",
    "ApplyReport",
    "PlanRejectedError",
    "QuotaOutcome",
    "ResourceOutcome",
    "ScramOutcome",
    "apply_plan",
]

K = TypeVar("K", bound=Hashable)
P = TypeVar("P")
V = TypeVar("V")

#: Seconds :func:`apply_plan` reads back applied resources before calling them unconfirmed.
DEFAULT_READ_BACK_TIMEOUT = 30.0

_READ_BACK_PAUSE = 0.05

#: Seconds an interrupted apply (cancelled, or failed) gives its recorder to record what it
#: had sent before the interruption goes on: Ctrl-C never waits longer.
INTERRUPTED_RECORD_TIMEOUT = 10.0

#: The note of a change the broker accepted but the apply did not read back.
_ACCEPTED_NOTE = "the broker accepted it; the apply was interrupted before a describe showed it"


class PlanRejectedError(InvalidArgumentError):
    """The plan has problems (wrong types, unknown or read-only keys): nothing was sent."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        lines = [f"the plan has {len(self.problems)} problem(s); nothing was sent:"]
        lines += [f"  {problem}" for problem in self.problems]
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class ResourceOutcome:
    """The outcome of one resource: its status, the error when it failed, and a note."""

    resource: ConfigResource
    action: ResourceAction
    status: OutcomeStatus
    error: BaseException | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data."""
        return {
            "resource": {"type": self.resource.type.name, "name": self.resource.name},
            "action": self.action.value,
            **status_dict(self.status, self.error, self.note),
        }


@dataclass(frozen=True)
class QuotaOutcome:
    """The outcome of one quota entity: its status, and the error when it failed."""

    entity: ClientQuotaEntity
    status: OutcomeStatus
    error: BaseException | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data."""
        return {
            "entity": dict(self.entity),
            **status_dict(self.status, self.error, self.note),
        }


@dataclass(frozen=True)
class ScramOutcome:
    """The outcome of one user's SCRAM credential changes."""

    user: str
    status: OutcomeStatus
    error: BaseException | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data."""
        return {
            "user": self.user,
            **status_dict(self.status, self.error, self.note),
        }


@dataclass(frozen=True)
class ApplyReport:
    """Every resource's outcome of :func:`apply_plan`, in plan order, then every quota
    entity's; ``stale`` and ``stale_quotas``: the keys left out, unsent, since they moved
    after the review (``changeset.apply(..., skip_stale=True)``)."""

    outcomes: tuple[ResourceOutcome, ...] = ()
    dry_run: bool = False
    quotas: tuple[QuotaOutcome, ...] = ()
    scram: tuple[ScramOutcome, ...] = ()
    partitions: tuple[PartitionOutcome, ...] = ()
    stale: Mapping[ConfigResource, tuple[StaleKey, ...]] = field(default_factory=dict)
    stale_quotas: Mapping[ClientQuotaEntity, tuple[StaleKey, ...]] = field(default_factory=dict)
    #: The id under which the apply's recorder (the journal) recorded these changes.
    change_set_id: str | None = None
    #: Why the recorder could not record them (the changes were made all the same).
    journal_error: str | None = None
    #: Whether the apply was interrupted (cancelled, or failed) before it was done: the
    #: report holds only what had been sent, and what was known of it.
    interrupted: bool = False

    @property
    def ok(self) -> bool:
        """Whether nothing failed and every change was read back (or validated)."""
        settled = (OutcomeStatus.APPLIED, OutcomeStatus.VALIDATED)
        quotas_ok = all(outcome.status in settled for outcome in self.quotas)
        scram_ok = all(outcome.status in settled for outcome in self.scram)
        partitions_ok = all(o.status in settled for o in self.partitions)
        return not self.failed and not self.unconfirmed and quotas_ok and scram_ok and partitions_ok

    @property
    def failed(self) -> list[ResourceOutcome]:
        """The resources that failed, with their errors."""
        return [o for o in self.outcomes if o.status is OutcomeStatus.FAILED]

    @property
    def unconfirmed(self) -> list[ResourceOutcome]:
        """The resources changed but not read back as wanted before the deadline."""
        return [o for o in self.outcomes if o.status is OutcomeStatus.UNCONFIRMED]

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "dry_run": self.dry_run,
            "ok": self.ok,
            "outcomes": [outcome.to_dict() for outcome in self.outcomes],
            "quotas": [outcome.to_dict() for outcome in self.quotas],
            "scram": [outcome.to_dict() for outcome in self.scram],
            "partitions": [outcome.to_dict() for outcome in self.partitions],
            "stale": [
                {"resource": {"type": r.type.name, "name": r.name}, **key.model_dump(mode="json")}
                for r, keys in self.stale.items()
                for key in keys
            ],
            "stale_quotas": [
                {"entity": dict(entity), **key.model_dump(mode="json")}
                for entity, keys in self.stale_quotas.items()
                for key in keys
            ],
            "change_set_id": self.change_set_id,
            "journal_error": self.journal_error,
            "interrupted": self.interrupted,
        }

    def interruption_note(self) -> str | None:
        """What became of an interrupted apply's recording (returned by its recorder), as a
        sentence; None when nothing was recorded since nothing was sent."""
        if self.journal_error is not None:
            return (
                "the changes sent before the apply was interrupted could not be recorded: "
                + self.journal_error
            )
        if self.change_set_id is not None:
            return (
                "the changes sent before the apply was interrupted were recorded in the "
                f"journal as change set {self.change_set_id}"
            )
        return None


class ApplyRecording(Protocol):
    """One apply's recording, readied by :meth:`ApplyRecorder.prepare`."""

    async def record(self, report: ApplyReport) -> ApplyReport:
        """Record what ``report`` says became of the plan's changes; the report with
        ``change_set_id``, or with ``journal_error`` when it could not record (a recording
        never raises for that)."""
        ...


class ApplyRecorder(Protocol):
    """What records an apply's changes (the journal,
    :class:`kafka_config_admin.journal.Recorder`): :func:`apply_plan` has it prepare while the
    changes are sent (beside the apply's own requests, so that what it needs, such as the
    cluster's id, costs no time of its own), then hands the recording the report before it
    returns, and returns the report the recording gives back."""

    async def prepare(self, admin: AdminClient, plan: Plan) -> ApplyRecording:
        """Ready to record ``plan``'s changes on ``admin``'s cluster."""
        ...


class _Preparing:
    """A recorder's :meth:`~ApplyRecorder.prepare`, running beside an apply's requests (a task
    of its own: the apply's errors stay its own, never grouped with the recorder's)."""

    def __init__(self, recorder: ApplyRecorder | None, admin: AdminClient, plan: Plan) -> None:
        self._task = (
            None if recorder is None else asyncio.ensure_future(recorder.prepare(admin, plan))
        )

    async def record(self, report: ApplyReport) -> ApplyReport:
        """``report`` as the recording returns it once it recorded it (as it is: no recorder)."""
        if self._task is None:
            return report
        return await (await self._task).record(report)

    async def abandon(self) -> None:
        """Stop preparing (the apply failed before it sent anything)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def record_interrupted(self, report: ApplyReport | None, error: BaseException) -> None:
        """Record ``report``, what an interrupted apply had sent (None: nothing), shielded
        from the cancellation for at most :data:`INTERRUPTED_RECORD_TIMEOUT` seconds; what
        became of it is added to ``error``'s notes."""
        if report is None or self._task is None:
            await self.abandon()
            return
        recorded = None
        with anyio.move_on_after(INTERRUPTED_RECORD_TIMEOUT, shield=True):
            try:
                recorded = await self.record(report)
            except Exception as failure:  # its preparation failed: the apply's error goes on
                recorded = replace(report, journal_error=error_line(failure))
        if recorded is None:
            with anyio.CancelScope(shield=True):  # its preparation may still run: ended here
                await self.abandon()
            recorded = replace(
                report,
                journal_error=f"the recorder did not record them within "
                f"{INTERRUPTED_RECORD_TIMEOUT:g} s",
            )
        note = recorded.interruption_note()
        if note is not None:
            error.add_note(note)


async def apply_plan(
    admin: AdminClient,
    plan: Plan,
    *,
    dry_run: bool = False,
    read_back_timeout: float = DEFAULT_READ_BACK_TIMEOUT,
    throttle: int | None = None,
    reassignment_timeout: float = DEFAULT_REASSIGNMENT_TIMEOUT,
    progress: Progress | None = None,
    wait_for_metadata: bool = True,
    rules: Iterable[Rule] = (),
    overrides: Collection[str] = (),
    upsertions: Mapping[str, UserScramCredentialUpsertion] | None = None,
    recorder: ApplyRecorder | None = None,
    verdict: BrokerVerdict | None = None,
) -> ApplyReport:
    """Apply ``plan``: validate every change on the broker, make those that pass, read back.

    Raises :class:`PlanRejectedError` (sending nothing) when the plan has problems. Otherwise
    every resource of the plan gets a :class:`ResourceOutcome`; a resource the broker refuses
    (its policy, a bad value) fails alone. Topics to create are created with their configs
    (CreateTopics), configs are changed with IncrementalAlterConfigs; both are first sent
    with ``validate_only``, and with ``dry_run`` nothing else is sent. Each request has the
    client's ``timeout``; the read back of what was applied lasts at most
    ``read_back_timeout`` seconds, and a resource whose new values do not show by then is
    ``UNCONFIRMED``.

    Then the topics' partition plans (``ApplyReport.partitions``, one outcome per topic):
    partitions added (CreatePartitions, validated first), reassignments started and followed
    until they complete or ``reassignment_timeout`` seconds pass (``progress`` is told how
    many partitions are done), those in progress followed too. ``throttle`` (bytes per
    second) sets the replication throttles on the topics and brokers involved for the
    duration and puts them back as they were afterwards, even when cancelled.

    With ``wait_for_metadata`` (the default), the topics created and the partitions added are
    waited for until every broker's metadata shows them (:meth:`AdminClient.wait_for_topics`,
    within the client's ``timeout``), so that a plan or describe right after the apply sees
    everything made; a topic that does not show in time is ``UNCONFIRMED`` by the read back.

    Guardrails: a change that would break one of ``rules`` (:func:`check_plan_rules`) refuses
    the whole plan with :class:`RuleRefusedError`, before anything is sent (a dry run too),
    unless ``overrides`` names the rule (its :attr:`Rule.label`); the outcome of each thing
    changed despite a rule says so in its note (``rule 'min-isr' overridden``). An override
    naming no rule raises :class:`UnknownRuleError`.

    ``upsertions`` are SCRAM upserts the caller made (their passwords already salted), by the
    ``password_env`` their :class:`ScramChange` names: those are sent as they are; every other
    upsert reads its password from the environment variable it names.

    ``recorder`` (the journal: :mod:`kafka_config_admin.journal`) records every change sent,
    with its outcome, before this returns (never for a dry run): it prepares while the changes
    are sent, and records once the apply is done; the report it returns says the change set's
    id, or why it could not record. When the apply is cancelled or raises after it sent
    changes, the recorder is handed a report with ``interrupted`` set, of only the changes
    sent: those whose outcome was known as it was, the others ``UNCONFIRMED``
    (:data:`INTERRUPTED_NOTE`); that recording is shielded from the cancellation for at most
    :data:`INTERRUPTED_RECORD_TIMEOUT` seconds, its fate is added to the exception's notes,
    and the exception propagates.

    ``verdict`` is the broker's dry run of this very plan when the caller has it fresh
    (``changeset.apply`` passes its review's when none of the plan's keys moved since): the
    broker is not asked again, and what it refused fails as it would. Without it the broker
    is asked here.
    """
    if plan.problems:
        raise PlanRejectedError(plan.problems)
    guard = check_plan_rules(plan, rules, overrides=overrides)
    guard.raise_if_refused()
    given = upsertions or {}
    passwords = _passwords(plan.scram, given)  # all read before anything is sent
    preparing = _Preparing(None if dry_run else recorder, admin, plan)
    sent = _Sent()
    try:
        report = await _applied(
            admin,
            plan,
            guard,
            passwords,
            given,
            sent,
            dry_run=dry_run,
            read_back_timeout=read_back_timeout,
            throttle=throttle,
            reassignment_timeout=reassignment_timeout,
            progress=progress,
            wait_for_metadata=wait_for_metadata,
            verdict=verdict,
        )
    except BaseException as error:
        await preparing.record_interrupted(sent.report(plan, guard), error)
        raise
    return await preparing.record(report)


@dataclass
class _Sent:
    """What an apply sent so far and what it knows of it, kept as it goes: what it records
    when it is interrupted. ``known``: the outcomes settled (those refused before sending
    too); ``pending``: each resource sent meanwhile, with the note of its unconfirmed outcome
    (a note only: an apply of thousands of resources makes no outcome it does not need)."""

    known: dict[ConfigResource, ResourceOutcome] = field(default_factory=dict)
    pending: dict[ConfigResource, str] = field(default_factory=dict)
    quotas: dict[ClientQuotaEntity, QuotaOutcome] = field(default_factory=dict)
    scram: dict[str, ScramOutcome] = field(default_factory=dict)
    partitions: dict[str, PartitionOutcome] = field(default_factory=dict)

    def report(self, plan: Plan, guard: RuleCheck) -> ApplyReport | None:
        """The report of what was sent, in plan order; None when nothing was."""
        if not (self.pending or self.quotas or self.scram or self.partitions):
            return None
        outcomes = [
            self.known.get(p.resource)
            or _outcome(p, OutcomeStatus.UNCONFIRMED, note=self.pending[p.resource])
            for p in plan.resources
            if p.resource in self.known or p.resource in self.pending
        ]
        return ApplyReport(
            outcomes=tuple(_noted(o, guard, o.resource) for o in outcomes),
            quotas=tuple(_noted(q, guard, q.entity) for q in self.quotas.values()),
            scram=tuple(_noted(s, guard, s.user) for s in self.scram.values()),
            partitions=tuple(self.partitions.values()),
            interrupted=True,
        )


async def _applied(
    admin: AdminClient,
    plan: Plan,
    guard: RuleCheck,
    passwords: Mapping[str, str],
    given: Mapping[str, UserScramCredentialUpsertion],
    sent: _Sent,
    *,
    dry_run: bool,
    read_back_timeout: float,
    throttle: int | None,
    reassignment_timeout: float,
    progress: Progress | None,
    wait_for_metadata: bool,
    verdict: BrokerVerdict | None,
) -> ApplyReport:
    """:func:`apply_plan`'s work once its checks passed: the report of what became of each
    change (``sent`` kept up to date as it goes)."""
    outcomes = sent.known
    to_send: dict[ConfigResource, ResourcePlan] = {}
    for resource_plan in plan.resources:
        if resource_plan.action in (ResourceAction.ALTER, ResourceAction.CREATE):
            to_send[resource_plan.resource] = resource_plan
        else:
            outcomes[resource_plan.resource] = _skipped(resource_plan)
    if verdict is None:
        verdict = await ask_broker(admin, Proposal.of_plan(plan))
    for resource, resource_plan in to_send.items():
        refusal = verdict.configs.get(resource)
        if resource_plan.create is not None:
            refusal = verdict.topics.get(resource.name)
        if refusal is not None:
            outcomes[resource] = _outcome(resource_plan, _FAILED, error=refusal.error)
    validated = [resource for resource in to_send if resource not in outcomes]
    if dry_run:
        for resource in validated:
            outcomes[resource] = _outcome(to_send[resource], OutcomeStatus.VALIDATED)
    else:
        applied = await _send(admin, {r: to_send[r] for r in validated}, sent)
        if wait_for_metadata:
            await settle_topics(admin, _created_counts(to_send[r] for r in applied))
        confirmed = await _read_back(admin, {r: to_send[r] for r in applied}, read_back_timeout)
        for resource in applied:
            if resource in confirmed:
                outcomes[resource] = _outcome(to_send[resource], OutcomeStatus.APPLIED)
            else:
                outcomes[resource] = _outcome(
                    to_send[resource],
                    OutcomeStatus.UNCONFIRMED,
                    note="applied, but a describe did not show the new values in time",
                )
    quotas = await _apply_quotas(
        admin, plan.quotas, verdict.quotas, dry_run, read_back_timeout, sent.quotas
    )
    scram = await _apply_scram(
        admin, plan.scram, passwords, given, dry_run, read_back_timeout, sent.scram
    )
    partitions = await apply_partition_plans(
        admin,
        [p for p in plan.partition_plans() if outcomes[_topic(p.topic)].status is not _FAILED],
        refused={topic: refusal.error for topic, refusal in verdict.partitions.items()},
        dry_run=dry_run,
        throttle=throttle,
        bound=reassignment_timeout,
        read_back_timeout=read_back_timeout,
        progress=progress,
        wait_for_metadata=wait_for_metadata,
        sent=sent.partitions,
    )
    return ApplyReport(
        outcomes=tuple(_noted(outcomes[p.resource], guard, p.resource) for p in plan.resources),
        dry_run=dry_run,
        quotas=tuple(_noted(quota, guard, quota.entity) for quota in quotas),
        scram=tuple(_noted(user, guard, user.user) for user in scram),
        partitions=partitions,
    )


#: An outcome of a resource, a quota entity or a SCRAM user.
Noted = TypeVar("Noted", ResourceOutcome, QuotaOutcome, ScramOutcome)


def _noted(
    outcome: Noted, guard: RuleCheck, subject: ConfigResource | ClientQuotaEntity | str
) -> Noted:
    """The outcome with the rules overridden on its subject said in its note."""
    said = guard.override_note(subject)
    if not said:
        return outcome
    return replace(outcome, note=f"{outcome.note}; {said}" if outcome.note else said)


_FAILED = OutcomeStatus.FAILED


def _created_counts(plans: Iterable[ResourcePlan]) -> dict[str, int]:
    """Each topic created: its partition count (1 when the broker's default was taken)."""
    return {
        plan.create.name: plan.create.partitions or 1 for plan in plans if plan.create is not None
    }


def _topic(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


def _passwords(plans: tuple[ScramPlan, ...], given: Mapping[str, object]) -> dict[str, str]:
    """Each upsert's password, by variable name (those ``given`` made excepted); a variable
    unset or empty sends nothing."""
    passwords: dict[str, str] = {}
    for plan in plans:
        for change in plan.changes:
            name = change.password_env
            if name is None or name in passwords or name in given:
                continue
            password = os.environ.get(name)
            if not password:
                raise InvalidArgumentError(
                    f"{change.mechanism} of user {plan.user!r}: the environment variable "
                    f"{name} that holds its password is not set; nothing was sent"
                )
            passwords[name] = password
    return passwords


def _alteration(
    user: str,
    change: ScramChange,
    passwords: Mapping[str, str],
    given: Mapping[str, UserScramCredentialUpsertion],
) -> UserScramCredentialAlteration:
    if change.op == "DELETE":
        return UserScramCredentialDeletion(user, change.mechanism)
    assert change.password_env is not None and change.iterations is not None
    if change.password_env in given:
        return given[change.password_env]
    password = passwords[change.password_env]
    return UserScramCredentialUpsertion(
        user, change.mechanism, password, iterations=change.iterations
    )


async def _apply_scram(
    admin: AdminClient,
    plans: tuple[ScramPlan, ...],
    passwords: Mapping[str, str],
    given: Mapping[str, UserScramCredentialUpsertion],
    dry_run: bool,
    read_back_timeout: float,
    sent: dict[str, ScramOutcome],
) -> tuple[ScramOutcome, ...]:
    """Upsert and delete each user's credentials, one request per change, and read them back.

    Kafka has no validate_only for credentials: a dry run checks them here (the salted
    password is made) and sends nothing. A user's first failed change stops its others.
    ``sent``: each user's outcome as far as known, from its first request on.
    """
    outcomes: dict[str, ScramOutcome] = {}
    applied: dict[str, ScramPlan] = {}
    for plan in plans:
        try:
            alterations = [_alteration(plan.user, c, passwords, given) for c in plan.changes]
            if dry_run:
                note = "checked here: Kafka cannot validate a credential without changing it"
                outcomes[plan.user] = ScramOutcome(plan.user, OutcomeStatus.VALIDATED, note=note)
                continue
            sent[plan.user] = _unconfirmed_user(plan.user, INTERRUPTED_NOTE)
            for alteration in alterations:  # the broker takes one change per user at a time
                await admin.alter_user_scram_credentials([alteration]).all()
        except KafkaConfigAdminError as error:
            outcomes[plan.user] = ScramOutcome(plan.user, OutcomeStatus.FAILED, error=error)
            if plan.user in sent:
                sent[plan.user] = outcomes[plan.user]
        else:
            applied[plan.user] = plan
            sent[plan.user] = _unconfirmed_user(plan.user, _ACCEPTED_NOTE)
    if applied:
        read = partial(read_scram_credentials, admin)
        shown = await _shown_within(
            applied, read, lambda plan, now: plan.shown_by(now or {}), read_back_timeout
        )
        note = "applied, but a describe did not show the new credentials in time"
        for user in applied:
            status = OutcomeStatus.APPLIED if user in shown else OutcomeStatus.UNCONFIRMED
            outcomes[user] = sent[user] = ScramOutcome(
                user, status, note="" if user in shown else note
            )
    return tuple(outcomes[plan.user] for plan in plans)


def _unconfirmed_user(user: str, note: str) -> ScramOutcome:
    return ScramOutcome(user, OutcomeStatus.UNCONFIRMED, note=note)


async def _apply_quotas(
    admin: AdminClient,
    plans: tuple[QuotaPlan, ...],
    refused: Mapping[ClientQuotaEntity, Refusal],
    dry_run: bool,
    read_back_timeout: float,
    sent: dict[ClientQuotaEntity, QuotaOutcome],
) -> tuple[QuotaOutcome, ...]:
    """Make every entity's quota change the broker did not refuse, and read them back
    (``sent``: each entity's outcome as far as known, once its change is sent)."""
    if not plans:
        return ()
    pending = {plan.quota_entity: plan for plan in plans}
    outcomes: dict[ClientQuotaEntity, QuotaOutcome] = {}
    for entity, refusal in refused.items():
        outcomes[entity] = QuotaOutcome(entity, OutcomeStatus.FAILED, error=refusal.error)
        del pending[entity]
    if pending and not dry_run:
        sent.update((e, _unconfirmed_quota(e, INTERRUPTED_NOTE)) for e in pending)
        result = admin.alter_client_quotas(
            {entity: plan.alteration() for entity, plan in pending.items()}
        )
        await result.wait()
        sent.update((e, _unconfirmed_quota(e, _ACCEPTED_NOTE)) for e in pending)
        for entity, error in result.errors().items():
            outcomes[entity] = sent[entity] = QuotaOutcome(
                entity, OutcomeStatus.FAILED, error=error
            )
            del pending[entity]
    if dry_run:
        outcomes.update((e, QuotaOutcome(e, OutcomeStatus.VALIDATED)) for e in pending)
    else:
        shown = await _shown_within(
            pending,
            lambda _: admin.describe_client_quotas().all(),
            lambda plan, now: plan.shown_by(now or {}),
            read_back_timeout,
        )
        note = "applied, but a describe did not show the new values in time"
        for entity in pending:
            status = OutcomeStatus.APPLIED if entity in shown else OutcomeStatus.UNCONFIRMED
            outcomes[entity] = sent[entity] = QuotaOutcome(
                entity, status, note="" if entity in shown else note
            )
    return tuple(outcomes[plan.quota_entity] for plan in plans)


def _unconfirmed_quota(entity: ClientQuotaEntity, note: str) -> QuotaOutcome:
    return QuotaOutcome(entity, OutcomeStatus.UNCONFIRMED, note=note)


async def _shown_within(
    pending: Mapping[K, P],
    read: Callable[[list[K]], Awaitable[Mapping[K, V]]],
    shows: Callable[[P, V | None], bool],
    seconds: float,
) -> set[K]:
    """The keys whose plans a read shows applied, read again for up to ``seconds``."""
    left = dict(pending)
    with anyio.move_on_after(seconds):
        while left:
            described = await read(list(left))
            for key in [k for k, plan in left.items() if shows(plan, described.get(k))]:
                del left[key]
            if left:
                await anyio.sleep(_READ_BACK_PAUSE)
    return set(pending) - set(left)


def _skipped(resource_plan: ResourcePlan) -> ResourceOutcome:
    # Never a missing topic: it is one of the plan's problems, and apply sends nothing then.
    left = [(skip.key, skip.reason) for skip in resource_plan.skipped]
    left += [(kept.key, kept.reason) for kept in resource_plan.kept]
    note = "skipped: " + ", ".join(f"{key} ({reason})" for key, reason in left)
    if not left:
        note = "nothing to change"
    return _outcome(resource_plan, OutcomeStatus.SKIPPED, note=note)


async def _send(
    admin: AdminClient,
    plans: Mapping[ConfigResource, ResourcePlan],
    sent: _Sent,
) -> list[ConfigResource]:
    """Create the topics and alter the configs of ``plans`` (the broker accepted them), both
    at once; record failures in ``sent.known``, each resource sent in ``sent.pending`` (its
    outcome as far as known), and return the resources that succeeded, in plan order."""
    outcomes = sent.known
    alters = {
        resource: [change.alter_op() for change in plan.changes]
        for resource, plan in plans.items()
        if plan.action is ResourceAction.ALTER and plan.changes
    }
    new_topics: list[NewTopic] = []
    for resource, plan in plans.items():
        if plan.create is not None:
            try:
                new_topics.append(plan.create.new_topic())
            except InvalidArgumentError as error:
                outcomes[resource] = _outcome(plan, OutcomeStatus.FAILED, error=error)
    errors: dict[ConfigResource, BaseException | None] = {}

    def answered(answers: Mapping[ConfigResource, BaseException | None]) -> None:
        errors.update(answers)
        for resource, error in answers.items():
            if error is None:
                sent.pending[resource] = _ACCEPTED_NOTE
            else:
                outcomes[resource] = _outcome(plans[resource], _FAILED, error=error)

    if alters:
        sent.pending.update(dict.fromkeys(alters, INTERRUPTED_NOTE))
        altered = admin.incremental_alter_configs(alters)
        await altered.wait()
        answered({r: f.exception() for r, f in altered.values.items()})
    if new_topics:
        sent.pending.update((_topic(topic.name), INTERRUPTED_NOTE) for topic in new_topics)
        created = admin.create_topics(new_topics)
        await created.wait()
        answered({_topic(name): future.exception() for name, future in created.values.items()})
    succeeded = []
    for resource, plan in plans.items():
        if resource not in errors:
            if plan.create is None and not plan.changes:
                succeeded.append(resource)  # only its partitions change: done afterwards
            continue  # else refused before sending, already recorded
        if errors[resource] is None:
            succeeded.append(resource)
    return succeeded


async def _read_back(
    admin: AdminClient, applied: Mapping[ConfigResource, ResourcePlan], seconds: float
) -> set[ConfigResource]:
    """The applied resources a describe shows as wanted, asked again for up to ``seconds``.

    A topic just created may be unknown to the broker asked for a moment: it is asked again.
    """
    pending = dict(applied)
    confirmed: set[ConfigResource] = set()
    with anyio.move_on_after(seconds):
        while pending:
            keys = {r: [c.key for c in plan.changes] for r, plan in pending.items()}
            result = admin.describe_configs(keys)
            await result.wait()
            for resource, future in result.values.items():
                if future.exception() is None and _shows(pending[resource], future.result()):
                    confirmed.add(resource)
                    del pending[resource]
            if pending:
                await anyio.sleep(_READ_BACK_PAUSE)
    return confirmed


def _shows(plan: ResourcePlan, config: Config) -> bool:
    return all(
        change.shows_wanted(plan.resource, config.get(change.key)) for change in plan.changes
    )


def _outcome(
    plan: ResourcePlan,
    status: OutcomeStatus,
    *,
    error: BaseException | None = None,
    note: str = "",
) -> ResourceOutcome:
    return ResourceOutcome(plan.resource, plan.action, status, error=error, note=note)
