"""Small helpers for the integration tests: unique topics, made with aiokafka."""

from __future__ import annotations

import itertools
import os

import anyio
import pytest
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    BrokerError,
    ConfigEntry,
    ConfigResource,
    InvalidConfigError,
    InvalidRequestError,
    ResourceType,
    UnknownTopicOrPartitionError,
)
from kafka_config_admin.testing import JvmCluster, KafkaCluster

_counter = itertools.count()


def unique_name() -> str:
    """A topic name no other test (nor test run) uses."""
    return f"t{os.getpid()}-{next(_counter)}"


async def new_topic(
    admin: AdminClient, bootstrap: str, configs: dict[str, str] | None = None
) -> str:
    """Create a topic with a unique name and wait until every broker can describe it."""
    name = unique_name()
    creator = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await creator.start()
    try:
        await creator.create_topics([NewTopic(name, 1, 1, topic_configs=configs or {})])
    finally:
        await creator.close()
    await wait_until_described(admin, name)
    return name


async def wait_until_described(admin: AdminClient, name: str) -> None:
    """Wait until every broker can describe the new topic (at most 20 s)."""
    resource = ConfigResource(ResourceType.TOPIC, name)
    with anyio.fail_after(20):
        while True:  # brokers learn of new topics asynchronously from the controller
            results = [admin.describe_configs({resource: ["retention.ms"]}) for _ in range(6)]
            try:
                for result in results:
                    await result.all()
                return
            except UnknownTopicOrPartitionError:
                await anyio.sleep(0.1)


async def alter_topic(admin: AdminClient, name: str, key: str, value: str) -> None:
    topic = ConfigResource(ResourceType.TOPIC, name)
    await admin.incremental_alter_configs({topic: [AlterConfigOp(key, value)]}).all()


async def settled_entry(
    admin: AdminClient, resource: ConfigResource, key: str, expected: str | None
) -> ConfigEntry:
    """The entry once it shows ``expected``.

    Alters are applied by the controller and reach each broker a moment later, so a describe
    right after an alter may still see the old value on the broker it asks; Java's client
    behaves the same. Fails with the last value seen after 15 s.
    """
    entry = None
    with anyio.move_on_after(15):
        while True:
            config = await admin.describe_configs({resource: [key]}, include_synonyms=True).values[
                resource
            ]
            entry = config.get(key)
            if entry is not None and entry.value == expected:
                return entry
            await anyio.sleep(0.05)
    raise AssertionError(f"{key} of {resource} is {entry and entry.value!r}, not {expected!r}")


def jvm_cluster(cluster: KafkaCluster) -> JvmCluster:
    """The session cluster when its nodes are local JVMs; else a skip saying why.

    Fault tests find the active controller in the nodes' server logs and put a proxy in front
    of their listeners, which only the jvm backend offers.
    """
    if not isinstance(cluster, JvmCluster):
        pytest.skip(
            f"needs the jvm backend (node logs and listeners); the session runs {cluster.backend}"
        )
    return cluster


def invalid_config_error(release: tuple[int, ...]) -> type[BrokerError]:
    """What a broker answers for a config value it refuses: INVALID_CONFIG, but INVALID_REQUEST
    from the 2.x brokers (seen on 2.5.1; 3.9.1 and 4.x send INVALID_CONFIG)."""
    return InvalidConfigError if release >= (3, 0) else InvalidRequestError
