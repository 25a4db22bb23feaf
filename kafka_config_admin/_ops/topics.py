"""What the topic and partition calls send and how their answers become outcomes (no I/O).

``list_topics`` is one Metadata request for every topic, filtered here; ``create_topics`` is
one CreateTopics request, one outcome per topic. ``describe_topics`` is one Metadata request
for the named topics, one outcome per topic; ``create_partitions`` one CreatePartitions
request, one outcome per topic; ``alter_partition_reassignments`` one
AlterPartitionReassignments request, one outcome per partition;
``list_partition_reassignments`` one ListPartitionReassignments request. All run on the same
engine as the config calls. The changes go to the broker the metadata names as controller (a
ZooKeeper-era broker answers NOT_CONTROLLER otherwise; a KRaft broker forwards them to the
quorum's leader).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .._exceptions import BrokerError, InvalidArgumentError, RequestTimedOutError, error_for_code
from .._models.configs import (
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ResourceType,
    config_of,
    is_sensitive,
)
from .._models.redaction import redact
from .._models.topics import (
    CreatedTopic,
    NewPartitions,
    NewTopic,
    PartitionInfo,
    PartitionReassignment,
    TopicDescription,
    TopicListing,
    TopicPartition,
    check_topic_name,
    colliding_names,
    replica_list,
    topic_id_text,
)
from .._models.validation import given
from .._protocol import (
    ALTER_PARTITION_REASSIGNMENTS,
    CREATE_PARTITIONS,
    CREATE_TOPICS,
    LIST_PARTITION_REASSIGNMENTS,
    METADATA,
)
from .base import Operation

__all__ = [
    "AlterPartitionReassignments",
    "CreatePartitions",
    "CreateTopics",
    "DescribeTopics",
    "DescribeTopicsOn",
    "ListPartitionReassignments",
    "ListTopics",
]

TopicPattern = str | re.Pattern[str] | None
"""What ``list_topics`` matches names with."""

#: The one key of a listing: a listing has a single outcome, the whole list.
_LISTING = None

#: Where a change goes: the controller the metadata names, None when it names none.
Controller = Callable[[], int | None]
#: What one topic's future gets; what a change asks of one topic.
V = TypeVar("V")
W = TypeVar("W")


@dataclass
class ListTopics(Operation[None, list[TopicListing]]):
    """Metadata for every topic, filtered by name (``fullmatch``) and internal flag."""

    pattern: re.Pattern[str] | None
    include_internal: bool

    codec = METADATA
    throttle_from_version = 6
    hedged = True  # a read: asking a second broker is harmless

    @classmethod
    def build(cls, pattern: TopicPattern, *, include_internal: bool) -> ListTopics:
        return cls(pattern=_compiled(pattern), include_internal=bool(include_internal))

    @property
    def resources(self) -> list[None]:
        return [_LISTING]

    def body(self, resources: Sequence[None], version: int) -> dict[str, Any]:
        body: dict[str, Any] = {"topics": None if version >= 1 else []}  # every topic
        if version >= 4:
            body["allow_auto_topic_creation"] = False
        return body

    def outcomes(
        self, resources: Sequence[None], response: Mapping[str, Any]
    ) -> Iterator[tuple[None, list[TopicListing] | BrokerError]]:
        code = response["error_code"]
        if code:
            yield _LISTING, error_for_code(code, None, resource=self.subject(_LISTING))
        else:
            yield _LISTING, self.listings(response["topics"])

    def listings(self, topics: Iterable[Mapping[str, Any]]) -> list[TopicListing]:
        # A topic the broker reports with an error (one still being created) is listed too,
        # as the Java client does; its partitions may be missing.
        pattern, include_internal = self.pattern, self.include_internal
        listed = []
        for topic in topics:
            name = topic["name"]
            if name is None or (topic["is_internal"] and not include_internal):
                continue
            if pattern is not None and not pattern.fullmatch(name):
                continue
            partitions = topic["partitions"]
            counts = {len(partition["replica_nodes"]) for partition in partitions}
            listed.append(
                TopicListing(
                    name=name,
                    topic_id=topic_id_text(topic["topic_id"]),
                    is_internal=topic["is_internal"],
                    num_partitions=len(partitions),
                    replication_factor=counts.pop() if len(counts) == 1 else None,
                )
            )
        listed.sort(key=lambda listing: listing.name)
        return listed

    def subject(self, resource: None) -> object:
        return "the topic list"


def _compiled(pattern: TopicPattern) -> re.Pattern[str] | None:
    if pattern is None:
        return None
    if isinstance(pattern, re.Pattern):
        if not isinstance(pattern.pattern, str):
            raise InvalidArgumentError("pattern must be a str pattern, not a bytes pattern")
        return pattern
    if not isinstance(pattern, str):
        raise InvalidArgumentError(
            f"pattern must be a str or re.Pattern, got {type(pattern).__name__}"
        )
    try:
        return re.compile(pattern)
    except re.error as error:
        raise InvalidArgumentError(
            f"pattern {pattern!r} is not a regular expression: {error}"
        ) from None


_SOURCES = {source.value: source for source in ConfigSource}


@dataclass
class _TopicChange(Operation[str, V], Generic[W, V]):
    """A change to named topics that the controller makes: one request for every topic, one
    outcome per topic name. Not hedged: sent twice, the second answers that it is done already
    (TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS); a change written and never answered may have
    been made."""

    topics: dict[str, W]
    validate_only: bool
    timeout_ms: int
    controller: Controller

    mutates = True

    @property
    def resources(self) -> list[str]:
        return list(self.topics)

    def destination(self, resource: str) -> int | None:
        return self.controller()

    def body(self, resources: Sequence[str], version: int) -> dict[str, Any]:
        return {
            "topics": [self.topic_body(name) for name in resources],
            "timeout_ms": self.timeout_ms,
            "validate_only": self.validate_only,
        }

    def topic_body(self, name: str) -> dict[str, Any]:
        """What the request asks of one topic."""
        raise NotImplementedError

    def answered(self, result: Mapping[str, Any]) -> str:
        name: str = result["name"]
        return name

    def subject(self, resource: str) -> object:
        return _topic_subject(resource)


@dataclass
class CreateTopics(_TopicChange[NewTopic, CreatedTopic]):
    """CreateTopics: every topic in one request."""

    codec = CREATE_TOPICS
    # A topic answered REQUEST_TIMED_OUT is being created (its leader not elected within
    # timeout_ms, as a ZooKeeper-era broker answers for a replica on a missing broker): sent
    # again, it would come back TOPIC_ALREADY_EXISTS, a failure for a topic this call made.
    not_retried = (RequestTimedOutError,)
    throttle_from_version = 3
    _results_key = "topics"

    @classmethod
    def build(
        cls,
        new_topics: Iterable[NewTopic],
        *,
        validate_only: bool,
        timeout_ms: int,
        controller: Controller,
    ) -> CreateTopics:
        if isinstance(new_topics, NewTopic | str | bytes | Mapping) or not isinstance(
            new_topics, Iterable
        ):
            raise InvalidArgumentError(
                f"new_topics must be a collection of NewTopic, got {type(new_topics).__name__}"
            )
        topics: dict[str, NewTopic] = {}
        for topic in new_topics:
            if not isinstance(topic, NewTopic):
                raise InvalidArgumentError(
                    f"expected a NewTopic, got {type(topic).__name__}: {topic!r}"
                )
            if topic.name in topics:
                raise InvalidArgumentError(f"topic {topic.name!r} appears twice in one call")
            topics[topic.name] = topic
        collision = colliding_names(topics)
        if collision is not None:
            raise InvalidArgumentError(
                f"topics {collision[0]!r} and {collision[1]!r} collide: Kafka treats '.' and "
                "'_' alike in topic names"
            )
        return cls(
            topics=topics,
            validate_only=bool(validate_only),
            timeout_ms=timeout_ms,
            controller=controller,
        )

    def topic_body(self, name: str) -> dict[str, Any]:
        return _topic_body(self.topics[name])

    def value(self, resource: str, result: Mapping[str, Any]) -> CreatedTopic:
        configs = result["configs"]
        partitions, replicas = result["num_partitions"], result["replication_factor"]
        return CreatedTopic(
            name=resource,
            topic_id=topic_id_text(result["topic_id"]),
            num_partitions=None if partitions < 0 else partitions,
            replication_factor=None if replicas < 0 else replicas,
            configs=None if configs is None else _config(configs),
        )

    def redact(self, resource: str, message: str | None) -> str | None:
        configs = self.topics[resource].configs
        return redact(message, {key: value for key, value in configs.items() if is_sensitive(key)})


def _topic_body(topic: NewTopic) -> dict[str, Any]:
    assignments = topic.replica_assignments or {}
    return {
        "name": topic.name,
        "num_partitions": -1 if topic.num_partitions is None else topic.num_partitions,
        "replication_factor": -1 if topic.replication_factor is None else topic.replication_factor,
        "assignments": [
            {"partition_index": partition, "broker_ids": list(brokers)}
            for partition, brokers in assignments.items()
        ],
        "configs": [{"name": key, "value": value} for key, value in topic.configs.items()],
    }


def _config(raw_entries: list[dict[str, Any]]) -> Config:
    entries = []
    for raw in raw_entries:
        source = _SOURCES.get(raw["config_source"], ConfigSource.UNKNOWN)
        entries.append(
            ConfigEntry(
                name=raw["name"],
                value=raw["value"],
                source=source,
                is_default=source is ConfigSource.DEFAULT_CONFIG,
                is_sensitive=raw["is_sensitive"],
                is_read_only=raw["read_only"],
            )
        )
    return config_of(tuple(entries))


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
class DescribeTopicsOn(DescribeTopics):
    """Metadata for the named topics as one broker has it: what a read sent to that broker sees
    (a broker learns of a new topic or partition from the controller a moment after it is made).
    """

    broker: int = -1

    hedged = False  # the answer of this very broker is wanted

    @classmethod
    def on(cls, broker: int, topics: Iterable[str]) -> DescribeTopicsOn:
        return cls(topics=_topic_names(topics, "topics"), broker=broker)

    def destination(self, resource: str) -> int | None:
        return self.broker


@dataclass
class CreatePartitions(_TopicChange[NewPartitions, None]):
    """CreatePartitions: every topic's new partition count in one request."""

    codec = CREATE_PARTITIONS
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

    def topic_body(self, name: str) -> dict[str, Any]:
        wanted = self.topics[name]
        return {"name": name, "count": wanted.total_count, "assignments": _assignments(wanted)}

    def value(self, resource: str, result: Mapping[str, Any]) -> None:
        return None


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
            checked[_topic_partition(key)] = None if replicas is None else replica_list(replicas)
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
            partitions = [_topic_partition(key) for key in partitions]
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


def _topic_partition(key: object) -> TopicPartition:
    """``key`` as a checked TopicPartition (a plain ``(topic, partition)`` tuple will do)."""
    if not isinstance(key, tuple) or len(key) != 2:
        raise InvalidArgumentError(f"expected a TopicPartition, got {given(key)}")
    return key if isinstance(key, TopicPartition) else TopicPartition(*key)
