"""Undo from the history page: the inverse of a recorded change or of a whole change set,
planned by the journal's one undo planner (:func:`~kafka_config_admin.journal.plan_undo`,
which the CLI's ``undo`` uses), reviewed and applied through the change pipeline with the
pending plan's safeguards: the preview shows the plan and its digest, the apply needs the
confirmation ticked and sends only the plan shown (planned again: when it differs, nothing
is sent), a key changed since it was recorded is shown and left alone unless the user ticks
"undo it all the same", and the undo is itself journaled."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ... import AdminClient, changeset
from ...changeset import ApplyReport, Review, RuleCheck, RuleRefusedError, StaleChangeError, review
from ...desired import Plan, PlanDifference, plan_difference
from ...journal import JournalEntry, JournalQuery, Undo, plan_undo
from .._render import render
from .._summary import change_summary
from .base import (
    cluster_client,
    cluster_rules,
    form_text,
    journal,
    override_rules,
    require_writes,
    session,
    web_recorder,
)
from .plan import rules_context

__all__ = ["undo_apply", "undo_preview"]


@dataclass(frozen=True)
class Target:
    """What to undo, as the history page's button named it: one change by its id, or a
    change set; and whether keys changed since are undone all the same (``force``)."""

    change: int | None
    change_set: str | None
    force: bool

    @classmethod
    def of(cls, fields: Mapping[str, str]) -> Target:
        """The target of a query or form (400 when it names none, or both)."""
        change, change_set = fields.get("change", "").strip(), fields.get("change_set", "")
        change_set = change_set.strip()
        if bool(change) == bool(change_set):
            raise HTTPException(400, "name one change (change=ID) or one change set to undo")
        if change and not change.isdigit():
            raise HTTPException(400, f"{change!r} is not a change id (a number, as history shows)")
        force = fields.get("force") == "yes"
        return cls(int(change) if change else None, change_set or None, force)

    @property
    def what(self) -> str:
        """``change 12`` or ``change set 3f2a...``, as pages and the journal's note say it."""
        return (
            f"change {self.change}" if self.change is not None else f"change set {self.change_set}"
        )

    def fields(self) -> dict[str, str]:
        """The hidden fields that name this target in a form."""
        named = {"change": str(self.change)} if self.change is not None else {}
        if self.change_set is not None:
            named["change_set"] = self.change_set
        return named


async def undo_preview(request: Request) -> Response:
    """``GET /c/{cluster}/undo?change=ID`` (or ``change_set=ID``, ``force=yes``): what undo
    would send, what it leaves alone and why, and (writes allowed) the apply form."""
    cluster, admin = await cluster_client(request)
    target = Target.of(request.query_params)
    entries = await _recorded(request, cluster, admin, target)
    planned, reviewed = await _planned(request, cluster, admin, entries, target)
    if reviewed is not None:
        session(request).remember_plan(cluster, reviewed.plan)
    return _page(request, target, entries, planned, reviewed)


async def undo_apply(request: Request) -> Response:
    """``POST /c/{cluster}/undo``: apply the undo the preview showed (its ``plan_digest``),
    when undo still plans exactly that and the confirmation is ticked; journaled with the
    note ``undo of change ...``."""
    require_writes(request)
    cluster, admin = await cluster_client(request)
    form = await request.form()
    fields = {name: form_text(form, name) for name in ("change", "change_set", "force")}
    target = Target.of(fields)
    if form_text(form, "confirmed") != "yes":
        raise HTTPException(400, "not applied: tick the confirmation that says what will change")
    shown = session(request).shown_plan(cluster, form_text(form, "plan_digest"))
    if shown is None:
        raise HTTPException(409, "refused: the undo this page showed is not known any more")
    entries = await _recorded(request, cluster, admin, target)
    overrides = override_rules(form)
    planned, reviewed = await _planned(request, cluster, admin, entries, target, overrides)
    if reviewed is None or reviewed.plan.digest != shown.digest:
        return _outdated(request, cluster, target, entries, planned, reviewed, shown)
    recorder = web_recorder(request, cluster, note=f"undo of {target.what}")
    try:
        report = await changeset.apply(admin, reviewed, recorder=recorder)
    except StaleChangeError:  # a key moved between this review and the send: plan again
        planned, reviewed = await _planned(request, cluster, admin, entries, target, overrides)
        return _outdated(request, cluster, target, entries, planned, reviewed, shown)
    except RuleRefusedError:
        return _page(request, target, entries, planned, reviewed, rule_refused=True)
    request.app.state.listings.drop(cluster)
    return _page(request, target, entries, planned, reviewed, report=report)


