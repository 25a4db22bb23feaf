"""The pending plan: the edits' diff against the cluster, a dry run on the broker
(validate_only), and the apply of the plan on the page (its digest in the form), with a
check just before it (the pending edits still make that plan; keys changed by someone else
left out) and every resource's outcome (applied and read back, or failed with its typed
error) recorded in the journal (:mod:`kafka_config_admin.journal`), which the history page
reads.

The edits go through the change pipeline (:mod:`kafka_config_admin.changeset`) as one change
set: the config operations of their diff, their quota values and SCRAM credential changes are
reviewed (the client's checks, the broker's dry run), applied and read back together."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import (
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
    RuleCheck,
    RuleRefusedError,
    StaleChangeError,
    apply_plan,
    check_plan_rules,
    review,
)
from ...desired import (
    Plan,
    PlanDifference,
    StaleKey,
    make_plan,
    plan_difference,
    stale_keys,
    stale_quotas,
)
from ...journal import Recorder
from ...state import ClusterState, DesiredState, OutcomeStatus, Rule, read_state
from .._edits import Edits
from .._render import render
from .._summary import change_count, change_summary
from .base import (
    cluster_client,
    cluster_rules,
    kept_topics,
    override_rules,
    require_writes,
    session,
    web_recorder,
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


def _count(number: int, what: str) -> str:
    return f"{number} {what}{'' if number == 1 else 's'}"


def _applied_changes(plan: Plan, report: ApplyReport) -> tuple[int, int]:
    """How many of ``plan``'s changes ``report`` says were made, and how many failed."""
    made = (OutcomeStatus.APPLIED, OutcomeStatus.UNCONFIRMED)
    changes = {item.resource: len(item.changes) for item in plan.resources}
    quotas = {item.quota_entity: len(item.changes) for item in plan.quotas}
    users = {item.user: len(item.changes) for item in plan.scram}
    counted = [
        *((o.status, changes.get(o.resource, 0)) for o in report.outcomes),
        *((o.status, quotas.get(o.entity, 0)) for o in report.quotas),
        *((o.status, users.get(o.user, 0)) for o in report.scram),
    ]
    applied = sum(number for status, number in counted if status in made)
    failed = sum(number for status, number in counted if status is OutcomeStatus.FAILED)
    return applied, failed


def _title(
    plan: Plan, source: str, report: ApplyReport | None, moved: int, *, refused: bool
) -> str:
    """What the page says happened: "Applied 120 changes", "Not applied: changed by someone
    else", or what waits ("Pending plan")."""
    if refused:
        return "Not applied: the plan breaks rules of this cluster"
    if report is None:
        return "Pending plan" if source == "edits" else "Plan of the desired-state file"
    if report.dry_run:
        return "Checked with the broker (validate_only): nothing was changed"
    applied, failed = _applied_changes(plan, report)
    said = [f"Applied {_count(applied, 'change')}"] if applied or not (failed or moved) else []
    if failed:
        said.append(f"{_count(failed, 'change')} failed")
    if moved:
        stale = "Not applied" if not said else f"{_count(moved, 'change')} not applied"
        said.append(f"{stale}: changed by someone else")
    return "; ".join(said)


def _wanted(shown: Plan) -> dict[Any, dict[str, str | None]]:
    """The values the user wanted, by resource (or quota entity) and key, as shown."""
    wanted: dict[Any, dict[str, str | None]] = {
        item.resource: {change.key: change.wanted for change in item.changes}
        for item in shown.resources
    }
    for quota in shown.quotas:
        wanted[quota.quota_entity] = {change.key: change.shown()[1] for change in quota.changes}
    return wanted


