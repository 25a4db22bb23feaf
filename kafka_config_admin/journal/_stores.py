"""The journal as every face uses it, whichever its store: the SQLite file or a Kafka topic."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..connect import Connection
from ._entries import JournalEntry
from ._store import Journal, JournalQuery
from ._topic import TopicJournal

__all__ = ["JournalStore", "journal_of"]


class JournalStore(Protocol):
    """Where changes are recorded and read back: :class:`Journal` (an SQLite file) or
    :class:`TopicJournal` (a Kafka topic). Every failure is a ``JournalError``."""

    @property
    def where(self) -> str:
        """The journal as messages and documents name it (a path, a topic and its cluster)."""
        ...

    def record(self, entries: Sequence[JournalEntry]) -> list[int]:
        """Write ``entries`` together; their ids, in order."""
        ...

    def entries(self, query: JournalQuery | None = None) -> list[JournalEntry]:
        """The changes ``query`` selects, oldest first."""
        ...

    def entry(self, change_id: int) -> JournalEntry | None:
        """The change with this id, or None."""
        ...


def journal_of(connection: Connection | None, file: Journal | None = None) -> JournalStore:
    """The journal of the cluster ``connection`` reaches: the topic its clusters-file entry
    names (``journal: {topic: NAME}``), else ``file``, else the SQLite file
    (:func:`journal_path`)."""
    if connection is not None and connection.journal is not None:
        return TopicJournal(connection, connection.journal)
    return file or Journal.at()
