"""Fixtures of the web editor's tests: the app over the session's real cluster, an httpx
client that talks to it through ASGI, and Debian's Chromium with a page of its own per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from playwright.sync_api import Browser, Dialog, Page, expect, sync_playwright
from starlette.applications import Starlette

from kafka_config_admin.connect import Connection
from kafka_config_admin.web import WebSettings, create_app

from .browser import CHROMIUM, CHROMIUM_ARGS, PATIENCE_MS

CLUSTER = "test"


@pytest.fixture
def web_settings(kafka_bootstrap: str, tmp_path: Path) -> WebSettings:
    """An editor that may write, over the session cluster, with a change log of its own."""
    return WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)},
        allow_writes=True,
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium from Debian's package."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    expect.set_options(timeout=PATIENCE_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(PATIENCE_MS)
    opened = context.new_page()
    dialogs: list[str] = []

    def dialog_opened(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    opened.on("dialog", dialog_opened)
    yield opened
    context.close()
    assert dialogs == [], f"a script ran in the page: {dialogs}"
