"""The editor's design in a real browser (Debian's Chromium, Playwright) over a real broker:
long names inside the window, values in words ("never"), refusals beside their field with
what was typed kept, titles that say what happened, the dark theme, and axe-core finding no
serious or critical accessibility violation on any page."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources import files
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, ResourceType
from kafka_config_admin.connect import Connection
from kafka_config_admin.web import PasswordLogin, WebSettings, hash_password

from .browser import PATIENCE_MS, confirm_and_apply, serving, shot, with_admin
from .helpers import create_topics, unique_name

pytestmark = pytest.mark.integration

CLUSTER = "local"
#: The longest name Kafka takes for a topic.
LONGEST_TOPIC = 249
#: axe-core's script, as the pinned test dependency ships it (never part of the package).
AXE_SOURCE = (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
#: The impacts a page may not have.
BLOCKING = {"serious", "critical"}


@pytest.fixture(scope="module")
def settings(kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> WebSettings:
    return WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)},
        allow_writes=True,
        journal=tmp_path_factory.mktemp("design") / "journal.sqlite3",
        timeout=30,
    )


@pytest.fixture(scope="module")
def editor(settings: WebSettings) -> Iterator[str]:
    with serving(settings) as url:
        yield url


@pytest.fixture(scope="module")
def long_topic(kafka_bootstrap: str) -> str:
    """A topic whose name is as long as Kafka allows, with one override."""
    start = unique_name("design-long-")
    name = start + "x" * (LONGEST_TOPIC - len(start))

    async def work(admin: AdminClient) -> None:
        await create_topics(admin, [name], {"retention.ms": "172800000"})

    with_admin(kafka_bootstrap, work)
    return name


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations of the page as it is now."""
    page.wait_for_load_state("load")
    page.evaluate(AXE_SOURCE)  # evaluated by the test, so the page's CSP does not apply
    results: dict[str, Any] = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']})"
    )
    return [
        {
            "id": violation["id"],
            "impact": violation["impact"],
            "nodes": [node["target"] for node in violation["nodes"]][:5],
        }
        for violation in results["violations"]
        if violation["impact"] in BLOCKING
    ]


def assert_accessible(page: Page, what: str) -> None:
    found = axe_violations(page)
    assert found == [], f"{what}: {found}"


def assert_inside_the_window(page: Page) -> None:
    """Nothing on the page is wider than the window (no sideways scrolling)."""
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"the page is {widths[0]} px wide in a {widths[1]} px window"


def add_retention_edit(page: Page, editor: str, topic: str, hours: str) -> None:
    page.goto(f"{editor}/c/{CLUSTER}/r/topic/{topic}")
    retention = page.locator('tr.entry[data-key="retention.ms"]')
    retention.get_by_label("retention.ms", exact=True).fill(hours)
    retention.get_by_label("unit of retention.ms").select_option("h")
    retention.get_by_role("button", name="add to plan").click()
    expect(retention.locator("output.status")).to_contain_text("added to the plan")


def test_a_249_character_name_stays_inside_the_window(
    page: Page, editor: str, long_topic: str
) -> None:
    page.goto(f"{editor}/c/{CLUSTER}/topics?q={long_topic}&refresh=1")
    link = page.get_by_role("link", name=long_topic, exact=True)
    expect(link).to_be_visible()
    expect(link).to_have_attribute("title", long_topic)  # the whole name on hover
    assert_inside_the_window(page)
    link.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"topic {long_topic}")
    assert_inside_the_window(page)
    add_retention_edit(page, editor, long_topic, "5")
    page.locator("#pending").click()
    expect(page.locator("table.diff")).to_contain_text(long_topic)
    assert_inside_the_window(page)
    # a narrow window too (a laptop's half screen), and the messages that name a long name
    page.set_viewport_size({"width": 800, "height": 900})
    missing = "y" * LONGEST_TOPIC
    for path in (f"topics?q={long_topic}", f"r/topic/{long_topic}", f"r/topic/{missing}", "plan"):
        page.goto(f"{editor}/c/{CLUSTER}/{path}")
        assert_inside_the_window(page)
    page.get_by_role("button", name="discard the edits").click()
    expect(page.locator("#pending")).to_have_text("plan (0)")


