"""``list_groups`` on the real cluster: every broker asked, each group listed by its coordinator.

Groups are made with aiokafka: one consumer commits an offset without joining (an ``Empty``
group of protocol type ``""``), another joins and stays (a ``Stable`` ``consumer`` group). A
group's coordinator is the broker FindCoordinator names, which differs from group to group, so
a group listed with the right coordinator was answered by that broker.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    GroupListing,
    InvalidArgumentError,
    ResourceType,
)
from kafka_config_admin._protocol import LIST_GROUPS

from .cli_helpers import make_topic, run_cli, with_admin
from .helpers import new_topic, unique_name

pytestmark = pytest.mark.integration


async def commit_offset(bootstrap: str, topic: str, group: str) -> None:
    """An ``Empty`` group: offsets committed, no member."""
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=group)
    await consumer.start()
    try:
        partition = TopicPartition(topic, 0)
        consumer.assign([partition])
        await consumer.commit({partition: 0})
    finally:
        await consumer.stop()


async def coordinators(bootstrap: str, groups: list[str]) -> dict[str, int]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        return {group: await admin.find_coordinator(group) for group in groups}
    finally:
        await admin.close()


async def listed(
    admin: AdminClient, groups: set[str], states: set[str] | None = None
) -> dict[str, GroupListing]:
    """The listings of ``groups``, once every one of them is listed (at most 20 s)."""
    with anyio.fail_after(20):
        while True:
            found = {g.group_id: g for g in await admin.list_groups(states=states).all()}
            if groups <= set(found):
                return {group: found[group] for group in groups}
            await anyio.sleep(0.1)


@pytest.fixture
async def stable_group(kafka_bootstrap: str, admin_client: AdminClient) -> AsyncIterator[str]:
    topic = await new_topic(admin_client, kafka_bootstrap)
    group = f"g-stable-{unique_name()}"
    consumer = AIOKafkaConsumer(topic, bootstrap_servers=kafka_bootstrap, group_id=group)
    await consumer.start()
    try:
        yield group  # it joins in the background; ``listed`` waits until it is Stable
    finally:
        await consumer.stop()


async def test_the_broker_speaks_the_versions_this_client_does(admin_client: AdminClient) -> None:
    await admin_client.list_groups().all()
    versions = admin_client._transport.connections()[0]._versions
    low, high = versions[LIST_GROUPS.api_key]
    assert LIST_GROUPS.min_version <= low and high == LIST_GROUPS.max_version


async def test_every_broker_is_asked_and_each_group_listed_by_its_coordinator(
    kafka_bootstrap: str, admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    topic = await new_topic(admin_client, kafka_bootstrap)
    groups = [f"g-{unique_name()}" for _ in range(6)]
    for group in groups:
        await commit_offset(kafka_bootstrap, topic, group)
    result = admin_client.list_groups()
    assert set(result.values) == set(kafka_broker_ids)
    found = await listed(admin_client, set(groups))
    expected = await coordinators(kafka_bootstrap, groups)
    assert {group: listing.coordinator for group, listing in found.items()} == expected
    for listing in found.values():
        assert (listing.protocol_type, listing.state, listing.type) == ("", "Empty", "classic")
    names = [listing.group_id for listing in await admin_client.list_groups().all()]
    assert names == sorted(set(names))


async def test_filters_keep_only_the_states_and_types_asked(
    kafka_bootstrap: str, admin_client: AdminClient, stable_group: str
) -> None:
    found = await listed(admin_client, {stable_group}, states={"Stable"})
    assert found[stable_group].protocol_type == "consumer"
    assert found[stable_group].state == "Stable"
    empty = {g.group_id for g in await admin_client.list_groups(states={"Empty"}).all()}
    assert stable_group not in empty
    share = {g.group_id for g in await admin_client.list_groups(types={"share"}).all()}
    assert stable_group not in share


async def test_a_bad_filter_sends_nothing(admin_client: AdminClient) -> None:
    with pytest.raises(InvalidArgumentError, match="states"):
        admin_client.list_groups(states="Stable")


def test_export_without_group_exports_every_group_with_overrides(
    capsys: pytest.CaptureFixture[str], kafka_bootstrap: str
) -> None:
    topic = make_topic(kafka_bootstrap)
    tuned, plain = f"g-tuned-{unique_name()}", f"g-plain-{unique_name()}"

    async def prepare(admin: AdminClient) -> None:
        await commit_offset(kafka_bootstrap, topic, tuned)
        await commit_offset(kafka_bootstrap, topic, plain)
        resource = ConfigResource(ResourceType.GROUP, tuned)
        op = AlterConfigOp("consumer.session.timeout.ms", "50000")
        await admin.incremental_alter_configs({resource: [op]}).all()
        await listed(admin, {tuned, plain})

    with_admin(kafka_bootstrap, prepare)
    ran = run_cli(capsys, "export", "-b", kafka_bootstrap, "--match", topic, "-o", "json")
    assert ran.code == 0, ran.err
    groups = ran.json()["groups"]
    assert groups[tuned] == {"configs": {"consumer.session.timeout.ms": "50000"}}
    assert plain not in groups
    named = run_cli(capsys, "export", "-b", kafka_bootstrap, "--match", topic, "--group", plain)
    assert named.code == 0, named.err
    assert f"{plain}:" in named.out and tuned not in named.out
    none = run_cli(capsys, "export", "-b", kafka_bootstrap, "--match", topic, "--no-groups")
    assert none.code == 0 and "groups" not in none.out
