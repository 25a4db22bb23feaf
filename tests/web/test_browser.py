"""End to end in a real browser: Debian's Chromium driven by Playwright, the editor served by
uvicorn, the session's real Kafka cluster behind it. Screenshots for docs/web.md are taken
on the way."""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Iterator

import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition
from playwright.sync_api import Browser, Page, Response, expect

from kafka_config_admin import (
    AdminClient,
    ClientQuotaEntity,
    ConfigResource,
    ResourceType,
    ScramMechanism,
    UserScramCredentialUpsertion,
)
from kafka_config_admin.connect import Connection
from kafka_config_admin.web import PasswordLogin, WebSettings, hash_password

from .browser import PATIENCE_MS, confirm_and_apply, serving, shot, with_admin
from .helpers import create_topics, restore_default_and_logger, topic_value, unique_name

pytestmark = pytest.mark.integration

CLUSTER = "local"
HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def settings(kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> WebSettings:
    return WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)},
        allow_writes=True,
        timeout=30,
    )


@pytest.fixture(scope="module")
def editor(settings: WebSettings) -> Iterator[str]:
    with serving(settings) as url:
        yield url


def make_topics(bootstrap: str, names: list[str], configs: dict[str, str] | None = None) -> None:
    async def work(admin: AdminClient) -> None:
        await create_topics(admin, names, configs)

    with_admin(bootstrap, work)


def value_of(bootstrap: str, topic: str, key: str) -> str | None:
    async def work(admin: AdminClient) -> str | None:
        return await topic_value(admin, topic, key)

    return with_admin(bootstrap, work)


