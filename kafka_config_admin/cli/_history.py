"""``history``: the journal's changes, filtered, as a table, JSON or YAML."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from rich.table import Table

from .. import InvalidArgumentError
from ..connect import clusters_file_in_use, load_clusters_file
from ..journal import JournalEntry, JournalQuery, JournalStore, journal_of
from ..journal import parse_time as parse_journal_time
from ._exit import ExitCode
from ._options import OutputFormat
from ._output import print_document, print_table, stdout
from ._resources import UsageError

#: The ``version`` of ``history``'s JSON and YAML document.
HISTORY_VERSION = 1


def history(
    *,
    cluster: str | None,
    clusters_file: Path | None,
    resource: str | None,
    key: str | None,
    user: str | None,
    face: str | None,
    change_set: str | None,
    since: str | None,
    until: str | None,
    limit: int | None,
    output: OutputFormat,
) -> int:
    """The ``history`` command's work (its options and help: :mod:`._commands`)."""
    query = JournalQuery(
        cluster=cluster,
        resource=resource,
        key=key,
        user=user,
        face=face,
        change_set=change_set,
        since=None if since is None else parse_time(since, "--since"),
        until=None if until is None else parse_time(until, "--until"),
        limit=limit,
    )
    journal = journal_named_by(cluster, clusters_file)
    entries = journal.entries(query)
    if output is OutputFormat.TABLE:
        print_table(stdout, history_table(entries, journal.where))
    else:
        document = {
            "version": HISTORY_VERSION,
            "journal": journal.where,
            "changes": [entry.to_dict() for entry in entries],
        }
        print_document(document, output)
    return ExitCode.OK


def journal_named_by(cluster: str | None, clusters_file: Path | None) -> JournalStore:
    """The journal of ``--cluster``: the topic its clusters-file entry names (``journal:``),
    else the SQLite file (a cluster the clusters file does not have is a filter only)."""
    file = clusters_file_in_use(clusters_file)
    if cluster is None or file is None:
        return journal_of(None)
    return journal_of(load_clusters_file(file).clusters.get(cluster))


def parse_time(text: str, option: str) -> datetime:
    """:func:`~kafka_config_admin.journal.parse_time`, a usage error naming ``option``."""
    try:
        return parse_journal_time(text)
    except InvalidArgumentError as error:
        raise UsageError(f"{option} {error}") from None


def history_table(entries: list[JournalEntry], where: str) -> Table:
    """One row per change, oldest first."""
    table = Table(title=f"journal {where}", title_justify="left")
    columns = ("id", "time (UTC)", "change set", "who", "cluster", "resource", "key", "op")
    for column in (*columns, "old", "new", "outcome"):
        table.add_column(column, overflow="fold")
    for entry in entries:
        who = f"{entry.user} ({entry.face})"
        if entry.application:
            who += f" {entry.application}"
        outcome = entry.outcome + (f": {entry.message}" if entry.message else "")
        if entry.note:
            outcome += f" ({entry.note})"
        table.add_row(
            str(entry.id),
            entry.time.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
            entry.change_set,
            who,
            entry.cluster,
            entry.resource,
            entry.key,
            entry.op,
            value_text(entry, entry.old_value, entry.old_set),
            value_text(entry, entry.new_value, entry.new_set),
            outcome,
        )
    if not entries:
        table.caption = "no changes"
    return table


def value_text(entry: JournalEntry, value: str | None, was_set: bool) -> str:
    """A value as the table shows it (:meth:`JournalEntry.value_text`)."""
    return entry.value_text(value, was_set)
