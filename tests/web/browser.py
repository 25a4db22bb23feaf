"""The editor served by uvicorn in a thread, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import uvicorn
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from starlette.applications import Starlette

from kafka_config_admin import AdminClient
from kafka_config_admin.web import WebSettings, create_app

T = TypeVar("T")

#: Debian's Chromium; Playwright's own browser builds cannot be downloaded here.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Milliseconds a page, an action or an expectation may take: an apply validates, alters and
#: reads back, which takes seconds on a shared, loaded machine (Playwright's default is 5 s).
PATIENCE_MS = 30_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "images" / "web"


#: Tries at a screenshot: Chromium refuses a capture ("Unable to capture screenshot") while a
#: frame is not yet composited, which a loaded machine makes likelier; the next frame succeeds.
SHOT_TRIES = 5


def shot(page: Page, name: str) -> None:
    """Save the page as docs/images/web/``name``.png once it has loaded and painted."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_load_state("load")
    for attempt in range(1, SHOT_TRIES + 1):
        try:
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=False)
            return
        except PlaywrightError:
            if attempt == SHOT_TRIES:
                raise
            page.wait_for_timeout(200 * attempt)


@contextmanager
def serving(settings: WebSettings, app: Starlette | None = None) -> Iterator[str]:
    """The editor with ``settings`` (``app``: one made of them already) on a free loopback
    port until the block ends; its URL. It is stopped as ``kafka-config-admin web`` stops on
    Ctrl-C (the live pages' streams ended too), and must stop within 30 s."""
    app = app or create_app(settings)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="web-editor", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the editor did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        app.state.live.stop()
        thread.join(30)
        if thread.is_alive():
            raise RuntimeError("the editor did not stop within 30 s")


def confirm_and_apply(page: Page) -> None:
    """Tick the plan page's confirmation ("change 1 topic on cluster ...") and apply."""
    page.get_by_label("on cluster").check()
    page.get_by_role("button", name="apply").click()


def with_admin(bootstrap: str, work: Callable[[AdminClient], Awaitable[T]]) -> T:
    """Run ``work`` with a client of its own, on a loop of its own in a thread of its own (the
    browser tests are sync; the main thread's loop belongs to pytest-asyncio)."""
    results: list[T] = []
    failures: list[BaseException] = []

    async def run() -> None:
        async with AdminClient(bootstrap, timeout=30) as admin:
            results.append(await work(admin))

    def in_thread() -> None:
        try:
            asyncio.run(run())
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=in_thread, name="web-test-admin")
    thread.start()
    thread.join()
    if failures:
        raise failures[0]
    return results[0]
