"""``undo``: the inverse of recorded changes, through the one change pipeline (review, the
table, confirmation, apply, read back), recorded in the journal itself."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ..changeset import review
from ..journal import JournalEntry, JournalQuery, JournalStore, LeftAlone, journal_of, plan_undo
from ._alter import confirmed_and_applied, print_changes, print_quota_changes
from ._connect import resolve_connection
from ._exit import ExitCode, say, say_lines
from ._history import value_text
from ._options import ConnectionOptions
from ._output import print_refusals, print_table, print_warnings, report_verdict, stderr
from ._resources import UsageError
from ._running import client_for, run


def undo(
    *,
    change_id: str,
    whole_set: bool,
    force: bool,
    dry_run: bool,
    yes: bool,
    connection: ConnectionOptions,
) -> int:
    """The ``undo`` command's work (its options and help: :mod:`._commands`)."""
    resolved, label = resolve_connection(connection)
    journal = journal_of(resolved)
    entries = recorded(journal, change_id, whole_set)
    admin = client_for(resolved)
    what = f"change set {change_id}" if whole_set else f"change {change_id}"

    async def work() -> int:
        async with admin:
            cluster_id = (await admin.describe_cluster()).cluster_id
            for entry in entries:  # the cluster named, by its id (else by its label)
                if entry.cluster_id != cluster_id and (entry.cluster_id or entry.cluster != label):
                    raise UsageError(
                        f"{what} was made on cluster {entry.cluster} (id {entry.cluster_id}), "
                        f"and {label} has id {cluster_id}: nothing was changed"
                    )
            planned = await plan_undo(admin, entries, force=force)
            print_left(planned.left)
            if not planned.undone:
                say(f"nothing to undo of {what} on {label}")
                return ExitCode.FAILED if planned.changed_since else ExitCode.OK
            reviewed = await review(admin, planned.changes)
            if reviewed.problems:
                print_refusals(reviewed.problems)
                return ExitCode.USAGE
            print_changes(reviewed.plan, label)
            for quota_plan in reviewed.plan.quotas:
                print_quota_changes(quota_plan, label)
            say_lines(
                f"DELETE SCRAM credential {change.mechanism} of user {change.user!r}"
                for change in planned.changes.scram
            )
            print_warnings(reviewed.warnings)
            if dry_run and reviewed.verdict is not None:
                return report_verdict(reviewed.verdict, f"the undo of {what}")
            question = f"Undo {len(planned.undone)} change(s) of {what} on {label}?"
            code = await confirmed_and_applied(
                admin, reviewed, yes, label, question, journal, note=f"undo of {what}"
            )
            return ExitCode.FAILED if planned.changed_since else code

    return run(work)


def recorded(journal: JournalStore, change_id: str, whole_set: bool) -> list[JournalEntry]:
    """The changes ``change_id`` names in ``journal`` (a usage error when there are none)."""
    if whole_set:
        entries = journal.entries(JournalQuery(change_set=change_id))
        if not entries:
            raise UsageError(f"no change set {change_id!r} in the journal {journal.where}")
        return entries
    if not change_id.isdigit():
        raise UsageError(
            f"{change_id!r} is not a change id (a number, as history shows it); "
            "for a change set, pass --change-set"
        )
    entry = journal.entry(int(change_id))
    if entry is None:
        raise UsageError(f"no change {change_id} in the journal {journal.where}")
    return [entry]


def print_left(left: tuple[LeftAlone, ...]) -> None:
    """The recorded changes undo leaves alone, why, and what the cluster shows now."""
    if not left:
        return
    table = Table(title="left alone", title_justify="left")
    for column in ("id", "resource", "key", "recorded new", "now", "why"):
        table.add_column(column, overflow="fold")
    for item in left:
        entry = item.entry
        now = "" if item.now is None else item.now
        cells = (
            str(entry.id),
            entry.resource,
            entry.key,
            value_text(entry, entry.new_value, entry.new_set),
            now,
            item.reason,
        )
        table.add_row(*(Text(cell) for cell in cells))
    print_table(stderr, table)
