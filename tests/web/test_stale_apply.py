"""The web editor's apply when another tool's change reaches the pipeline's reads but not the
page's plan (nor the check just before the apply), against the real session cluster.

The order is forced, not raced: the plan the page showed is made first, another tool then
changes a key through a raw AdminClient, and the apply is handed that shown plan; so the
pipeline's review reads the new value, as it does when the check before it read a broker
that had not yet seen the change."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ClientQuotaEntity,
    ConfigResource,
    OpType,
    ResourceType,
)
from kafka_config_admin.changeset import StaleChangeError
from kafka_config_admin.web._edits import Edits
from kafka_config_admin.web.views.plan import apply_edits, planned, through_pipeline

from .helpers import create_topics, topic_value, unique_name

pytestmark = pytest.mark.integration

WEEK = "604800000"  # retention.ms's default


async def _two_topics_edited(admin: AdminClient) -> tuple[ConfigResource, ConfigResource, Edits]:
    """Two new topics, each with a pending edit of retention.ms to one hour."""
    moved, fine = unique_name("stale"), unique_name("fine")
    await create_topics(admin, [moved, fine])
    edits = Edits()
    resources = (
        ConfigResource(ResourceType.TOPIC, moved),
        ConfigResource(ResourceType.TOPIC, fine),
    )
    for resource in resources:
        edits.set(resource, "retention.ms", "3600000")
    return resources[0], resources[1], edits


async def _seen(check: Callable[[], Awaitable[bool]]) -> None:
    """Wait until ``check`` holds: a change is answered before every broker describes it
    (the metadata log), and each step of these tests must see the one before it."""
    for _ in range(300):
        if await check():
            return
        await anyio.sleep(0.1)
    raise AssertionError("the change was never described")


async def _other_tool_sets(admin: AdminClient, resource: ConfigResource, value: str) -> None:
    op = AlterConfigOp(name="retention.ms", value=value, op=OpType.SET)
    await admin.incremental_alter_configs({resource: [op]}).all()

    async def described() -> bool:
        return await topic_value(admin, resource.name, "retention.ms") == value

    await _seen(described)


async def _quota_set(admin: AdminClient, entity: ClientQuotaEntity, value: float) -> None:
    await admin.alter_client_quotas({entity: {"producer_byte_rate": value}}).all()

    async def described() -> bool:
        quotas = await admin.describe_client_quotas().all()
        return quotas.get(entity, {}).get("producer_byte_rate") == value

    await _seen(described)


async def test_a_key_the_review_sees_moved_is_stale_and_nothing_is_sent(
    admin_client: AdminClient,
) -> None:
    moved, fine, edits = await _two_topics_edited(admin_client)
    shown = await planned(admin_client, edits.desired())
    await _other_tool_sets(admin_client, moved, "120000")
    with pytest.raises(StaleChangeError) as raised:
        await through_pipeline(admin_client, shown, edits)
    (key,) = raised.value.configs[moved]
    assert (key.key, key.planned, key.now) == ("retention.ms", WEEK, "120000")
    assert fine not in raised.value.configs
    # nothing sent: the other tool's value stands, and the edit of the fine topic waits too
    assert await topic_value(admin_client, moved.name, "retention.ms") == "120000"
    assert await topic_value(admin_client, fine.name, "retention.ms") == WEEK


async def test_the_apply_leaves_out_what_moved_and_applies_the_rest(
    admin_client: AdminClient,
) -> None:
    moved, fine, edits = await _two_topics_edited(admin_client)
    # a quota already set (the review reads it: not stale) changed as the user wants
    entity = ClientQuotaEntity({"user": unique_name("quota-user")})
    await _quota_set(admin_client, entity, 1024.0)
    edits.set_quota(entity, "producer_byte_rate", 4096.0)
    shown = await planned(admin_client, edits.desired())
    await _other_tool_sets(admin_client, moved, "120000")
    done = await apply_edits(admin_client, shown, edits)
    assert list(done.stale) == [moved] and not done.stale_quotas and not done.nothing_sent
    assert done.report is not None
    assert {o.resource for o in done.report.outcomes} == {fine}
    assert [p.resource for p in done.plan.resources] == [fine]
    assert await topic_value(admin_client, moved.name, "retention.ms") == "120000"
    assert await topic_value(admin_client, fine.name, "retention.ms") == "3600000"
    quotas = await admin_client.describe_client_quotas().all()
    assert quotas[entity] == {"producer_byte_rate": 4096.0}
    await admin_client.alter_client_quotas({entity: {"producer_byte_rate": None}}).all()


async def test_a_quota_the_review_sees_moved_is_stale(admin_client: AdminClient) -> None:
    entity = ClientQuotaEntity({"user": unique_name("quota-user")})
    edits = Edits()
    edits.set_quota(entity, "producer_byte_rate", 1048576.0)
    shown = await planned(admin_client, edits.desired())
    await _quota_set(admin_client, entity, 2048.0)
    done = await apply_edits(admin_client, shown, edits)
    (key,) = done.stale_quotas[entity]
    assert (key.key, key.now) == ("producer_byte_rate", "2048")
    quotas = await admin_client.describe_client_quotas().all()
    assert quotas[entity] == {"producer_byte_rate": 2048.0}
    await admin_client.alter_client_quotas({entity: {"producer_byte_rate": None}}).all()
