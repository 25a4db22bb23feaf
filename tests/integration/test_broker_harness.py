"""The broker harness itself: a real KRaft cluster with SASL, ACLs and the test policy.

Uses aiokafka's admin client (not this project's SDK) so the harness is tested independently.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import docker
import pytest
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

from kafka_config_admin.testing import (
    POLICY_MIN_RETENTION_MS,
    BrokerStartupError,
    ContainerCluster,
    JvmCluster,
    KafkaCluster,
    live_container_ids,
    live_pids,
    selected_backend,
    start_cluster,
)
from kafka_config_admin.testing._docker import HARNESS_LABEL

pytestmark = pytest.mark.integration

POLICY_VIOLATION = 44
TOPIC_AUTHORIZATION_FAILED = 29
TOPIC_ALREADY_EXISTS = 36
_names = itertools.count()


def _topic_name() -> str:
    return f"harness-{os.getpid()}-{next(_names)}"


def _error_codes(node: Any) -> list[int]:
    """Every ``error_code`` anywhere in a decoded response (``Response.to_object()``)."""
    if isinstance(node, dict):
        own = [int(v) for k, v in node.items() if k == "error_code"]
        return own + [code for v in node.values() for code in _error_codes(v)]
    if isinstance(node, list | tuple):
        return [code for item in node for code in _error_codes(item)]
    return []


def _codes(responses: Any) -> list[int]:
    items = responses if isinstance(responses, list) else [responses]
    return [code for response in items for code in _error_codes(response.to_object())]


@asynccontextmanager
async def _admin(bootstrap: str, **kwargs: Any) -> AsyncIterator[AIOKafkaAdminClient]:
    client = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=15000, **kwargs)
    await client.start()
    try:
        yield client
    finally:
        await client.close()


def _sasl(cluster: KafkaCluster, username: str, mechanism: str) -> dict[str, Any]:
    user = cluster.users[username]
    return {
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": mechanism,
        "sasl_plain_username": user.username,
        "sasl_plain_password": user.password,
    }


async def _create_topic(bootstrap: str) -> str:
    name = _topic_name()
    async with _admin(bootstrap) as admin:
        response = await admin.create_topics([NewTopic(name, 1, 1)])
    assert set(_codes(response)) <= {0}, response
    return name


async def _topic_configs(admin: AIOKafkaAdminClient, topic: str) -> tuple[list[int], list[str]]:
    """Describe a topic until every broker knows it; return error codes and config names."""
    resource = ConfigResource(ConfigResourceType.TOPIC, topic)
    for _ in range(50):  # brokers learn about new topics from the controller asynchronously
        responses = await admin.describe_configs([resource])
        codes = _codes(responses)
        if 3 not in codes:  # UNKNOWN_TOPIC_OR_PARTITION
            break
        await asyncio.sleep(0.1)
    names = [
        entry["config_names"] if "config_names" in entry else entry["config_name"]
        for response in responses
        for res in response.to_object()["resources"]
        for entry in res["config_entries"]
    ]
    return codes, names


async def test_create_topic_and_describe_its_configs(kafka_bootstrap: str) -> None:
    topic = await _create_topic(kafka_bootstrap)
    async with _admin(kafka_bootstrap) as admin:
        codes, names = await _topic_configs(admin, topic)
    assert set(codes) == {0}
    assert "retention.ms" in names


@pytest.mark.kafka(brokers=3)
async def test_metadata_lists_three_brokers(kafka_cluster: KafkaCluster) -> None:
    async with _admin(kafka_cluster.bootstrap_servers) as admin:
        described = await admin.describe_cluster()
    assert sorted(b["node_id"] for b in described["brokers"]) == [1, 2, 3]
    assert kafka_cluster.broker_ids == [1, 2, 3]


@pytest.mark.kafka(sasl=True)
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256"])
async def test_alice_authenticates_but_is_refused(
    kafka_cluster: KafkaCluster, mechanism: str
) -> None:
    topic = await _create_topic(kafka_cluster.bootstrap_servers)
    sasl_bootstrap = kafka_cluster.sasl_bootstrap_servers
    assert sasl_bootstrap is not None
    async with _admin(sasl_bootstrap, **_sasl(kafka_cluster, "alice", mechanism)) as alice:
        create = await alice.create_topics([NewTopic(_topic_name(), 1, 1)])
        described = await alice.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)])
    assert TOPIC_AUTHORIZATION_FAILED in _codes(create)
    assert TOPIC_AUTHORIZATION_FAILED in _codes(described)


@pytest.mark.kafka(sasl=True)
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
async def test_admin_over_sasl_succeeds(kafka_cluster: KafkaCluster, mechanism: str) -> None:
    sasl_bootstrap = kafka_cluster.sasl_bootstrap_servers
    assert sasl_bootstrap is not None
    async with _admin(sasl_bootstrap, **_sasl(kafka_cluster, "admin", mechanism)) as admin:
        topic = _topic_name()
        assert set(_codes(await admin.create_topics([NewTopic(topic, 1, 1)]))) == {0}
        codes, names = await _topic_configs(admin, topic)
    assert set(codes) == {0}
    assert "retention.ms" in names


@pytest.mark.kafka(policy=True)
async def test_policy_rejects_short_retention_and_accepts_long(kafka_cluster: KafkaCluster) -> None:
    assert kafka_cluster.policy_rule is not None
    assert str(POLICY_MIN_RETENTION_MS) in kafka_cluster.policy_rule
    topic = await _create_topic(kafka_cluster.bootstrap_servers)
    async with _admin(kafka_cluster.bootstrap_servers) as admin:
        await _topic_configs(admin, topic)  # wait until the topic is known everywhere

        async def alter(value: str) -> list[int]:
            resource = ConfigResource(ConfigResourceType.TOPIC, topic, {"retention.ms": value})
            return _codes(await admin.alter_configs([resource]))

        assert POLICY_VIOLATION in await alter("1000")
        assert set(await alter(str(POLICY_MIN_RETENTION_MS * 2))) == {0}
        assert set(await alter("-1")) == {0}


@pytest.mark.kafka(brokers=3)
async def test_stop_and_restart_one_broker(kafka_cluster: KafkaCluster) -> None:
    await asyncio.to_thread(kafka_cluster.stop_broker, 3)
    try:
        survivors = ",".join(kafka_cluster.bootstrap_for(n) for n in (1, 2))
        topic = await _create_topic(survivors)  # the 2-of-3 quorum still accepts writes
        async with _admin(survivors) as admin:
            brokers = [b["node_id"] for b in (await admin.describe_cluster())["brokers"]]
            assert 3 not in brokers or await _eventually_without(admin, 3)
            assert topic in await admin.list_topics()
    finally:
        await asyncio.to_thread(kafka_cluster.start_broker, 3)
    async with _admin(kafka_cluster.bootstrap_for(3)) as admin:
        described = await admin.describe_cluster()
    assert sorted(b["node_id"] for b in described["brokers"]) == [1, 2, 3]


async def _eventually_without(admin: AIOKafkaAdminClient, node_id: int) -> bool:
    """The controller fences a stopped broker after its session times out; wait for that."""
    for _ in range(100):
        brokers = [b["node_id"] for b in (await admin.describe_cluster())["brokers"]]
        if node_id not in brokers:
            return True
        await asyncio.sleep(0.2)
    return False


def _java_pids_under(prefix: str) -> list[int]:
    """PIDs of java processes whose command line mentions ``prefix`` (our node directories)."""
    out = subprocess.run(
        ["ps", "-ww", "-eo", "pid=,args="], capture_output=True, text=True, check=True
    ).stdout
    return [
        int(line.split(None, 1)[0])
        for line in out.splitlines()
        if "java" in line and prefix in line
    ]


def _harness_containers() -> set[str]:
    """Ids of every container the harness started on this engine (running or not)."""
    if selected_backend() != "container":
        return set()
    client = docker.from_env()
    try:
        return {c.id for c in client.containers.list(all=True, filters={"label": HARNESS_LABEL})}
    finally:
        client.close()


def test_bad_option_fails_fast_with_log_tail_and_leaves_nothing_running() -> None:
    jvms_before = set(_java_pids_under("kca-kafka-"))
    containers_before = _harness_containers()
    started = time.monotonic()
    with pytest.raises(BrokerStartupError) as caught:
        start_cluster(brokers=1, extra_properties={"num.io.threads": "0"})
    assert time.monotonic() - started < 60
    assert "num.io.threads" in caught.value.log_tail
    assert "broker log tail" in str(caught.value)
    assert caught.value.node_id == 1
    assert set(_java_pids_under("kca-kafka-")) <= jvms_before
    assert set(live_pids()) <= jvms_before
    assert _harness_containers() <= containers_before
    assert set(live_container_ids()) <= containers_before


@pytest.fixture
def own_cluster() -> Iterator[KafkaCluster]:
    with start_cluster(brokers=1) as cluster:  # the session's backend: a JVM or a container
        yield cluster


def test_stop_leaves_nothing_running(own_cluster: KafkaCluster) -> None:
    if isinstance(own_cluster, JvmCluster):
        directory = str(own_cluster.directory)
        assert _java_pids_under(directory), "the broker should be running"
        own_cluster.stop()
        assert _java_pids_under(directory) == []
    else:
        assert isinstance(own_cluster, ContainerCluster)
        container = own_cluster.container_id(1)
        assert container in _harness_containers(), "the broker's container should exist"
        own_cluster.stop()
        assert container not in _harness_containers()
        assert container not in live_container_ids()


def _broker_command_line(cluster: KafkaCluster) -> list[str]:
    """The command line broker 1 runs with, read from ``/proc`` where its JVM runs."""
    if isinstance(cluster, JvmCluster):
        (pid,) = _java_pids_under(str(cluster.directory / "node-1"))
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            raw = cmdline.read()
    else:
        assert isinstance(cluster, ContainerCluster)
        client = docker.from_env()
        try:
            container = client.containers.get(cluster.container_id(1))
            raw = container.exec_run(["cat", "/proc/1/cmdline"]).output
        finally:
            client.close()
    return raw.decode().split("\0")


async def test_a_broker_runs_with_the_heap_asked_for() -> None:
    with start_cluster(brokers=1, broker_heap="768M") as cluster:
        flags = _broker_command_line(cluster)
        assert [flag for flag in flags if flag.startswith("-Xmx")] == ["-Xmx768m"]
        assert "kafka.Kafka" in flags
        await _create_topic(cluster.bootstrap_servers)  # and it answers
