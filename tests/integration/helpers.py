"""Small helpers for the integration tests: unique topics, made with aiokafka."""

from __future__ import annotations

import itertools
import os

import anyio
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    ResourceType,
    UnknownTopicOrPartitionError,
)

_counter = itertools.count()


async def new_topic(admin: AdminClient, bootstrap: str,
                    configs: dict[str, str] | None = None) -> str:
    """Create a topic with a unique name and wait until every broker can describe it."""
    name = f"t{os.getpid()}-{next(_counter)}"
    creator = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await creator.start()
    try:
        await creator.create_topics([NewTopic(name, 1, 1, topic_configs=configs or {})])
    finally:
        await creator.close()
    resource = ConfigResource(ResourceType.TOPIC, name)
    with anyio.fail_after(20):
        while True:  # brokers learn of new topics asynchronously from the controller
            results = [admin.describe_configs({resource: ["retention.ms"]}) for _ in range(6)]
            try:
                for result in results:
                    await result.all()
                return name
            except UnknownTopicOrPartitionError:
                await anyio.sleep(0.1)


async def alter_topic(admin: AdminClient, name: str, key: str, value: str) -> None:
    topic = ConfigResource(ResourceType.TOPIC, name)
    await admin.incremental_alter_configs({topic: [AlterConfigOp(key, value)]}).all()