def test_values_in_words_overrides_first_and_marked(
    page: Page, editor: str, long_topic: str
) -> None:
    page.goto(f"{editor}/c/{CLUSTER}/r/topic/{long_topic}")
    flush = page.locator('tr.entry[data-key="flush.ms"]')
    expect(flush.locator("td.value")).to_contain_text("9223372036854775807")
    expect(flush.locator("td.value .human")).to_have_text("never")
    expect(flush).not_to_contain_text("weeks")
    first = page.locator("tr.entry").first
    expect(first).to_have_attribute("data-key", "retention.ms")
    expect(first).to_have_class("entry override")
    expect(first.locator(".tag.set-here")).to_have_text("set here")
    expect(first.locator("td.value .human")).to_have_text("2 days")
    expect(flush).to_have_class("entry inherited")
    # the inherited value is drawn lighter than the override's
    colours = page.evaluate(
        """() => ['retention.ms', 'flush.ms'].map(key => getComputedStyle(
            document.querySelector(`tr.entry[data-key="${key}"] td.value`)).color)"""
    )
    assert colours[0] != colours[1]
    # Kafka's documentation is HTML: its <i> and <code> are rendered, never shown as text
    isr = page.locator('tr.entry[data-key="min.insync.replicas"]')
    isr.get_by_text("documentation").click()
    doc = isr.locator("p.doc")
    expect(doc.locator("i").first).to_have_text("minimum")
    expect(doc.locator("code").first).to_have_text("acks")
    expect(doc).not_to_contain_text("<code>")


def test_a_refusal_is_said_beside_its_field_with_what_was_typed_kept(
    page: Page, editor: str
) -> None:
    page.goto(f"{editor}/c/{CLUSTER}/topics")
    page.get_by_label("pattern").fill("no-such-topic-.*")
    page.get_by_label("key").fill("retention.ms")
    page.get_by_label("value").fill("3d")
    page.get_by_role("button", name="set on all", exact=True).click()
    status = page.locator("#status-bulk")
    expect(status).to_contain_text("no topic matches the pattern")
    expect(page.get_by_label("pattern")).to_have_value("no-such-topic-.*")
    expect(page.get_by_label("value")).to_have_value("3d")
    expect(page.locator("#pending")).to_have_text("plan (0)")
    page.goto(f"{editor}/c/{CLUSTER}/quotas")
    page.get_by_label("entity name").fill("design-app")
    page.get_by_label("quota value").fill("lots")
    page.get_by_role("button", name="add to plan").click()
    expect(page.locator("#status-quota")).to_contain_text("lots")
    expect(page.get_by_label("quota value")).to_have_value("lots")
    expect(page.get_by_label("entity name")).to_have_value("design-app")


