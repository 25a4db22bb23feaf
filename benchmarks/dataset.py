"""The data set: N topics (1 partition each), every 10th with a couple of overrides."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from aiokafka.admin import AIOKafkaAdminClient, NewTopic

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
    """Until describes of every topic succeed three times in a row, a second apart: on several
    brokers one success says only that the broker it went to knows them all (the others' metadata
    can lag behind the controller's for a moment, and a measured describe may go to any)."""
    resources = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    async with AdminClient(bootstrap, timeout=120) as client:
        in_a_row = 0
        for _ in range(100):
            result = client.describe_configs({r: ["retention.ms"] for r in resources})
            await result.wait()
            in_a_row = 0 if result.errors() else in_a_row + 1
            if in_a_row == 3:
                return
            await asyncio.sleep(1 if in_a_row else 0.2)
    raise RuntimeError("the broker never described every benchmark topic")
