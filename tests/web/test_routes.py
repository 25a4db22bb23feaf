"""The editor's routes through its ASGI app (httpx), against the real session cluster."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import anyio
import httpx
import pytest
from starlette.applications import Starlette

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ClientQuotaEntity,
    ConfigResource,
    OpType,
    ResourceType,
)
from kafka_config_admin.connect import Connection
from kafka_config_admin.desired import parse_desired_state
from kafka_config_admin.state import OutcomeStatus
from kafka_config_admin.testing import KafkaCluster
from kafka_config_admin.web import WebSettings, create_app
from kafka_config_admin.web._listings import Listings

from .conftest import CLUSTER
from .helpers import (
    create_topics,
    csrf_token,
    plan_digest,
    planned_rows,
    restore_default_and_logger,
    topic_value,
    unique_name,
)

pytestmark = pytest.mark.integration


async def form_post(
    web: httpx.AsyncClient, page: str, path: str, data: Mapping[str, str | list[str]]
) -> httpx.Response:
    """POST a form with the CSRF token of ``page``, as the browser would."""
    html = (await web.get(page)).text
    return await web.post(path, data={**plan_digest(html), **data, "csrf_token": csrf_token(html)})


async def test_clusters_and_cluster_page(web: httpx.AsyncClient) -> None:
    index = await web.get("/")
    assert index.status_code == 200
    assert f'href="/c/{CLUSTER}"' in index.text
    page = await web.get(f"/c/{CLUSTER}")
    assert page.status_code == 200
    assert "Brokers" in page.text and "broker 1" in page.text


async def test_topic_list_search_filters_and_pages(
    web: httpx.AsyncClient, admin_client: AdminClient, web_app: Starlette
) -> None:
    prefix = unique_name("list")
    names = [f"{prefix}-{i:02d}" for i in range(12)]
    await create_topics(admin_client, names)
    await create_topics(admin_client, [f"{prefix}-set"], {"retention.ms": "3600000"})
    web_app.state.settings = web_app.state.settings.__class__(
        **{**web_app.state.settings.__dict__, "page_size": 5}
    )
    found = await web.get(f"/c/{CLUSTER}/topics", params={"q": prefix})
    assert "13 topics" in found.text and "page 1 of 3" in found.text
    assert found.text.count(f">{prefix}-") == 5
    second = await web.get(f"/c/{CLUSTER}/topics", params={"q": prefix, "page": "3"})
    assert f">{prefix}-set<" in second.text
    regex = await web.get(f"/c/{CLUSTER}/topics", params={"q": rf"^{prefix}-0[0-3]$", "regex": "1"})
    assert "4 topics" in regex.text
    overridden = await web.get(f"/c/{CLUSTER}/topics", params={"q": prefix, "overrides": "1"})
    assert "1 topic ·" in overridden.text and f">{prefix}-set<" in overridden.text
    hidden = await web.get(f"/c/{CLUSTER}/topics", params={"q": "__consumer_offsets"})
    assert "0 topics" in hidden.text
    bad = await web.get(f"/c/{CLUSTER}/topics", params={"q": "(", "regex": "1"})
    assert bad.status_code == 400 and "not a regular expression" in bad.text
    assert "Traceback" not in bad.text


async def test_the_topic_list_keeps_its_listing_until_refreshed_or_an_apply(
    web: httpx.AsyncClient, admin_client: AdminClient, web_app: Starlette
) -> None:
    web_app.state.listings = Listings(seconds=3600)  # kept however slow the machine is
    prefix = unique_name("listing")
    await create_topics(admin_client, [f"{prefix}-a"])
    listed = {"q": prefix}
    first = await web.get(f"/c/{CLUSTER}/topics", params=listed)
    assert "1 topic ·" in first.text and re.search(r"listed \d+ s ago", first.text)
    await create_topics(admin_client, [f"{prefix}-b"])
    kept = await web.get(f"/c/{CLUSTER}/topics", params=listed)
    assert "1 topic ·" in kept.text  # made by another tool: not listed yet
    refreshed = await web.get(f"/c/{CLUSTER}/topics", params={**listed, "refresh": "1"})
    assert "2 topics" in refreshed.text
    assert (
        'href="?q=' in refreshed.text and "refresh=1" not in refreshed.text.split("refresh</a>")[1]
    )
    # the editor's own apply drops the listing and the override counts kept with it
    await create_topics(admin_client, [f"{prefix}-c"])
    overridden = {**listed, "overrides": "1"}
    assert "0 topics" in (await web.get(f"/c/{CLUSTER}/topics", params=overridden)).text
    edit: dict[str, str | list[str]] = {"topic": [f"{prefix}-a"], "key": "retention.ms"}
    edit |= {"value": "1d", "action": "set"}
    await form_post(web, f"/c/{CLUSTER}/topics", f"/c/{CLUSTER}/bulk", edit)
    await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
    assert "3 topics" in (await web.get(f"/c/{CLUSTER}/topics", params=listed)).text
    after = await web.get(f"/c/{CLUSTER}/topics", params=overridden)
    assert "1 topic ·" in after.text and f">{prefix}-a<" in after.text


async def test_topic_page_types_docs_sources_units(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic], {"retention.ms": "604800000"})
    page = await web.get(f"/c/{CLUSTER}/r/topic/{topic}")
    assert page.status_code == 200
    row = _row(page.text, "retention.ms")
    assert "<code>604800000</code>" in row and "1 week" in row
    assert "LONG" in row and "set on this topic" in row
    assert "documentation" in row
    segment = _row(page.text, "segment.bytes")
    assert "GiB" in segment and "INT" in segment
    # not set on the topic: the broker's synonym chain, ending with Kafka's default
    assert "log.segment.bytes" in segment and "Kafka&#39;s default" in segment
    # the config catalog of the cluster's release: default, valid values, a choice for an enum
    assert "config catalog of Kafka" in page.text
    assert '<dt>default</dt><dd><code>604800000</code> <span class="human">1 week</span>' in row
    compression = _row(page.text, "compression.type")
    assert "<dt>valid values</dt><dd>one of:" in compression and "zstd" in compression
    assert '<select name="value" aria-label="compression.type"' in compression
    assert "<option selected>producer</option>" in compression
    modified = await web.get(f"/c/{CLUSTER}/r/topic/{topic}", params={"modified": "1"})
    assert 'data-key="retention.ms"' in modified.text
    assert 'data-key="segment.bytes"' not in modified.text


def _row(html: str, key: str) -> str:
    found = re.search(rf'<tr class="entry[^"]*" data-key="{re.escape(key)}">(.*?)</tr>', html, re.S)
    assert found is not None, f"no row for {key}"
    return found[1]


async def test_invalid_value_refused_with_reason_and_never_sent(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic])
    page = f"/c/{CLUSTER}/r/topic/{topic}"
    check = await form_post(
        web, page, f"/c/{CLUSTER}/check/topic/{topic}", {"key": "retention.ms", "value": "soon"}
    )
    assert "not an integer" in check.text and "expected LONG" in check.text
    edit = await form_post(
        web,
        page,
        f"/c/{CLUSTER}/edit/topic/{topic}",
        {"key": "retention.ms", "value": "soon", "action": "set"},
    )
    assert edit.status_code == 400 and "refused" in edit.text
    units = await form_post(
        web,
        page,
        f"/c/{CLUSTER}/check/topic/{topic}",
        {"key": "retention.ms", "value": "3", "unit": "d"},
    )
    assert "259200000" in units.text and "3 days" in units.text
    locked = await form_post(
        web, page, f"/c/{CLUSTER}/check/topic/{topic}", {"key": "unknown.key", "value": "1"}
    )
    assert "unknown config" in locked.text
    typo = await form_post(
        web, page, f"/c/{CLUSTER}/check/topic/{topic}", {"key": "retention.msx", "value": "1"}
    )
    assert "did you mean retention.ms" in typo.text
    plan = await web.get(f"/c/{CLUSTER}/plan")
    assert topic not in plan.text
    assert await topic_value(admin_client, topic, "retention.ms") == "604800000"


@pytest.mark.kafka(policy=True)
async def test_the_brokers_verdict_in_the_value_check_and_the_file_plan(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    """The editor asks the broker (validate_only) as ``plan`` does: the test policy refuses
    a retention.ms below 60 s, which no client-side check knows."""
    topic = unique_name()
    await create_topics(admin_client, [topic])
    page = f"/c/{CLUSTER}/r/topic/{topic}"
    check_path = f"/c/{CLUSTER}/check/topic/{topic}"
    check = await form_post(web, page, check_path, {"key": "retention.ms", "value": "1000"})
    assert "the broker refuses it: PolicyViolationError" in check.text
    assert "below the test policy minimum" in check.text
    edit = await form_post(
        web,
        page,
        f"/c/{CLUSTER}/edit/topic/{topic}",
        {"key": "retention.ms", "value": "1000", "action": "set"},
    )
    assert edit.status_code == 400 and "PolicyViolationError" in edit.text
    accepted = await form_post(web, page, check_path, {"key": "retention.ms", "value": "7200000"})
    assert "refuses" not in accepted.text and "ok" in accepted.text
    text = f"topics:\n  - name: {topic}\n    configs: {{retention.ms: 1000}}\n"
    planned = await form_post(web, f"/c/{CLUSTER}/desired", f"/c/{CLUSTER}/desired", {"text": text})
    assert planned.status_code == 200, planned.text
    assert "Refused by the broker (validate_only)" in planned.text
    assert f"topic &#39;{topic}&#39;, retention.ms = &#39;1000&#39;: PolicyViolationError" in (
        planned.text
    )
    assert "apply this file" not in planned.text and "Nothing to change" not in planned.text
    assert await topic_value(admin_client, topic, "retention.ms") == "604800000"


async def test_edit_plan_check_apply_and_change_log(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic], {"cleanup.policy": "delete"})
    page = f"/c/{CLUSTER}/r/topic/{topic}"
    edit_path = f"/c/{CLUSTER}/edit/topic/{topic}"
    added = await form_post(
        web, page, edit_path, {"key": "retention.ms", "value": "2", "unit": "h", "action": "set"}
    )
    assert added.status_code == 303
    await form_post(
        web, page, edit_path, {"key": "cleanup.policy", "value": "delete,compact", "action": "set"}
    )
    plan = await web.get(f"/c/{CLUSTER}/plan")
    assert "7200000" in plan.text and "APPEND" in plan.text and "<code>compact</code>" in plan.text
    checked = await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/check", {})
    assert "validate_only" in checked.text and ">validated<" in checked.text
    assert await topic_value(admin_client, topic, "retention.ms") == "604800000"
    applied = await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
    assert applied.status_code == 200 and ">applied<" in applied.text
    assert await topic_value(admin_client, topic, "retention.ms") == "7200000"
    assert await topic_value(admin_client, topic, "cleanup.policy") == "delete,compact"
    log = (await web.get("/history.json")).json()["changes"]
    mine = {row["key"]: row for row in log if row["resource_name"] == topic}
    assert mine["retention.ms"]["old_value"] == "604800000"
    assert mine["retention.ms"]["new_value"] == "7200000"
    assert mine["retention.ms"]["outcome"] == "applied"
    assert mine["cleanup.policy"]["op"] == "APPEND"
    assert topic in (await web.get("/history")).text
    assert "plan (0)" in (await web.get(f"/c/{CLUSTER}/plan")).text


async def test_stale_edit_not_applied(web: httpx.AsyncClient, admin_client: AdminClient) -> None:
    stale, fine = unique_name(), unique_name()
    await create_topics(admin_client, [stale, fine])
    for topic in (stale, fine):
        await form_post(
            web,
            f"/c/{CLUSTER}/r/topic/{topic}",
            f"/c/{CLUSTER}/edit/topic/{topic}",
            {"key": "retention.ms", "value": "3600000", "action": "set"},
        )
    shown = await web.get(f"/c/{CLUSTER}/plan")
    token = csrf_token(shown.text)
    other = ConfigResource(ResourceType.TOPIC, stale)
    op = AlterConfigOp(name="retention.ms", value="120000", op=OpType.SET)
    await admin_client.incremental_alter_configs({other: [op]}).all()
    form = {"csrf_token": token, **plan_digest(shown.text)}
    applied = await web.post(f"/c/{CLUSTER}/plan/apply", data=form)
    assert "Changed by someone else" in applied.text and "120000" in applied.text
    assert await topic_value(admin_client, stale, "retention.ms") == "120000"
    assert await topic_value(admin_client, fine, "retention.ms") == "3600000"
    fresh = await web.get(f"/c/{CLUSTER}/plan")
    assert stale in fresh.text and "plan (1)" in fresh.text
    await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/discard", {})


async def test_apply_from_a_tab_whose_plan_the_edits_no_longer_make_is_refused(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    first, second = unique_name(), unique_name()
    await create_topics(admin_client, [first, second])

    async def edit(topic: str) -> None:
        await form_post(
            web,
            f"/c/{CLUSTER}/r/topic/{topic}",
            f"/c/{CLUSTER}/edit/topic/{topic}",
            {"key": "retention.ms", "value": "3600000", "action": "set"},
        )

    await edit(first)
    tab_one = await web.get(f"/c/{CLUSTER}/plan")  # shows the first edit only
    await edit(second)  # in a second tab of the same session
    tab_two = await web.get(f"/c/{CLUSTER}/plan")  # shows both
    assert second not in tab_one.text and second in tab_two.text
    form = {"csrf_token": csrf_token(tab_one.text), **plan_digest(tab_one.text)}
    refused = await web.post(f"/c/{CLUSTER}/plan/apply", data=form)
    assert refused.status_code == 409 and "Not applied" in refused.text, refused.text
    difference = refused.text.split('class="difference"')[1].split("</table>")[0]
    assert second in difference and "SET 3600000" in difference and first not in difference
    for topic in (first, second):  # nothing was sent, not even the edit tab one showed
        assert await topic_value(admin_client, topic, "retention.ms") == "604800000"
    # a form without the digest of a plan the session showed applies nothing either
    forged = {"csrf_token": csrf_token(tab_one.text), "plan_digest": "0" * 64, "confirmed": "yes"}
    assert (await web.post(f"/c/{CLUSTER}/plan/apply", data=forged)).status_code == 409
    # the second tab's plan without its confirmation ticked (a form sent around the
    # browser's own check) applies nothing
    form = {"csrf_token": csrf_token(tab_two.text), **plan_digest(tab_two.text)}
    unconfirmed = await web.post(
        f"/c/{CLUSTER}/plan/apply", data={k: v for k, v in form.items() if k != "confirmed"}
    )
    assert unconfirmed.status_code == 400 and "tick the confirmation" in unconfirmed.text
    for topic in (first, second):
        assert await topic_value(admin_client, topic, "retention.ms") == "604800000"
    # the second tab's plan, which the edits still make, applies both
    applied = await web.post(f"/c/{CLUSTER}/plan/apply", data=form)
    assert applied.status_code == 200 and ">applied<" in applied.text, applied.text
    for topic in (first, second):
        assert await topic_value(admin_client, topic, "retention.ms") == "3600000"


async def test_a_secret_typed_again_in_another_tab_refuses_the_first_tabs_apply(
    web: httpx.AsyncClient, kafka_broker_ids: list[int]
) -> None:
    broker = kafka_broker_ids[0]
    page, key = f"/c/{CLUSTER}/r/broker/{broker}", "listener.name.plaintext.ssl.key.password"
    path = f"/c/{CLUSTER}/edit/broker/{broker}"
    await form_post(web, page, path, {"key": key, "value": "first-Pa55word", "action": "set"})
    tab_one = await web.get(f"/c/{CLUSTER}/plan")
    await form_post(web, page, path, {"key": key, "value": "second-Pa55word", "action": "set"})
    form = {"csrf_token": csrf_token(tab_one.text), **plan_digest(tab_one.text)}
    refused = await web.post(f"/c/{CLUSTER}/plan/apply", data=form)
    assert refused.status_code == 409 and "a value not shown" in refused.text, refused.text
    assert "Pa55word" not in refused.text and "Pa55word" not in tab_one.text
    await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/discard", {})


async def test_a_value_kafka_5_0_will_refuse_is_a_warning_never_a_refusal(
    web: httpx.AsyncClient, admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic])
    page = f"/c/{CLUSTER}/r/topic/{topic}"
    warning = "Kafka 5.0 will refuse values below 60000 (KIP-1030)"
    check = await form_post(
        web, page, f"/c/{CLUSTER}/check/topic/{topic}", {"key": "segment.ms", "value": "1000"}
    )
    assert "refused" not in check.text and "ok" in check.text and warning in check.text
    fine = await form_post(
        web, page, f"/c/{CLUSTER}/check/topic/{topic}", {"key": "segment.ms", "value": "1m"}
    )
    assert "KIP-1030" not in fine.text
    try:
        added = await form_post(
            web,
            page,
            f"/c/{CLUSTER}/edit/topic/{topic}",
            {"key": "segment.ms", "value": "1000", "action": "set"},
        )
        assert added.status_code in (200, 303)
        plan = await web.get(f"/c/{CLUSTER}/plan")
        assert topic in plan.text and warning in plan.text
    finally:
        await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/discard", {})
    text = f"topics:\n  - name: {topic}\n    configs:\n      segment.ms: 1000\n"
    pasted = await form_post(web, f"/c/{CLUSTER}/desired", f"/c/{CLUSTER}/desired", {"text": text})
    assert pasted.status_code == 200 and warning in pasted.text and "refused" not in pasted.text
    broker = kafka_broker_ids[0]
    reference = "${file:/etc/kafka/secrets.properties:jaas}"
    secret = await form_post(
        web,
        f"/c/{CLUSTER}/r/broker/{broker}",
        f"/c/{CLUSTER}/check/broker/{broker}",
        {"key": "sasl.jaas.config", "value": reference},
    )
    assert "refused" not in secret.text and reference in secret.text  # shown: no secret in it


@pytest.mark.parametrize("broker_page", [True, False], ids=["one broker", "cluster default"])
async def test_a_broker_key_kafka_does_not_define_is_a_warning_never_a_refusal(
    web: httpx.AsyncClient, kafka_broker_ids: list[int], broker_page: bool
) -> None:
    broker = str(kafka_broker_ids[0]) if broker_page else ""
    page = f"/c/{CLUSTER}/r/broker/{broker}"
    check = f"/c/{CLUSTER}/check/broker/{broker}"
    typo = await form_post(web, page, check, {"key": "log.cleaner.thread", "value": "2"})
    assert "refused" not in typo.text and "ok" in typo.text
    assert "log.cleaner.thread is not a key Kafka" in typo.text
    assert "did you mean log.cleaner.threads" in typo.text
    topic_key = await form_post(web, page, check, {"key": "retention.ms", "value": "1000"})
    assert "refused" not in topic_key.text and "it is a topic key" in topic_key.text
    known = await form_post(web, page, check, {"key": "log.cleaner.threads", "value": "2"})
    assert "is not a key Kafka" not in known.text


async def test_cluster_default_and_broker_logger(
    web: httpx.AsyncClient, admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    broker = kafka_broker_ids[0]
    name: str | None = None
    try:
        default_page = f"/c/{CLUSTER}/r/broker/"
        added = await form_post(
            web,
            default_page,
            f"/c/{CLUSTER}/edit/broker/",
            {"key": "log.cleaner.threads", "value": "2", "action": "set"},
        )
        assert added.status_code == 303, added.text
        logger_page = f"/c/{CLUSTER}/r/broker-logger/{broker}"
        page = await web.get(logger_page)
        assert ">DEBUG</option>" in page.text
        found = re.search(r'data-key="(kafka\.server\.[^"]+)"', page.text)
        assert found is not None
        name = found[1]
        refused = await form_post(
            web,
            logger_page,
            f"/c/{CLUSTER}/check/broker-logger/{broker}",
            {"key": name, "value": "LOUD"},
        )
        assert "not a log level" in refused.text
        await form_post(
            web,
            logger_page,
            f"/c/{CLUSTER}/edit/broker-logger/{broker}",
            {"key": name, "value": "DEBUG", "action": "set"},
        )
        applied = await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
        assert applied.text.count(">applied<") == 2, applied.text
        default = ConfigResource(ResourceType.BROKER, "")
        logger = ConfigResource(ResourceType.BROKER_LOGGER, str(broker))
        described = admin_client.describe_configs([default, logger])
        assert (await described.values[default])["log.cleaner.threads"].value == "2"
        assert (await described.values[logger])[name].value == "DEBUG"
        # back as they were, through the editor
        await form_post(
            web,
            default_page,
            f"/c/{CLUSTER}/edit/broker/",
            {"key": "log.cleaner.threads", "action": "reset"},
        )
        await form_post(
            web,
            logger_page,
            f"/c/{CLUSTER}/edit/broker-logger/{broker}",
            {"key": name, "value": "INFO", "action": "set"},
        )
        await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
        assert (
            "log.cleaner.threads"
            not in await admin_client.describe_configs([default]).values[default]
        )
    finally:
        await restore_default_and_logger(admin_client, broker, name)
        await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/discard", {})


async def test_bulk_edit_by_pattern_and_ticks(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    prefix = unique_name("bulk")
    names = [f"{prefix}-{i}" for i in range(6)]
    await create_topics(admin_client, names)
    topics_page = f"/c/{CLUSTER}/topics?q={prefix}"
    by_pattern = await form_post(
        web,
        topics_page,
        f"/c/{CLUSTER}/bulk",
        {"pattern": rf"{prefix}-[0-3]", "key": "retention.ms", "value": "1d", "action": "set"},
    )
    assert by_pattern.status_code == 303
    await form_post(
        web,
        topics_page,
        f"/c/{CLUSTER}/bulk",
        {"topic": names[4:], "key": "max.message.bytes", "value": "2MiB", "action": "set"},
    )
    plan = await web.get(f"/c/{CLUSTER}/plan")
    assert plan.text.count("86400000") == 4 and plan.text.count("2097152") == 2
    await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
    assert await topic_value(admin_client, names[0], "retention.ms") == "86400000"
    assert await topic_value(admin_client, names[5], "max.message.bytes") == "2097152"
    assert await topic_value(admin_client, names[5], "retention.ms") == "604800000"


async def test_a_bulk_pattern_matches_a_topic_created_a_second_before(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    prefix = unique_name("fresh")
    await create_topics(admin_client, [f"{prefix}-old"])
    topics_page = f"/c/{CLUSTER}/topics?q={prefix}"
    assert "1 topic" in (await web.get(topics_page)).text  # the listing is kept from here
    await create_topics(admin_client, [f"{prefix}-new"])
    await anyio.sleep(1)
    bulk: dict[str, str | list[str]] = {
        "pattern": rf"{prefix}-.*",
        "key": "retention.ms",
        "value": "1d",
        "action": "set",
    }
    added = await form_post(web, topics_page, f"/c/{CLUSTER}/bulk", bulk)
    assert added.status_code == 303
    plan = await web.get(f"/c/{CLUSTER}/plan")
    assert f">{prefix}-new</span>" in plan.text and f">{prefix}-old</span>" in plan.text
    said = re.search(r"matched 2 of the (\d+) topics listed (\d+\.\d) s ago", plan.text)
    assert said is not None and float(said[2]) < 1, plan.text
    assert "matched 2" not in (await web.get(f"/c/{CLUSTER}/plan")).text  # said once
    none: dict[str, str | list[str]] = {**bulk, "pattern": rf"{prefix}-none"}
    refused = await form_post(web, topics_page, f"/c/{CLUSTER}/bulk", none)
    assert refused.status_code == 400
    assert re.search(r"no topic matches the pattern .* of the \d+ topics listed", refused.text)
    await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/discard", {})


async def test_a_pattern_that_backtracks_without_end_gets_a_message(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    # Python's re would take longer than the universe's age on this name; the editor must
    # answer (and keep serving everyone else)
    name = f"{unique_name('redos')}-{'a' * 80}"
    await create_topics(admin_client, [name])
    slow = r"(a|aa)+z"
    search = await web.get(f"/c/{CLUSTER}/topics", params={"q": slow, "regex": "1"})
    assert search.status_code == 400 and "takes too long to match" in search.text
    bulk = await form_post(
        web,
        f"/c/{CLUSTER}/topics",
        f"/c/{CLUSTER}/bulk",
        {"pattern": rf".*-{slow}", "key": "retention.ms", "value": "1d", "action": "set"},
    )
    assert bulk.status_code == 400 and "takes too long to match" in bulk.text
    assert (await web.get(f"/c/{CLUSTER}/topics", params={"q": "redos"})).status_code == 200


async def test_a_desired_file_whose_pattern_backtracks_without_end_gets_a_message(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    name = f"{unique_name('redos')}-{'a' * 80}"
    await create_topics(admin_client, [name])
    text = "topics:\n  - pattern: '.*-(a|aa)+z'\n    configs: {retention.ms: 1d}\n"
    page = f"/c/{CLUSTER}/desired"
    planned = await form_post(web, page, page, {"text": text})
    assert planned.status_code == 400
    alert = re.search(r'<pre class="error" role="alert">(.*?)</pre>', planned.text, re.S)
    assert alert is not None and "takes too long to match" in alert[1] and "(a|aa)+z" in alert[1]
    assert "<textarea" in planned.text and "Traceback" not in planned.text
    assert (await web.get(f"/c/{CLUSTER}/topics", params={"q": "redos"})).status_code == 200


async def test_quota_set_through_the_plan(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    user = unique_name("quota-user")
    added = await form_post(
        web,
        f"/c/{CLUSTER}/quotas",
        f"/c/{CLUSTER}/quotas/edit",
        {
            "entity_type": "user",
            "entity_name": user,
            "key": "producer_byte_rate",
            "value": "1048576",
            "action": "set",
        },
    )
    assert added.status_code == 303
    applied = await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
    assert ">applied<" in applied.text
    quotas = await admin_client.describe_client_quotas().all()
    assert quotas[ClientQuotaEntity({"user": user})] == {"producer_byte_rate": 1048576.0}
    page = await web.get(f"/c/{CLUSTER}/quotas")
    assert user in page.text and "1 MiB/s" in page.text
    bad = await form_post(
        web,
        f"/c/{CLUSTER}/quotas",
        f"/c/{CLUSTER}/quotas/edit",
        {"entity_type": "ip", "entity_name": "", "key": "producer_byte_rate", "value": "1"},
    )
    assert bad.status_code == 400 and "not a quota key" in bad.text


async def test_a_quota_changed_since_the_plan_was_shown_is_not_applied(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    user = unique_name("quota-user")
    entity = ClientQuotaEntity({"user": user})
    await form_post(
        web,
        f"/c/{CLUSTER}/quotas",
        f"/c/{CLUSTER}/quotas/edit",
        {
            "entity_type": "user",
            "entity_name": user,
            "key": "producer_byte_rate",
            "value": "1048576",
            "action": "set",
        },
    )
    shown = await web.get(f"/c/{CLUSTER}/plan")
    await admin_client.alter_client_quotas({entity: {"producer_byte_rate": 2048.0}}).all()
    form = {"csrf_token": csrf_token(shown.text), **plan_digest(shown.text)}
    applied = await web.post(f"/c/{CLUSTER}/plan/apply", data=form)
    assert "Changed by someone else" in applied.text and "2048" in applied.text, applied.text
    quotas = await admin_client.describe_client_quotas().all()
    assert quotas[entity] == {"producer_byte_rate": 2048.0}
    assert "plan (1)" in (await web.get(f"/c/{CLUSTER}/plan")).text  # still pending
    await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/discard", {})
    await admin_client.alter_client_quotas({entity: {"producer_byte_rate": None}}).all()


async def test_post_without_csrf_token_refused(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic])
    await web.get("/")
    path = f"/c/{CLUSTER}/edit/topic/{topic}"
    missing = await web.post(path, data={"key": "retention.ms", "value": "1", "action": "set"})
    assert missing.status_code == 403 and "CSRF" in missing.text
    wrong = await web.post(path, data={"key": "retention.ms", "value": "1", "csrf_token": "forged"})
    assert wrong.status_code == 403
    header = await web.post(f"/c/{CLUSTER}/plan/apply", headers={"X-CSRF-Token": "forged"})
    assert header.status_code == 403
    assert topic not in (await web.get(f"/c/{CLUSTER}/plan")).text


async def test_read_only_mode_refuses_changes(
    web_settings: WebSettings, admin_client: AdminClient
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic])
    settings = WebSettings(**{**web_settings.__dict__, "allow_writes": False})
    app = create_app(settings)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
        ) as client,
    ):
        page = await client.get(f"/c/{CLUSTER}/r/topic/{topic}")
        assert "read-only" in page.text and "add to plan" not in page.text
        refused = await form_post(
            client,
            f"/c/{CLUSTER}/r/topic/{topic}",
            f"/c/{CLUSTER}/edit/topic/{topic}",
            {"key": "retention.ms", "value": "1000", "action": "set"},
        )
        assert refused.status_code == 403 and "read-only" in refused.text
        apply = await form_post(client, "/", f"/c/{CLUSTER}/plan/apply", {})
        assert apply.status_code == 403
    assert await topic_value(admin_client, topic, "retention.ms") == "604800000"


async def test_read_only_key_locked(
    web: httpx.AsyncClient, kafka_broker_ids: list[int], kafka_release: tuple[int, ...]
) -> None:
    broker = kafka_broker_ids[0]
    page = await web.get(f"/c/{CLUSTER}/r/broker/{broker}")
    row = _row(page.text, "broker.id" if "broker.id" in page.text else "node.id")
    assert "read-only" in row and "locked" in row and "<form" not in row
    # the catalog says how each broker key may change at run time, and the rules Kafka states
    # for it, in the words `docs KEY` prints
    threads = _row(page.text, "log.cleaner.threads")
    assert (
        "<dt>update mode</dt><dd>cluster-wide (the cluster default, or one broker id)</dd>"
        in threads
    )
    assert (
        '<dt>rule</dt><dd class="rule">a broker resizes this pool at run time to between half'
        " and double its size</dd>" in threads
    )
    assert '<dt>rule</dt><dd class="rule">the log cleaner needs at least 1 thread</dd>' in threads
    keystore = _row(page.text, "ssl.keystore.type")
    assert (
        '<dt>rule</dt><dd class="rule">only per listener, as'
        " listener.name.&lt;listener&gt;.ssl.keystore.type</dd>" in keystore
    )
    assert "<dt>rule</dt>" not in _row(page.text, "log.retention.bytes")
    if kafka_release >= (4, 1):  # a new cluster has Eligible Leader Replicas on
        assert "<dd>cluster default only (never one broker id), while Eligible Leader" in _row(
            page.text, "min.insync.replicas"
        )
    refused = await form_post(
        web,
        f"/c/{CLUSTER}/r/broker/{broker}",
        f"/c/{CLUSTER}/edit/broker/{broker}",
        {"key": "node.id", "value": "7", "action": "set"},
    )
    assert refused.status_code == 400 and "read-only" in refused.text


async def test_a_cluster_that_is_down_gets_a_page_and_the_editor_keeps_serving(
    web_settings: WebSettings,
) -> None:
    clusters = {**web_settings.clusters, "down": Connection(bootstrap_servers="127.0.0.1:1")}
    settings = WebSettings(**{**web_settings.__dict__, "clusters": clusters, "timeout": 2})
    app = create_app(settings)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
        ) as client,
    ):
        down = await client.get("/c/down/topics")
        assert down.status_code == 503
        assert "Cluster down cannot be used now" in down.text and "Traceback" not in down.text
        assert (await client.get("/")).status_code == 200
        assert (await client.get(f"/c/{CLUSTER}")).status_code == 200
        missing = await client.get("/c/nowhere")
        assert missing.status_code == 404 and "no cluster named" in missing.text


async def test_security_headers(web: httpx.AsyncClient) -> None:
    page = await web.get("/")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.headers["x-frame-options"] == "DENY"
    cookie = page.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    assert '<script src="/static/htmx-2.0.11.min.js"></script>' in page.text
    assert "<script>" not in page.text


async def test_desired_file_plan_audit_apply_and_the_change_log_json(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic])
    text = (
        f"topics:\n  - name: {topic}\n    configs:\n      retention.ms: 2d\n"
        f"rules:\n  - check: retention.ms >= 30d\n    match: '{topic}'\n"
    )
    planned = await form_post(web, f"/c/{CLUSTER}/desired", f"/c/{CLUSTER}/desired", {"text": text})
    assert planned.status_code == 200, planned.text
    assert "172800000" in planned.text
    assert "retention.ms" in planned.text and "No rule is violated" not in planned.text
    # The file's rule guards its apply: 2d is farther from 30d than the default 7d.
    label = "retention.ms &gt;= 2592000000"
    assert f"refused by rule <strong>{label}</strong>" in planned.text
    refused = await form_post(web, f"/c/{CLUSTER}/desired", f"/c/{CLUSTER}/desired/apply", {})
    assert refused.status_code == 409 and "Not applied: the plan breaks rules" in refused.text
    assert await topic_value(admin_client, topic, "retention.ms") == "604800000"
    await form_post(web, f"/c/{CLUSTER}/desired", f"/c/{CLUSTER}/desired", {"text": text})
    override: dict[str, str | list[str]] = {"override_rule": "retention.ms >= 2592000000"}
    applied = await form_post(web, f"/c/{CLUSTER}/desired", f"/c/{CLUSTER}/desired/apply", override)
    assert ">applied<" in applied.text
    assert "rule &#39;retention.ms &gt;= 2592000000&#39; overridden" in applied.text
    assert await topic_value(admin_client, topic, "retention.ms") == "172800000"
    broken = await form_post(
        web, f"/c/{CLUSTER}/desired", f"/c/{CLUSTER}/desired", {"text": "topics: [1"}
    )
    assert broken.status_code == 400 and "Traceback" not in broken.text
    exported = json.loads((await web.get("/history.json")).text)
    assert any(row["resource_name"] == topic for row in exported["changes"])


async def test_a_scram_edit_logs_its_outcome_in_the_one_vocabulary(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    """The change log says what became of a SCRAM edit with ``OutcomeStatus`` values, once the
    plan it joined is applied."""
    applied_user, refused_user = unique_name("scram-user"), unique_name("scram-nobody")
    page, plan = f"/c/{CLUSTER}/users", f"/c/{CLUSTER}/plan"
    upsert: dict[str, str | list[str]] = {
        "user": applied_user,
        "mechanism": "SCRAM-SHA-512",
        "iterations": "8192",
    }
    added = await form_post(web, page, f"{page}/edit", {**upsert, "password": "pw-1"})
    assert added.status_code == 303, added.text
    # This user never had a SCRAM-SHA-256 credential: the broker refuses its deletion.
    delete: dict[str, str | list[str]] = {
        "user": refused_user,
        "mechanism": "SCRAM-SHA-256",
        "action": "delete",
    }
    queued = await form_post(web, page, f"{page}/edit", delete)
    assert queued.status_code == 303, queued.text
    await form_post(web, plan, f"{plan}/apply", {})
    rows = (await web.get("/history.json")).json()["changes"]
    outcomes = {
        (row["resource_name"], row["key"]): row["outcome"]
        for row in rows
        if row["resource_name"] in (applied_user, refused_user)
    }
    assert outcomes == {
        (applied_user, "SCRAM-SHA-512"): OutcomeStatus.APPLIED.value,
        (refused_user, "SCRAM-SHA-256"): OutcomeStatus.FAILED.value,
    }
    await form_post(web, plan, f"{plan}/discard", {})  # the refused deletion stays pending


async def test_export_downloads_the_overrides_as_a_file_that_plans_nothing(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic], {"retention.ms": "7200000"})
    exported = await web.get(f"/c/{CLUSTER}/export")
    assert exported.status_code == 200
    assert exported.headers["content-disposition"] == (
        f'attachment; filename="{CLUSTER}-overrides.yaml"'
    )
    desired = parse_desired_state(exported.text)
    (spec,) = [t for t in desired.topics if t.name == topic]
    assert spec.configs == {"retention.ms": "7200000"} and spec.partitions == 1
    # pasted back, the file is the cluster as it is: nothing to change
    planned = await form_post(
        web, f"/c/{CLUSTER}/desired", f"/c/{CLUSTER}/desired", {"text": exported.text}
    )
    assert planned.status_code == 200
    assert "Nothing to change." in planned.text, planned_rows(planned.text)


def test_refuses_another_address_without_auth(tmp_path: Path) -> None:
    settings = WebSettings(
        clusters={"c": Connection(bootstrap_servers="127.0.0.1:9092")},
        host="0.0.0.0",
    )
    with pytest.raises(ValueError, match="without authentication"):
        create_app(settings)


async def test_web_with_a_clusters_file_serves_its_clusters_whatever_the_variable(
    kafka_bootstrap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``web --clusters-file F`` with KAFKA_BOOTSTRAP_SERVERS exported serves F's clusters."""
    from kafka_config_admin.cli._options import ConnectionOptions
    from kafka_config_admin.cli._web import _clusters

    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1")
    clusters_file = tmp_path / "clusters.yaml"
    clusters_file.write_text(
        f"clusters:\n  from-file: {{bootstrap_servers: '{kafka_bootstrap}'}}\n"
    )
    clusters = _clusters(ConnectionOptions(clusters_file=clusters_file))
    assert list(clusters) == ["from-file"]
    settings = WebSettings(clusters=clusters, timeout=30)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as web:
            index = await web.get("/")
            assert 'href="/c/from-file"' in index.text and "127.0.0.1:1" not in index.text
            page = await web.get("/c/from-file")
            assert page.status_code == 200 and "broker 1" in page.text


