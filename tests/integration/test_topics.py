"""list_topics and create_topics against the real 3-broker cluster."""

from __future__ import annotations

import re

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    ConfigResource,
    ConfigSource,
    InvalidConfigError,
    InvalidReplicaAssignmentError,
    InvalidReplicationFactorError,
    NewTopic,
    PolicyViolationError,
    ResourceType,
    TopicAlreadyExistsError,
    TopicListing,
)

from .helpers import new_topic, unique_name, wait_until_described

pytestmark = pytest.mark.integration


async def listed(admin: AdminClient, name: str) -> TopicListing:
    """The topic's listing, once the broker asked knows of it."""
    with anyio.fail_after(20):
        while True:
            found = [t for t in await admin.list_topics(re.escape(name)) if t.name == name]
            if found:
                return found[0]
            await anyio.sleep(0.1)


async def test_create_with_configs_then_list_and_describe_them(admin_client: AdminClient) -> None:
    name = unique_name()
    result = admin_client.create_topics(
        [NewTopic(name, 3, 2, {"retention.ms": 3_600_000, "cleanup.policy": ["delete", "compact"]})]
    )
    created = (await result.all())[name]
    assert (created.name, created.num_partitions, created.replication_factor) == (name, 3, 2)
    assert created.topic_id is not None
    assert created.configs is not None
    assert created.configs["retention.ms"].value == "3600000"
    assert created.configs["retention.ms"].source is ConfigSource.TOPIC_CONFIG
    assert created.configs["segment.bytes"].source is not ConfigSource.TOPIC_CONFIG

    listing = await listed(admin_client, name)
    assert listing == TopicListing(name, created.topic_id, False, 3, 2)

    await wait_until_described(admin_client, name)
    topic = ConfigResource(ResourceType.TOPIC, name)
    config = await admin_client.describe_configs(
        {topic: ["retention.ms", "cleanup.policy"]}
    ).values[topic]
    assert config["retention.ms"].value == "3600000"
    assert config["retention.ms"].source is ConfigSource.TOPIC_CONFIG
    assert config["cleanup.policy"].value == "delete,compact"


@pytest.mark.compat
async def test_broker_defaults_fill_in_counts_left_out(admin_client: AdminClient) -> None:
    name = unique_name()
    created = await admin_client.create_topics([NewTopic(name)]).values[name]
    assert created.num_partitions is not None and created.num_partitions >= 1
    assert created.replication_factor is not None and created.replication_factor >= 1


@pytest.mark.compat
async def test_list_with_and_without_a_pattern(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    prefix = unique_name()
    names = [f"{prefix}-a", f"{prefix}-b", f"{prefix}x"]
    await admin_client.create_topics([NewTopic(name, 1, 1) for name in names]).all()
    for name in names:
        await listed(admin_client, name)
    everything = await admin_client.list_topics()
    assert set(names) <= {t.name for t in everything}
    assert [t.name for t in everything] == sorted(t.name for t in everything)
    assert not any(t.is_internal for t in everything)
    matched = await admin_client.list_topics(re.escape(prefix) + "-.*")
    assert [t.name for t in matched] == names[:2]
    assert await admin_client.list_topics(re.compile(re.escape(prefix))) == []  # whole names
    with_internal = await admin_client.list_topics(include_internal=True)
    assert {t.name for t in everything} <= {t.name for t in with_internal}


@pytest.mark.compat
async def test_validate_only_creates_nothing(admin_client: AdminClient) -> None:
    name = unique_name()
    result = admin_client.create_topics(
        [NewTopic(name, 2, 1, {"retention.ms": "60000"})], validate_only=True
    )
    would = await result.values[name]
    assert (would.num_partitions, would.replication_factor) == (2, 1)
    assert would.configs is not None and would.configs["retention.ms"].value == "60000"
    await anyio.sleep(0.5)  # a created topic would show up by now
    assert await admin_client.list_topics(re.escape(name)) == []
    # and the name is still free
    created = await admin_client.create_topics([NewTopic(name, 1, 1)]).values[name]
    assert created.num_partitions == 1


@pytest.mark.compat
async def test_each_topic_fails_on_its_own_with_a_typed_error(
    admin_client: AdminClient,
    kafka_bootstrap: str,
    kafka_broker_ids: list[int],
    kafka_release: tuple[int, ...],
) -> None:
    existing = await new_topic(admin_client, kafka_bootstrap)
    fine, too_many, bad_key, bad_partitions, bad_placement = (unique_name() for _ in range(5))
    placed_on_nobody = NewTopic(
        bad_placement, replica_assignments={0: [max(kafka_broker_ids) + 10]}
    )
    # A ZooKeeper-era broker takes a replica on a broker that does not exist (test_generations
    # has that case); KRaft refuses it.
    kraft = kafka_release >= (3, 0)
    result = admin_client.create_topics(
        [
            NewTopic(existing, 1, 1),
            NewTopic(fine, 1, 1),
            NewTopic(too_many, 1, len(kafka_broker_ids) + 1),
            NewTopic(bad_key, 1, 1, {"no.such.config": "1"}),
            NewTopic(bad_partitions, 1, 1, {"min.insync.replicas": "x"}),
            *([placed_on_nobody] if kraft else []),
        ]
    )
    await result.wait()
    assert (await result.values[fine]).name == fine
    errors = result.errors()
    assert set(errors) == {existing, too_many, bad_key, bad_partitions, *([bad_placement] * kraft)}
    assert isinstance(errors[existing], TopicAlreadyExistsError)
    assert errors[existing].resource == ConfigResource(ResourceType.TOPIC, existing)  # type: ignore[attr-defined]
    assert isinstance(errors[too_many], InvalidReplicationFactorError)
    assert isinstance(errors[bad_key], InvalidConfigError)
    assert "no.such.config" in str(errors[bad_key])
    assert isinstance(errors[bad_partitions], InvalidConfigError)
    assert not kraft or isinstance(errors[bad_placement], InvalidReplicaAssignmentError)
    with pytest.raises(TopicAlreadyExistsError):
        await result.all()


async def test_the_controllers_limits_are_a_policy_violation(admin_client: AdminClient) -> None:
    name = unique_name()
    result = admin_client.create_topics([NewTopic(name, 2_000_000, 1)], validate_only=True)
    with pytest.raises(PolicyViolationError, match="partitions"):
        await result.values[name]
