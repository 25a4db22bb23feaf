"""CSRF: every request that may change something comes from the editor's own origin and
carries its session's token.

Forms send the token as the ``csrf_token`` field, htmx requests as the ``X-CSRF-Token`` header
(set once on the page's body). A request from another origin (:func:`._hosts.foreign_origin`),
even with the right token, or without the right token is refused before its view runs.
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Awaitable, Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ._hosts import foreign_origin
from ._sessions import Session

__all__ = ["FIELD", "HEADER", "SAFE_METHODS", "Endpoint", "protected", "token_matches"]

FIELD = "csrf_token"
HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def token_matches(request: Request, session: Session) -> bool:
    """Whether the request carries ``session``'s token (header, else form field)."""
    given = request.headers.get(HEADER)
    if given is None:
        content_type = request.headers.get("content-type", "")
        if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
            form = await request.form()
            field = form.get(FIELD)
            given = field if isinstance(field, str) else None
    return given is not None and hmac.compare_digest(given, session.csrf_token)


Endpoint = Callable[[Request], Awaitable[Response]]


def protected(endpoint: Endpoint) -> Endpoint:
    """``endpoint``, refusing (403) a request from another origin or without its session's
    token."""

    @functools.wraps(endpoint)
    async def checked(request: Request) -> Response:
        origin = foreign_origin(request.headers)
        if origin is not None:
            raise HTTPException(
                403,
                f"refused: this request comes from another site ({origin}), not from the "
                "editor's own pages; nothing was changed",
            )
        session = request.state.session
        if not await token_matches(request, session):
            raise HTTPException(
                403, "refused: the form's CSRF token is missing or stale; reload the page"
            )
        return await endpoint(request)

    return checked
