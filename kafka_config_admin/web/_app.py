"""The editor's one ASGI app: routes, error pages, and the guard every request passes (the
session, who the user is, the security headers)."""

from __future__ import annotations

import contextlib
import getpass
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..state import match_budget
from ._auth import ProxyUserHeader
from ._clusters import Clusters
from ._errors import EXCEPTION_HANDLERS
from ._headers import secure
from ._hosts import HostGuard
from ._listings import Listings
from ._live import LiveStreams
from ._render import render
from ._routes import routes
from ._sessions import COOKIE, SessionStore
from ._settings import WebSettings

__all__ = ["create_app"]

_OPEN_PATHS = ("/login", "/static/")


class Guard(BaseHTTPMiddleware):
    """Every request: its session (a new one when it has none), its user (or the login page),
    one time budget for matching users' patterns (search, bulk, a desired-state file's), and
    the security headers on every answer."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        state = request.app.state
        sessions: SessionStore = state.sessions
        session = sessions.get(request.cookies.get(COOKIE)) or sessions.new()
        request.state.session = session
        with match_budget():
            response = await self._as_user(request, call_next)
        current = request.state.session  # a login starts a new session
        response.set_cookie(
            COOKIE,
            current.id,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )
        return secure(response)

    async def _as_user(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        auth = request.app.state.settings.auth
        session = request.state.session
        if auth is None:
            request.state.user = request.app.state.local_user
        elif isinstance(auth, ProxyUserHeader):
            name = request.headers.get(auth.header, "").strip()
            if not name:
                request.state.user = None
                message = f"not authenticated: the proxy sent no {auth.header} header"
                return render(request, "error.html", {"title": "Error", "message": message}, 401)
            request.state.user = name
        else:
            request.state.user = session.user
            if session.user is None and not request.url.path.startswith(_OPEN_PATHS):
                return _to_login(request)
        return await call_next(request)


def _to_login(request: Request) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    location = f"/login?next={target}" if request.method == "GET" else "/login"
    if request.headers.get("HX-Request"):
        return Response(status_code=401, headers={"HX-Redirect": location})
    return RedirectResponse(location, status_code=303)


def create_app(settings: WebSettings) -> Starlette:
    """The editor as an ASGI app; raises ValueError when the settings must not be served."""
    problem = settings.problem()
    if problem is not None:
        raise ValueError(problem)
    clusters = Clusters(settings.clusters, timeout=settings.timeout)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            app.state.live.stop()  # a stream still open ends rather than use a closed client
            await clusters.aclose()

    app = Starlette(
        routes=routes(),
        # The Host check comes first: a misdirected request gets no session nor token.
        middleware=[
            Middleware(HostGuard, bind_host=settings.host, allowed=settings.allowed_hosts),
            Middleware(Guard),
        ],
        exception_handlers=dict(EXCEPTION_HANDLERS),
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.clusters = clusters
    app.state.sessions = SessionStore(settings.session_minutes * 60)
    app.state.live = LiveStreams()
    app.state.listings = Listings()
    app.state.local_user = _local_user()
    return app


def _local_user() -> str:
    try:
        return f"{getpass.getuser()} (local)"
    except (KeyError, OSError):
        return "local"
