"""The options of the ``kafka-configs`` source, parsed once into typed values.

Spark hands a data source its options as a case-insensitive mapping of strings; everything
here turns them into a :class:`SnapshotOptions` or raises :class:`InvalidArgumentError` naming
the option, so a typo fails the query at planning time with a clear message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .. import InvalidArgumentError
from ..connect import Connection, connections_from_options
from ..desired import ResourceKind

__all__ = ["CONFIG_KINDS", "SnapshotOptions", "parse_bool"]

#: What ``resourceTypes`` can name: the kinds that have configs.
CONFIG_KINDS = tuple(kind for kind in ResourceKind if kind.is_config)
#: Topics described by one Spark partition unless ``topicsPerPartition`` says otherwise.
TOPICS_PER_PARTITION = 1000


@dataclass(frozen=True)
class SnapshotOptions:
    """What a snapshot reads: which clusters, which resources, and how much of each config."""

    clusters: tuple[Connection, ...]
    kinds: tuple[ResourceKind, ...] = (ResourceKind.TOPIC,)
    topics: tuple[str, ...] | None = None
    topic_pattern: re.Pattern[str] | None = None
    include_internal: bool = False
    brokers: tuple[str, ...] | None = None
    groups: tuple[str, ...] | None = None
    client_metrics: tuple[str, ...] = ()
    include_synonyms: bool = False
    include_documentation: bool = False
    topics_per_partition: int = TOPICS_PER_PARTITION
    filter_pushdown: bool | None = None

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> SnapshotOptions:
        kinds = tuple(_kind(name) for name in _names(options.get("resourceTypes", "topic")))
        if not kinds:
            raise InvalidArgumentError("resourceTypes names no resource type")
        parsed = cls(
            clusters=connections_from_options(options),
            kinds=kinds,
            topics=_optional_names(options, "topics"),
            topic_pattern=_pattern(options.get("topicPattern")),
            include_internal=parse_bool(options, "includeInternal", False),
            brokers=_optional_names(options, "brokers"),
            groups=_optional_names(options, "groups"),
            client_metrics=_names(options.get("clientMetrics", "")),
            include_synonyms=parse_bool(options, "synonyms", False),
            include_documentation=parse_bool(options, "documentation", False),
            topics_per_partition=_positive_int(options, "topicsPerPartition", TOPICS_PER_PARTITION),
            filter_pushdown=(
                parse_bool(options, "filterPushdown", False)
                if "filterPushdown" in options
                else None
            ),
        )
        if ResourceKind.CLIENT_METRICS in kinds and not parsed.client_metrics:
            # Kafka lists client-metrics resources only through an API this client lacks.
            raise InvalidArgumentError(
                "resourceTypes includes client_metrics: name them with the option "
                "clientMetrics (comma-separated)"
            )
        return parsed


def parse_bool(options: Mapping[str, str], name: str, default: bool) -> bool:
    """An option that is ``true`` or ``false`` (any case), or its default when absent."""
    text = options.get(name)
    if text is None:
        return default
    lowered = text.strip().lower()
    if lowered not in ("true", "false"):
        raise InvalidArgumentError(f"option {name} must be true or false, got {text!r}")
    return lowered == "true"


def _names(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))


def _optional_names(options: Mapping[str, str], name: str) -> tuple[str, ...] | None:
    text = options.get(name)
    if text is None:
        return None
    names = _names(text)
    if not names:
        raise InvalidArgumentError(f"option {name} is empty: leave it out to mean all")
    return names


def _kind(name: str) -> ResourceKind:
    return ResourceKind.parse(name, allowed=CONFIG_KINDS, where="resourceTypes: ")


def _pattern(text: str | None) -> re.Pattern[str] | None:
    if text is None:
        return None
    try:
        return re.compile(text)
    except re.error as error:
        raise InvalidArgumentError(
            f"topicPattern {text!r} is not a regular expression: {error}"
        ) from None


def _positive_int(options: Mapping[str, str], name: str, default: int) -> int:
    text = options.get(name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise InvalidArgumentError(f"option {name} must be a positive integer, got {text!r}")
    return value