def test_browse_to_a_topic_and_see_types_docs_and_sources(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    topic = unique_name("orders")
    make_topics(kafka_bootstrap, [topic], {"retention.ms": "172800000"})
    page.goto(editor)
    page.get_by_role("link", name=CLUSTER, exact=True).first.click()
    expect(page.get_by_role("heading", name=f"Cluster {CLUSTER}")).to_be_visible()
    shot(page, "cluster")
    page.get_by_role("link", name="topics", exact=True).click()
    page.get_by_label("search").fill(topic)
    page.get_by_role("button", name="search").click()
    found = page.get_by_role("link", name=topic, exact=True)
    expect(found).to_be_visible()
    shot(page, "topics")
    found.click()
    retention = page.locator('tr.entry[data-key="retention.ms"]')
    expect(retention).to_contain_text("172800000")
    expect(retention).to_contain_text("2 days")
    expect(retention).to_contain_text("LONG")
    expect(retention).to_contain_text("set on this topic")
    retention.get_by_text("documentation").click()
    expect(retention.locator("p.doc")).to_contain_text("retain a log")
    segment = page.locator('tr.entry[data-key="segment.bytes"]')
    expect(segment).to_contain_text("Kafka's default")
    expect(segment).to_contain_text("log.segment.bytes")
    shot(page, "topic")
    page.get_by_label("modified only").check()
    page.get_by_role("button", name="filter").click()
    expect(page.locator("tr.entry")).to_have_count(1)


def test_invalid_value_shows_its_reason_and_the_broker_is_unchanged(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    topic = unique_name()
    make_topics(kafka_bootstrap, [topic])
    page.goto(f"{editor}/c/{CLUSTER}/r/topic/{topic}")
    retention = page.locator('tr.entry[data-key="retention.ms"]')
    retention.get_by_label("retention.ms", exact=True).fill("soon")
    expect(retention.locator("output.reason")).to_contain_text("not an integer")
    expect(retention.locator("output.reason")).to_contain_text("expected LONG")
    shot(page, "refused")
    retention.get_by_role("button", name="add to plan").click()
    expect(retention.locator("output.status")).to_contain_text("not an integer")
    expect(page.locator("#pending")).to_have_text("plan (0)")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "604800000"


def test_edit_preview_check_apply_and_change_log(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    topic = unique_name()
    make_topics(kafka_bootstrap, [topic])
    page.goto(f"{editor}/c/{CLUSTER}/r/topic/{topic}")
    retention = page.locator('tr.entry[data-key="retention.ms"]')
    retention.get_by_label("retention.ms", exact=True).fill("2")
    retention.get_by_label("unit of retention.ms").select_option("h")
    expect(retention.locator("output.reason")).to_contain_text("2 hours")
    retention.get_by_role("button", name="add to plan").click()
    expect(retention.locator("output.status")).to_contain_text("added to the plan")
    expect(page.locator("#pending")).to_have_text("plan (1)")
    page.locator("#pending").click()
    diff = page.locator("table.diff")
    expect(diff).to_contain_text("604800000")
    expect(diff).to_contain_text("7200000")
    shot(page, "plan")
    page.get_by_role("button", name="check with the broker").click()
    expect(page.locator("table.outcomes")).to_contain_text("validated")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "604800000"
    # apply asks first, naming what will change and where: unticked, nothing is sent
    confirmation = page.locator("form.confirm label")
    expect(confirmation).to_have_text(f"change 1 topic on cluster {CLUSTER}")
    page.get_by_role("button", name="apply").click()
    box = page.get_by_label("on cluster")
    assert box.evaluate("box => box.required && box.validity.valueMissing")
    expect(page.locator("table.outcomes")).to_contain_text("validated")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "604800000"
    confirm_and_apply(page)
    expect(page.locator("table.outcomes")).to_contain_text("applied")
    shot(page, "applied")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "7200000"
    page.get_by_role("link", name="history", exact=True).click()
    logged = page.locator("table.changes tr", has_text=topic)
    expect(logged).to_contain_text("7200000")
    expect(logged).to_contain_text("applied")
    shot(page, "history")


def test_bulk_edit_of_101_topics_one_created_a_second_before(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    prefix = unique_name("bulk")
    names = [f"{prefix}-{i:03d}" for i in range(100)]
    make_topics(kafka_bootstrap, names)
    # made by another tool after the editor listed topics: a fresh listing shows them
    page.goto(f"{editor}/c/{CLUSTER}/topics?q={prefix}&refresh=1")
    expect(page.locator("p.count")).to_contain_text("100 topics")
    # one more, created a second before the pattern is sent (the page's listing lacks it)
    names.append(f"{prefix}-100")
    make_topics(kafka_bootstrap, names[-1:])
    time.sleep(1)
    page.get_by_label("pattern").fill(rf"{re.escape(prefix)}-\d+")
    page.get_by_label("key").fill("retention.ms")
    page.get_by_label("value").fill("3d")
    page.get_by_role("button", name="set on all", exact=True).click()
    expect(page.locator("table.diff tbody tr")).to_have_count(101)
    expect(page.locator("p.notice")).to_contain_text("matched 101 of the")
    expect(page.locator("form.confirm label")).to_have_text(
        f"change 101 topics on cluster {CLUSTER}"
    )
    confirm_and_apply(page)
    expect(page.locator("table.outcomes tbody tr.applied")).to_have_count(101, timeout=60_000)

    async def values(admin: AdminClient) -> set[str | None]:
        resources = [ConfigResource(ResourceType.TOPIC, name) for name in names]
        described = admin.describe_configs({r: ["retention.ms"] for r in resources})
        return {(await future)["retention.ms"].value for future in described.values.values()}

    assert with_admin(kafka_bootstrap, values) == {"259200000"}


def test_edit_the_cluster_default_and_a_broker_logger(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    broker = with_admin(kafka_bootstrap, _first_broker)
    name: str | None = None
    try:
        page.goto(f"{editor}/c/{CLUSTER}/r/broker/")
        page.get_by_label("new key").fill("log.cleaner.threads")
        page.get_by_label("new value").fill("2")
        expect(page.locator("#status-new")).to_contain_text("ok")
        # The "set another key" form's button (a broker page has a key store rotation form
        # after it, with its own).
        page.locator("form.another").get_by_role("button", name="add to plan").click()
        expect(page.locator("#status-new")).to_contain_text("added to the plan")
        page.goto(f"{editor}/c/{CLUSTER}/r/broker-logger/{broker}")
        logger = page.locator('tr.entry[data-key^="kafka.server."]').first
        name = logger.get_attribute("data-key")
        assert name is not None
        logger.get_by_label(name, exact=True).select_option("TRACE")
        logger.get_by_role("button", name="add to plan").click()
        expect(logger.locator("output.status")).to_contain_text("added to the plan")
        page.locator("#pending").click()
        confirm_and_apply(page)
        expect(page.locator("table.outcomes tr.applied")).to_have_count(2)

        async def read(admin: AdminClient) -> tuple[str | None, str | None]:
            default = ConfigResource(ResourceType.BROKER, "")
            loggers = ConfigResource(ResourceType.BROKER_LOGGER, str(broker))
            described = admin.describe_configs([default, loggers])
            threads = (await described.values[default]).get("log.cleaner.threads")
            assert name is not None
            level = (await described.values[loggers])[name].value
            return (threads.value if threads else None), level

        assert with_admin(kafka_bootstrap, read) == ("2", "TRACE")
        # back as they were, through the editor
        page.goto(f"{editor}/c/{CLUSTER}/r/broker/")
        page.locator('tr.entry[data-key="log.cleaner.threads"]').get_by_role(
            "button", name="reset to default"
        ).click()
        page.goto(f"{editor}/c/{CLUSTER}/r/broker-logger/{broker}")
        restore = page.locator(f'tr.entry[data-key="{name}"]')
        restore.get_by_label(name, exact=True).select_option("INFO")
        restore.get_by_role("button", name="add to plan").click()
        expect(restore.locator("output.status")).to_contain_text("added to the plan")
        page.locator("#pending").click()
        confirm_and_apply(page)
        expect(page.locator("table.outcomes tr.applied")).to_have_count(2)
    finally:
        logger_name = name

        async def restore_all(admin: AdminClient) -> None:
            await restore_default_and_logger(admin, broker, logger_name)

        with_admin(kafka_bootstrap, restore_all)


async def _first_broker(admin: AdminClient) -> int:
    return min(admin.broker_ids())


def test_set_a_quota(page: Page, editor: str, kafka_bootstrap: str) -> None:
    user = unique_name("app")
    page.goto(f"{editor}/c/{CLUSTER}/quotas")
    page.get_by_label("entity type").select_option("user")
    page.get_by_label("entity name").fill(user)
    page.get_by_label("quota", exact=True).select_option("consumer_byte_rate")
    page.get_by_label("quota value").fill("4MiB")
    page.get_by_role("button", name="add to plan").click()
    expect(page.locator("#status-quota")).to_contain_text("added to the plan")
    expect(page.locator("#pending")).not_to_have_text("plan (0)")
    page.locator("#pending").click()
    expect(page.locator("table.diff")).to_contain_text("consumer_byte_rate")
    confirm_and_apply(page)
    expect(page.locator("table.outcomes")).to_contain_text("applied")

    async def quotas(admin: AdminClient) -> dict[str, float]:
        return dict((await admin.describe_client_quotas().all())[ClientQuotaEntity({"user": user})])

    assert with_admin(kafka_bootstrap, quotas) == {"consumer_byte_rate": 4194304.0}
    page.goto(f"{editor}/c/{CLUSTER}/quotas")
    expect(page.locator("table.quotas tr", has_text=user)).to_contain_text("4 MiB/s")
    shot(page, "quotas")


class Collected(logging.Handler):
    """Every log line written while the test runs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def test_a_sensitive_value_typed_never_comes_back(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    secret_key_password = "key-Pa55word-never-shown"
    scram_password = "scram-Pa55word-never-shown"
    collected = Collected()
    root = logging.getLogger()
    root.addHandler(collected)
    previous = root.level
    root.setLevel(logging.DEBUG)
    bodies: list[str] = []

    def keep_body(response: Response) -> None:
        # A page's live stream never ends: its body cannot be read, and carries no form value.
        kind = response.headers.get("content-type", "")
        if response.ok and "text" in kind and "event-stream" not in kind:
            bodies.append(response.text())

    page.on("response", keep_body)
    try:
        broker = with_admin(kafka_bootstrap, _first_broker)
        page.goto(f"{editor}/c/{CLUSTER}/r/broker/{broker}")
        expect(page.locator('tr.entry[data-key="ssl.key.password"]')).to_contain_text("[hidden]")
        # Kafka takes an SSL key password per listener: typed in a password field, its
        # answer said in one place only (its refusal was printed twice)
        secret_form = page.locator("form.another")
        secret_form.get_by_label("new key").fill("listener.name.plaintext.ssl.key.password")
        secret_field = secret_form.get_by_label("new value")
        expect(secret_field).to_have_attribute("type", "password")
        secret_field.fill(secret_key_password)
        secret_form.get_by_label("show").check()
        expect(secret_field).to_have_attribute("type", "text")
        secret_form.get_by_label("show").uncheck()
        expect(secret_field).to_have_attribute("type", "password")
        secret_form.get_by_role("button", name="add to plan").click()
        expect(secret_form.locator("output.status")).to_contain_text("[hidden]")
        expect(secret_form.locator("output")).to_have_count(1)
        page.locator("#pending").click()
        expect(page.locator("table.diff")).to_contain_text(
            "listener.name.plaintext.ssl.key.password"
        )
        confirm_and_apply(page)
        expect(page.locator("table.outcomes")).to_be_visible()
        page.goto(f"{editor}/c/{CLUSTER}/users")
        svc = unique_name("svc")
        page.get_by_label("user", exact=True).fill(svc)
        page.get_by_label("password").fill(scram_password)
        page.get_by_role("button", name="set", exact=True).click()
        # the credential joins the plan (said beside the form, what was typed kept) ...
        expect(page.locator("#status-user")).to_contain_text(f"added to the plan: user {svc}")
        expect(page.get_by_label("password")).to_have_value(scram_password)
        page.locator("#pending").click()
        expect(page.locator("table.diff")).to_contain_text(f"SCRAM user {svc}")
        # ... and is applied from it, with its outcome beside the others'
        confirm_and_apply(page)
        expect(page.locator("table.outcomes")).to_contain_text(f"SCRAM user {svc}")
        page.goto(f"{editor}/c/{CLUSTER}/r/broker/{broker}")
        page.goto(f"{editor}/history")
        expect(page.locator("table.changes")).to_contain_text("ssl.key.password")
        expect(page.locator("table.changes")).to_contain_text("SCRAM-SHA-256")
        bodies.append(page.request.get(f"{editor}/history.json").text())
    finally:
        root.removeHandler(collected)
        root.setLevel(previous)
    for secret in (secret_key_password, scram_password):
        assert not [body for body in bodies if secret in body]
        assert not [line for line in collected.lines if secret in line]
    assert collected.lines, "no log line was captured: the check above would mean nothing"


def test_a_read_only_key_is_locked(page: Page, editor: str, kafka_bootstrap: str) -> None:
    broker = with_admin(kafka_bootstrap, _first_broker)
    page.goto(f"{editor}/c/{CLUSTER}/r/broker/{broker}")
    node_id = page.locator('tr.entry[data-key="node.id"]')
    expect(node_id).to_contain_text("read-only")
    expect(node_id.locator("td.edit")).to_have_text("locked")
    expect(node_id.locator("input")).to_have_count(0)


def test_read_only_mode_refuses_a_change(
    browser: Browser, settings: WebSettings, kafka_bootstrap: str
) -> None:
    topic = unique_name()
    make_topics(kafka_bootstrap, [topic])
    read_only = WebSettings(**{**settings.__dict__, "allow_writes": False})
    with serving(read_only) as url:
        context = browser.new_context()
        context.set_default_timeout(PATIENCE_MS)
        page = context.new_page()
        page.goto(f"{url}/c/{CLUSTER}/r/topic/{topic}")
        expect(page.locator("header .mode")).to_have_text("read-only")
        expect(page.get_by_role("button", name="add to plan")).to_have_count(0)
        # a read-only page has no form: the token is the one the page gives htmx
        headers = page.locator("body").get_attribute("hx-headers")
        assert headers is not None
        token = json.loads(headers)["X-CSRF-Token"]
        refused = page.request.post(
            f"{url}/c/{CLUSTER}/edit/topic/{topic}",
            form={"key": "retention.ms", "value": "1000", "action": "set", "csrf_token": token},
        )
        assert refused.status == 403 and "read-only" in refused.text()
        context.close()
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "604800000"


def test_a_post_without_its_csrf_token_is_refused(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    topic = unique_name()
    make_topics(kafka_bootstrap, [topic])
    page.goto(f"{editor}/c/{CLUSTER}/r/topic/{topic}")
    refused = page.request.post(
        f"{editor}/c/{CLUSTER}/edit/topic/{topic}",
        form={"key": "retention.ms", "value": "1000", "action": "set"},
    )
    assert refused.status == 403 and "CSRF" in refused.text()
    page.goto(f"{editor}/c/{CLUSTER}/plan")
    expect(page.locator("#pending")).to_have_text("plan (0)")


def test_hostile_group_client_id_and_user_names_are_text(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    topic = unique_name()
    make_topics(kafka_bootstrap, [topic])

    async def plant(admin: AdminClient) -> None:
        consumer = AIOKafkaConsumer(
            bootstrap_servers=kafka_bootstrap, group_id=HOSTILE, enable_auto_commit=False
        )
        await consumer.start()
        try:
            partition = TopicPartition(topic, 0)
            consumer.assign([partition])
            await consumer.commit({partition: 0})
        finally:
            await consumer.stop()
        await admin.alter_client_quotas(
            {ClientQuotaEntity({"client-id": HOSTILE}): {"request_percentage": 50}}
        ).all()
        await admin.alter_user_scram_credentials(
            [UserScramCredentialUpsertion(HOSTILE, ScramMechanism.SCRAM_SHA_256, "x-password")]
        ).all()

    with_admin(kafka_bootstrap, plant)
    for path in ("groups", "quotas", "users"):
        page.goto(f"{editor}/c/{CLUSTER}/{path}")
        expect(page.get_by_text(HOSTILE).first).to_be_visible()
    page.goto(f"{editor}/c/{CLUSTER}/groups")
    page.get_by_role("link", name=HOSTILE).click()
    expect(page.locator("h1")).to_have_text(f"group {HOSTILE}")


def test_login_required_when_bound_to_another_address(
    browser: Browser, settings: WebSettings
) -> None:
    # The settings say 0.0.0.0 (so that the editor demands a login); the test serves them on
    # 127.0.0.1 only, the one address this machine's tests may use.
    hashes = {"alice": hash_password("correct horse")}
    guarded = WebSettings(**{**settings.__dict__, "host": "0.0.0.0", "auth": PasswordLogin(hashes)})
    with serving(guarded) as url:
        context = browser.new_context()
        context.set_default_timeout(PATIENCE_MS)
        page = context.new_page()
        page.goto(f"{url}/c/{CLUSTER}/topics")
        expect(page.get_by_role("heading", name="Log in")).to_be_visible()
        page.get_by_label("user").fill("alice")
        page.get_by_label("password").fill("wrong")
        page.get_by_role("button", name="log in").click()
        expect(page.get_by_role("alert")).to_have_text("Wrong user or password.")
        page.get_by_label("user").fill("alice")
        page.get_by_label("password").fill("correct horse")
        page.get_by_role("button", name="log in").click()
        expect(page.get_by_role("heading", name=f"Topics of {CLUSTER}")).to_be_visible()
        expect(page.locator("header .user")).to_have_text("alice")
        page.get_by_role("button", name="log out").click()
        page.goto(f"{url}/c/{CLUSTER}/topics")
        expect(page.get_by_role("heading", name="Log in")).to_be_visible()
        context.close()
