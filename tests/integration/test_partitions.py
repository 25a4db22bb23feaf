"""describe_topics, create_partitions and partition reassignments on the real 3-node cluster."""

from __future__ import annotations

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    InvalidArgumentError,
    InvalidPartitionsError,
    InvalidReplicaAssignmentError,
    NewPartitions,
    NewTopic,
    NoReassignmentInProgressError,
    TopicDescription,
    TopicPartition,
    UnknownTopicOrPartitionError,
)

from .helpers import unique_name, wait_until_described

pytestmark = [pytest.mark.integration, pytest.mark.kafka(brokers=3, since="2.4")]


async def created(admin: AdminClient, partitions: int, replication_factor: int) -> str:
    name = unique_name()
    await admin.create_topics([NewTopic(name, partitions, replication_factor)]).all()
    await wait_until_described(admin, name)
    return name


async def described_when(admin: AdminClient, name: str, partitions: int) -> TopicDescription:
    """The topic's description once it shows ``partitions`` (brokers learn of changes a
    moment apart)."""
    with anyio.fail_after(20):
        while True:
            description = await admin.describe_topics([name]).values[name]
            if description.num_partitions == partitions:
                return description
            await anyio.sleep(0.1)


async def test_describe_topics_shows_leader_replicas_and_isr_and_a_missing_topic_fails_alone(
    admin_client: AdminClient, kafka_broker_ids: list[int], kafka_release: tuple[int, ...]
) -> None:
    name = await created(admin_client, 3, 2)
    missing = unique_name()
    result = admin_client.describe_topics([name, missing])
    await result.wait()
    assert isinstance(result.errors()[missing], UnknownTopicOrPartitionError)
    description = await result.values[name]
    assert (description.name, description.is_internal) == (name, False)
    assert (description.topic_id is not None) == (kafka_release >= (2, 8))  # KIP-516
    assert (description.num_partitions, description.replication_factor) == (3, 2)
    assert [info.partition for info in description.partitions] == [0, 1, 2]
    for info in description.partitions:
        assert len(set(info.replicas)) == 2
        assert set(info.replicas) <= set(kafka_broker_ids)
        assert info.leader in info.replicas
        assert set(info.isr) <= set(info.replicas)
        assert info.offline_replicas == ()


async def test_create_partitions_validates_then_adds_each_topic_on_its_own(
    admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    grown, placed, shrunk = [await created(admin_client, 2, 1) for _ in range(3)]
    missing = unique_name()
    asked = {
        grown: NewPartitions(4),
        placed: NewPartitions(3, [[kafka_broker_ids[-1]]]),
        shrunk: NewPartitions(1),
        missing: NewPartitions(2),
    }
    checked = admin_client.create_partitions(asked, validate_only=True)
    await checked.wait()
    assert set(checked.errors()) == {shrunk, missing}
    assert isinstance(checked.errors()[shrunk], InvalidPartitionsError)
    assert isinstance(checked.errors()[missing], UnknownTopicOrPartitionError)
    assert (await admin_client.describe_topics([grown]).values[grown]).num_partitions == 2

    done = admin_client.create_partitions(asked)
    await done.wait()
    assert set(done.errors()) == {shrunk, missing}
    assert (await described_when(admin_client, grown, 4)).num_partitions == 4
    third = (await described_when(admin_client, placed, 3)).partitions[2]
    assert third.replicas == (kafka_broker_ids[-1],)


async def test_create_partitions_refuses_bad_input_before_sending(
    admin_client: AdminClient,
) -> None:
    with pytest.raises(InvalidArgumentError):
        NewPartitions(0)
    with pytest.raises(InvalidArgumentError):
        NewPartitions(2, [[1, 1]])
    with pytest.raises(InvalidArgumentError):
        admin_client.create_partitions({"": NewPartitions(2)})


async def test_a_reassignment_moves_a_partition_and_bad_ones_fail_alone(
    admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    name = await created(admin_client, 2, 1)
    before = await admin_client.describe_topics([name]).values[name]
    first = before.partitions[0].replicas[0]
    target = tuple([first, *(b for b in kafka_broker_ids if b != first)][:2])
    nobody = max(kafka_broker_ids) + 10
    moved, nowhere, no_topic = (
        TopicPartition(name, 0),
        TopicPartition(name, 1),
        TopicPartition(unique_name(), 0),
    )
    result = admin_client.alter_partition_reassignments(
        {moved: target, nowhere: [nobody], no_topic: [first]}
    )
    await result.wait()
    errors = result.errors()
    assert set(errors) == {nowhere, no_topic}
    assert isinstance(errors[nowhere], InvalidReplicaAssignmentError)
    assert isinstance(errors[no_topic], UnknownTopicOrPartitionError)
    with anyio.fail_after(60):  # an empty partition: the move ends at once
        while True:
            moving = await admin_client.list_partition_reassignments([moved])
            info = (await admin_client.describe_topics([name]).values[name]).partitions[0]
            if moved not in moving and info.replicas == target:
                break
            await anyio.sleep(0.1)
    # Cancelling a partition that is not moving is an error of that partition alone.
    cancelled = admin_client.alter_partition_reassignments({moved: None})
    await cancelled.wait()
    assert isinstance(cancelled.errors()[moved], NoReassignmentInProgressError)
    assert await admin_client.list_partition_reassignments([moved]) == {}
