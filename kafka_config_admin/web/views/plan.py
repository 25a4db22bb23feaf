"""The pending plan: the edits' diff against the cluster, a dry run on the broker
(validate_only), and the apply of the plan on the page (its digest in the form), with a
check just before it (the pending edits still make that plan; keys changed by someone else
left out) and every resource's outcome (applied and read back, or failed with its typed
error) written to the change log.

The edits go through the change pipeline (:mod:`kafka_config_admin.changeset`) as one change
set: the config operations of their diff, their quota values and SCRAM credential changes are
reviewed (the client's checks, the broker's dry run), applied and read back together."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import (
    HIDDEN,
    AdminClient,
    ClientQuotaEntity,
    ConfigResource,
    UserScramCredentialAlteration,
    changeset,
)
from ...changeset import (
    ApplyReport,
    ChangeSet,
    FindingStatus,
    PlanRejectedError,
    QuotaOutcome,
    ResourceOutcome,
    RuleCheck,
    RuleRefusedError,
    ScramOutcome,
    apply_plan,
    check_plan_rules,
    review,
)
from ...desired import (
    Plan,
    PlanDifference,
    ResourceAction,
    StaleKey,
    make_plan,
    plan_difference,
    stale_keys,
    stale_quotas,
)
from ...journal import Journal, Origin, Recorder
from ...state import ClusterState, DesiredState, OutcomeStatus, Rule, read_state
from .._changelog import ChangeRow, now
from .._edits import Edits
from .._render import render
from .._summary import change_summary
from .base import (
    cluster_client,
    cluster_rules,
    kept_topics,
    override_rules,
    require_writes,
    session,
    user,
)

__all__ = ["apply", "apply_desired", "discard", "dry_run", "plan", "planned", "rules_context"]


async def planned(
    admin: AdminClient,
    desired: DesiredState,
    topics: Collection[str] | None = None,
    scram: tuple[UserScramCredentialAlteration, ...] = (),
) -> Plan:
    """``desired``'s plan against the cluster now (sensitive keys included: the user typed
    them; their values are never shown), with the ``scram`` credential changes as the change
    pipeline plans them; ``topics``: the cluster's topics as listed a moment ago (None:
    listed now)."""
    return (await _read_and_plan(admin, desired, topics, scram))[1]


async def _read_and_plan(
    admin: AdminClient,
    desired: DesiredState,
    topics: Collection[str] | None = None,
    scram: tuple[UserScramCredentialAlteration, ...] = (),
) -> tuple[ClusterState, Plan]:
    state = await read_state(admin, desired, topics=topics, named_keys_only=True)
    made = make_plan(desired, state, include_sensitive=True)
    if scram:
        credentials = await review(admin, ChangeSet(scram=scram))
        made = made.model_copy(update={"scram": credentials.plan.scram})
    return state, made


def change_set(plan: Plan, edits: Edits) -> ChangeSet:
    """The pending edits as one change set: the config operations and quota values of their
    plan (only what it sends: stale keys left out) and their SCRAM credential changes."""
    return ChangeSet(
        configs={
            item.resource: [change.alter_op() for change in item.changes]
            for item in plan.resources
            if item.changes
        },
        quotas={
            quota.quota_entity: {change.key: change.wanted for change in quota.changes}
            for quota in plan.quotas
        },
        scram=edits.scram_changes(),
    )


def _plan_page(
    request: Request,
    plan: Plan,
    *,
    report: ApplyReport | None = None,
    stale: dict[ConfigResource, tuple[StaleKey, ...]] | None = None,
    stale_quotas: dict[ClientQuotaEntity, tuple[StaleKey, ...]] | None = None,
    difference: tuple[PlanDifference, ...] = (),
    source: str = "edits",
    guard: RuleCheck | None = None,
    refused: bool = False,
) -> Response:
    return render(
        request,
        "plan.html",
        {
            "title": "Pending plan" if source == "edits" else "Plan of the desired-state file",
            "plan": plan.to_dict(),
            "has_changes": plan.has_changes,
            "summary": change_summary(plan),
            "report": None if report is None else report.to_dict(),
            "stale": stale or {},
            "stale_quotas": stale_quotas or {},
            "difference": difference,
            "source": source,
            **rules_context(guard or RuleCheck()),
            "rule_refused": refused,
        },
        status=409 if difference or refused else 200,
    )


async def plan(request: Request) -> Response:
    """``GET /c/{cluster}/plan``: the pending edits as a diff (remembered for the stale check)."""
    cluster, admin = await cluster_client(request)
    state = session(request)
    edits = state.edits_of(cluster)
    desired = edits.desired()
    topics = await kept_topics(request, cluster, admin, desired)
    made = await planned(admin, desired, topics, edits.scram_changes())
    state.remember_plan(cluster, made)
    return _plan_page(request, made, guard=_guard(request, cluster, made))


def rules_context(guard: RuleCheck) -> dict[str, Any]:
    """What a page shows of the rules (``rules.html``): every finding, the labels of the rules
    broken (one confirmation each in the apply form) and those the user overrode."""
    breaking = dict.fromkeys(
        f.rule.label for f in guard.findings if f.status is FindingStatus.BREAKS
    )
    return {
        "rules": guard.to_list(),
        "breaking": list(breaking),
        "overridden": {f.rule.label for f in guard.overridden},
    }


def _guard(
    request: Request, cluster: str, plan: Plan, overrides: Collection[str] = ()
) -> RuleCheck:
    """What the cluster's rules say of ``plan``'s changes."""
    return check_plan_rules(plan, cluster_rules(request, cluster), overrides=overrides)


async def dry_run(request: Request) -> Response:
    """``POST /c/{cluster}/plan/check``: send the plan with validate_only; nothing changes."""
    cluster, admin = await cluster_client(request)
    edits = session(request).edits_of(cluster)
    desired = edits.desired()
    topics = await kept_topics(request, cluster, admin, desired)
    made = await planned(admin, desired, topics, edits.scram_changes())
    # The broker's verdict; the rules' findings are shown beside it, as on the plan page
    _, report = await through_pipeline(admin, made, edits, dry_run=True)
    return _plan_page(request, made, report=report, guard=_guard(request, cluster, made))


async def through_pipeline(
    admin: AdminClient,
    plan: Plan,
    edits: Edits,
    *,
    dry_run: bool = False,
    rules: Sequence[Rule] = (),
    overrides: Collection[str] = (),
    recorder: Recorder | None = None,
) -> tuple[Plan, ApplyReport]:
    """Review the edits' change set (the client's checks, the broker's dry run, ``rules``
    with the ``overrides`` the user confirmed) and apply it (recorded by ``recorder``), or
    with ``dry_run`` have the broker validate it: the plan sent and its report. A plan with
    problems sends nothing (:class:`PlanRejectedError`), nor one that breaks a rule not
    overridden (:class:`RuleRefusedError`)."""
    if plan.problems:
        raise PlanRejectedError(plan.problems)
    reviewed = await review(admin, change_set(plan, edits), rules=rules, overrides=overrides)
    report = await changeset.apply(admin, reviewed, dry_run=dry_run, recorder=recorder)
    return reviewed.plan, report


@dataclass(frozen=True)
class Applied:
    """What an apply did: the plan sent and its report (None: refused, nothing sent, since
    the plan made now differs from the one shown: ``difference``), and the resources and
    quota entities left out as stale."""

    plan: Plan
    report: ApplyReport | None
    stale: dict[ConfigResource, tuple[StaleKey, ...]]
    stale_quotas: dict[ClientQuotaEntity, tuple[StaleKey, ...]]
    difference: tuple[PlanDifference, ...] = ()


async def apply_checked(
    request: Request,
    cluster: str,
    admin: AdminClient,
    desired: DesiredState,
    shown: Plan,
    edits: Edits | None = None,
    *,
    rules: Sequence[Rule] = (),
    overrides: Collection[str] = (),
) -> Applied:
    """Apply ``shown`` (the plan a page showed) when ``desired`` still makes it.

    ``desired`` is planned afresh. When the fresh plan would send other changes than
    ``shown`` (an edit made or applied in another tab), nothing is sent: the difference is
    said and the fresh plan shown. Keys whose value moved since ``shown`` was made
    (:func:`stale_keys`) leave their resource out; the rest of ``shown`` is applied and every
    change logged with its outcome; so do quota entities (:func:`stale_quotas`). Pending
    ``edits`` go through the change pipeline, a desired-state file (``edits`` None) as
    ``apply`` applies one; either way a change that breaks one of ``rules`` not named by
    ``overrides`` raises :class:`RuleRefusedError`, nothing sent.
    """
    scram = () if edits is None else edits.scram_changes()
    state, fresh = await _read_and_plan(admin, desired, scram=scram)
    stale: dict[ConfigResource, tuple[StaleKey, ...]] = {}
    moved: dict[ClientQuotaEntity, tuple[StaleKey, ...]] = {}
    if fresh.digest != shown.digest:
        stale, moved = stale_keys(shown, state), stale_quotas(shown, state)
        difference = plan_difference(shown, fresh, leaving=[*stale, *moved])
        if difference or not (stale or moved):
            # Nothing shown differs, and the digests do: a value never shown (a secret typed
            # again) differs. The digests say it without saying the value.
            unexplained = PlanDifference(
                subject="a value not shown (a secret, say)",
                key="(plan digest)",
                shown=shown.digest[:12],
                now=fresh.digest[:12],
            )
            return Applied(fresh, None, {}, {}, difference or (unexplained,))
    sent = shown.model_copy(
        update={
            "resources": tuple(p for p in shown.resources if p.resource not in stale),
            "quotas": tuple(q for q in shown.quotas if q.quota_entity not in moved),
        }
    )
    # The journal: the signed-in user's changes, from the web face, to this cluster.
    recorder = Recorder(Journal.at(), Origin(face="web", user=user(request), cluster=cluster))
    if edits is None:
        report = await apply_plan(admin, sent, rules=rules, overrides=overrides, recorder=recorder)
    else:
        sent, report = await through_pipeline(
            admin, sent, edits, rules=rules, overrides=overrides, recorder=recorder
        )
    request.app.state.listings.drop(cluster)  # topics created, overrides changed
    request.app.state.changelog.record(_rows(user(request), cluster, sent, report))
    return Applied(sent, report, stale, moved)


def _rows(who: str, cluster: str, plan: Plan, report: ApplyReport) -> list[ChangeRow]:
    """The change log's rows for an applied plan (sensitive values as ``[hidden]``)."""
    rows: list[ChangeRow] = []
    outcomes = {outcome.resource: outcome for outcome in report.outcomes}
    row = partial(ChangeRow, time=now(), user=who, cluster=cluster)
    for resource_plan, item in zip(plan.resources, plan.to_dict()["resources"], strict=True):
        outcome = outcomes.get(resource_plan.resource)
        if outcome is None or resource_plan.action is not ResourceAction.ALTER:
            continue
        rows.extend(
            row(
                resource_type=resource_plan.resource.type.name,
                resource_name=resource_plan.resource.name,
                key=change["key"],
                op=change["op"],
                old_value=change["current"],
                new_value=change["wanted"],
                outcome=outcome.status.value,
                message=_message(outcome),
            )
            for change in item["changes"]
        )
    for quota_plan, quota_outcome in zip(plan.quotas, report.quotas, strict=True):
        for quota_change in quota_plan.changes:
            old_value, new_value = quota_change.shown()
            rows.append(
                row(
                    resource_type="CLIENT_QUOTA",
                    resource_name=str(quota_plan.quota_entity),
                    key=quota_change.key,
                    op=quota_change.op.name,
                    old_value=old_value,
                    new_value=new_value,
                    outcome=quota_outcome.status.value,
                    message=_message(quota_outcome),
                )
            )
    for scram_plan, scram_outcome in zip(plan.scram, report.scram, strict=True):
        rows.extend(
            row(
                resource_type="SCRAM_USER",
                resource_name=scram_plan.user,
                key=scram_change.mechanism,
                op=scram_change.op,
                old_value=None,
                new_value=None if scram_change.op == "DELETE" else HIDDEN,
                outcome=scram_outcome.status.value,
                message=_message(scram_outcome),
            )
            for scram_change in scram_plan.changes
        )
    return rows


