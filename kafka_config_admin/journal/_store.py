"""The journal's SQLite file: where it is, how rows are written and read.

Several processes write one file at once (CLI runs, the web editor, a Spark driver): the
file is in WAL mode, each write (an apply's rows) is one ``BEGIN IMMEDIATE`` transaction,
and a writer waits up to :data:`BUSY_SECONDS` for another's lock instead of failing.

Writers use ``synchronous = NORMAL``: a committed transaction is in the WAL file as soon as
the commit returns, so a crash of the process loses none, and the file is synced to the disk
at each checkpoint rather than at each commit (the syncs were most of the journal's cost in
``apply``); a power loss or an OS crash may lose the transactions committed since the last
checkpoint, never the file's consistency.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .. import InvalidArgumentError, KafkaConfigAdminError
from ._entries import JournalEntry

__all__ = ["ENV_VAR", "Journal", "JournalError", "JournalQuery", "journal_path", "parse_time"]

#: The environment variable naming the journal's file (over the XDG data directory).
ENV_VAR = "KAFKA_CONFIG_ADMIN_JOURNAL"

#: Seconds a writer waits for another writer's lock.
BUSY_SECONDS = 30.0

_COLUMNS = (
    "change_set",
    "time",
    "user",
    "face",
    "application",
    "cluster",
    "cluster_id",
    "resource_type",
    "resource_name",
    "entity",
    "key",
    "op",
    "old_value",
    "old_set",
    "new_value",
    "new_set",
    "sensitive",
    "outcome",
    "message",
    "note",
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    change_set TEXT NOT NULL,
    time TEXT NOT NULL,
    user TEXT NOT NULL,
    face TEXT NOT NULL,
    application TEXT,
    cluster TEXT NOT NULL,
    cluster_id TEXT,
    resource_type TEXT NOT NULL,
    resource_name TEXT NOT NULL,
    entity TEXT,
    key TEXT NOT NULL,
    op TEXT NOT NULL,
    old_value TEXT,
    old_set INTEGER NOT NULL,
    new_value TEXT,
    new_set INTEGER NOT NULL,
    sensitive INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    message TEXT NOT NULL,
    note TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS changes_by_change_set ON changes (change_set);
CREATE INDEX IF NOT EXISTS changes_by_time ON changes (time);
CREATE INDEX IF NOT EXISTS changes_by_resource ON changes (resource_type, resource_name, key);
"""


