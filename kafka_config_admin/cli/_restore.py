"""``restore --at TIME``: resources' overrides put back as they were at a time, from the journal
and the change feed's rows, through the one change pipeline (review, the table, confirmation,
apply, read back), recorded in the journal itself."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from .. import AdminClient, ResourceType
from ..changeset import review
from ..feed import StateChange
from ..journal import JournalEntry, Unknown, journal_of, plan_restore, read_feed_table
from ._alter import confirmed_and_applied, print_changes
from ._connect import resolve_connection
from ._exit import ExitCode, say, say_lines
from ._history import parse_time
from ._options import ConnectionOptions
from ._output import print_refusals, print_warnings, report_verdict, resource_title
from ._resources import Selection, UsageError
from ._running import client_for, run
from ._selection import selected_resources


def restore(
    *,
    at: str,
    selection: Selection,
    feed_table: Path | None,
    feed_cluster: str | None,
    dry_run: bool,
    yes: bool,
    connection: ConnectionOptions,
) -> int:
    """The ``restore`` command's work (its options and help: :mod:`._commands`)."""
    time = parse_time(at, "--at")
    if time > datetime.now(UTC):
        raise UsageError(f"--at {at!r} is in the future ({time.isoformat()})")
    _check_selection(selection)
    if feed_cluster is not None and feed_table is None:
        raise UsageError("--feed-cluster names the cluster in the feed's rows: give --feed-table")
    rows = None if feed_table is None else read_feed_table(feed_table)
    resolved, label = resolve_connection(connection)
    journal = journal_of(resolved)
    entries = journal.entries()
    admin = client_for(resolved)
    feed = None if rows is None else _of_cluster(rows, feed_cluster or label, feed_table)
    what = f"the overrides as they were at {time.isoformat(timespec='seconds')}"

    async def work() -> int:
        async with admin:
            resources = await selected_resources(admin, selection)
            recorded = await _of_this_cluster(admin, entries, label)
            planned = await plan_restore(admin, resources, time, journal=recorded, feed=feed or ())
            if feed is None:
                say("without --feed-table, only changes made through kafka-config-admin are known")
            say_lines(unknown_lines(planned.unknown))
            say_lines(
                f"{resource_title(item.resource.type.name, item.resource.name)} {item.key}: "
                f"{'not set' if item.value is None else item.value} then ({item.told_by})"
                for item in planned.restored
            )
            unknown = ExitCode.FAILED if planned.unknown else ExitCode.OK
            if not planned.restored:
                say(f"nothing to restore on {label}: {what} (as far as is known)")
                return unknown
            reviewed = await review(admin, planned.changes)
            if reviewed.problems:
                print_refusals(reviewed.problems)
                return ExitCode.USAGE
            print_changes(reviewed.plan, label)
            print_warnings(reviewed.warnings)
            if dry_run and reviewed.verdict is not None:
                return report_verdict(reviewed.verdict, f"the restore of {what}") or unknown
            question = f"Restore {len(planned.restored)} key(s) on {label} to {what}?"
            code = await confirmed_and_applied(
                admin,
                reviewed,
                yes,
                label,
                question,
                journal,
                note=f"restore to {time.isoformat()}",
            )
            return code or unknown

    return run(work)


def _check_selection(selection: Selection) -> None:
    if selection.quota is not None:
        raise UsageError("restore puts back config overrides; a quota change is put back by undo")
    if selection.empty:
        raise UsageError(
            "name what to restore: topics (--topic, --match REGEX), --broker ID, "
            "--cluster-default, --entity-type brokers (every broker and the cluster default)"
        )
    loggers = ResourceType.BROKER_LOGGER
    if loggers in selection.every_node or any(r.type is loggers for r in selection.resources):
        raise UsageError("restore does not put back broker loggers (their levels reset on restart)")


def _of_cluster(rows: list[StateChange], name: str, table: Path | None) -> list[StateChange]:
    """The feed's rows of cluster ``name``; a usage error when the table has rows of other
    clusters only (a wrong --feed-cluster), never an empty feed taken as "nothing changed"."""
    mine = [row for row in rows if row.cluster == name]
    others = sorted({row.cluster for row in rows} - {name})
    if not mine and others:
        raise UsageError(
            f"the feed table {table} has no rows of cluster {name!r} (it has "
            f"{', '.join(repr(other) for other in others)}): pass --feed-cluster NAME"
        )
    return mine


async def _of_this_cluster(
    admin: AdminClient, entries: list[JournalEntry], label: str
) -> list[JournalEntry]:
    """The journal's rows of the cluster ``admin`` reaches: by its id, else by its label."""
    cluster_id = (await admin.describe_cluster()).cluster_id
    return [
        entry
        for entry in entries
        if entry.cluster_id == cluster_id or (entry.cluster_id is None and entry.cluster == label)
    ]


def unknown_lines(unknown: tuple[Unknown, ...]) -> Iterator[str]:
    """What restore cannot tell, one line each: the resource (and key), and why."""
    for item in unknown:
        title = resource_title(item.resource.type.name, item.resource.name)
        key = "" if item.key is None else f" {item.key}"
        yield f"unknown, left as it is: {title}{key}: {item.reason}"
