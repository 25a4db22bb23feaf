"""Logging in (with a password entry) and out."""

from __future__ import annotations

import anyio
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from .._auth import PasswordLogin
from .._render import render
from .base import form_text, session

__all__ = ["login", "login_form", "logout"]


def _next(target: str) -> str:
    """Where to go after logging in: a path of this site only (browsers read ``/\\host``
    as ``//host``, another site)."""
    local = target.startswith("/") and not target.startswith("//")
    return target if local and "\\" not in target and target.isprintable() else "/"


async def login_form(request: Request) -> Response:
    """``GET /login``."""
    target = _next(request.query_params.get("next", "/"))
    return render(request, "login.html", {"title": "Log in", "next": target, "failed": False})


async def login(request: Request) -> Response:
    """``POST /login``: check the password against the user's hash."""
    form = await request.form()
    name = form_text(form, "user").strip()
    target = _next(form_text(form, "next", "/"))
    auth = request.app.state.settings.auth
    password = form_text(form, "password")
    # in a worker thread: the event loop keeps serving everyone else while argon2 works
    if isinstance(auth, PasswordLogin) and await anyio.to_thread.run_sync(
        auth.check, name, password
    ):
        current = session(request)
        request.app.state.sessions.end(current)
        fresh = request.app.state.sessions.new()  # a new id at login: no session fixation
        fresh.user = name
        request.state.session = fresh
        return RedirectResponse(target, status_code=303)
    context = {"title": "Log in", "next": target, "failed": True}
    return render(request, "login.html", context, status=401)


async def logout(request: Request) -> Response:
    """``POST /logout``: end the session."""
    request.app.state.sessions.end(session(request))
    return RedirectResponse("/login" if request.app.state.settings.auth else "/", status_code=303)
