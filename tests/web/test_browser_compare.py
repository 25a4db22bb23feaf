"""The compare page over two real clusters (the session's and one this module starts), in
Debian's Chromium driven by Playwright: a topic that differs shown key by key, "make like"
through the pending plan's review and confirmation, and the change read back from the broker."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin.connect import Connection
from kafka_config_admin.state import overrides_read
from kafka_config_admin.testing import start_cluster
from kafka_config_admin.web import WebSettings

from .browser import confirm_and_apply, serving, shot, with_admin
from .helpers import create_topics, csrf_token, unique_name
from .test_browser_design import assert_accessible

pytestmark = pytest.mark.integration

LEFT, RIGHT = "prod", "staging"


@pytest.fixture(scope="module")
def second_cluster() -> Iterator[str]:
    """A cluster of its own (one broker), apart from the session's."""
    with start_cluster(brokers=1) as cluster:
        yield cluster.bootstrap_servers


@pytest.fixture(scope="module")
def editor(kafka_bootstrap: str, second_cluster: str) -> Iterator[str]:
    settings = WebSettings(
        clusters={
            LEFT: Connection(bootstrap_servers=kafka_bootstrap),
            RIGHT: Connection(bootstrap_servers=second_cluster),
        },
        allow_writes=True,
        timeout=30,
    )
    with serving(settings) as url:
        yield url


def make_topic(bootstrap: str, name: str, configs: dict[str, str]) -> None:
    async def work(admin: AdminClient) -> None:
        await create_topics(admin, [name], configs)

    with_admin(bootstrap, work)


def overrides(bootstrap: str, topic: str) -> dict[str, str | None]:
    """The topic's overrides as the broker describes them now."""
    resource = ConfigResource(ResourceType.TOPIC, topic)

    async def work(admin: AdminClient) -> dict[str, str | None]:
        result = admin.describe_configs([resource])
        await result.wait()
        found, failures = overrides_read(result)
        assert failures == []
        return {key: value for key, (value, _) in found[resource].items()}

    return with_admin(bootstrap, work)


def test_compare_two_clusters_and_make_the_right_like_the_left(
    page: Page, editor: str, kafka_bootstrap: str, second_cluster: str
) -> None:
    shared, left_only = unique_name("cmp-"), unique_name("cmp-left-")
    make_topic(kafka_bootstrap, shared, {"retention.ms": "604800000", "cleanup.policy": "compact"})
    make_topic(kafka_bootstrap, left_only, {})
    make_topic(second_cluster, shared, {"retention.ms": "86400000", "segment.bytes": "10485760"})

    page.goto(f"{editor}/compare?left={LEFT}&right={RIGHT}")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Compare {LEFT} with {RIGHT}")
    expect(page.get_by_label("paste the file")).to_be_hidden()  # the file's form, folded
    topic = page.locator("table.diff tbody", has_text=shared)
    # Every key either side sets, both values in words, and how they compare.
    retention = topic.locator("tr", has_text="retention.ms")
    expect(retention).to_contain_text("1 week")
    expect(retention).to_contain_text("1 day")
    expect(retention).to_contain_text("different")
    expect(topic.locator("tr", has_text="cleanup.policy")).to_contain_text(f"only on {LEFT}")
    segment = topic.locator("tr", has_text="segment.bytes")
    expect(segment).to_contain_text(f"only on {RIGHT}")
    expect(segment).to_contain_text("10 MiB")
    only_left = page.locator("table.diff tbody", has_text=left_only)
    expect(only_left).to_contain_text(f"only on {LEFT}")
    expect(only_left.get_by_role("button")).to_have_count(0)
    assert_accessible(page, "compare")
    shot(page, "compare")

    topic.get_by_role("button", name=f"make {RIGHT} like {LEFT}").click()
    expect(page).to_have_url(f"{editor}/c/{RIGHT}/plan")
    expect(page.locator(".notice")).to_contain_text(f"3 edit(s) to make {RIGHT} like {LEFT}")
    assert overrides(second_cluster, shared)["retention.ms"] == "86400000"  # nothing sent yet
    confirm_and_apply(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Applied 3 changes")

    assert overrides(second_cluster, shared) == {
        "retention.ms": "604800000",
        "cleanup.policy": "compact",
    }
    assert topics_of(second_cluster, [left_only]) == []  # make like never creates a topic
    page.goto(f"{editor}/compare?left={LEFT}&right={RIGHT}")
    expect(topic.locator("td.ok")).to_have_count(2)  # retention.ms and cleanup.policy
    expect(topic).not_to_contain_text("different")
    expect(topic.get_by_role("button")).to_have_count(0)


def topics_of(bootstrap: str, names: list[str]) -> list[str]:
    """Which of ``names`` the cluster has."""

    async def work(admin: AdminClient) -> list[str]:
        listed = await admin.list_topics()
        return [topic.name for topic in listed if topic.name in names]

    return with_admin(bootstrap, work)


def test_every_difference_joins_the_plan_and_nothing_is_sent_before_it_is_confirmed(
    page: Page, editor: str, kafka_bootstrap: str, second_cluster: str
) -> None:
    first, second = unique_name("cmp-all-"), unique_name("cmp-all-")
    make_topic(kafka_bootstrap, first, {"retention.ms": "3600000"})
    make_topic(kafka_bootstrap, second, {"max.message.bytes": "2097152"})
    make_topic(second_cluster, first, {})
    make_topic(second_cluster, second, {})
    page.goto(f"{editor}/compare?left={LEFT}&right={RIGHT}")
    page.get_by_role("button", name=f"make {RIGHT} like {LEFT}: every difference").click()
    expect(page).to_have_url(f"{editor}/c/{RIGHT}/plan")
    plan = page.locator("table.diff")
    expect(plan).to_contain_text(first)
    expect(plan).to_contain_text(second)
    page.get_by_role("button", name="discard the edits").click()
    assert overrides(second_cluster, first) == {} and overrides(second_cluster, second) == {}


def test_make_like_refuses_what_it_cannot_do(editor: str) -> None:
    with httpx.Client(base_url=editor) as web:
        token = csrf_token(web.get("/compare").text)
        path = f"/c/{RIGHT}/compare/make-like"
        headers = {"Origin": editor}
        unknown = web.post(path, data={"like": "nowhere", "csrf_token": token}, headers=headers)
        assert unknown.status_code == 404 and "no other cluster named" in unknown.text
        itself = web.post(path, data={"like": RIGHT, "csrf_token": token}, headers=headers)
        assert itself.status_code == 404
        group = {"like": LEFT, "kind": "group", "name": "g", "csrf_token": token}
        refused = web.post(path, data=group, headers=headers)
        assert refused.status_code == 400 and "topics and the cluster default" in refused.text


def test_make_the_cluster_default_like_the_other_clusters(
    page: Page, editor: str, second_cluster: str
) -> None:
    default = ConfigResource(ResourceType.BROKER, "")
    key = "log.cleaner.backoff.ms"  # only this module's own cluster's default is changed

    async def set_default(admin: AdminClient) -> None:
        op = AlterConfigOp(key, "20000", OpType.SET)
        await admin.incremental_alter_configs({default: [op]}).all()

    with_admin(second_cluster, set_default)
    page.goto(f"{editor}/compare?left={LEFT}&right={RIGHT}")
    row = page.locator("table.diff tbody", has_text="cluster default")
    expect(row.locator("tr", has_text=key)).to_contain_text(f"only on {RIGHT}")
    expect(row.locator("tr", has_text=key)).to_contain_text("20 seconds")
    row.get_by_role("button", name=f"make {RIGHT} like {LEFT}").click()
    expect(page.locator("table.diff")).to_contain_text(key)
    confirm_and_apply(page)
    # 1 change here; more when other tests left overrides on the session cluster's default
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile(r"Applied \d+ changes?"))

    async def default_overrides(admin: AdminClient) -> set[str]:
        result = admin.describe_configs([default])
        await result.wait()
        found, failures = overrides_read(result)
        assert failures == []
        return set(found[default])

    assert key not in with_admin(second_cluster, default_overrides)


