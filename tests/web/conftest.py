"""Fixtures of the web editor's tests: the app over the session's real cluster, an httpx
client that talks to it through ASGI, and a token-bearing form poster."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from starlette.applications import Starlette

from kafka_config_admin.connect import Connection
from kafka_config_admin.web import WebSettings, create_app

CLUSTER = "test"


@pytest.fixture
def web_settings(kafka_bootstrap: str, tmp_path: Path) -> WebSettings:
    """An editor that may write, over the session cluster, with a change log of its own."""
    return WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)},
        allow_writes=True,
        changelog=tmp_path / "changes.sqlite3",
        timeout=30,
    )


@pytest_asyncio.fixture(loop_scope="session")
async def web_app(web_settings: WebSettings) -> AsyncIterator[Starlette]:
    """The editor's app, its lifespan entered (its clients closed at the end)."""
    app = create_app(web_settings)
    async with app.router.lifespan_context(app):
        yield app


@pytest_asyncio.fixture(loop_scope="session")
async def web(web_app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client of the editor (through ASGI: no socket)."""
    transport = httpx.ASGITransport(app=web_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        yield client