def _message(outcome: ResourceOutcome | QuotaOutcome | ScramOutcome) -> str:
    """What a change log row says of an outcome, on one line: its error, else its note."""
    said = str(outcome.error) if outcome.error is not None else outcome.note
    return " ".join(said.split())


_DONE = (OutcomeStatus.APPLIED, OutcomeStatus.UNCONFIRMED, OutcomeStatus.SKIPPED)


async def apply(request: Request) -> Response:
    """``POST /c/{cluster}/plan/apply``: apply the plan the page showed (its ``plan_digest``
    field), when the pending edits still make it (those not stale) and the user ticked the
    confirmation that says what changes (``confirmed``: the browser requires it, and so does
    the server, for a form sent any other way)."""
    require_writes(request)
    cluster, admin = await cluster_client(request)
    state = session(request)
    edits = state.edits_of(cluster)
    form = await request.form()
    if form.get("confirmed") != "yes":
        raise HTTPException(
            400, "not applied: tick the confirmation that says what will change, then apply"
        )
    digest = form.get("plan_digest")
    shown = state.shown_plan(cluster, digest) if isinstance(digest, str) else None
    if shown is None:
        raise HTTPException(
            409, "refused: the plan this page showed is not known any more; reload the plan"
        )
    overrides = override_rules(form)
    rules = cluster_rules(request, cluster)
    try:
        done = await apply_checked(
            request, cluster, admin, edits.desired(), shown, edits, rules=rules, overrides=overrides
        )
    except RuleRefusedError:
        guard = check_plan_rules(shown, rules, overrides=overrides)
        return _plan_page(request, shown, guard=guard, refused=True)
    if done.report is None:
        state.remember_plan(cluster, done.plan)
        return _plan_page(request, done.plan, difference=done.difference)
    failed = {o.resource for o in done.report.outcomes if o.status not in _DONE}
    kept = failed | set(done.stale)
    failed_quotas = {o.entity for o in done.report.quotas if o.status is OutcomeStatus.FAILED}
    kept_quotas = failed_quotas | set(done.stale_quotas)
    failed_users = {o.user for o in done.report.scram if o.status is OutcomeStatus.FAILED}
    edits.forget(
        {r for r in edits.configs if r not in kept},
        {e for e in edits.quotas if e not in kept_quotas},
        {u for u in edits.scram if u not in failed_users},  # a salted password kept no longer
    )
    return _plan_page(
        request,
        done.plan,
        report=done.report,
        stale=done.stale,
        stale_quotas=done.stale_quotas,
        guard=_guard(request, cluster, done.plan, overrides),
    )


async def apply_desired(
    request: Request,
    cluster: str,
    admin: AdminClient,
    desired: DesiredState,
    before: Plan,
    overrides: Collection[str] = (),
) -> Response:
    """Apply a desired-state file's plan (as shown), with the same stale check and log, and
    the same guard: the file's rules and the cluster's (a plan that breaks one is refused
    unless ``overrides``, the confirmations ticked, name it)."""
    require_writes(request)
    rules = (*desired.rules, *cluster_rules(request, cluster))
    try:
        done = await apply_checked(
            request, cluster, admin, desired, before, rules=rules, overrides=overrides
        )
    except RuleRefusedError:
        guard = check_plan_rules(before, rules, overrides=overrides)
        return _plan_page(request, before, guard=guard, refused=True, source="file")
    return _plan_page(
        request,
        done.plan,
        report=done.report,
        stale=done.stale,
        stale_quotas=done.stale_quotas,
        difference=done.difference,
        source="file",
    )


async def discard(request: Request) -> Response:
    """``POST /c/{cluster}/plan/discard``: drop every pending edit."""
    cluster, _ = await cluster_client(request)
    session(request).edits_of(cluster).clear()
    return RedirectResponse(f"/c/{cluster}/plan", status_code=303)