def test_compare_a_file_with_a_cluster_and_make_the_cluster_like_the_file(
    page: Page, editor: str, second_cluster: str
) -> None:
    differs, same = unique_name("cmp-file-"), unique_name("cmp-file-")
    make_topic(second_cluster, differs, {"retention.ms": "86400000", "segment.bytes": "10485760"})
    make_topic(second_cluster, same, {"retention.ms": "86400000"})
    text = (
        f"topics:\n  - name: {differs}\n    configs:\n      retention.ms: 604800000\n"
        f"      cleanup.policy: compact\n  - name: {same}\n    configs:\n"
        "      retention.ms: 86400000\n"
    )
    page.goto(f"{editor}/compare")
    page.get_by_label("or compare a desired-state file with cluster").select_option(RIGHT)
    page.get_by_label("paste the file").fill(text)
    page.get_by_role("button", name="compare with the file").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Compare the file with {RIGHT}")
    expect(page.locator(".summary")).to_contain_text("1 of 2 resources differ")
    topic = page.locator("table.diff tbody", has_text=differs)
    retention = topic.locator("tr", has_text="retention.ms")
    expect(retention).to_contain_text("1 week")
    expect(retention).to_contain_text("1 day")
    expect(retention).to_contain_text("different")
    expect(topic.locator("tr", has_text="cleanup.policy")).to_contain_text("only on the file")
    expect(topic).not_to_contain_text("segment.bytes")  # the file does not name it: no prune
    expect(page.locator("table.diff tbody", has_text=same)).to_contain_text("same")
    assert_accessible(page, "compare with a file")
    shot(page, "compare-file")

    page.get_by_role("button", name=f"make {RIGHT} like the file").click()
    expect(page).to_have_url(f"{editor}/c/{RIGHT}/desired")
    expect(page.locator(".summary")).to_contain_text("2 changes")
    assert overrides(second_cluster, differs)["retention.ms"] == "86400000"  # nothing sent yet
    page.get_by_role("button", name="apply this file").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Applied 2 changes")
    assert overrides(second_cluster, differs) == {
        "retention.ms": "604800000",
        "cleanup.policy": "compact",
        "segment.bytes": "10485760",
    }


def test_a_bad_file_is_said_beside_its_field_with_what_was_typed_kept(
    page: Page, editor: str
) -> None:
    typed = "topics:\n  - name: orders\n    configs: 5\n"
    page.goto(f"{editor}/compare")
    page.get_by_label("paste the file").fill(typed)
    page.get_by_role("button", name="compare with the file").click()
    field = page.get_by_label("paste the file")
    expect(field).to_have_value(typed)
    expect(field).to_have_attribute("aria-invalid", "true")
    error = page.locator("#compare-file-error")
    expect(error).to_contain_text("the pasted file:3: topics[0].configs")
    expect(page.locator("table.diff")).to_have_count(0)
    assert_accessible(page, "compare with a bad file")
