"""One node of three frozen (SIGSTOP, or `docker pause` in containers) during alters: hedged calls
succeed, timeouts say so.

The node frozen is the one that matters: the broker the client sends its changes to, or the
active controller behind a healthy broker that forwards to it. Every change is read back
afterwards: applied once, never partly.
"""

from __future__ import annotations

import itertools
import os

import anyio
import pytest
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    BrokerIdNotRegisteredError,
    ConfigResource,
    KafkaConfigAdminError,
    KafkaConnectionError,
    KafkaTimeoutError,
    OutcomeUnknownError,
    ResourceType,
)
from kafka_config_admin._net.brokers import CHANGES
from kafka_config_admin.testing import KafkaCluster

from .helpers import active_controller, frozen

pytestmark = [pytest.mark.integration, pytest.mark.kafka(brokers=3)]

_batch = itertools.count()


async def new_topics(cluster: KafkaCluster, admin: AdminClient, count: int) -> list[ConfigResource]:
    """Create ``count`` topics in one request and wait until every broker describes them."""
    batch = next(_batch)
    names = [f"sick{os.getpid()}-{batch}-{n}" for n in range(count)]
    creator = AIOKafkaAdminClient(bootstrap_servers=cluster.bootstrap_servers)
    await creator.start()
    try:
        await creator.create_topics([NewTopic(name, 1, 1) for name in names])
    finally:
        await creator.close()
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    with anyio.fail_after(30):
        while True:
            results = [admin.describe_configs(topics) for _ in range(6)]  # reaches each broker
            for result in results:
                await result.wait()
            if not any(result.errors() for result in results):
                return topics
            await anyio.sleep(0.2)


async def read_back(admin: AdminClient, topics: list[ConfigResource], value: str) -> None:
    """Every topic shows ``value`` for retention.ms (brokers learn it a moment after the alter)."""
    with anyio.fail_after(30):
        while True:
            configs = await admin.describe_configs({t: ["retention.ms"] for t in topics}).all()
            seen = {t: configs[t]["retention.ms"].value for t in topics}
            if all(v == value for v in seen.values()):
                return
            await anyio.sleep(0.2)


async def send_changes_to(admin: AdminClient, node: int, topic: ConfigResource) -> None:
    """Make ``node`` the broker the client sends its changes to, its connection open."""
    with anyio.fail_after(20):
        while True:
            try:
                await admin._transport._connect(node, CHANGES)
            # A broker just restarted or resumed: not in the metadata yet, or fenced until it
            # registers again.
            except (KafkaConnectionError, BrokerIdNotRegisteredError):
                await admin._transport.refresh_metadata()
                await anyio.sleep(0.5)
                continue
            admin._transport.choice.prefer(CHANGES, node)
            await admin.incremental_alter_configs({topic: _retention(3_599_999)}).all()
            if admin._transport.choice.chosen[CHANGES] == node:
                return


def _retention(value: int) -> list[AlterConfigOp]:
    return [AlterConfigOp("retention.ms", str(value))]


@pytest.mark.parametrize("role", ["active controller", "broker the client uses"])
async def test_alters_of_20_topics_survive_one_frozen_node(
    kafka_cluster: KafkaCluster, role: str
) -> None:
    async with AdminClient(kafka_cluster.bootstrap_servers) as admin:
        topics = await new_topics(kafka_cluster, admin, 20)
        controller = active_controller(kafka_cluster)
        others = [node for node in kafka_cluster.broker_ids if node != controller]
        # The client sends its changes to a broker that is not the controller, so that the
        # two roles are tried apart.
        await send_changes_to(admin, others[0], topics[0])
        victim = controller if role == "active controller" else others[0]
        value = 3_600_000 + next(_batch)
        with frozen(kafka_cluster, victim), anyio.fail_after(65):
            result = admin.incremental_alter_configs(dict.fromkeys(topics, _retention(value)))
            await result.wait()
        assert result.errors() == {}, result.errors()
        await read_back(admin, topics, str(value))


async def test_a_change_sent_and_never_answered_is_outcome_unknown(
    kafka_cluster: KafkaCluster,
) -> None:
    """Every node frozen: the alter is written and unanswered, so it may have been applied."""
    async with AdminClient(kafka_cluster.bootstrap_servers, request_timeout=1.5) as admin:
        topics = await new_topics(kafka_cluster, admin, 2)
        await admin.incremental_alter_configs(dict.fromkeys(topics, _retention(3_600_001))).all()
        with frozen(kafka_cluster, *kafka_cluster.broker_ids), anyio.fail_after(10):
            result = admin.incremental_alter_configs(
                dict.fromkeys(topics, _retention(7_200_000)), timeout=3
            )
            await result.wait()
        for topic in topics:
            error = result.values[topic].exception()
            assert isinstance(error, OutcomeUnknownError), error
            assert isinstance(error, KafkaTimeoutError)  # caught by existing handlers
            assert str(error).startswith("outcome unknown: the change may have been applied")
            assert "describe_configs" in str(error) and topic.name in str(error)


async def test_a_change_never_sent_is_not_outcome_unknown(kafka_cluster: KafkaCluster) -> None:
    """The broker a BROKER resource must go to is down: nothing was written, nothing applied."""
    victim = kafka_cluster.broker_ids[-1]
    broker = ConfigResource(ResourceType.BROKER, str(victim))
    kafka_cluster.stop_broker(victim)
    try:
        async with AdminClient(kafka_cluster.bootstrap_servers) as admin:
            result = admin.incremental_alter_configs(
                {broker: [AlterConfigOp("log.cleaner.threads", "2")]}, timeout=3
            )
            with anyio.fail_after(10):
                await result.wait()
        error = result.values[broker].exception()
        # Nothing was written: the error says what went wrong, never "outcome unknown".
        assert isinstance(error, KafkaConfigAdminError), error
        assert not isinstance(error, OutcomeUnknownError), error
    finally:
        kafka_cluster.start_broker(victim)


async def test_a_killed_active_controller_is_replaced_and_comes_back(
    kafka_cluster: KafkaCluster,
) -> None:
    """SIGKILL (no controlled shutdown) to the quorum's leader: another node leads, changes go
    on through the survivors, and the killed node restarts on its old log and rejoins."""
    async with AdminClient(kafka_cluster.bootstrap_servers) as admin:
        topics = await new_topics(kafka_cluster, admin, 2)
        victim = active_controller(kafka_cluster)
        await anyio.to_thread.run_sync(kafka_cluster.kill_broker, victim)
        try:
            with anyio.fail_after(30):  # the survivors elect a leader once the fetch times out
                while True:
                    if active_controller(kafka_cluster) != victim:
                        break
                    await anyio.sleep(0.5)
            value = 3_600_000 + next(_batch)
            with anyio.fail_after(40):
                await admin.incremental_alter_configs(
                    dict.fromkeys(topics, _retention(value))
                ).all()
        finally:
            await anyio.to_thread.run_sync(kafka_cluster.start_broker, victim)
        # A broker's own config is described by that broker: the restarted node answers.
        broker = ConfigResource(ResourceType.BROKER, str(victim))
        with anyio.fail_after(30):
            await admin.describe_configs({broker: ["log.dirs"]}).all()
        await read_back(admin, topics, str(value))
    # server_log keeps what the node logged before the kill.
    assert f"[RaftManager id={victim}] Completed transition to Leader" in kafka_cluster.server_log(
        victim
    )
