"""The web config editor: browse, understand, edit with typed checks, plan, apply, audit.

Needs the ``web`` extra: ``pip install 'kafka-config-admin[web]'``; started by
``kafka-config-admin web`` (see docs/web.md). A thin face over the SDK and
:mod:`kafka_config_admin.desired`: values are checked, compared, planned and applied by the
same functions the CLI uses.

Shape: one app (``_app``), its routes in one place (``_routes``), one module per kind of page
(``views/``), templates and pinned static files beside them, and one module per security
concern (``_auth``, ``_hosts``, ``_csrf``, ``_sessions``, ``_headers``, ``_errors``).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal

from ._app import create_app
from ._auth import (
    Authenticator,
    PasswordLogin,
    ProxyUserHeader,
    hash_password,
    load_password_entries,
)
from ._live import LiveStreams
from ._settings import DEFAULT_LIVE_INTERVAL, WebSettings, is_loopback

__all__ = [
    "DEFAULT_LIVE_INTERVAL",
    "Authenticator",
    "PasswordLogin",
    "ProxyUserHeader",
    "WebSettings",
    "create_app",
    "hash_password",
    "is_loopback",
    "load_password_entries",
    "serve",
]


def serve(settings: WebSettings) -> None:
    """Serve the editor with uvicorn until Ctrl-C (or SIGTERM), then close its connections."""
    asyncio.run(_serve(settings))


async def _serve(settings: WebSettings) -> None:
    import uvicorn

    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level="info",
        server_header=False,
        proxy_headers=False,
    )
    server = uvicorn.Server(config)
    # Ctrl-C asks the server to stop; its shutdown (the app's lifespan) closes the clients.
    # uvicorn's own handling would raise the signal again once stopped, which cancels that
    # closing midway.
    server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]
    loop = asyncio.get_running_loop()
    live: LiveStreams = app.state.live

    def stop() -> None:  # the live pages' streams end too: uvicorn waits for open responses
        server.should_exit = True
        live.stop()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop)
    await server.serve()
