"""The editor beside hostile pages, in Debian's Chromium: a name rebound to the editor's
address (DNS rebinding, by Chromium's own resolver rules) and a page of another origin that
submits a form to the editor with the user's session and a valid token."""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from kafka_config_admin.connect import Connection
from kafka_config_admin.web import WebSettings

from .browser import CHROMIUM, CHROMIUM_ARGS, PATIENCE_MS, serving, with_admin
from .helpers import create_topics, topic_value, unique_name

pytestmark = pytest.mark.integration

CLUSTER = "local"
REBOUND = "rebind.evil.example"


@pytest.fixture(scope="module")
def editor(kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)},
        allow_writes=True,
        timeout=30,
    )
    with serving(settings) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium that resolves the hostile name to the editor's loopback address, as a DNS
    rebinding attack makes a victim's browser do."""
    expect.set_options(timeout=PATIENCE_MS)
    rules = f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, rules]
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    context.set_default_timeout(PATIENCE_MS)
    yield context.new_page()
    context.close()


class HostileSite:
    """A tiny web site on another port (another origin) serving one page."""

    def __init__(self, body: str) -> None:
        page = body.encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_rebound_name_gets_no_page_session_or_token(page: Page, editor: str) -> None:
    port = editor.rsplit(":", 1)[1]
    response = page.goto(f"http://{REBOUND}:{port}/c/{CLUSTER}")
    assert response is not None and response.status == 421
    expect(page.locator("body")).to_contain_text("does not answer to the host")
    assert "csrf_token" not in page.content()
    assert page.context.cookies() == []
    # the editor's own name, in the same browser, is answered
    own = page.goto(f"{editor}/c/{CLUSTER}")
    assert own is not None and own.status == 200


def test_a_form_another_site_submits_is_refused_and_the_broker_unchanged(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    topic = unique_name()
    with_admin(kafka_bootstrap, lambda admin: create_topics(admin, [topic]))
    # the user puts an edit in the plan and leaves the plan page open (its session alive)
    page.goto(f"{editor}/c/{CLUSTER}/r/topic/{topic}")
    retention = page.locator('tr.entry[data-key="retention.ms"]')
    retention.get_by_label("retention.ms", exact=True).fill("2")
    retention.get_by_label("unit of retention.ms").select_option("h")
    retention.get_by_role("button", name="add to plan").click()
    expect(page.locator("#pending")).to_have_text("plan (1)")
    page.goto(f"{editor}/c/{CLUSTER}/plan")
    apply_form = page.locator("form.confirm")
    token = apply_form.locator('input[name="csrf_token"]').get_attribute("value")
    digest = apply_form.locator('input[name="plan_digest"]').get_attribute("value")
    assert token and digest
    # another site (same machine, another port) submits the apply form on its own, with the
    # user's cookie (same site) and even the token and digest (leaked, as the worst case)
    fields = {"csrf_token": token, "plan_digest": digest, "confirmed": "yes"}
    inputs = "".join(
        f'<input type="hidden" name="{name}" value="{html.escape(value)}">'
        for name, value in fields.items()
    )
    action = f"{editor}/c/{CLUSTER}/plan/apply"
    site = HostileSite(
        f'<form method="post" action="{action}">{inputs}</form>'
        "<script>document.forms[0].submit()</script>"
    )
    try:
        with page.expect_response(action) as answered:
            page.goto(site.url)
        assert answered.value.status == 403
        expect(page.locator("body")).to_contain_text("comes from another site")
    finally:
        site.close()
    assert (
        with_admin(kafka_bootstrap, lambda admin: topic_value(admin, topic, "retention.ms"))
        == "604800000"
    )
    page.goto(f"{editor}/c/{CLUSTER}/plan")
    expect(page.locator("#pending")).to_have_text("plan (1)")
    page.get_by_role("button", name="discard the edits").click()
    expect(page.locator("#pending")).to_have_text("plan (0)")
