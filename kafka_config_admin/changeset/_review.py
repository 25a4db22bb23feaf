"""Reviewing a change set against the cluster, and applying what was reviewed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace

from .. import (
    AdminClient,
    ClientQuotaEntity,
    ClientQuotaFilter,
    ConfigResource,
    ConfigSource,
    DescribeConfigsResult,
    InvalidArgumentError,
    ResourceType,
    TopicDescription,
    UserScramCredentialUpsertion,
)
from ..desired import Plan, ResourceAction, StaleKey, stale_keys, stale_quotas, without_stale
from ..state import (
    ClusterState,
    ConfigWarning,
    Problem,
    Rule,
    describe_state,
    read_scram_credentials,
)
from ._apply import DEFAULT_READ_BACK_TIMEOUT, ApplyRecorder, ApplyReport, apply_plan
from ._build import SkippedChange, build_plan, upsertion_reference
from ._changes import ChangeSet
from ._guard import RuleCheck, check_overrides, check_plan_rules
from ._verdict import BrokerVerdict, Proposal, ask_broker

__all__ = ["Review", "StaleChangeError", "apply", "review"]


@dataclass(frozen=True)
class Review:
    """A change set as reviewed: the plan that :func:`apply` sends (each key with its current
    value and source), what the cluster had (``state``: the configs of the resources changed
    and the quotas of the entities changed), and the broker's verdict.

    ``verdict`` is None when the plan has problems: nothing was asked, and :func:`apply`
    refuses it. ``guard`` is what the ``rules`` say of the plan's changes (a finding that
    refuses it: :func:`apply` sends nothing), with the ``overrides`` the caller gave. The
    upserts' salted passwords are kept for :func:`apply` and never shown.
    """

    changes: ChangeSet
    plan: Plan
    state: ClusterState
    verdict: BrokerVerdict | None
    upsertions: Mapping[str, UserScramCredentialUpsertion] = field(default_factory=dict, repr=False)
    rules: tuple[Rule, ...] = ()
    overrides: tuple[str, ...] = ()
    guard: RuleCheck = field(default_factory=RuleCheck)
    skipped: tuple[SkippedChange, ...] = ()

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

    @property
    def rule_refused(self) -> bool:
        """Whether a change breaks a rule not overridden (:func:`apply` would send nothing)."""
        return bool(self.guard.refusing)


class StaleChangeError(InvalidArgumentError):
    """Keys of a reviewed change set moved on the cluster between its review and its apply:
    nothing was sent (applying them could undo someone else's change).

    ``configs`` and ``quotas`` name each stale key per resource or quota entity, with the
    value it was reviewed against (``planned``) and the value now (``now``; a sensitive key's
    never shown). The message has one line per key.
    """

    def __init__(
        self,
        configs: Mapping[ConfigResource, tuple[StaleKey, ...]],
        quotas: Mapping[ClientQuotaEntity, tuple[StaleKey, ...]],
    ) -> None:
        self.configs = dict(configs)
        self.quotas = dict(quotas)
        lines = [f"{len(self.lines())} key(s) changed since the review; nothing was sent:"]
        lines += [f"  {line}" for line in self.lines()]
        super().__init__("\n".join(lines))

    def lines(self) -> list[str]:
        """One line per stale key: ``topic 'orders': retention.ms was 86400000
        (DYNAMIC_TOPIC_CONFIG) when reviewed, is 3600000 (DYNAMIC_TOPIC_CONFIG) now``."""
        subjects: Iterable[tuple[str, tuple[StaleKey, ...]]] = [
            *((f"{r.type.name.lower()} {r.name!r}", keys) for r, keys in self.configs.items()),
            *((f"quotas of {entity}", keys) for entity, keys in self.quotas.items()),
        ]
        return [
            f"{subject}: {key.key} was {_value_text(key.planned, key.planned_source)} when "
            f"reviewed, is {_value_text(key.now, key.now_source)} now"
            for subject, keys in subjects
            for key in keys
        ]


def _value_text(value: str | None, source: ConfigSource) -> str:
    """``604800000 (DEFAULT_CONFIG)``; ``none`` for no value; a quota's has no source."""
    text = "none" if value is None else value
    return text if source is ConfigSource.UNKNOWN else f"{text} ({source.name})"


async def review(
    admin: AdminClient,
    changes: ChangeSet,
    *,
    settle: Callable[[DescribeConfigsResult], Awaitable[None]] | None = None,
    rules: Iterable[Rule] = (),
    overrides: Collection[str] = (),
) -> Review:
    """Read what ``changes`` are about, check them, and ask the broker's dry run.

    The configs of the resources changed are described with their types (``settle`` is
    handed the describe, to show its progress), the topics that grow, the quotas of the
    entities and the credentials of the users changed are read; then the client's checks
    (those certain for the broker's release: ``check_ops``, a DELETE of a key not set, or
    with ``changes.unset_deletes`` SKIP that DELETE left out: ``Review.skipped``) and,
    when none failed, the broker's ``validate_only`` verdict on every change it can validate.
    Nothing is changed.

    Guardrails: ``rules`` (a desired-state file's, the cluster's clusters-file entry's:
    ``desired.connection_rules``) are checked on the plan's changes (``Review.guard``); a
    change that breaks one not named by ``overrides`` (a rule's :attr:`Rule.label`) makes
    :func:`apply` refuse the whole change set. An override naming no rule raises
    :class:`~kafka_config_admin.changeset.UnknownRuleError` before anything is read.
    """
    rules, overrides = tuple(rules), tuple(overrides)
    check_overrides(rules, overrides)  # a misspelt override: said before anything is read
    resources = list(changes.configs)
    state = await _read_configs(admin, resources, settle)
    topics = await _read_topics(admin, list(changes.partitions))
    quotas = await _read_quotas(admin, list(changes.quotas))
    users = list(dict.fromkeys(change.user for change in changes.scram))
    scram = await read_scram_credentials(admin, users)
    plan, skipped = build_plan(changes, state, topics, quotas, scram)
    verdict = None if plan.problems else await ask_broker(admin, Proposal.of_plan(plan))
    upsertions = {
        upsertion_reference(change): change
        for change in changes.scram
        if isinstance(change, UserScramCredentialUpsertion)
    }
    guard = check_plan_rules(plan, rules, overrides=overrides)
    state = replace(state, quotas=quotas)  # what the cluster had: its quotas too
    return Review(changes, plan, state, verdict, upsertions, rules, overrides, guard, skipped)


async def apply(
    admin: AdminClient,
    reviewed: Review,
    *,
    dry_run: bool = False,
    read_back_timeout: float = DEFAULT_READ_BACK_TIMEOUT,
    skip_stale: bool = False,
    recorder: ApplyRecorder | None = None,
) -> ApplyReport:
    """Apply exactly the reviewed plan: validate on the broker, change, read back; one
    outcome per resource, quota entity, SCRAM user and growing topic (:class:`ApplyReport`).

    Raises, sending nothing: :class:`~kafka_config_admin.changeset.PlanRejectedError` when the
    review found problems; :class:`~kafka_config_admin.changeset.RuleRefusedError` when a change
    breaks one of the review's rules it did not override (the outcome of a thing changed
    despite a rule says ``rule 'X' overridden`` in its note); :class:`StaleChangeError` when a
    config or quota key the plan changes moved since the review (read again just before
    sending). With ``skip_stale`` the stale keys are left out and the rest applied; the
    report's ``stale`` and ``stale_quotas`` name those left out.

    The broker's dry run is asked once: the review's verdict stands when none of the plan's
    keys moved since and the broker answered every change; else it is asked again before
    anything changes.

    With ``dry_run`` the broker validates and nothing is changed (SCRAM credentials, which
    Kafka cannot validate, are checked here). A change whose new value a describe does not
    show within ``read_back_timeout`` seconds is ``UNCONFIRMED``.
    ``recorder`` (:class:`kafka_config_admin.journal.Recorder`) records the changes made.
    """
    plan = reviewed.plan
    configs: dict[ConfigResource, tuple[StaleKey, ...]] = {}
    quotas: dict[ClientQuotaEntity, tuple[StaleKey, ...]] = {}
    if not plan.problems:  # else apply_plan refuses it, reading nothing
        reviewed.guard.raise_if_refused()  # before the keys are read again
        plan, configs, quotas = await _without_moved(admin, plan, skip_stale=skip_stale)
    report = await apply_plan(
        admin,
        plan,
        dry_run=dry_run,
        read_back_timeout=read_back_timeout,
        upsertions=reviewed.upsertions,
        rules=reviewed.rules,
        overrides=reviewed.overrides,
        recorder=recorder,
        verdict=_fresh_verdict(reviewed, plan),
    )
    if configs or quotas:
        return replace(report, stale=configs, stale_quotas=quotas)
    return report


def _fresh_verdict(reviewed: Review, plan: Plan) -> BrokerVerdict | None:
    """The review's broker verdict when it still judges what is sent: the plan is the one
    reviewed (no key moved since, none left out) and the broker answered every change (a
    change it could not be asked about is asked again). Else None: ``apply_plan`` asks."""
    verdict = reviewed.verdict
    if verdict is None or plan is not reviewed.plan or verdict.unknown():
        return None
    return verdict


async def _without_moved(
    admin: AdminClient, plan: Plan, *, skip_stale: bool
) -> tuple[
    Plan,
    dict[ConfigResource, tuple[StaleKey, ...]],
    dict[ClientQuotaEntity, tuple[StaleKey, ...]],
]:
    """``plan`` as reviewed when none of its config and quota keys moved since (read again
    now); else :class:`StaleChangeError`, or with ``skip_stale`` the plan without them."""
    altered = [
        item.resource
        for item in plan.resources
        if item.action is ResourceAction.ALTER and item.changes
    ]
    state = await _read_configs(admin, altered, None)
    state = replace(state, quotas=await _read_quotas(admin, [q.quota_entity for q in plan.quotas]))
    configs, quotas = stale_keys(plan, state), stale_quotas(plan, state)
    if not (configs or quotas):
        return plan, {}, {}
    if not skip_stale:
        raise StaleChangeError(configs, quotas)
    return without_stale(plan, configs, quotas), configs, quotas


async def _read_configs(
    admin: AdminClient,
    resources: list[ConfigResource],
    settle: Callable[[DescribeConfigsResult], Awaitable[None]] | None,
) -> ClusterState:
    """The configs of ``resources`` with their types (the cluster default lists only what it
    sets: a broker's describe tells its keys)."""
    if not resources:
        return ClusterState()
    needs_schema = any(r.type is ResourceType.BROKER and not r.name for r in resources)
    return await describe_state(
        admin,
        resources,
        schema_for=[ResourceType.BROKER] if needs_schema else [],
        settle=settle,
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
    results = [
        admin.describe_client_quotas(ClientQuotaFilter.exactly(entity)) for entity in entities
    ]
    found: dict[ClientQuotaEntity, Mapping[str, float]] = {}
    for entity, result in zip(entities, results, strict=True):
        found[entity] = (await result.all()).get(entity, {})
    return found
