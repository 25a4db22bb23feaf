"""The editor beside hostile pages, through its ASGI app (httpx) against the real session
cluster: DNS rebinding (a ``Host`` the editor does not answer to) and cross-origin POSTs."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from kafka_config_admin import AdminClient
from kafka_config_admin.web import WebSettings, create_app

from .conftest import CLUSTER
from .helpers import create_topics, csrf_token, topic_value, unique_name

pytestmark = pytest.mark.integration

REBOUND = "rebind.evil.example"


async def test_a_request_naming_another_host_is_refused_before_any_session(
    web: httpx.AsyncClient,
) -> None:
    for path in ("/", f"/c/{CLUSTER}", f"/c/{CLUSTER}/plan", "/login"):
        refused = await web.get(path, headers={"Host": f"{REBOUND}:80"})
        assert refused.status_code == 421, path
        assert "set-cookie" not in refused.headers and "csrf_token" not in refused.text
        assert "--allowed-host" in refused.text
    posted = await web.post(f"/c/{CLUSTER}/plan/apply", headers={"Host": REBOUND})
    assert posted.status_code == 421 and "set-cookie" not in posted.headers
    # the editor's own address on another port is not the editor either
    assert (await web.get("/", headers={"Host": "127.0.0.1:8081"})).status_code == 421


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:80", "localhost:80", "[::1]:80"])
async def test_the_loopback_names_of_the_port_it_listens_on_are_answered(
    web: httpx.AsyncClient, host: str
) -> None:
    answered = await web.get("/", headers={"Host": host})
    assert answered.status_code == 200 and "set-cookie" in answered.headers


async def test_an_allowed_host_is_answered(web_settings: WebSettings) -> None:
    settings = WebSettings(**{**web_settings.__dict__, "allowed_hosts": ("Editor.Example",)})
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as web:
            for host in ("editor.example", "editor.example:443"):
                assert (await web.get("/", headers={"Host": host})).status_code == 200
            assert (await web.get("/", headers={"Host": REBOUND})).status_code == 421


def test_the_cli_passes_allowed_hosts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from click.testing import CliRunner

    import kafka_config_admin.web as editor
    from kafka_config_admin.cli import cli

    served: list[WebSettings] = []
    monkeypatch.setattr(editor, "serve", served.append)
    result = CliRunner().invoke(
        cli,
        [
            "web",
            "--bootstrap-server",
            "127.0.0.1:9092",
            "--journal",
            str(tmp_path / "journal.sqlite"),
            "--live-interval",
            "2",
            "--allowed-host",
            "a.example",
            "--allowed-host",
            "b.example",
        ],
    )
    assert result.exit_code == 0, result.output
    assert served[0].allowed_hosts == ("a.example", "b.example")
    assert served[0].journal == tmp_path / "journal.sqlite" and served[0].live_interval == 2.0


async def test_a_cross_origin_post_is_refused_even_with_its_token(
    web: httpx.AsyncClient, admin_client: AdminClient, web_app: Starlette
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic])
    page = f"/c/{CLUSTER}/r/topic/{topic}"
    token = csrf_token((await web.get(page)).text)
    path = f"/c/{CLUSTER}/edit/topic/{topic}"
    form = {"key": "retention.ms", "value": "3600000", "action": "set", "csrf_token": token}
    for headers in (
        {"Origin": "http://attacker.example"},
        {"Origin": "http://127.0.0.1:8081"},
        {"Origin": "null"},
        {"Referer": "http://attacker.example/page.html"},
    ):
        refused = await web.post(path, data=form, headers=headers)
        assert refused.status_code == 403, headers
        assert "comes from another site" in refused.text and "nothing was changed" in refused.text
    assert topic not in (await web.get(f"/c/{CLUSTER}/plan")).text
    # its own origin (and a script that sends neither header) is let through to the token
    own = await web.post(path, data=form, headers={"Origin": "http://127.0.0.1"})
    assert own.status_code in (200, 303), own.text
    assert topic in (await web.get(f"/c/{CLUSTER}/plan")).text
    assert await topic_value(admin_client, topic, "retention.ms") == "604800000"
    await web.post(f"/c/{CLUSTER}/plan/discard", data={"csrf_token": token})


@pytest.mark.parametrize(
    ("kind", "key"),
    [
        ("topic", "ssl.key.password"),
        ("broker", "listener.name.plaintext.plain.sasl.jaas.config"),
        ("broker", "sasl.jaas.config"),
    ],
)
async def test_a_secret_typed_under_another_key_is_never_shown_back(
    web: httpx.AsyncClient, admin_client: AdminClient, kind: str, key: str
) -> None:
    secret = "Secret-Never-Shown-x1"
    if kind == "topic":
        name = unique_name()
        await create_topics(admin_client, [name])
    else:
        name = str(min(admin_client.broker_ids()))
    page = f"/c/{CLUSTER}/r/{kind}/{name}"
    token = csrf_token((await web.get(page)).text)
    form = {"key": key, "value": f"not jaas {secret}", "action": "set", "csrf_token": token}
    for path, headers in (
        (f"/c/{CLUSTER}/check/{kind}/{name}", {"HX-Request": "true"}),
        (f"/c/{CLUSTER}/edit/{kind}/{name}", {"HX-Request": "true"}),
        (f"/c/{CLUSTER}/edit/{kind}/{name}", {}),
    ):
        answer = await web.post(path, data=form, headers=headers)
        assert secret not in answer.text, (path, answer.text)
    # refused (a topic has no such key) or accepted into the plan (as [hidden])
    assert secret not in (await web.get(f"/c/{CLUSTER}/plan")).text
    await web.post(f"/c/{CLUSTER}/plan/discard", data={"csrf_token": token})
