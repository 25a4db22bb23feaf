"""The compare page's routes through the editor's ASGI app (httpx): a read-only editor shows
the comparison without "make like" and refuses it; an unknown cluster name and a cluster that
cannot be reached are said on the page, never as a traceback."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from kafka_config_admin import AdminClient
from kafka_config_admin.connect import Connection
from kafka_config_admin.web import WebSettings, create_app

from .helpers import create_topics, csrf_token, unique_name

pytestmark = pytest.mark.integration


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest_asyncio.fixture(loop_scope="session")
async def editor(kafka_bootstrap: str) -> AsyncIterator[httpx.AsyncClient]:
    """A read-only editor: clusters ``a`` and ``b`` (the session's), and ``down``."""
    settings = WebSettings(
        clusters={
            "a": Connection(bootstrap_servers=kafka_bootstrap),
            "b": Connection(bootstrap_servers=kafka_bootstrap),
            "down": Connection(bootstrap_servers=f"127.0.0.1:{closed_port()}"),
        },
        timeout=5,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as web:
            yield web


async def test_read_only_shows_the_comparison_and_refuses_make_like(
    editor: httpx.AsyncClient,
) -> None:
    form = await editor.get("/compare")
    assert form.status_code == 200 and '<select name="left">' in form.text
    page = await editor.get("/compare", params={"left": "a", "right": "b"})
    assert page.status_code == 200, page.text
    assert "cluster default" in page.text and "resources differ" in page.text
    assert 'href="/compare?left=b&amp;right=a"' in page.text  # swap the sides
    assert "/compare/make-like" not in page.text and "read-only" in page.text
    refused = await editor.post(
        "/c/b/compare/make-like", data={"like": "a", "csrf_token": csrf_token(page.text)}
    )
    assert refused.status_code == 403 and "read-only" in refused.text


async def test_an_unknown_cluster_and_a_cluster_down_are_said_on_the_page(
    editor: httpx.AsyncClient,
) -> None:
    unknown = await editor.get("/compare", params={"left": "a", "right": "nowhere"})
    assert unknown.status_code == 404
    assert "no cluster named &#39;nowhere&#39;" in unknown.text
    assert '<select name="left">' in unknown.text  # the form stays, to pick again
    down = await editor.get("/compare", params={"left": "down", "right": "a"})
    assert down.status_code == 503
    assert 'class="error" role="alert">cluster down: ' in down.text
    assert "Traceback" not in down.text and "<table" not in down.text


async def test_a_file_beside_a_cluster_read_only_and_an_unknown_cluster(
    editor: httpx.AsyncClient,
) -> None:
    token = csrf_token((await editor.get("/compare")).text)
    text = "topics:\n  - name: no-such-topic-cmp\n    configs:\n      retention.ms: 1000\n"
    page = await editor.post(
        "/compare/file", data={"cluster": "a", "text": text, "csrf_token": token}
    )
    assert page.status_code == 200, page.text
    assert "1 of 1 resources differ between <strong>the file</strong> and <strong>a</strong>" in (
        page.text
    )
    assert "only on the file" in page.text
    assert "/c/a/desired" not in page.text  # read-only: no "make a like the file"
    unknown = await editor.post(
        "/compare/file", data={"cluster": "nowhere", "text": text, "csrf_token": token}
    )
    assert unknown.status_code == 404 and "no cluster named &#39;nowhere&#39;" in unknown.text
    assert "no-such-topic-cmp" in unknown.text  # what was typed is kept


async def test_a_file_pattern_that_backtracks_without_end_is_said_beside_the_field(
    editor: httpx.AsyncClient, kafka_bootstrap: str
) -> None:
    async with AdminClient(kafka_bootstrap, timeout=30) as admin:
        await create_topics(admin, [f"{'a' * 60}-{unique_name()}"])
    token = csrf_token((await editor.get("/compare")).text)
    text = "topics:\n  - pattern: '(a|aa)+z'\n    configs:\n      retention.ms: 1000\n"
    page = await editor.post(
        "/compare/file", data={"cluster": "a", "text": text, "csrf_token": token}
    )
    assert page.status_code == 400, page.text
    assert 'id="compare-file-error"' in page.text and "(a|aa)+z" in page.text
    assert "cluster a:" not in page.text  # the file's pattern is at fault, not the cluster


async def test_an_uploaded_file_is_compared_and_an_unreadable_one_said_beside_the_field(
    editor: httpx.AsyncClient,
) -> None:
    token = csrf_token((await editor.get("/compare")).text)
    text = "topics:\n  - name: no-such-topic-upload\n    configs:\n      retention.ms: 1000\n"
    fields = {"cluster": "a", "text": "", "csrf_token": token}
    page = await editor.post(
        "/compare/file", data=fields, files={"file": ("kafka.yaml", text.encode())}
    )
    assert page.status_code == 200, page.text
    assert "only on the file" in page.text and "no-such-topic-upload" in page.text
    latin = await editor.post(
        "/compare/file", data=fields, files={"file": ("kafka.yaml", "caf\xe9".encode("latin-1"))}
    )
    assert latin.status_code == 400
    assert 'id="compare-file-error">the file is not UTF-8 text' in latin.text
    assert '<select name="cluster">' in latin.text  # the form stays, to pick again
    large = b"#" * (5 * 1024 * 1024 + 1)
    big = await editor.post("/compare/file", data=fields, files={"file": ("big.yaml", large)})
    assert big.status_code == 400
    assert 'id="compare-file-error">the file is larger than 5242880 bytes' in big.text