async def test_a_controller_quorum_is_read(
    web_settings: WebSettings, kafka_cluster: KafkaCluster
) -> None:
    """A cluster reached through its controllers (KIP-919): its controllers listed, a
    controller's own configs and loggers read, the cluster default shown."""
    if kafka_cluster.backend == "external":
        pytest.skip("the external backend has no controller listeners")
    quorum = kafka_cluster.bootstrap_controllers
    settings = WebSettings(
        **{
            **web_settings.__dict__,
            "clusters": {"quorum": Connection(bootstrap_controllers=quorum)},
        }
    )
    node = kafka_cluster.quorum_ids[0]
    app = create_app(settings)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
        ) as client,
    ):
        index = await client.get("/")
        assert quorum in index.text
        cluster = await client.get("/c/quorum")
        assert cluster.status_code == 200, cluster.text
        assert "Controllers" in cluster.text and f"controller {node}:" in cluster.text
        assert "min.insync.replicas" in cluster.text  # the cluster default's override
        assert "/export" not in cluster.text and "topics (" not in cluster.text
        configs = await client.get(f"/c/quorum/r/broker/{node}")
        assert configs.status_code == 200, configs.text
        roles = re.search(r'data-key="process\.roles".*?</tr>', configs.text, re.S)
        assert roles is not None and "broker,controller" in roles[0]
        loggers = await client.get(f"/c/quorum/r/broker-logger/{node}")
        assert loggers.status_code == 200 and 'data-key="kafka.' in loggers.text


