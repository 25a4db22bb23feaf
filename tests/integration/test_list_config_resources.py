"""``list_config_resources`` on the real cluster: what the broker lists (Kafka 4.1+, KIP-1142),
and on older brokers what the fallback lists and what it says it could not see (Kafka 3.9 has
no group configs: it lists none).

A group set up as config only (a group config, no member, no committed offset) is listed by
ListConfigResources and by nothing else; a group with a committed offset is one ListGroups
lists too. Run the fallback's tests with ``--kafka-version=3.9.1 --kafka-brokers=1`` and
``--kafka-version=4.0.2`` (group configs, and no listing of them).
"""

from __future__ import annotations

import anyio
import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    ConfigResourceListing,
    ResourceType,
)
from kafka_config_admin.feed import observe_cluster
from kafka_config_admin.state import ResourceKind, ResourceScope, list_scope

from .cli_helpers import run_cli, with_admin
from .helpers import new_topic, unique_name

pytestmark = pytest.mark.integration

GROUP, METRICS = ResourceType.GROUP, ResourceType.CLIENT_METRICS


async def config_only_group_and_metrics(admin: AdminClient) -> tuple[str, str]:
    """A group that exists only as config, and a client-metrics resource (Kafka 3.8+)."""
    group, metrics = f"config-only-{unique_name()}", f"metrics-{unique_name()}"
    await admin.incremental_alter_configs(
        {
            ConfigResource(GROUP, group): [AlterConfigOp("consumer.session.timeout.ms", "50000")],
            ConfigResource(METRICS, metrics): [AlterConfigOp("interval.ms", "60000")],
        }
    ).all()
    return group, metrics


async def group_with_offsets(admin: AdminClient, bootstrap: str) -> str:
    """A group ListGroups lists: an offset committed, no member."""
    topic = await new_topic(admin, bootstrap)
    group = f"offsets-{unique_name()}"
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=group)
    await consumer.start()
    try:
        partition = TopicPartition(topic, 0)
        consumer.assign([partition])
        await consumer.commit({partition: 0})
    finally:
        await consumer.stop()
    return group


async def listing_with(
    admin: AdminClient, wanted: set[ConfigResource], types: list[ResourceType] | None = None
) -> ConfigResourceListing:
    """The listing once it shows ``wanted`` (a new resource reaches every broker within
    moments), at most 20 s."""
    listing = None
    with anyio.move_on_after(20):
        while True:
            listing = await admin.list_config_resources(types)
            if wanted <= set(listing.resources):
                return listing
            await anyio.sleep(0.2)
    missing = wanted - set(() if listing is None else listing.resources)
    raise AssertionError(f"never listed: {missing}; last listing: {listing}")


@pytest.mark.kafka(since="4.1")
async def test_the_broker_lists_groups_that_exist_only_as_config_and_client_metrics(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_broker_ids: list[int]
) -> None:
    group, metrics = await config_only_group_and_metrics(admin_client)
    with_offsets = await group_with_offsets(admin_client, kafka_bootstrap)
    wanted = {
        ConfigResource(GROUP, group),
        ConfigResource(GROUP, with_offsets),
        ConfigResource(METRICS, metrics),
    }
    listing = await listing_with(admin_client, wanted)
    assert listing.complete and listing.unseen == {}
    assert listing.names(ResourceType.BROKER) == sorted(map(str, kafka_broker_ids))
    assert listing.names(ResourceType.BROKER_LOGGER) == sorted(map(str, kafka_broker_ids))
    topics = await admin_client.list_topics(include_internal=True)
    assert set(listing.names(ResourceType.TOPIC)) == {topic.name for topic in topics}
    assert list(listing.resources) == sorted(
        listing.resources, key=lambda r: (r.type.value, r.name)
    )
    groups = {resource for resource in wanted if resource.type is GROUP}
    only = await listing_with(admin_client, groups, [GROUP])
    assert {r.type for r in only.resources} == {GROUP}