def _outdated(
    request: Request,
    cluster: str,
    target: Target,
    entries: Sequence[JournalEntry],
    planned: Undo,
    reviewed: Review | None,
    shown: Plan,
) -> Response:
    """Nothing sent: undo plans otherwise now than the page showed; the plan now (kept, so
    that it can be applied), and what differs."""
    difference: tuple[PlanDifference, ...] = ()
    if reviewed is not None:
        difference = plan_difference(shown, reviewed.plan)
        session(request).remember_plan(cluster, reviewed.plan)
    return _page(request, target, entries, planned, reviewed, moved=True, difference=difference)


async def _recorded(
    request: Request, cluster: str, admin: AdminClient, target: Target
) -> list[JournalEntry]:
    """The journal's rows ``target`` names (404 when none), each recorded on this cluster:
    by its id when the row has one, else by its name (409 otherwise, nothing planned)."""
    book = journal(request, cluster)
    if target.change is not None:
        found = await anyio.to_thread.run_sync(book.entry, target.change)
        entries = [] if found is None else [found]
    else:
        query = JournalQuery(change_set=target.change_set)
        entries = await anyio.to_thread.run_sync(book.entries, query)
    if not entries:
        raise HTTPException(404, f"no {target.what} in the journal")
    cluster_id = (await admin.describe_cluster()).cluster_id
    for entry in entries:
        if entry.cluster_id != cluster_id and (entry.cluster_id or entry.cluster != cluster):
            raise HTTPException(
                409,
                f"{target.what} was made on cluster {entry.cluster} (id {entry.cluster_id}), "
                f"and {cluster} has id {cluster_id}: nothing was changed",
            )
    return entries


async def _planned(
    request: Request,
    cluster: str,
    admin: AdminClient,
    entries: Sequence[JournalEntry],
    target: Target,
    overrides: Collection[str] = (),
) -> tuple[Undo, Review | None]:
    """The undo of ``entries`` and its review (the client's checks, the broker's dry run,
    the cluster's rules); no review when nothing is left to undo."""
    planned = await plan_undo(admin, entries, force=target.force)
    if not planned.undone:
        return planned, None
    rules = cluster_rules(request, cluster)
    return planned, await review(admin, planned.changes, rules=rules, overrides=overrides)


def _page(
    request: Request,
    target: Target,
    entries: Sequence[JournalEntry],
    planned: Undo,
    reviewed: Review | None,
    *,
    report: ApplyReport | None = None,
    moved: bool = False,
    difference: tuple[PlanDifference, ...] = (),
    rule_refused: bool = False,
) -> Response:
    """The undo page: the recorded changes, those left alone, the plan and its form, or what
    became of the apply. ``moved``: nothing sent, undo planning otherwise than the page
    showed (``difference``); ``rule_refused``: nothing sent, a rule broken not overridden."""
    plan = None if reviewed is None else reviewed.plan
    context: dict[str, Any] = {
        "title": _title(target, report, moved),
        "target": target,
        "target_fields": target.fields(),
        "entries": [(e, e.value_text(e.old_value, e.old_set)) for e in entries],
        "left": [
            (item, item.entry.value_text(item.entry.new_value, item.entry.new_set))
            for item in planned.left
        ],
        "changed_since": bool(planned.changed_since) or target.force,
        "undone": len(planned.undone),
        "plan": None if plan is None else plan.to_dict(),
        "summary": "" if plan is None else change_summary(plan),
        "verdict": None if reviewed is None or reviewed.verdict is None else reviewed.verdict,
        "report": None if report is None else report.to_dict(),
        "difference": difference,
        "moved": moved,
        **rules_context(reviewed.guard if reviewed is not None else RuleCheck()),
        "rule_refused": rule_refused,
    }
    return render(request, "undo.html", context, status=409 if moved or rule_refused else 200)


def _title(target: Target, report: ApplyReport | None, moved: bool) -> str:
    if moved:
        return f"Not applied: {target.what} would now be undone differently"
    if report is not None:
        return f"Undone: {target.what}" if report.ok else f"Undo of {target.what}: not all applied"
    return f"Undo {target.what}"
