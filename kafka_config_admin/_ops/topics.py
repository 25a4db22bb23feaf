"""What the topic calls send and how their answers become outcomes (no I/O).

``list_topics`` is one Metadata request for every topic, filtered here; ``create_topics`` is
one CreateTopics request (any broker forwards it to the controller), one outcome per topic.
Both run on the same engine as the config calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._exceptions import BrokerError, InvalidArgumentError, RequestTimedOutError, error_for_code
from .._models.configs import (
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ResourceType,
    config_of,
    is_sensitive_name,
)
from .._models.redaction import redact
from .._models.topics import CreatedTopic, NewTopic, TopicListing, colliding_names, topic_id_text
from .._protocol import CREATE_TOPICS, METADATA
from .configs import Operation

__all__ = ["CreateTopics", "ListTopics"]

TopicPattern = str | re.Pattern[str] | None
"""What ``list_topics`` matches names with."""

#: The one key of a listing: a listing has a single outcome, the whole list.
_LISTING = None


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
            listed.append(
                TopicListing(
                    name=name,
                    topic_id=topic_id_text(topic["topic_id"]),
                    is_internal=topic["is_internal"],
                    num_partitions=len(partitions),
                    replication_factor=len(partitions[0]["replica_nodes"]) if partitions else None,
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
class CreateTopics(Operation[str, CreatedTopic]):
    """CreateTopics: one request for every topic, one outcome per topic name."""

    topics: dict[str, NewTopic]
    validate_only: bool
    timeout_ms: int

    codec = CREATE_TOPICS
    # Not hedged (a second create answers TOPIC_ALREADY_EXISTS), but a create written and
    # never answered may have happened.
    mutates = True
    # A topic answered REQUEST_TIMED_OUT is being created (its leader not elected within
    # timeout_ms, as a ZooKeeper-era broker answers for a replica on a missing broker): sent
    # again, it would come back TOPIC_ALREADY_EXISTS, a failure for a topic this call made.
    not_retried = (RequestTimedOutError,)
    throttle_from_version = 3
    _results_key = "topics"

    @classmethod
    def build(
        cls, new_topics: Iterable[NewTopic], *, validate_only: bool, timeout_ms: int
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
        return cls(topics=topics, validate_only=bool(validate_only), timeout_ms=timeout_ms)

    @property
    def resources(self) -> list[str]:
        return list(self.topics)

    def body(self, resources: Sequence[str], version: int) -> dict[str, Any]:
        return {
            "topics": [_topic_body(self.topics[name]) for name in resources],
            "timeout_ms": self.timeout_ms,
            "validate_only": self.validate_only,
        }

    def answered(self, result: Mapping[str, Any]) -> str:
        name: str = result["name"]
        return name

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

    def subject(self, resource: str) -> object:
        return ConfigResource(ResourceType.TOPIC, resource)

    def redact(self, resource: str, message: str | None) -> str | None:
        configs = self.topics[resource].configs
        return redact(
            message, {key: value for key, value in configs.items() if is_sensitive_name(key)}
        )


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
