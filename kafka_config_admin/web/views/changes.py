"""The change log: a page and a JSON export."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .._render import render

__all__ = ["changes", "changes_json"]


def _cluster_filter(request: Request) -> str | None:
    return request.query_params.get("cluster") or None


async def changes(request: Request) -> Response:
    """``GET /changes``: the newest changes first."""
    rows = request.app.state.changelog.rows(cluster=_cluster_filter(request))
    return render(request, "changes.html", {"title": "Change log", "rows": rows})


async def changes_json(request: Request) -> Response:
    """``GET /changes.json``: the same rows as JSON."""
    rows = request.app.state.changelog.rows(cluster=_cluster_filter(request), limit=100_000)
    return JSONResponse({"kind": "changes", "version": 1, "changes": [r.to_dict() for r in rows]})