async def test_before_4_1_the_listing_says_it_cannot_see_config_only_groups(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_release: tuple[int, ...]
) -> None:
    """Client metrics from ListClientMetricsResources (3.7+), groups from ListGroups, and the
    listing saying that a group that exists only as config (Kafka 4.0 has group configs) would
    not be seen."""
    if not (3, 7) <= kafka_release < (4, 1):
        pytest.skip("the fallback of brokers from Kafka 3.7 to 4.0: run with --kafka-version=3.9.1")
    metrics = f"metrics-{unique_name()}"
    metrics_resource = ConfigResource(METRICS, metrics)
    changes = {metrics_resource: [AlterConfigOp("interval.ms", "60000")]}
    config_only = ConfigResource(GROUP, f"config-only-{unique_name()}")
    if kafka_release >= (4, 0):  # group configs came with Kafka 4.0's group coordinator
        changes[config_only] = [AlterConfigOp("consumer.session.timeout.ms", "50000")]
    await admin_client.incremental_alter_configs(changes).all()
    with_offsets = ConfigResource(GROUP, await group_with_offsets(admin_client, kafka_bootstrap))
    has_group_configs = kafka_release >= (4, 0)
    wanted = {with_offsets, metrics_resource} if has_group_configs else {metrics_resource}
    listing = await listing_with(admin_client, wanted, [GROUP, METRICS])
    assert config_only not in listing.resources
    assert not listing.complete
    assert set(listing.unseen) == {GROUP}  # client metrics came from ListClientMetricsResources
    if has_group_configs:
        assert "exist only as config" in listing.unseen[GROUP]
        assert "Kafka 4.1" in listing.unseen[GROUP]
    else:  # no group configs at all: a describe of one would fail, so none is listed
        assert with_offsets not in listing.resources
        assert "no group configs" in listing.unseen[GROUP]


@pytest.mark.kafka(since="4.1")
def test_export_has_config_only_groups_and_client_metrics(
    capsys: pytest.CaptureFixture[str], kafka_bootstrap: str
) -> None:
    """``export`` lists groups and client-metrics resources with ``list_config_resources``."""
    group, metrics = with_admin(kafka_bootstrap, config_only_group_and_metrics)
    with_admin(
        kafka_bootstrap,
        lambda admin: listing_with(
            admin, {ConfigResource(GROUP, group), ConfigResource(METRICS, metrics)}
        ),
    )
    ran = run_cli(
        capsys, "export", "-b", kafka_bootstrap, "--match", "no-topic-matches", "-o", "json"
    )
    assert ran.code == 0, ran.err
    document = ran.json()
    assert document["groups"][group] == {"configs": {"consumer.session.timeout.ms": "50000"}}
    assert document["client_metrics"][metrics] == {"configs": {"interval.ms": "60000"}}
    assert "not listed in full" not in ran.err


def test_export_before_4_1_says_what_it_could_not_list(
    capsys: pytest.CaptureFixture[str], kafka_bootstrap: str, kafka_release: tuple[int, ...]
) -> None:
    if not (4, 0) <= kafka_release < (4, 1):  # group configs, and no ListConfigResources v1
        pytest.skip("the fallback of Kafka 4.0: run with --kafka-version=4.0.2")
    ran = run_cli(capsys, "export", "-b", kafka_bootstrap, "--match", "no-topic-matches")
    assert ran.code == 0, ran.err
    assert "not listed in full: GROUP: " in ran.err and "exist only as config" in ran.err


@pytest.mark.kafka(since="4.1")
async def test_the_change_feed_sees_config_only_groups_and_client_metrics(
    admin_client: AdminClient,
) -> None:
    """The feed lists them with ``list_scope`` (``list_config_resources``): none named."""
    group, metrics = await config_only_group_and_metrics(admin_client)
    await listing_with(
        admin_client, {ConfigResource(GROUP, group), ConfigResource(METRICS, metrics)}
    )
    scope = ResourceScope(kinds=(ResourceKind.GROUP, ResourceKind.CLIENT_METRICS))
    state = await observe_cluster(admin_client, scope, "main")
    assert state.error is None
    assert (GROUP.name, group) in state.resources
    assert (METRICS.name, metrics) in state.resources
    listed = await list_scope(admin_client, scope)
    assert group in listed.groups and metrics in listed.client_metrics and not listed.unseen
