"""The change log: every change made through the editor, in an SQLite file.

A row says when, who, which cluster, resource and key, the value before and after, the
operation and the outcome. Values of sensitive keys are stored as ``[hidden]``: the log never
holds a secret.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["ChangeLog", "ChangeRow"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time TEXT NOT NULL,
    user TEXT NOT NULL,
    cluster TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_name TEXT NOT NULL,
    key TEXT NOT NULL,
    op TEXT NOT NULL,
    old_value TEXT,
    new_value TEXT,
    outcome TEXT NOT NULL,
    message TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class ChangeRow:
    """One key changed (or tried) on one resource."""

    time: str
    user: str
    cluster: str
    resource_type: str
    resource_name: str
    key: str
    op: str
    old_value: str | None
    new_value: str | None
    outcome: str
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready data."""
        return asdict(self)


def now() -> str:
    """The time a row is written, in UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class ChangeLog:
    """The SQLite change log file (made with its folder on first use)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as connection:
            connection.execute(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10)

    def record(self, rows: Iterable[ChangeRow]) -> None:
        """Append rows (in one transaction)."""
        values = [tuple(asdict(row).values()) for row in rows]
        if not values:
            return
        with self._lock, self._connect() as connection:
            connection.executemany(
                "INSERT INTO changes (time, user, cluster, resource_type, resource_name, key, "
                "op, old_value, new_value, outcome, message) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                values,
            )

    def rows(self, *, cluster: str | None = None, limit: int = 500) -> list[ChangeRow]:
        """The newest rows first (of one cluster, when given)."""
        where, params = ("WHERE cluster = ?", [cluster]) if cluster is not None else ("", [])
        with self._lock, self._connect() as connection:
            found = connection.execute(
                "SELECT time, user, cluster, resource_type, resource_name, key, op, old_value, "
                f"new_value, outcome, message FROM changes {where} ORDER BY id DESC LIMIT ?",
                [*params, limit],
            ).fetchall()
        return [ChangeRow(*row) for row in found]
