"""Small helpers for the integration tests: unique topics, made with aiokafka."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import anyio
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
from kafka_config_admin._net.brokers import READS
from kafka_config_admin.testing import KafkaCluster

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
    """Wait until every broker can describe the new topic (at most 20 s).

    Brokers learn of new topics from the controller a moment apart, and the client keeps
    asking the broker it chose, so each broker is asked in turn: a describe of the broker's own
    configs opens a connection to it, and the reads are pinned there while it stays open.
    """
    resource = ConfigResource(ResourceType.TOPIC, name)
    with anyio.fail_after(20):
        for node in admin.broker_ids():
            await admin.describe_configs(
                {ConfigResource(ResourceType.BROKER, str(node)): ["broker.id"]}
            ).all()
            while True:
                admin._transport.choice.prefer(READS, node)
                try:
                    await admin.describe_configs({resource: ["retention.ms"]}).all()
                    break
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


_QUORUM_LEADER = re.compile(
    r"\[RaftManager id=(\d+)\] Completed transition to Leader\(.*?epoch=(\d+)"
)


def active_controller(cluster: KafkaCluster) -> int:
    """The node that leads the KRaft quorum now: the latest epoch any node's log says it leads.

    Read from the quorum's logs (``server_log``: a file of the jvm backend, ``docker logs``
    of the container backend; the controllers' of a separate quorum): the SDK has no
    DescribeQuorum call, and the controller id in Metadata answers of KRaft brokers is a random
    broker, not the quorum's leader.
    """
    latest: tuple[int, int] | None = None
    for node_id in cluster.quorum_ids:
        for match in _QUORUM_LEADER.finditer(cluster.server_log(node_id)):
            epoch, leader = int(match[2]), int(match[1])
            if latest is None or epoch > latest[0]:
                latest = (epoch, leader)
    assert latest is not None, "no node has led the quorum yet"
    return latest[1]


@contextmanager
def frozen(cluster: KafkaCluster, *node_ids: int) -> Iterator[None]:
    """Every node of ``node_ids`` frozen (``paused_broker``) for the block."""
    with ExitStack() as stack:
        for node_id in node_ids:
            stack.enter_context(cluster.paused_broker(node_id))
        yield


def invalid_config_error(release: tuple[int, ...]) -> type[BrokerError]:
    """What a broker answers for a config value it refuses: INVALID_CONFIG, but INVALID_REQUEST
    from the 2.x brokers (seen on 2.5.1; 3.9.1 and 4.x send INVALID_CONFIG)."""
    return InvalidConfigError if release >= (3, 0) else InvalidRequestError
