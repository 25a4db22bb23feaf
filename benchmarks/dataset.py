"""The data set: N topics (1 partition each), every 10th with a couple of overrides."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.client import AIOKafkaClient
from aiokafka.protocol.metadata import MetadataRequest

from kafka_config_admin import AdminClient, ConfigResource, ResourceType
from kafka_config_admin.testing import start_cluster

OVERRIDES = {"retention.ms": "3600000", "max.message.bytes": "2097152"}
BATCH = 500


def topic_names(count: int) -> list[str]:
    return [f"bench-{index:05d}" for index in range(count)]


async def create(bootstrap: str, count: int, *, first: int = 0) -> list[str]:
    """Create the topics (those from number ``first`` on: the ones before exist already) and
    wait until the cluster describes every one of them."""
    names = topic_names(count)
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=120000)
    await admin.start()
    try:
        for start in range(first, count, BATCH):
            await admin.create_topics(
                [
                    NewTopic(name, 1, 1, topic_configs=OVERRIDES if index % 10 == 0 else {})
                    for index, name in enumerate(names[start : start + BATCH], start)
                ]
            )
    finally:
        await admin.close()
    await _wait_until_described(bootstrap, names)
    return names


@contextmanager
def clusters_of(count: int, *, clusters: int = 1, brokers: int = 1) -> Iterator[list[str]]:
    """``clusters`` real clusters of ``brokers`` brokers, each holding the same ``count``
    topics (:func:`topic_names`), until the block ends; their bootstrap servers."""
    with ExitStack() as stack:
        bootstraps = [
            stack.enter_context(start_cluster(brokers=brokers)).bootstrap_servers
            for _ in range(clusters)
        ]
        for bootstrap in bootstraps:
            print(f"creating {count} topics on {bootstrap} ...", flush=True)
            asyncio.run(create(bootstrap, count))
        yield bootstraps


async def _wait_until_described(bootstrap: str, names: list[str]) -> None:
    """Until every broker lists every topic and a describe of them all succeeds: a broker
    applies the controller's records a moment after another may, and a describe measured
    after this goes to whichever broker the client picks."""
    await _wait_until_every_broker_lists(bootstrap, set(names))
    resources = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    async with AdminClient(bootstrap, timeout=120) as client:
        for _ in range(100):
            result = client.describe_configs({r: ["retention.ms"] for r in resources})
            await result.wait()
            if not result.errors():
                return
            await asyncio.sleep(0.2)
    raise RuntimeError("the broker never described every benchmark topic")


async def _wait_until_every_broker_lists(bootstrap: str, names: set[str]) -> None:
    client = AIOKafkaClient(bootstrap_servers=bootstrap, request_timeout_ms=120000)
    await client.bootstrap()
    try:
        for broker in client.cluster.brokers():
            for _ in range(600):
                answer = await client.send(broker.nodeId, MetadataRequest(None))
                if names <= {topic[1] for topic in answer.topics if topic[0] == 0}:
                    break
                await asyncio.sleep(0.2)
            else:
                raise RuntimeError(f"broker {broker.nodeId} never listed every benchmark topic")
    finally:
        await client.close()
