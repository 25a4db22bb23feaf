"""``alter``: incremental changes of configs, quotas and SCRAM credentials, through the one
change pipeline (:mod:`kafka_config_admin.changeset`): read and checked, shown, confirmed,
then applied and read back, with one outcome per resource, quota entity or SCRAM user."""

from __future__ import annotations

from functools import partial

from rich.table import Table
from rich.text import Text

from .. import (
    AdminClient,
    AlterConfigOp,
    OpType,
    UserScramCredentialDeletion,
)
from ..changeset import ChangeSet, Review, StaleChangeError, apply, review
from ..desired import Plan
from ..journal import JournalStore, journal_of
from ..state import QuotaPlan, Rule
from ._connect import resolve_connection
from ._entities import QuotaChanges, quota_changes
from ._exit import ExitCode, say, say_lines
from ._guard import guarding_rules, refused_by_rules
from ._journal import recorder
from ._options import ConnectionOptions
from ._output import (
    HIDDEN,
    print_refusals,
    print_table,
    print_warnings,
    report_verdict,
    resource_title,
    stderr,
)
from ._progress import settle
from ._quotas import entity_text
from ._report import print_report
from ._resources import QuotaSelection, Selection, UsageError
from ._running import cancelled_on_sigterm, client_for, confirmed, run
from ._selection import selected_resources


def alter(
    *,
    selection: Selection,
    ops: list[AlterConfigOp],
    dry_run: bool,
    yes: bool,
    override_rules: tuple[str, ...],
    connection: ConnectionOptions,
) -> int:
    """The ``alter`` command's work (its options and help: :mod:`._commands`)."""
    if selection.empty:
        raise UsageError("name at least one resource to alter (or --match REGEX)")
    if selection.every_node:
        raise UsageError(
            "name the broker to alter (--entity-name ID), or --entity-default for the cluster "
            "default: an alter never applies to every node at once"
        )
    if not ops:
        raise UsageError("nothing to change: give --set, --delete, --append or --subtract")
    resolved, label = resolve_connection(connection)
    rules = guarding_rules(resolved, (), override_rules)  # the cluster's clusters-file entry's
    admin = client_for(resolved)
    journal = journal_of(resolved)
    if selection.quota is not None:
        changes = quota_changes(selection.quota, ops)
        return alter_quotas(
            admin,
            label,
            selection.quota,
            changes,
            dry_run=dry_run,
            yes=yes,
            rules=rules,
            overrides=override_rules,
            journal=journal,
        )

    async def work() -> int:
        async with admin:
            resources = await selected_resources(admin, selection)
            if not resources:
                stderr.print("no resources match: nothing to do")
                return ExitCode.OK
            changes = ChangeSet(configs={resource: ops for resource in resources})
            reviewed = await review(
                admin,
                changes,
                settle=partial(settle, doing="reading current configs"),
                rules=rules,
                overrides=override_rules,
            )
            if reviewed.problems:
                print_refusals(reviewed.problems)
                return ExitCode.USAGE
            print_changes(reviewed.plan, label)
            print_warnings(reviewed.warnings)
            if refused_by_rules(reviewed.guard):
                return ExitCode.RULE_REFUSED
            if dry_run:
                return _dry_run_verdict(reviewed, f"{len(resources)} resource(s)")
            question = f"Alter {len(resources)} resource(s) on {label}?"
            return await confirmed_and_applied(admin, reviewed, yes, label, question, journal)

    return run(work)


