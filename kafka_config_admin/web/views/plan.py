"""The pending plan: the edits' diff against the cluster, a dry run on the broker
(validate_only), and the apply, with a stale-edit check just before it and every resource's
outcome (applied and read back, or failed with its typed error) written to the change log."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import AdminClient, ConfigResource, quota_value_text
from ...desired import (
    ApplyReport,
    DesiredState,
    OutcomeStatus,
    Plan,
    ResourceAction,
    StaleKey,
    apply_plan,
    make_plan,
    read_state,
    stale_keys,
)
from .._changelog import ChangeRow, now
from .._render import render
from .base import cluster_client, kept_topics, require_writes, session, user

__all__ = ["apply", "apply_desired", "discard", "dry_run", "plan", "planned"]


async def planned(
    admin: AdminClient, desired: DesiredState, topics: Collection[str] | None = None
) -> Plan:
    """``desired``'s plan against the cluster now (sensitive keys included: the user typed
    them; their values are never shown); ``topics``: the cluster's topics as listed a moment
    ago (None: listed now)."""
    state = await read_state(admin, desired, topics=topics, named_keys_only=True)
    return make_plan(desired, state, include_sensitive=True)


def _plan_page(
    request: Request,
    plan: Plan,
    *,
    report: ApplyReport | None = None,
    stale: dict[ConfigResource, tuple[StaleKey, ...]] | None = None,
    source: str = "edits",
) -> Response:
    return render(
        request,
        "plan.html",
        {
            "title": "Pending plan" if source == "edits" else "Plan of the desired-state file",
            "plan": plan.to_dict(),
            "has_changes": plan.has_changes,
            "report": None if report is None else report.to_dict(),
            "stale": stale or {},
            "source": source,
        },
    )


async def plan(request: Request) -> Response:
    """``GET /c/{cluster}/plan``: the pending edits as a diff (remembered for the stale check)."""
    cluster, admin = await cluster_client(request)
    state = session(request)
    desired = state.edits_of(cluster).desired()
    made = await planned(admin, desired, await kept_topics(request, cluster, admin, desired))
    state.planned[cluster] = made
    return _plan_page(request, made)


async def dry_run(request: Request) -> Response:
    """``POST /c/{cluster}/plan/check``: send the plan with validate_only; nothing changes."""
    cluster, admin = await cluster_client(request)
    desired = session(request).edits_of(cluster).desired()
    made = await planned(admin, desired, await kept_topics(request, cluster, admin, desired))
    report = await apply_plan(admin, made, dry_run=True)
    return _plan_page(request, made, report=report)


@dataclass(frozen=True)
class Applied:
    """What an apply did: the plan sent, its report, and the resources left out as stale."""

    plan: Plan
    report: ApplyReport
    stale: dict[ConfigResource, tuple[StaleKey, ...]]


async def apply_checked(
    request: Request, cluster: str, admin: AdminClient, desired: DesiredState, before: Plan | None
) -> Applied:
    """Plan ``desired`` afresh, leave out the resources changed since ``before`` was shown,
    apply the rest and log every change with its outcome."""
    fresh = await planned(admin, desired)
    stale = stale_keys(before, fresh) if before is not None else {}
    sent = fresh.model_copy(
        update={"resources": tuple(p for p in fresh.resources if p.resource not in stale)}
    )
    report = await apply_plan(admin, sent)
    request.app.state.listings.drop(cluster)  # topics created, overrides changed
    request.app.state.changelog.record(_rows(user(request), cluster, sent, report))
    return Applied(sent, report, stale)


def _rows(who: str, cluster: str, plan: Plan, report: ApplyReport) -> list[ChangeRow]:
    """The change log's rows for an applied plan (sensitive values as ``[hidden]``)."""
    rows = []
    outcomes = {outcome.resource: outcome for outcome in report.outcomes}
    stamp = now()
    for resource_plan, item in zip(plan.resources, plan.to_dict()["resources"], strict=True):
        outcome = outcomes.get(resource_plan.resource)
        if outcome is None or resource_plan.action is not ResourceAction.ALTER:
            continue
        message = str(outcome.error) if outcome.error is not None else outcome.note
        for change in item["changes"]:
            rows.append(
                ChangeRow(
                    time=stamp,
                    user=who,
                    cluster=cluster,
                    resource_type=resource_plan.resource.type.name,
                    resource_name=resource_plan.resource.name,
                    key=change["key"],
                    op=change["op"],
                    old_value=change["current"],
                    new_value=change["wanted"],
                    outcome=outcome.status.value,
                    message=" ".join(message.split()),
                )
            )
    for quota_plan, quota_outcome in zip(plan.quotas, report.quotas, strict=True):
        message = str(quota_outcome.error) if quota_outcome.error else quota_outcome.note
        for quota_change in quota_plan.changes:
            rows.append(
                ChangeRow(
                    time=stamp,
                    user=who,
                    cluster=cluster,
                    resource_type="CLIENT_QUOTA",
                    resource_name=str(quota_plan.quota_entity),
                    key=quota_change.key,
                    op="SET" if quota_change.wanted is not None else "DELETE",
                    old_value=_quota_text(quota_change.current),
                    new_value=_quota_text(quota_change.wanted),
                    outcome=quota_outcome.status.value,
                    message=" ".join(message.split()),
                )
            )
    return rows


def _quota_text(value: float | None) -> str | None:
    return None if value is None else quota_value_text(value)


_DONE = (OutcomeStatus.APPLIED, OutcomeStatus.UNCONFIRMED, OutcomeStatus.SKIPPED)


async def apply(request: Request) -> Response:
    """``POST /c/{cluster}/plan/apply``: apply the pending edits (those not stale)."""
    require_writes(request)
    cluster, admin = await cluster_client(request)
    state = session(request)
    edits = state.edits_of(cluster)
    done = await apply_checked(
        request, cluster, admin, edits.desired(), state.planned.pop(cluster, None)
    )
    failed = {o.resource for o in done.report.outcomes if o.status not in _DONE}
    kept = failed | set(done.stale)
    edits.forget({r for r in edits.configs if r not in kept}, set())
    failed_quotas = {o.entity for o in done.report.quotas if o.status is OutcomeStatus.FAILED}
    edits.forget(set(), {e for e in edits.quotas if e not in failed_quotas})
    return _plan_page(request, done.plan, report=done.report, stale=done.stale)


async def apply_desired(
    request: Request, cluster: str, admin: AdminClient, desired: DesiredState, before: Plan
) -> Response:
    """Apply a desired-state file's plan (as shown), with the same stale check and log."""
    require_writes(request)
    done = await apply_checked(request, cluster, admin, desired, before)
    return _plan_page(request, done.plan, report=done.report, stale=done.stale, source="file")


async def discard(request: Request) -> Response:
    """``POST /c/{cluster}/plan/discard``: drop every pending edit."""
    cluster, _ = await cluster_client(request)
    session(request).edits_of(cluster).clear()
    return RedirectResponse(f"/c/{cluster}/plan", status_code=303)
