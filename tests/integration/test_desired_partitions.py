"""Partitions and replication factors declared and applied on the real 3-node cluster."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

import anyio
import pytest
from aiokafka import AIOKafkaProducer

from kafka_config_admin import (
    AdminClient,
    ConfigResource,
    ConfigSource,
    NewTopic,
    NoReassignmentInProgressError,
    ResourceType,
    TopicDescription,
    TopicPartition,
)
from kafka_config_admin.changeset import apply_plan
from kafka_config_admin.desired import make_plan, parse_desired_state
from kafka_config_admin.state import BROKER_THROTTLE_KEYS, TOPIC_THROTTLE_KEYS, read_state
from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import run_cli, with_admin
from .conftest import SentRequests
from .helpers import unique_name, wait_until_described

pytestmark = [pytest.mark.integration, pytest.mark.kafka(brokers=3, since="2.4")]


def write(tmp_path: Path, name: str, partitions: int, replication_factor: int) -> str:
    path = tmp_path / "kafka.yaml"
    path.write_text(
        f"topics:\n  - {{name: {name}, partitions: {partitions}, "
        f"replication_factor: {replication_factor}}}\n"
    )
    return str(path)


def make(cluster: KafkaCluster, partitions: int, replication_factor: int) -> str:
    """A new topic, once every broker lists it (a broker that lags would make a plan create it
    again)."""
    name = unique_name()

    async def create(admin: AdminClient) -> None:
        await admin.create_topics([NewTopic(name, partitions, replication_factor)]).all()

    async def listed(admin: AdminClient) -> None:
        with anyio.fail_after(20):
            while True:
                if any(t.name == name for t in await admin.list_topics(re.escape(name))):
                    return
                await anyio.sleep(0.1)

    with_admin(cluster.bootstrap_servers, create)
    for node in cluster.broker_ids:
        with_admin(cluster.bootstrap_for(node), listed)
    return name


def described(
    bootstrap: str, name: str, until: Callable[[TopicDescription], bool] = lambda _: True
) -> TopicDescription:
    """The topic's description once it passes ``until`` (or after 20 s, for the test to say
    why not): the broker asked may learn of a change a moment after the one apply asked."""

    async def describe(admin: AdminClient) -> TopicDescription:
        description = await admin.describe_topics([name]).values[name]
        with anyio.move_on_after(20):
            while not until(description):
                await anyio.sleep(0.1)
                description = await admin.describe_topics([name]).values[name]
        return description

    return with_admin(bootstrap, describe)


def test_apply_adds_partitions_and_a_second_plan_is_empty(
    kafka_cluster: KafkaCluster,
    kafka_bootstrap: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = make(kafka_cluster, 2, 1)
    file = write(tmp_path, name, 5, 1)
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "-o", "json")
    assert ran.code == 3, ran.err
    planned = ran.json()["resources"][0]["partitions"]
    assert (planned["current_partitions"], planned["wanted_partitions"]) == (2, 5)
    ran = run_cli(capsys, "apply", file, "--yes", "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err
    assert described(kafka_bootstrap, name, lambda d: d.num_partitions == 5).num_partitions == 5
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err


def test_fewer_partitions_are_refused_and_nothing_is_sent(
    kafka_cluster: KafkaCluster,
    kafka_bootstrap: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    sent_requests: SentRequests,
) -> None:
    name = make(kafka_cluster, 4, 1)
    file = write(tmp_path, name, 2, 1)
    sent_requests.clear()
    ran = run_cli(capsys, "apply", file, "--yes", "-b", kafka_bootstrap)
    assert ran.code == 2, ran.err
    assert "Kafka cannot remove partitions" in ran.err
    changes = {"CreatePartitions", "AlterPartitionReassignments", "CreateTopics", "DeleteTopics"}
    assert not changes & set(sent_requests), sent_requests
    assert "IncrementalAlterConfigs" not in sent_requests
    assert described(kafka_bootstrap, name).num_partitions == 4


def settled_at(replication_factor: int, description: TopicDescription) -> bool:
    """Whether every partition has ``replication_factor`` replicas, all in sync."""
    return all(
        len(info.replicas) == replication_factor and set(info.isr) == set(info.replicas)
        for info in description.partitions
    )


def check_placement(description: TopicDescription, replication_factor: int, brokers: int) -> None:
    """Each partition on distinct brokers, and the replicas spread evenly over the brokers."""
    load: Counter[int] = Counter()
    for info in description.partitions:
        assert len(info.replicas) == replication_factor, info
        assert len(set(info.replicas)) == replication_factor, info
        load.update(info.replicas)
    counts = [load[broker] for broker in range(1, brokers + 1)]
    assert max(counts) - min(counts) <= 1, load


def test_replication_factor_up_then_down_by_reassignment_then_an_empty_plan(
    kafka_cluster: KafkaCluster,
    kafka_bootstrap: str,
    kafka_broker_ids: list[int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = make(kafka_cluster, 6, 1)
    for replication_factor in (3, 2):
        leaders = {i.partition: i.leader for i in described(kafka_bootstrap, name).partitions}
        file = write(tmp_path, name, 6, replication_factor)
        ran = run_cli(capsys, "apply", file, "--yes", "-b", kafka_bootstrap, "--throttle", "50MiB")
        assert ran.code == 0, ran.err
        assert "replication factor" in ran.err
        now = described(kafka_bootstrap, name, partial(settled_at, replication_factor))
        check_placement(now, replication_factor, len(kafka_broker_ids))
        # Each partition keeps its leader first, when the leaders were spread evenly (a
        # broker fenced for a moment on a loaded machine may have lost its leaderships: the
        # even spread of replicas then comes first).
        if set(Counter(leaders.values()).values()) == {len(leaders) // len(kafka_broker_ids)}:
            for info in now.partitions:
                assert info.replicas[0] == leaders[info.partition], (info, leaders)
        ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
        assert ran.code == 0, ran.err
    assert_no_throttles(kafka_bootstrap, name, kafka_broker_ids)


def test_a_partition_reassigned_alone_exports_and_plans_nothing_until_a_factor_is_named(
    kafka_cluster: KafkaCluster,
    kafka_bootstrap: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Kafka lets one partition get more replicas than the others: the topic then has no single
    # replication factor, and its export must not declare one (the next plan would move the
    # other partitions).
    name = make(kafka_cluster, 2, 1)
    [first, *_] = described(kafka_bootstrap, name).partitions
    added = next(b for b in kafka_cluster.broker_ids if b not in first.replicas)

    async def reassign(admin: AdminClient) -> None:
        await admin.alter_partition_reassignments(
            {TopicPartition(name, 0): [*first.replicas, added]}
        ).all()

    with_admin(kafka_bootstrap, reassign)

    def moved(description: TopicDescription) -> bool:
        in_sync = all(set(i.isr) == set(i.replicas) for i in description.partitions)
        return in_sync and [len(i.replicas) for i in description.partitions] == [2, 1]

    assert moved(described(kafka_bootstrap, name, moved))
    exported = run_cli(capsys, "export", "--match", re.escape(name), "-b", kafka_bootstrap)
    assert exported.code == 0, exported.err
    assert "replication_factor" not in exported.out and "partitions: 2" in exported.out
    exported_file = tmp_path / "exported.yaml"
    exported_file.write_text(exported.out)
    planned = run_cli(capsys, "plan", str(exported_file), "-b", kafka_bootstrap)
    assert planned.code == 0, planned.out + planned.err
    named_file = write(tmp_path, name, 2, 2)
    named = run_cli(capsys, "plan", named_file, "-b", kafka_bootstrap, "--output", "json")
    assert named.code == 3, named.err
    [moves] = [r["partitions"] for r in json.loads(named.out)["resources"] if r.get("partitions")]
    assert moves["fewest_replicas"] == 1 and moves["wanted_replication_factor"] == 2
    assert [move["partition"] for move in moves["reassignments"]] == [1]


def assert_no_throttles(bootstrap: str, name: str, broker_ids: list[int]) -> None:
    assert with_admin(bootstrap, lambda admin: _throttles(admin, name, broker_ids)) == {}


async def filled_topic(admin: AdminClient, bootstrap: str) -> str:
    """A 1-partition topic with enough data that a move at 1 kB/s lasts far longer than a
    test."""
    name = unique_name()
    await admin.create_topics([NewTopic(name, 1, 1)]).all()
    await wait_until_described(admin, name)
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=50)
    await producer.start()
    try:
        for _ in range(40):
            await producer.send(name, b"x" * 100_000)
        await producer.flush()
    finally:
        await producer.stop()
    return name


async def test_an_interrupted_throttled_reassignment_puts_the_throttles_back(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_broker_ids: list[int]
) -> None:
    name = await filled_topic(admin_client, kafka_bootstrap)
    desired = parse_desired_state(
        f"topics:\n  - {{name: {name}, partitions: 1, replication_factor: 3}}\n"
    )
    plan = make_plan(desired, await read_state(admin_client, desired))
    started = anyio.Event()

    def progress(done: int, total: int) -> None:
        started.set()

    with anyio.move_on_after(60):
        async with anyio.create_task_group() as group:

            async def run() -> None:
                await apply_plan(admin_client, plan, throttle=1000, progress=progress)

            group.start_soon(run)
            await started.wait()
            # While it runs, a plan says the move is in progress, and plans no other.
            moving = make_plan(desired, await read_state(admin_client, desired))
            [item] = moving.resources
            assert item.partitions is not None and item.partitions.in_progress == {
                0: item.partitions.in_progress[0]
            }
            assert item.partitions.reassignments == {}
            group.cancel_scope.cancel()
    assert started.is_set()
    try:
        assert await _throttles(admin_client, name, kafka_broker_ids) == {}
    finally:
        await _cancel_move(admin_client, TopicPartition(name, 0))


@pytest.mark.parametrize("interrupt", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_apply_process_puts_the_throttles_back(
    kafka_bootstrap: str, kafka_broker_ids: list[int], tmp_path: Path, interrupt: signal.Signals
) -> None:
    name = with_admin(kafka_bootstrap, lambda admin: filled_topic(admin, kafka_bootstrap))
    file = write(tmp_path, name, 1, 3)
    command = [sys.executable, "-m", "kafka_config_admin", "apply", file, "--yes"]
    command += ["-b", kafka_bootstrap, "--throttle", "1000"]
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        with_admin(kafka_bootstrap, lambda admin: _moving(admin, TopicPartition(name, 0)))
        process.send_signal(interrupt)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    try:
        assert process.returncode == 130, (out, err)
        assert b"interrupted" in err
        assert_no_throttles(kafka_bootstrap, name, kafka_broker_ids)
    finally:
        with_admin(kafka_bootstrap, lambda admin: _cancel_move(admin, TopicPartition(name, 0)))


async def _cancel_move(admin: AdminClient, key: TopicPartition) -> None:
    """Stop moving ``key`` if it still moves (once unthrottled, it may be done already)."""
    result = admin.alter_partition_reassignments({key: None})
    await result.wait()
    for error in result.errors().values():
        if not isinstance(error, NoReassignmentInProgressError):
            raise error


async def _moving(admin: AdminClient, key: TopicPartition) -> None:
    """Return once ``key`` is being moved (at most 60 s)."""
    with anyio.fail_after(60):
        while True:
            if key in await admin.list_partition_reassignments([key]):
                return
            await anyio.sleep(0.2)


async def _throttles(
    admin: AdminClient, name: str, broker_ids: list[int]
) -> dict[tuple[ConfigResource, str], str | None]:
    """The throttle keys set on the topic or its brokers, once every broker shows none (or
    those still shown after 15 s: brokers learn of a change a moment apart)."""
    topic = ConfigResource(ResourceType.TOPIC, name)
    brokers = [ConfigResource(ResourceType.BROKER, str(b)) for b in broker_ids]
    asked = {topic: list(TOPIC_THROTTLE_KEYS)} | {b: list(BROKER_THROTTLE_KEYS) for b in brokers}
    own = (ConfigSource.TOPIC_CONFIG, ConfigSource.DYNAMIC_BROKER_CONFIG)
    found: dict[tuple[ConfigResource, str], str | None] = {}
    with anyio.move_on_after(15):
        while True:
            configs = await admin.describe_configs(asked).all()
            found = {
                (resource, key): entry.value
                for resource, config in configs.items()
                for key, entry in config.items()
                if entry.source in own
            }
            if not found:
                break
            await anyio.sleep(0.1)
    return found