def alter_quotas(
    admin: AdminClient,
    label: str,
    selection: QuotaSelection,
    changes: QuotaChanges,
    *,
    dry_run: bool,
    yes: bool,
    rules: tuple[Rule, ...] = (),
    overrides: tuple[str, ...] = (),
    journal: JournalStore,
) -> int:
    """Show the change of the entity's quotas or SCRAM credentials, check it against the
    cluster's rules, confirm it, apply it and read it back."""
    entity = selection.entity()
    change_set = ChangeSet(
        quotas={entity: changes.quotas} if changes.quotas else {}, scram=changes.scram
    )

    async def work() -> int:
        async with admin:
            reviewed = await review(admin, change_set, rules=rules, overrides=overrides)
            if reviewed.plan.quotas:
                print_quota_changes(reviewed.plan.quotas[0], label)
            else:
                _print_scram_changes(changes, label)
            if refused_by_rules(reviewed.guard):
                return ExitCode.RULE_REFUSED
            if dry_run and changes.quotas:
                return _dry_run_verdict(reviewed, f"the quotas of {entity}")
            if dry_run:  # Kafka cannot validate a credential without changing it
                return print_report(reviewed.plan, await apply(admin, reviewed, dry_run=True))
            question = f"Alter {entity} on {label}?"
            return await confirmed_and_applied(admin, reviewed, yes, label, question, journal)

    return run(work)


def _dry_run_verdict(reviewed: Review, what: str) -> int:
    assert reviewed.verdict is not None  # a review without problems asked the broker
    return report_verdict(reviewed.verdict, what)


async def confirmed_and_applied(
    admin: AdminClient,
    reviewed: Review,
    yes: bool,
    label: str,
    question: str,
    journal: JournalStore,
    note: str = "",
) -> int:
    """Ask (unless ``yes``), then apply, record in the journal (with ``note``) and print each
    outcome; exit 1 when any failed, 5 when a key moved between the review and the apply
    (one line each; nothing sent)."""
    if not confirmed(yes, question):
        return ExitCode.FAILED
    try:
        report = await cancelled_on_sigterm(
            apply(admin, reviewed, recorder=recorder(journal, label, note=note))
        )
    except StaleChangeError as stale:
        say_lines(f"stale: {line}" for line in stale.lines())
        say(
            f"nothing applied: {len(stale.lines())} key(s) changed on {label} since they were "
            "shown; run alter again to review them"
        )
        return ExitCode.STALE
    return print_report(reviewed.plan, report)


def print_changes(plan: Plan, label: str) -> None:
    """The config changes to cluster ``label`` as a table: resource, key, operation, current
    value, new value (a sensitive key's values hidden)."""
    table = Table(title=f"changes to {label}", title_justify="left")
    for column in ("resource", "key", "op", "current", "new"):
        table.add_column(column, overflow="fold")
    for item in plan.resources:
        title = resource_title(item.resource.type.name, item.resource.name)
        for change in item.changes:
            current = HIDDEN if change.sensitive else change.current
            new = "" if change.op is OpType.DELETE else HIDDEN if change.sensitive else change.value
            # Text, not markup: "[hidden]" and list values in brackets are shown as they are
            cells = (title, change.key, change.op.name, current or "", new or "")
            table.add_row(*(Text(cell) for cell in cells))
    print_table(stderr, table)


def print_quota_changes(plan: QuotaPlan, label: str) -> None:
    table = Table(title=f"changes to {label}", title_justify="left")
    for column in ("entity", "key", "op", "current", "new"):
        table.add_column(column, overflow="fold")
    for change in plan.changes:
        current, wanted = change.shown()
        table.add_row(
            entity_text(dict(plan.entity)), change.key, change.op.name, current or "", wanted or ""
        )
    print_table(stderr, table)


def _print_scram_changes(changes: QuotaChanges, label: str) -> None:
    table = Table(title=f"changes to {label}", title_justify="left")
    for column in ("user", "mechanism", "op", "iterations"):
        table.add_column(column, overflow="fold")
    for change in changes.scram:
        deleted = isinstance(change, UserScramCredentialDeletion)
        table.add_row(
            change.user,
            change.mechanism.mechanism_name,
            "DELETE" if deleted else "UPSERT",
            "" if isinstance(change, UserScramCredentialDeletion) else str(change.iterations),
        )
    print_table(stderr, table)
