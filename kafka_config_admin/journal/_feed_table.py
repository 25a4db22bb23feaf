"""The change feed's history table, read back as its rows, without Spark.

The feed writes one JSON object per change: ``kafka-config-admin watch --output json`` as
lines on stdout, the streaming source through Spark's ``json`` sink as a directory of part
files. Of a Spark sink's directory only the files its log (``_spark_metadata``) says were
committed are read, as Spark's own reader does: a file still being written, or left by a batch
that failed, is not the table's. Spark leaves out a null column; identical rows are the same
change, kept once. A row that says what a poll cost (the stream's ``stats`` rows,
``feed.POLL_ROW``) is not a change: it is skipped. A Parquet table is refused by name: reading
it would take pyarrow, which the command line does not install.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from .. import InvalidArgumentError

if TYPE_CHECKING:  # the feed's modules load when a table is read (apply never needs them)
    from ..feed import StateChange

__all__ = ["FeedTableError", "read_feed_table"]

#: The first bytes of a Parquet file.
_PARQUET_MAGIC = b"PAR1"
#: A Spark file sink's log of committed files, in the sink's directory.
_SINK_LOG = "_spark_metadata"
#: A log file's name: a batch id, or the batch id a compaction ends with.
_LOG_FILE = re.compile(r"(\d+)(\.compact)?")


class FeedTableError(InvalidArgumentError):
    """The feed's table cannot be used: missing, Parquet, or a row that is not the feed's (a
    user's file, named with the problem: the CLI's exit code 2)."""


def read_feed_table(path: Path) -> list[StateChange]:
    """Every row of the table at ``path`` (a JSON-lines file, or a directory of them), each
    distinct row once, in time order."""
    rows: dict[str, StateChange | None] = {}
    for file in _files(path):
        for number, line in _lines(file):
            if line not in rows:
                rows[line] = _row(line, file, number)
    return sorted((row for row in rows.values() if row), key=lambda row: row.detected_time)


def _files(path: Path) -> list[Path]:
    if not path.exists():
        raise FeedTableError(f"the feed table {path} does not exist")
    if path.is_file():
        files = [path]
    elif (path / _SINK_LOG).is_dir():
        files = _committed(path / _SINK_LOG)
    else:  # files written otherwise; Spark's own (_SUCCESS, .crc) start with _ or .
        files = sorted(
            file
            for file in path.rglob("*")
            if file.is_file()
            and not any(part.startswith(("_", ".")) for part in file.relative_to(path).parts)
        )
    for file in files:
        if file.suffix == ".parquet" or _starts_with(file, _PARQUET_MAGIC):
            raise FeedTableError(
                f"the feed table {path} is Parquet ({file.name}): restore reads the feed as JSON "
                "lines; write the stream with .format('json') or 'watch --output json', or "
                "convert it: spark.read.parquet(TABLE).write.json(OUT)"
            )
    return files


def _committed(log: Path) -> list[Path]:
    """The files a Spark sink's log says its committed batches wrote: those of its latest
    compaction (``N.compact``: every file up to batch N), then of each later batch."""
    batches: dict[int, Path] = {}
    for file in log.iterdir():
        named = _LOG_FILE.fullmatch(file.name)
        if named is not None:
            batch = int(named.group(1))
            if named.group(2) or batch not in batches:
                batches[batch] = file
    compactions = [batch for batch, file in batches.items() if file.suffix == ".compact"]
    start = max(compactions, default=-1)
    added: dict[str, None] = {}
    for batch in sorted(b for b in batches if b >= start):
        for number, line in _lines(batches[batch]):
            if number == 1:  # the log's version: v1
                continue
            entry = _log_entry(line, batches[batch], number)
            if entry.get("action") == "delete":
                added.pop(str(entry.get("path")), None)
            else:
                added[str(entry.get("path"))] = None
    return [_local(uri, log) for uri in added]


def _log_entry(line: str, file: Path, number: int) -> dict[str, Any]:
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as error:
        raise FeedTableError(
            f"{file}:{number}: not an entry of Spark's sink log: {error}"
        ) from None
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        raise FeedTableError(f"{file}:{number}: not an entry of Spark's sink log (no path)")
    return entry


def _local(uri: str, log: Path) -> Path:
    """A committed file's path on this machine (the log names it by its URI)."""
    parsed = urlparse(uri)
    if parsed.scheme not in ("", "file"):
        raise FeedTableError(
            f"the feed table's log {log} names {uri}: only files on this machine can be read "
            "(copy the table here)"
        )
    return Path(unquote(parsed.path))


def _starts_with(file: Path, magic: bytes) -> bool:
    try:
        with file.open("rb") as opened:
            return opened.read(len(magic)) == magic
    except OSError as error:
        raise FeedTableError(f"the feed table's file {file} cannot be read: {error}") from error


def _lines(file: Path) -> Iterator[tuple[int, str]]:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise FeedTableError(f"the feed table's file {file} cannot be read: {error}") from error
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line.strip()


def _row(line: str, file: Path, number: int) -> StateChange | None:
    """The change of one line, or None for a poll's row."""
    from ..feed import POLL_ROW, ChangeKind, StateChange  # loaded with a table (see the imports)

    where = f"{file}:{number}"
    try:
        data: Any = json.loads(line)
    except json.JSONDecodeError as error:
        raise FeedTableError(f"{where}: not a JSON row of the change feed: {error}") from None
    if not isinstance(data, dict):
        raise FeedTableError(f"{where}: not a JSON object (a row of the change feed)")
    missing = [name for name in ("cluster", "change", "detected_time") if data.get(name) is None]
    if missing:
        raise FeedTableError(f"{where}: not a row of the change feed (no {', '.join(missing)})")
    if data["change"] == POLL_ROW:
        return None
    try:
        change = ChangeKind(data["change"])
        time = datetime.fromisoformat(str(data["detected_time"]))
    except ValueError as error:
        raise FeedTableError(f"{where}: not a row of the change feed: {error}") from None
    texts = {name: _text(data.get(name), where, name) for name in _TEXT_COLUMNS}
    return StateChange(
        cluster=str(data["cluster"]),
        change=change,
        detected_time=time if time.tzinfo is not None else time.replace(tzinfo=UTC),
        **texts,
    )


_TEXT_COLUMNS = (
    "resource_type",
    "resource_name",
    "key",
    "before_value",
    "after_value",
    "before_source",
    "after_source",
    "config_type",
    "error",
    "error_message",
)


def _text(value: Any, where: str, column: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise FeedTableError(f"{where}: {column} is {value!r}, not text")