def test_titles_say_what_happened_and_the_stale_page_shows_the_wanted_value(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    topic = unique_name("design")

    async def make(admin: AdminClient) -> None:
        await create_topics(admin, [topic])

    with_admin(kafka_bootstrap, make)
    add_retention_edit(page, editor, topic, "3")
    page.locator("#pending").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Pending plan")
    expect(page.locator("p.summary")).to_contain_text("1 topic on cluster local: 1 change")
    confirm_and_apply(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Applied 1 change")
    expect(page.locator("table.outcomes")).to_contain_text("applied")
    # an edit whose key another tool changes before the apply is not applied, and says so
    add_retention_edit(page, editor, topic, "4")
    page.locator("#pending").click()
    resource = ConfigResource(ResourceType.TOPIC, topic)

    async def change(admin: AdminClient) -> None:
        change = AlterConfigOp(name="retention.ms", value="18000000")
        await admin.incremental_alter_configs({resource: [change]}).all()

    with_admin(kafka_bootstrap, change)
    confirm_and_apply(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Not applied: changed by someone else"
    )
    stale = page.locator("table.stale tbody tr")
    expect(stale).to_contain_text("14400000")  # the user's own value: 4 hours
    expect(stale.locator("td.new")).to_contain_text("4 hours")
    expect(stale).to_contain_text("10800000")  # what the plan was made against
    expect(stale).to_contain_text("18000000")  # what another tool set
    expect(page.locator("table.outcomes")).to_have_count(0)  # nothing was sent
    assert_accessible(page, "the stale page")


def test_the_dark_theme(browser: Browser, editor: str, long_topic: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    context.set_default_timeout(PATIENCE_MS)
    page = context.new_page()
    page.goto(f"{editor}/c/{CLUSTER}/r/topic/{long_topic}")
    background, ink = page.evaluate(
        "() => [getComputedStyle(document.body).backgroundColor,"
        " getComputedStyle(document.body).color]"
    )
    assert luminance(background) < 0.1 < 0.6 < luminance(ink), (background, ink)
    assert_accessible(page, "the topic page, dark")
    shot(page, "topic-dark")
    context.close()


def luminance(css: str) -> float:
    """The relative luminance (0 black, 1 white) of a computed ``rgb(r, g, b)`` colour."""
    channels = [int(part) / 255 for part in css[css.index("(") + 1 : -1].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_no_serious_accessibility_violation_on_any_page(
    browser: Browser,
    page: Page,
    editor: str,
    settings: WebSettings,
    long_topic: str,
    kafka_broker_ids: list[int],
) -> None:
    pages = {
        "clusters": "/",
        "cluster": f"/c/{CLUSTER}",
        "topic list": f"/c/{CLUSTER}/topics",
        "topic page": f"/c/{CLUSTER}/r/topic/{long_topic}",
        "broker page": f"/c/{CLUSTER}/r/broker/{kafka_broker_ids[0]}",
        "cluster default": f"/c/{CLUSTER}/r/broker/",
        "broker loggers": f"/c/{CLUSTER}/r/broker-logger/{kafka_broker_ids[0]}",
        "groups": f"/c/{CLUSTER}/groups",
        "quotas": f"/c/{CLUSTER}/quotas",
        "SCRAM users": f"/c/{CLUSTER}/users",
        "desired state": f"/c/{CLUSTER}/desired",
        "change log (now the history)": "/changes",
        "error": f"/c/{CLUSTER}/r/topic/{unique_name('no-such-topic')}",
        "empty plan": f"/c/{CLUSTER}/plan",
    }
    for what, path in pages.items():
        page.goto(editor + path)
        assert_accessible(page, what)
    add_retention_edit(page, editor, long_topic, "6")
    page.locator("#pending").click()
    assert_accessible(page, "plan")
    page.get_by_role("button", name="check with the broker").click()
    expect(page.locator("table.outcomes")).to_contain_text("validated")
    assert_accessible(page, "checked plan")
    confirm_and_apply(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Applied 1 change")
    assert_accessible(page, "applied")
    page.goto(f"{editor}/history")
    assert_accessible(page, "history")
    page.locator("form[action$='/undo'] button").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Undo change")
    assert_accessible(page, "undo preview")
    for what, path in {"live": "/live", "live of a topic": f"/live?topic={long_topic}"}.items():
        page.goto(f"{editor}/c/{CLUSTER}{path}")
        assert_accessible(page, what)
    hashes = {"alice": hash_password("correct horse")}
    guarded = WebSettings(**{**settings.__dict__, "host": "0.0.0.0", "auth": PasswordLogin(hashes)})
    with serving(guarded) as url:
        context = browser.new_context()
        login = context.new_page()
        login.goto(f"{url}/c/{CLUSTER}/topics")
        expect(login.get_by_role("heading", name="Log in")).to_be_visible()
        assert_accessible(login, "login")
        context.close()


def test_no_log_out_button_without_a_login(page: Page, editor: str) -> None:
    page.goto(editor)
    expect(page.locator("header .user")).to_be_visible()
    expect(page.get_by_role("button", name="log out")).to_have_count(0)


def test_the_accessibility_check_finds_what_it_looks_for(page: Page) -> None:
    # A button with no name and an image with no text: axe-core calls both critical.
    page.set_content('<html lang="en"><title>t</title><main><button></button></main></html>')
    assert [found["id"] for found in axe_violations(page)] == ["button-name"]


def test_keyboard_reaches_the_content_and_its_controls(
    page: Page, editor: str, long_topic: str
) -> None:
    page.goto(f"{editor}/c/{CLUSTER}/r/topic/{long_topic}")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="skip to the content")
    expect(skip).to_be_focused()
    assert skip.evaluate("link => getComputedStyle(link).outlineStyle") != "none"
    page.keyboard.press("Enter")
    assert page.url.endswith("#content")
    # from the content, Tab reaches the first key's documentation and its edit field
    retention = page.locator('tr.entry[data-key="retention.ms"]')
    field = retention.get_by_label("retention.ms", exact=True)
    for _ in range(12):
        page.keyboard.press("Tab")
        if field.evaluate("field => field === document.activeElement"):
            break
    expect(field).to_be_focused()
    page.keyboard.press("Shift+Tab")
    summary = retention.locator("summary")
    expect(summary).to_be_focused()
    page.keyboard.press("Enter")
    expect(retention.locator("p.doc")).to_be_visible()


def test_a_desired_state_plan_opens_with_its_summary_and_apply(
    page: Page, editor: str, long_topic: str
) -> None:
    page.goto(f"{editor}/c/{CLUSTER}/desired")
    text = f"topics:\n  - name: {long_topic}\n    configs:\n      flush.ms: 1w\n"
    page.get_by_label("paste a desired-state file").fill(text)
    page.get_by_role("button", name="plan and audit").click()
    summary = page.locator("p.summary")
    expect(summary).to_have_text(f"The file changes 1 topic on cluster {CLUSTER}: 1 change.")
    row = page.locator("table.diff tbody tr")
    expect(row.locator("td.old")).to_contain_text("never")
    expect(row.locator("td.old")).to_contain_text("Kafka's default")
    expect(row.locator("td.new")).to_contain_text("1 week")
    # the apply button comes before the table, not after a long plan
    assert page.evaluate(
        """() => document.querySelector('button.apply').compareDocumentPosition(
            document.querySelector('table.diff')) & Node.DOCUMENT_POSITION_FOLLOWING"""
    )
    assert_inside_the_window(page)
    assert_accessible(page, "a desired-state file's plan")
