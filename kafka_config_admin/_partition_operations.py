"""What the partition calls send and how their answers become outcomes (no I/O).

``describe_topics`` is one Metadata request for the named topics, one outcome per topic;
``create_partitions`` one CreatePartitions request, one outcome per topic;
``alter_partition_reassignments`` one AlterPartitionReassignments request, one outcome per
partition; ``list_partition_reassignments`` one ListPartitionReassignments request. The
changes go to the broker the metadata names as controller (a ZooKeeper-era broker answers
NOT_CONTROLLER otherwise; a KRaft broker forwards them to the quorum's leader).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._exceptions import BrokerError, InvalidArgumentError, error_for_code
from ._models import ConfigResource, ResourceType
from ._operations import Operation
from ._protocol import (
    ALTER_PARTITION_REASSIGNMENTS,
    CREATE_PARTITIONS,
    LIST_PARTITION_REASSIGNMENTS,
    METADATA,
)
from ._topic_models import (
    NewPartitions,
    PartitionInfo,
    PartitionReassignment,
    TopicDescription,
    TopicPartition,
    check_topic_name,
    replica_list,
    topic_id_text,
)

__all__ = [
    "AlterPartitionReassignments",
    "CreatePartitions",
    "DescribeTopics",
    "ListPartitionReassignments",
]

#: Where a change goes: the controller the metadata names, None when it names none.
Controller = Callable[[], int | None]

#: The one key of a listing: a listing has a single outcome, the whole list.
_LISTING = None


def _topic_names(topics: object, what: str) -> list[str]:
    if isinstance(topics, str | bytes) or not isinstance(topics, Iterable):
        raise InvalidArgumentError(
            f"{what} must be a collection of topic names, got {type(topics).__name__}"
        )
    names = [check_topic_name(name) for name in topics]
    if len(set(names)) != len(names):
        raise InvalidArgumentError(f"a topic appears twice in {what}")
    return names


def _topic_subject(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


@dataclass
class DescribeTopics(Operation[str, TopicDescription]):
    """Metadata for the named topics: partitions with leader, replicas, ISR, offline ones."""

    topics: list[str]

    codec = METADATA
    throttle_from_version = 6
    hedged = True  # a read
    _results_key = "topics"

    @classmethod
    def build(cls, topics: Iterable[str]) -> DescribeTopics:
        return cls(topics=_topic_names(topics, "topics"))

    @property
    def resources(self) -> list[str]:
        return self.topics

    def body(self, resources: Sequence[str], version: int) -> dict[str, Any]:
        body: dict[str, Any] = {
            "topics": [{"topic_id": bytes(16), "name": name} for name in resources]
        }
        if version >= 4:
            body["allow_auto_topic_creation"] = False
        return body

    def outcomes(
        self, resources: Sequence[str], response: Mapping[str, Any]
    ) -> Iterator[tuple[str, TopicDescription | BrokerError]]:
        code = response["error_code"]
        if code:
            for name in resources:
                yield name, error_for_code(code, None, resource=self.subject(name))
            return
        yield from super().outcomes(resources, response)

    def answered(self, result: Mapping[str, Any]) -> str:
        name: str = result["name"]
        return name

    def _outcome(self, resource: str, result: Mapping[str, Any]) -> TopicDescription | BrokerError:
        code = result["error_code"]
        if code:  # Metadata has no per-topic error message
            return error_for_code(code, None, resource=self.subject(resource))
        return self.value(resource, result)

    def value(self, resource: str, result: Mapping[str, Any]) -> TopicDescription:
        partitions = sorted(
            (
                PartitionInfo(
                    partition=raw["partition_index"],
                    leader=None if raw["leader_id"] < 0 else raw["leader_id"],
                    replicas=tuple(raw["replica_nodes"]),
                    isr=tuple(raw["isr_nodes"]),
                    offline_replicas=tuple(raw["offline_replicas"]),
                )
                for raw in result["partitions"]
            ),
            key=lambda info: info.partition,
        )
        return TopicDescription(
            name=resource,
            topic_id=topic_id_text(result["topic_id"]),
            is_internal=result["is_internal"],
            partitions=tuple(partitions),
        )

    def subject(self, resource: str) -> object:
        return _topic_subject(resource)


@dataclass
class CreatePartitions(Operation[str, None]):
    """CreatePartitions: one request for every topic, one outcome per topic name."""

    topics: dict[str, NewPartitions]
    validate_only: bool
    timeout_ms: int
    controller: Controller

    codec = CREATE_PARTITIONS
    mutates = True
    throttle_from_version = 1
    _results_key = "results"

    @classmethod
    def build(
        cls,
        new_partitions: Mapping[str, NewPartitions],
        *,
        validate_only: bool,
        timeout_ms: int,
        controller: Controller,
    ) -> CreatePartitions:
        if not isinstance(new_partitions, Mapping):
            raise InvalidArgumentError(
                "new_partitions must map topic names to NewPartitions, "
                f"got {type(new_partitions).__name__}"
            )
        for name, wanted in new_partitions.items():
            check_topic_name(name)
            if not isinstance(wanted, NewPartitions):
                raise InvalidArgumentError(
                    f"topic {name!r}: expected NewPartitions, got {type(wanted).__name__}"
                )
        return cls(
            topics=dict(new_partitions),
            validate_only=bool(validate_only),
            timeout_ms=timeout_ms,
            controller=controller,
        )

    @property
    def resources(self) -> list[str]:
        return list(self.topics)

    def destination(self, resource: str) -> int | None:
        return self.controller()

    def body(self, resources: Sequence[str], version: int) -> dict[str, Any]:
        return {
            "topics": [
                {
                    "name": name,
                    "count": self.topics[name].total_count,
                    "assignments": _assignments(self.topics[name]),
                }
                for name in resources
            ],
            "timeout_ms": self.timeout_ms,
            "validate_only": self.validate_only,
        }

    def answered(self, result: Mapping[str, Any]) -> str:
        name: str = result["name"]
        return name

    def value(self, resource: str, result: Mapping[str, Any]) -> None:
        return None

    def subject(self, resource: str) -> object:
        return _topic_subject(resource)


def _assignments(wanted: NewPartitions) -> list[dict[str, list[int]]] | None:
    if wanted.assignments is None:
        return None
    return [{"broker_ids": list(brokers)} for brokers in wanted.assignments]


@dataclass
class AlterPartitionReassignments(Operation[TopicPartition, None]):
    """AlterPartitionReassignments: one request, one outcome per partition.

    A partition's replicas None cancels its reassignment in progress.
    """

    reassignments: dict[TopicPartition, tuple[int, ...] | None]
    timeout_ms: int
    controller: Controller

    codec = ALTER_PARTITION_REASSIGNMENTS
    mutates = True
    throttle_from_version = 0

    @classmethod
    def build(
        cls,
        reassignments: Mapping[TopicPartition, Sequence[int] | None],
        *,
        timeout_ms: int,
        controller: Controller,
    ) -> AlterPartitionReassignments:
        if not isinstance(reassignments, Mapping):
            raise InvalidArgumentError(
                "reassignments must map TopicPartition to replica lists, "
                f"got {type(reassignments).__name__}"
            )
        checked: dict[TopicPartition, tuple[int, ...] | None] = {}
        for key, replicas in reassignments.items():
            if not isinstance(key, tuple) or len(key) != 2:
                raise InvalidArgumentError(f"expected a TopicPartition, got {key!r}")
            topic, partition = key
            check_topic_name(topic)
            if isinstance(partition, bool) or not isinstance(partition, int) or partition < 0:
                raise InvalidArgumentError(
                    f"topic {topic!r}: a partition index must be a non-negative int, "
                    f"got {partition!r}"
                )
            checked[TopicPartition(topic, partition)] = (
                None if replicas is None else replica_list(replicas)
            )
        return cls(reassignments=checked, timeout_ms=timeout_ms, controller=controller)

    @property
    def resources(self) -> list[TopicPartition]:
        return list(self.reassignments)

    def destination(self, resource: TopicPartition) -> int | None:
        return self.controller()

    def body(self, resources: Sequence[TopicPartition], version: int) -> dict[str, Any]:
        topics: dict[str, list[dict[str, Any]]] = {}
        for key in resources:
            replicas = self.reassignments[key]
            topics.setdefault(key.topic, []).append(
                {
                    "partition_index": key.partition,
                    "replicas": None if replicas is None else list(replicas),
                }
            )
        return {
            "timeout_ms": self.timeout_ms,
            "topics": [
                {"name": name, "partitions": partitions} for name, partitions in topics.items()
            ],
        }

    def outcomes(
        self, resources: Sequence[TopicPartition], response: Mapping[str, Any]
    ) -> Iterator[tuple[TopicPartition, BrokerError | None]]:
        code = response["error_code"]
        if code:
            for key in resources:
                yield key, error_for_code(code, response["error_message"], resource=key)
            return
        results = {
            TopicPartition(topic["name"], partition["partition_index"]): partition
            for topic in response["responses"]
            for partition in topic["partitions"]
        }
        for key in resources:
            result = results.get(key)
            if result is None:
                yield key, self.unanswered(key)
            elif result["error_code"]:
                yield (
                    key,
                    error_for_code(result["error_code"], result["error_message"], resource=key),
                )
            else:
                yield key, None


@dataclass
class ListPartitionReassignments(Operation[None, dict[TopicPartition, PartitionReassignment]]):
    """ListPartitionReassignments: the reassignments in progress, of some partitions or all."""

    partitions: list[TopicPartition] | None
    timeout_ms: int
    controller: Controller

    codec = LIST_PARTITION_REASSIGNMENTS
    throttle_from_version = 0

    @classmethod
    def build(
        cls,
        partitions: Iterable[TopicPartition] | None,
        *,
        timeout_ms: int,
        controller: Controller,
    ) -> ListPartitionReassignments:
        if partitions is not None:
            partitions = [TopicPartition(*key) for key in partitions]
            for key in partitions:
                check_topic_name(key.topic)
        return cls(partitions=partitions, timeout_ms=timeout_ms, controller=controller)

    @property
    def resources(self) -> list[None]:
        return [_LISTING]

    def destination(self, resource: None) -> int | None:
        return self.controller()

    def body(self, resources: Sequence[None], version: int) -> dict[str, Any]:
        topics: dict[str, list[int]] | None = None
        if self.partitions is not None:
            topics = {}
            for key in self.partitions:
                topics.setdefault(key.topic, []).append(key.partition)
        return {
            "timeout_ms": self.timeout_ms,
            "topics": None
            if topics is None
            else [{"name": name, "partition_indexes": indexes} for name, indexes in topics.items()],
        }

    def outcomes(
        self, resources: Sequence[None], response: Mapping[str, Any]
    ) -> Iterator[tuple[None, dict[TopicPartition, PartitionReassignment] | BrokerError]]:
        code = response["error_code"]
        if code:
            yield _LISTING, error_for_code(code, response["error_message"], resource=None)
            return
        yield (
            _LISTING,
            {
                TopicPartition(topic["name"], raw["partition_index"]): PartitionReassignment(
                    replicas=tuple(raw["replicas"]),
                    adding_replicas=tuple(raw["adding_replicas"]),
                    removing_replicas=tuple(raw["removing_replicas"]),
                )
                for topic in response["topics"]
                for raw in topic["partitions"]
            },
        )

    def subject(self, resource: None) -> object:
        return "the partition reassignments"