def _plan_page(
    request: Request,
    plan: Plan,
    *,
    report: ApplyReport | None = None,
    stale: dict[ConfigResource, tuple[StaleKey, ...]] | None = None,
    stale_quotas: dict[ClientQuotaEntity, tuple[StaleKey, ...]] | None = None,
    shown: Plan | None = None,
    difference: tuple[PlanDifference, ...] = (),
    source: str = "edits",
    guard: RuleCheck | None = None,
    refused: bool = False,
) -> Response:
    stale, stale_quotas = stale or {}, stale_quotas or {}
    moved = sum(map(len, stale.values())) + sum(map(len, stale_quotas.values()))
    if difference:
        title = "Not applied: the plan changed since you saw it"
    else:
        title = _title(plan, source, report, moved, refused=refused)
    return render(
        request,
        "plan.html",
        {
            "title": title,
            "plan": plan.to_dict(),
            "has_changes": plan.has_changes,
            "summary": change_summary(plan),
            "report": None if report is None else report.to_dict(),
            "stale": stale,
            "stale_quotas": stale_quotas,
            "wanted": _wanted(shown or plan),
            "change_count": change_count(plan),
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
    overridden (:class:`RuleRefusedError`).

    ``plan`` is the plan the page showed (its config and quota changes, each with the value
    the user saw). Unless ``dry_run``, a key whose value the review read differs from that
    one raises :class:`StaleChangeError`, nothing sent: the review's plan is made against
    what the cluster has now, and applying it would overwrite a change the user never saw
    (the review, on another broker or a moment later, can see another tool's change that
    the page's plan did not)."""
    if plan.problems:
        raise PlanRejectedError(plan.problems)
    reviewed = await review(admin, change_set(plan, edits), rules=rules, overrides=overrides)
    if not dry_run:
        moved = stale_keys(plan, reviewed.state), stale_quotas(plan, reviewed.state)
        if any(moved):
            raise StaleChangeError(*moved)
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
    #: Nothing was sent (keys moved again while the rest was being applied): every pending
    #: edit stays pending.
    nothing_sent: bool = False


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
    change journaled with its outcome; so do quota entities (:func:`stale_quotas`). Pending
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
    sent = _leaving_out(shown, stale, moved)
    recorder = web_recorder(request, cluster)
    if edits is None:
        report = await apply_plan(admin, sent, rules=rules, overrides=overrides, recorder=recorder)
        done = Applied(sent, report, stale, moved)
    else:
        done = await apply_edits(
            admin, sent, edits, rules=rules, overrides=overrides, recorder=recorder
        )
        done = replace(
            done, stale={**stale, **done.stale}, stale_quotas={**moved, **done.stale_quotas}
        )
    request.app.state.listings.drop(cluster)  # topics created, overrides changed
    return done


def _leaving_out(
    plan: Plan,
    stale: Collection[ConfigResource],
    moved: Collection[ClientQuotaEntity],
) -> Plan:
    """``plan`` without the resources and quota entities of ``stale`` and ``moved``."""
    return plan.model_copy(
        update={
            "resources": tuple(p for p in plan.resources if p.resource not in stale),
            "quotas": tuple(q for q in plan.quotas if q.quota_entity not in moved),
        }
    )


async def apply_edits(
    admin: AdminClient,
    shown: Plan,
    edits: Edits,
    *,
    rules: Sequence[Rule] = (),
    overrides: Collection[str] = (),
    recorder: Recorder | None = None,
) -> Applied:
    """Apply ``shown`` (the plan a page showed, its stale keys already left out) through the
    change pipeline, leaving out what moved on the cluster after all.

    The state read just before can miss another tool's change (read from a broker that has
    not seen it yet) that the pipeline's own reads see (:class:`StaleChangeError`: nothing
    sent). Those resources and quota entities are left out as stale, exactly as the check
    before does, and the rest is applied, once: when keys move again, nothing is applied and
    every key that moved is said stale (an empty report), never an error page.
    """
    try:
        sent, report = await through_pipeline(
            admin, shown, edits, rules=rules, overrides=overrides, recorder=recorder
        )
        return Applied(sent, report, {}, {})
    except StaleChangeError as first:
        stale, moved = first.configs, first.quotas
    rest = _leaving_out(shown, stale, moved)
    try:
        sent, report = await through_pipeline(
            admin, rest, edits, rules=rules, overrides=overrides, recorder=recorder
        )
    except StaleChangeError as again:
        stale, moved = {**stale, **again.configs}, {**moved, **again.quotas}
        waiting = _leaving_out(shown, stale, moved)
        return Applied(waiting, ApplyReport(), stale, moved, nothing_sent=True)
    return Applied(sent, report, stale, moved)


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
    if not done.nothing_sent:
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
        shown=shown,
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
        shown=before,
        difference=done.difference,
        source="file",
    )


async def discard(request: Request) -> Response:
    """``POST /c/{cluster}/plan/discard``: drop every pending edit."""
    cluster, _ = await cluster_client(request)
    session(request).edits_of(cluster).clear()
    return RedirectResponse(f"/c/{cluster}/plan", status_code=303)
