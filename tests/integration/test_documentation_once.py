"""Documentation asked of each broker once: the same entries, a fraction of the bytes.

``describe_configs(include_documentation=True)`` asks without documentation and fills each
entry from what the client holds for the broker that answered, asking only for keys it does
not hold yet (``_ops/documentation.py``). Each answer here is compared with the broker's own
answer to a describe with documentation, sent as it was before (``uncached``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from functools import partial

import pytest

from kafka_config_admin import AdminClient, Config, ConfigResource, ResourceType
from kafka_config_admin._ops.configs import DescribeConfigs
from kafka_config_admin._ops.results import DescribeConfigsResult
from kafka_config_admin.testing import KafkaCluster

from .helpers import alter_topic, new_topic, settled_entry

pytestmark = pytest.mark.integration

Wanted = list[ConfigResource] | Mapping[ConfigResource, list[str] | None]


async def uncached(admin: AdminClient, resources: Wanted) -> dict[ConfigResource, Config]:
    """The broker's answer with documentation in it, as every describe asked before."""
    build = partial(
        DescribeConfigs.build, resources, include_synonyms=True, include_documentation=True
    )
    result: DescribeConfigsResult = admin._engine.call(build, DescribeConfigsResult, 30)
    return await result.all()


async def documented(admin: AdminClient, resources: Wanted) -> dict[ConfigResource, Config]:
    result = admin.describe_configs(resources, include_synonyms=True, include_documentation=True)
    return await result.all()


async def received(admin: AdminClient, resources: Wanted, *, documentation: bool) -> int:
    """The bytes a describe of ``resources`` received."""
    before = admin.traffic().bytes_received
    await admin.describe_configs(
        resources, include_synonyms=True, include_documentation=documentation
    ).all()
    return admin.traffic().bytes_received - before


