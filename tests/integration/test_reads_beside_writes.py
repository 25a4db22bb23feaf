"""Reads never wait behind the client's own changes, and concurrent calls keep their own results.

A broker answers one connection's requests one at a time, in order: a describe written on the
connection that carries a slow change would wait for it. Reads and changes have a connection of
their own to each broker; the fault proxy, which holds a connection's answers in order as a
broker does, holds the change's answer to show the describe is not behind it.
"""

from __future__ import annotations

import asyncio

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AlterConfigsResult,
    ConfigResource,
    ResourceType,
    UnknownTopicOrPartitionError,
)
from kafka_config_admin.testing import KafkaCluster

from .fault_proxy import Fault, proxied
from .helpers import invalid_config_error, new_topic, unique_name

pytestmark = [pytest.mark.integration, pytest.mark.kafka(brokers=3)]

DESCRIBE_CONFIGS, INCREMENTAL_ALTER = 32, 44
#: How long the proxy holds a change's answer: far longer than a describe takes.
HELD = 3.0


async def test_a_describe_is_not_held_behind_a_slow_change_to_the_same_broker(
    kafka_cluster: KafkaCluster,
) -> None:
    """A change and a read of one broker's own configs both go to that broker."""
    node = kafka_cluster.broker_ids[0]
    broker = ConfigResource(ResourceType.BROKER, str(node))
    async with proxied(kafka_cluster) as proxies:
        proxies[node].inject(Fault(INCREMENTAL_ALTER, delay=HELD))
        async with AdminClient(f"127.0.0.1:{proxies[node].port}") as admin:
            await admin.describe_configs({broker: ["broker.id"]}).all()  # connections open
            loop = asyncio.get_running_loop()
            began = loop.time()
            change = admin.incremental_alter_configs(
                {broker: [AlterConfigOp("log.cleaner.threads", "2")]}, validate_only=True
            )
            with anyio.fail_after(HELD / 2):
                config = await admin.describe_configs({broker: ["broker.id"]}).all()
            read_in = loop.time() - began
            assert config[broker]["broker.id"].value == str(node)
            assert not change.values[broker].done()  # the change's answer is still held
            with anyio.fail_after(HELD * 4):
                await change.all()
            assert loop.time() - began >= HELD > read_in
        assert len(proxies[node].sent(INCREMENTAL_ALTER)) == 1


async def test_concurrent_alters_and_describes_each_get_their_own_outcome(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_release: tuple[int, ...]
) -> None:
    """Changes made in one moment share requests; a bad resource fails alone."""
    names = [await new_topic(admin_client, kafka_cluster.bootstrap_servers) for _ in range(12)]
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    missing = ConfigResource(ResourceType.TOPIC, unique_name())
    bad, good = topics[0], topics[1:]
    async with proxied(kafka_cluster) as proxies:
        first = next(iter(proxies.values()))
        async with AdminClient(f"127.0.0.1:{first.port}") as admin:
            # One call per resource, made in the same moment, reads beside them.
            alters: list[AlterConfigsResult] = [
                admin.incremental_alter_configs(
                    {topic: [AlterConfigOp("retention.ms", str(3_600_000 + n))]}
                )
                for n, topic in enumerate(good)
            ]
            alters.append(
                admin.incremental_alter_configs({bad: [AlterConfigOp("retention.ms", "soon")]})
            )
            alters.append(
                admin.incremental_alter_configs({missing: [AlterConfigOp("retention.ms", "1")]})
            )
            describes = [admin.describe_configs({t: ["retention.ms"]}) for t in [*topics, missing]]
            with anyio.fail_after(30):
                for alter in alters:
                    await alter.wait()
                for describe in describes:
                    await describe.wait()
        calls = len(alters)
        sent = sum(len(proxy.sent(INCREMENTAL_ALTER)) for proxy in proxies.values())
        assert sent < calls  # the calls shared requests

    for topic, alter in zip(good, alters, strict=False):
        assert alter.errors() == {}, topic
        assert alter.values[topic].result() is None
    assert isinstance(alters[-2].values[bad].exception(), invalid_config_error(kafka_release))
    assert "soon" in str(alters[-2].values[bad].exception())
    assert isinstance(alters[-1].values[missing].exception(), UnknownTopicOrPartitionError)
    for topic, describe in zip(topics, describes, strict=False):
        assert describe.errors() == {}, topic
        assert describe.values[topic].result()["retention.ms"].value is not None
    assert isinstance(describes[-1].values[missing].exception(), UnknownTopicOrPartitionError)
    # What each change set is what the cluster has now; the refused one left its topic alone.
    after = await admin_client.describe_configs({t: ["retention.ms"] for t in topics}).all()
    for n, topic in enumerate(good):
        assert after[topic]["retention.ms"].value == str(3_600_000 + n)
    assert after[bad]["retention.ms"].value == "604800000"
