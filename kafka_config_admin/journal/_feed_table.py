"""The change feed's history table, read back as its rows, without Spark.

The feed writes one JSON object per change: ``kafka-config-admin watch --output json`` as
lines on stdout, the streaming source through Spark's ``json`` sink as a directory of part
files (Spark leaves out a null column, and a batch it retried may have left its rows in a
second file: identical rows are the same change, kept once). A Parquet table is refused by
name: reading it would take pyarrow, which the command line does not install.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import InvalidArgumentError
from ..desired import ChangeKind, StateChange

__all__ = ["FeedTableError", "read_feed_table"]

#: The first bytes of a Parquet file.
_PARQUET_MAGIC = b"PAR1"


class FeedTableError(InvalidArgumentError):
    """The feed's table cannot be used: missing, Parquet, or a row that is not the feed's (a
    user's file, named with the problem: the CLI's exit code 2)."""


def read_feed_table(path: Path) -> list[StateChange]:
    """Every row of the table at ``path`` (a JSON-lines file, or a directory of them), each
    distinct row once, in time order."""
    rows: dict[str, StateChange] = {}
    for file in _files(path):
        for number, line in _lines(file):
            rows.setdefault(line, _row(line, file, number))
    return sorted(rows.values(), key=lambda row: row.detected_time)


def _files(path: Path) -> list[Path]:
    if not path.exists():
        raise FeedTableError(f"the feed table {path} does not exist")
    if path.is_file():
        files = [path]
    else:  # Spark's own files (_spark_metadata, _SUCCESS, .crc) start with _ or .
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


def _row(line: str, file: Path, number: int) -> StateChange:
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