async def test_entries_equal_the_brokers_answer_with_documentation(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    names = [await new_topic(admin_client, kafka_bootstrap) for _ in range(3)]
    await alter_topic(admin_client, names[0], "retention.ms", "3600000")
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    await settled_entry(admin_client, topics[0], "retention.ms", "3600000")
    broker = admin_client.broker_ids()[0]
    resources = [
        *topics,
        ConfigResource(ResourceType.BROKER, str(broker)),
        ConfigResource(ResourceType.BROKER, ""),  # the cluster's default
    ]
    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        first = await documented(client, resources)  # nothing held: asked, then filled
        again = await documented(client, resources)  # everything held
        expected = await uncached(client, resources)
    assert first == expected
    assert again == expected
    entry = again[topics[0]]["retention.ms"]
    assert entry.value == "3600000" and entry.documentation
    assert all(e.documentation for e in again[topics[1]].values())
    assert again[resources[3]]["num.io.threads"].documentation


async def test_named_keys_and_a_key_held_for_one_type_only(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    broker = ConfigResource(ResourceType.BROKER, str(admin_client.broker_ids()[0]))
    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        one_key: Wanted = {topic: ["retention.ms"]}
        assert await documented(client, one_key) == await uncached(client, one_key)
        # A new key of a type partly held, and a type held for nothing yet.
        wanted: dict[ConfigResource, list[str] | None] = {topic: None, broker: ["log.retention.ms"]}
        assert await documented(client, wanted) == await uncached(client, wanted)


async def test_a_missing_topic_fails_alone_and_the_rest_are_documented(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    missing = ConfigResource(ResourceType.TOPIC, "no-such-topic-documentation-once")
    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        result = client.describe_configs([topic, missing], include_documentation=True)
        await result.wait()
        assert result.errors().keys() == {missing}
        assert all(e.documentation for e in result.values[topic].result().values())


async def test_documentation_is_received_once_per_broker(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    names = await asyncio.gather(*(new_topic(admin_client, kafka_bootstrap) for _ in range(20)))
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        plain = await received(client, topics, documentation=False)
        before = client.traffic().bytes_received
        await uncached(client, topics)
        every_time = client.traffic().bytes_received - before
        first = await received(client, topics, documentation=True)
        later = await received(client, topics, documentation=True)
    # What the broker sends when asked for documentation each time: several times the rest.
    assert every_time > 3 * plain
    # The first describe: the answer without documentation, then one topic's documentation
    # from each broker that answered; later ones, the answer without documentation alone.
    brokers = len(admin_client.broker_ids())
    assert first < plain + brokers * every_time / len(topics) * 1.2
    assert later <= plain * 1.1


async def test_describes_made_at_once_by_a_new_client_ask_for_documentation_once(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    names = await asyncio.gather(*(new_topic(admin_client, kafka_bootstrap) for _ in range(10)))
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]

    async def each_alone(client: AdminClient, documentation: bool) -> int:
        await client.describe_cluster()  # connected before the count starts
        before = client.traffic().bytes_received
        results = [
            client.describe_configs([topic], include_documentation=documentation)
            for topic in topics
        ]
        for result in results:
            await result.all()
        return client.traffic().bytes_received - before

    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        plain = await each_alone(client, False)
        before = client.traffic().bytes_received
        await uncached(client, topics[:1])
        one_topic_documented = client.traffic().bytes_received - before
    async with AdminClient(kafka_bootstrap, timeout=30) as new:
        documented_at_once = await each_alone(new, True)
    # Each broker that answered was asked for one topic's documentation, not one per call.
    brokers = len(admin_client.broker_ids())
    assert documented_at_once < plain + brokers * one_topic_documented * 1.2


async def test_a_restarted_broker_is_asked_again(
    admin_client: AdminClient, kafka_cluster: KafkaCluster, kafka_bootstrap: str
) -> None:
    node = admin_client.broker_ids()[-1]
    broker = ConfigResource(ResourceType.BROKER, str(node))
    async with AdminClient(kafka_bootstrap, timeout=60) as client:
        plain = await received(client, [broker], documentation=False)
        await documented(client, [broker])
        assert await received(client, [broker], documentation=True) <= plain * 1.1
        await asyncio.to_thread(kafka_cluster.stop_broker, node)
        await asyncio.to_thread(kafka_cluster.start_broker, node)
        after_restart = await received(client, [broker], documentation=True)
        assert after_restart > 2 * plain  # its documentation was asked for again
        assert await documented(client, [broker]) == await uncached(client, [broker])


async def test_a_new_clients_first_describe_of_one_resource_is_one_request(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    names = await asyncio.gather(*(new_topic(admin_client, kafka_bootstrap) for _ in range(2)))
    first, second = (ConfigResource(ResourceType.TOPIC, name) for name in names)
    expected = await uncached(admin_client, [first, second])
    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        await client.describe_cluster()  # connected before the count starts
        before = client.traffic().requests
        assert await documented(client, [first]) == {first: expected[first]}
        # Asked with documentation at once, not without it and then again with it.
        assert client.traffic().requests - before == 1
        plain = await received(client, [second], documentation=False)
        before, bytes_before = client.traffic().requests, client.traffic().bytes_received
        assert await documented(client, [second]) == {second: expected[second]}
        # Filled from what the first answer taught: one request without documentation.
        assert client.traffic().requests - before == 1
        assert client.traffic().bytes_received - bytes_before <= plain * 1.1


async def test_describes_of_one_held_resource_are_filled_alike_one_by_one_and_at_once(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    # The held path (``_FilledDescribe``): each answer filled as it comes, no task, no follow-up.
    names = await asyncio.gather(*(new_topic(admin_client, kafka_bootstrap) for _ in range(3)))
    await alter_topic(admin_client, names[1], "retention.ms", "7200000")
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    await settled_entry(admin_client, topics[1], "retention.ms", "7200000")
    broker = ConfigResource(ResourceType.BROKER, str(admin_client.broker_ids()[0]))
    expected = await uncached(admin_client, [*topics, broker])
    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        assert await documented(client, [topics[0]]) == {topics[0]: expected[topics[0]]}
        before = client.traffic().requests
        for topic in topics:  # one by one, a timeout given, as a tuple, as a mapping
            result = client.describe_configs(
                (topic,), include_synonyms=True, include_documentation=True, timeout=10
            )
            assert await result.values[topic] == expected[topic]
            assert await documented(client, {topic: None}) == {topic: expected[topic]}
        at_once = await asyncio.gather(*(documented(client, [topic]) for topic in topics * 10))
        assert at_once == [{topic: expected[topic]} for topic in topics * 10]
        # Every key was held: one request per describe, none asked with documentation.
        assert client.traffic().requests - before <= 2 * len(topics) + 10 * len(topics)
        # A type not held yet (the broker's keys) is still asked for, and filled alike.
        assert await documented(client, [broker]) == {broker: expected[broker]}
    entry = expected[topics[1]]["retention.ms"]
    assert entry.value == "7200000" and entry.documentation and entry.synonyms
