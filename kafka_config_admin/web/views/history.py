"""The history page: the journal's changes (every face's, not only the editor's), filtered
by cluster, resource, key, user, face and time, newest first, with an undo button per change
and per change set; and the same rows as JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from ... import InvalidArgumentError
from ...journal import JournalEntry, JournalQuery, parse_time
from .._render import render
from .base import journal

__all__ = ["FILTERS", "changes", "history", "history_json"]

#: The query parameters that filter the rows, as the form names them.
FILTERS = ("cluster", "resource", "key", "user", "face", "change_set", "since", "until")
#: The newest rows a page shows (the JSON export has every row the filters select).
PAGE_ROWS = 500


@dataclass(frozen=True)
class Filters:
    """What the user typed in the filter form, the query it makes, and what is wrong in it
    (by field)."""

    typed: dict[str, str]
    query: JournalQuery
    errors: dict[str, str]


def read_filters(params: Mapping[str, str], limit: int | None) -> Filters:
    """The filters of ``params`` (blank ones ignored); a time that does not parse is an
    error of its field, and the query then selects by the other fields."""
    typed = {name: params.get(name, "").strip() for name in FILTERS}
    errors: dict[str, str] = {}

    def text(name: str) -> str | None:
        return typed[name] or None

    def time(name: str) -> datetime | None:
        if not typed[name]:
            return None
        try:
            return parse_time(typed[name])
        except InvalidArgumentError as error:
            errors[name] = str(error)
            return None

    query = JournalQuery(
        cluster=text("cluster"),
        resource=text("resource"),
        key=text("key"),
        user=text("user"),
        face=text("face"),
        change_set=text("change_set"),
        since=time("since"),
        until=time("until"),
        limit=limit,
    )
    return Filters(typed, query, errors)


async def history(request: Request) -> Response:
    """``GET /history``: the newest changes the filters select, with undo buttons."""
    filters = read_filters(request.query_params, PAGE_ROWS)
    entries = await _entries(request, filters.query)
    names = set(request.app.state.clusters.names)
    rows = [_row(entry, names) for entry in reversed(entries)]
    context = {
        "title": "History",
        "rows": rows,
        "typed": filters.typed,
        "errors": filters.errors,
        "full": len(entries) == PAGE_ROWS,
        "page_rows": PAGE_ROWS,
        "query": request.url.query,
    }
    return render(request, "history.html", context, status=400 if filters.errors else 200)


async def history_json(request: Request) -> Response:
    """``GET /history.json``: every row the filters select, oldest first."""
    filters = read_filters(request.query_params, None)
    if filters.errors:
        return JSONResponse({"errors": filters.errors}, status_code=400)
    entries = await _entries(request, filters.query)
    document = {"kind": "history", "version": 1, "changes": [e.to_dict() for e in entries]}
    return JSONResponse(document)


async def changes(request: Request) -> Response:
    """``GET /changes`` and ``/changes.json`` (the change log before the journal): to the
    history, the filters kept."""
    target = "/history.json" if request.url.path.endswith(".json") else "/history"
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(target + query, status_code=301)


async def _entries(request: Request, query: JournalQuery) -> list[JournalEntry]:
    """The rows ``query`` selects: of the journal topic its cluster's clusters-file entry
    names when the filter names such a cluster, else of the editor's journal file."""
    named = query.cluster if query.cluster in request.app.state.clusters.names else None
    read = journal(request, named).entries
    return await anyio.to_thread.run_sync(read, query)


def _row(entry: JournalEntry, clusters: set[str]) -> dict[str, Any]:
    """What the page shows of one change; ``undo_cluster``: the editor's cluster it was
    recorded on (None: not one of the editor's, no undo button)."""
    who = f"{entry.user} ({entry.face})"
    if entry.application:
        who += f" {entry.application}"
    return {
        "entry": entry,
        "time": entry.time.strftime("%Y-%m-%d %H:%M:%S"),
        "who": who,
        "old": entry.value_text(entry.old_value, entry.old_set),
        "new": entry.value_text(entry.new_value, entry.new_set),
        "undo_cluster": entry.cluster if entry.cluster in clusters else None,
    }
