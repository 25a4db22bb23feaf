"""Errors end here: one page (or one htmx fragment) with one clear message, never a traceback.

A cluster that cannot be reached gives a page that says so (and its client is dropped, so the
next request tries again); the editor keeps serving the other pages and clusters.
"""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from .. import (
    AuthenticationError,
    InvalidArgumentError,
    KafkaConfigAdminError,
    KafkaConnectionError,
    KafkaTimeoutError,
)
from ..toolkit import error_line
from ._render import render

__all__ = ["EXCEPTION_HANDLERS"]

logger = logging.getLogger("kafka_config_admin.web")


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return render(
        request, "error.html", {"title": "Error", "message": error.detail}, error.status_code
    )


async def _sdk_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, KafkaConfigAdminError)
    cluster = request.path_params.get("cluster")
    unreachable = isinstance(error, KafkaConnectionError | KafkaTimeoutError | AuthenticationError)
    if unreachable and isinstance(cluster, str):
        await request.app.state.clusters.drop(cluster)
        title = f"Cluster {cluster} cannot be used now"
        status = 503
    elif isinstance(error, InvalidArgumentError):
        title, status = "Refused", 400
    else:
        title, status = "The cluster said no", 502
    message = f"{type(error).__name__}: {error_line(error)}"
    return render(request, "error.html", {"title": title, "message": message}, status)


async def _unexpected(request: Request, error: Exception) -> Response:
    logger.error("unexpected error on %s %s", request.method, request.url.path, exc_info=error)
    message = "An unexpected error occurred; the editor's log has the details."
    return render(request, "error.html", {"title": "Internal error", "message": message}, 500)


EXCEPTION_HANDLERS = {
    HTTPException: _http_error,
    KafkaConfigAdminError: _sdk_error,
    Exception: _unexpected,
}