@pytest.mark.kafka(since="4.1")
async def test_client_metrics_and_config_only_groups_are_listed(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    """The client-metrics page lists what the cluster lists (no longer by name only), and the
    groups page the groups that exist only as config (``list_config_resources``)."""
    group, metrics = unique_name("config-only"), unique_name("metrics")
    await admin_client.incremental_alter_configs(
        {
            ConfigResource(ResourceType.GROUP, group): [
                AlterConfigOp("consumer.session.timeout.ms", "50000")
            ],
            ConfigResource(ResourceType.CLIENT_METRICS, metrics): [
                AlterConfigOp("interval.ms", "60000")
            ],
        }
    ).all()
    for _ in range(100):  # every broker lists it once it has it
        listing = await admin_client.list_config_resources()
        if {group, metrics} <= {resource.name for resource in listing.resources}:
            break
        await anyio.sleep(0.2)
    page = await web.get(f"/c/{CLUSTER}/client-metrics")
    assert page.status_code == 200
    assert f'href="/c/{CLUSTER}/r/client-metrics/{metrics}"' in page.text
    groups = await web.get(f"/c/{CLUSTER}/groups")
    assert "Groups that exist only as config" in groups.text
    assert f'href="/c/{CLUSTER}/r/group/{group}"' in groups.text
    opened = await web.get(f"/c/{CLUSTER}/client-metrics", params={"name": metrics})
    assert opened.status_code == 303
    # the subscription's keys show the rules Kafka states for them, as `docs KEY` prints them
    subscription = await web.get(f"/c/{CLUSTER}/r/client-metrics/{metrics}")
    assert (
        '<dt>rule</dt><dd class="rule">a push interval must be between 100 and 3600000 ms'
        " (1 hour)</dd>" in _row(subscription.text, "interval.ms")
    )