_AGO = re.compile(r"(\d+)\s*([smhdw])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_time(text: str) -> datetime:
    """A time as a user types it for ``since`` and ``until``: ISO 8601 (UTC when it names no
    zone), or ``30m``/``2h``/``7d``/``1w`` ago; :class:`InvalidArgumentError` names the text."""
    ago = _AGO.fullmatch(text.strip())
    if ago is not None:
        amount, unit = int(ago.group(1)), _UNITS[ago.group(2)]
        return datetime.now(UTC) - timedelta(**{unit: amount})
    try:
        time = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidArgumentError(
            f"{text!r}: not a time (2026-11-27T06:00:00Z, 2026-11-27) nor a "
            "duration ago (30m, 2h, 7d, 1w)"
        ) from None
    return time if time.tzinfo is not None else time.replace(tzinfo=UTC)


class JournalError(KafkaConfigAdminError):
    """The journal's file cannot be opened, written or read (its path and the reason)."""


def journal_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The journal's file: ``path``, else ``$KAFKA_CONFIG_ADMIN_JOURNAL``, else
    ``$XDG_DATA_HOME/kafka-config-admin/journal.sqlite`` (``~/.local/share`` when
    ``XDG_DATA_HOME`` is unset or not absolute, as the XDG specification says)."""
    if path is not None:
        return Path(path)
    named = os.environ.get(ENV_VAR)
    if named:
        return Path(named)
    data_home = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "kafka-config-admin" / "journal.sqlite"


@dataclass(frozen=True)
class JournalQuery:
    """Which rows to read: each field given narrows them (all of them when none is).

    ``cluster`` matches the label or the id; ``resource`` is ``TYPE:NAME`` (``topic:orders``,
    ``broker:`` for the cluster default, ``quota:user=alice``) or a bare topic name;
    ``since`` and ``until`` bound the time (``until`` excluded); ``limit`` keeps the newest.
    """

    cluster: str | None = None
    resource: str | None = None
    key: str | None = None
    user: str | None = None
    face: str | None = None
    change_set: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    limit: int | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition and its parameters."""
        terms: list[str] = []
        values: list[Any] = []
        if self.cluster is not None:
            terms.append("(cluster = ? OR cluster_id = ?)")
            values += [self.cluster, self.cluster]
        if self.resource is not None:
            kind, colon, name = self.resource.partition(":")
            if not colon:
                kind, name = "topic", self.resource
            terms.append("resource_type = ? AND resource_name = ?")
            values += [kind.strip().lower(), name.strip()]
        for column in ("key", "user", "face", "change_set"):
            value = getattr(self, column)
            if value is not None:
                terms.append(f"{column} = ?")
                values.append(value)
        if self.since is not None:
            terms.append("time >= ?")
            values.append(_time_text(self.since))
        if self.until is not None:
            terms.append("time < ?")
            values.append(_time_text(self.until))
        return (" AND ".join(terms) or "1"), values

    def matches(self, entry: JournalEntry) -> bool:
        """Whether ``entry`` is among the rows :meth:`where` selects (``limit`` aside): the
        same condition, for a journal read whole (a topic's)."""
        if self.cluster is not None and self.cluster not in (entry.cluster, entry.cluster_id):
            return False
        if self.resource is not None:
            kind, colon, name = self.resource.partition(":")
            if not colon:
                kind, name = "topic", self.resource
            if (entry.resource_type, entry.resource_name) != (kind.strip().lower(), name.strip()):
                return False
        for column in ("key", "user", "face", "change_set"):
            value = getattr(self, column)
            if value is not None and getattr(entry, column) != value:
                return False
        time = _time_text(entry.time)
        if self.since is not None and time < _time_text(self.since):
            return False
        return self.until is None or time < _time_text(self.until)


@dataclass(frozen=True)
class Journal:
    """The journal in the SQLite file at ``path`` (:func:`journal_path` chooses the default).

    Every method opens the file for its own work and closes it, so a :class:`Journal` is a
    value that any thread or process can use; the file and its directory are made on the
    first write. Every failure of the file is a :class:`JournalError`.
    """

    path: Path

    @property
    def where(self) -> str:
        """The file's path, as messages and documents name the journal."""
        return str(self.path)

    @classmethod
    def at(cls, path: str | os.PathLike[str] | None = None) -> Journal:
        """The journal at ``path``, else where :func:`journal_path` says."""
        return cls(journal_path(path))

    def record(self, entries: Sequence[JournalEntry]) -> list[int]:
        """Write ``entries`` in one transaction; their ids, in order."""
        if not entries:
            return []
        marks = ", ".join("?" for _ in _COLUMNS)
        sql = f"INSERT INTO changes ({', '.join(_COLUMNS)}) VALUES ({marks})"
        times: dict[datetime, str] = {}  # an apply's rows share their time: written once
        rows = [_values(entry, times) for entry in entries]  # a bad one fails before the lock
        with self._connection(create=True) as connection:
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany(sql, rows)
            # AUTOINCREMENT under the one writer's lock: the rows' ids are consecutive.
            (last,) = connection.execute("SELECT last_insert_rowid()").fetchone()
            connection.execute("COMMIT")
        return list(range(last - len(rows) + 1, last + 1))

    def entries(self, query: JournalQuery | None = None) -> list[JournalEntry]:
        """The rows ``query`` selects, oldest first (none when the file does not exist)."""
        query = query or JournalQuery()
        if not self.path.exists():
            return []
        condition, values = query.where()
        sql = f"SELECT id, {', '.join(_COLUMNS)} FROM changes WHERE {condition} ORDER BY id DESC"
        if query.limit is not None:
            sql += " LIMIT ?"
            values.append(query.limit)
        with self._connection(create=False) as connection:
            rows = connection.execute(sql, values).fetchall()
        return [_entry(row) for row in reversed(rows)]

    def entry(self, change_id: int) -> JournalEntry | None:
        """The change with this id, or None."""
        if not self.path.exists():
            return None
        sql = f"SELECT id, {', '.join(_COLUMNS)} FROM changes WHERE id = ?"
        with self._connection(create=False) as connection:
            row = connection.execute(sql, (change_id,)).fetchone()
        return None if row is None else _entry(row)

    @contextmanager
    def _connection(self, *, create: bool) -> Iterator[sqlite3.Connection]:
        doing = "written" if create else "read"
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(
                self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
            with closing(connection):
                connection.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
                if create:  # WAL is kept in the file: a reader need not (and may not) set it
                    connection.execute("PRAGMA journal_mode = WAL")
                    connection.execute("PRAGMA synchronous = NORMAL")  # per connection
                    connection.executescript(_SCHEMA)
                yield connection
        except (sqlite3.Error, OSError) as error:
            raise JournalError(f"the journal {self.path} cannot be {doing}: {error}") from error


def _time_text(time: datetime) -> str:
    """ISO 8601 in UTC with microseconds, so that text order is time order."""
    if time.tzinfo is None:
        raise JournalError(f"a journal time needs its time zone: {time.isoformat()}")
    return time.astimezone(UTC).isoformat(timespec="microseconds")


def _values(entry: JournalEntry, times: dict[datetime, str]) -> tuple[Any, ...]:
    """The row's columns; ``times``: the time texts made so far, by time."""
    time = times.get(entry.time)
    if time is None:
        time = times[entry.time] = _time_text(entry.time)
    return (
        entry.change_set,
        time,
        entry.user,
        entry.face,
        entry.application,
        entry.cluster,
        entry.cluster_id,
        entry.resource_type,
        entry.resource_name,
        entry.entity_json(),
        entry.key,
        entry.op,
        entry.old_value,
        int(entry.old_set),
        entry.new_value,
        int(entry.new_set),
        int(entry.sensitive),
        entry.outcome,
        entry.message,
        entry.note,
    )


def _entry(row: Sequence[Any]) -> JournalEntry:
    data = dict(zip(("id", *_COLUMNS), row, strict=True))
    data["time"] = datetime.fromisoformat(data["time"])
    data["entity"] = None if data["entity"] is None else json.loads(data["entity"])
    for flag in ("old_set", "new_set", "sensitive"):
        data[flag] = bool(data[flag])
    return JournalEntry(**data)
