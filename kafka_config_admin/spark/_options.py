"""The options of the ``kafka-configs`` source, parsed once into typed values.

Spark hands a data source its options as a case-insensitive mapping of strings; everything
here turns them into a :class:`SnapshotOptions` or raises :class:`InvalidArgumentError` naming
the option, so a typo fails the query at planning time with a clear message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .. import InvalidArgumentError
from ..connect import Connection, connections_from_options
from ..state import ResourceKind, ResourceScope, UserPattern

__all__ = ["SnapshotOptions", "parse_bool", "parse_names", "parse_positive_int", "parse_scope"]

#: Topics described by one Spark partition unless ``topicsPerPartition`` says otherwise.
TOPICS_PER_PARTITION = 1000


@dataclass(frozen=True)
class SnapshotOptions:
    """What a snapshot reads: which clusters, which resources, and how much of each config."""

    clusters: tuple[Connection, ...]
    scope: ResourceScope = field(default_factory=ResourceScope)
    include_synonyms: bool = False
    include_documentation: bool = False
    topics_per_partition: int = TOPICS_PER_PARTITION
    filter_pushdown: bool | None = None

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> SnapshotOptions:
        scope = parse_scope(options)
        entities = [kind.value for kind in scope.kinds if kind.resource_type is None]
        if entities:
            raise InvalidArgumentError(
                f"resourceTypes: kafka-configs reads config resources, not {', '.join(entities)} "
                "(the kafka-config-changes stream watches them)"
            )
        return cls(
            clusters=connections_from_options(options),
            scope=scope,
            include_synonyms=parse_bool(options, "synonyms", False),
            include_documentation=parse_bool(options, "documentation", False),
            topics_per_partition=parse_positive_int(options, "topicsPerPartition")
            or TOPICS_PER_PARTITION,
            filter_pushdown=(
                parse_bool(options, "filterPushdown", False)
                if "filterPushdown" in options
                else None
            ),
        )


def parse_scope(options: Mapping[str, str]) -> ResourceScope:
    """Which resources of a cluster the options select (``resourceTypes``, ``topics``,
    ``topicPattern``, ``includeInternal``, ``brokers``, ``groups``, ``clientMetrics``): the
    same options for the snapshot source and the change stream."""
    kinds = tuple(
        dict.fromkeys(_kind(name) for name in _names(options.get("resourceTypes", "topic")))
    )
    if not kinds:
        raise InvalidArgumentError("resourceTypes names no resource type")
    return ResourceScope(
        kinds=kinds,
        topics=_optional_names(options, "topics"),
        topic_pattern=_pattern(options.get("topicPattern")),
        include_internal=parse_bool(options, "includeInternal", False),
        brokers=_optional_names(options, "brokers"),
        groups=_optional_names(options, "groups"),
        client_metrics=_optional_names(options, "clientMetrics"),
    )


def parse_bool(options: Mapping[str, str], name: str, default: bool) -> bool:
    """An option that is ``true`` or ``false`` (any case), or its default when absent."""
    text = options.get(name)
    if text is None:
        return default
    lowered = text.strip().lower()
    if lowered not in ("true", "false"):
        raise InvalidArgumentError(f"option {name} must be true or false, got {text!r}")
    return lowered == "true"


def parse_names(options: Mapping[str, str], name: str) -> tuple[str, ...]:
    """An option that is a comma-separated list of names (``overrideRules``), or none."""
    return _names(options.get(name, ""))


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
    return ResourceKind.parse(name, where="resourceTypes: ")


def _pattern(text: str | None) -> UserPattern | None:
    return None if text is None else UserPattern(text, "topicPattern")


def parse_positive_int(options: Mapping[str, str], name: str) -> int | None:
    """An option that is a whole number, at least 1, or None when absent."""
    text = options.get(name)
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise InvalidArgumentError(f"option {name} must be a positive integer, got {text!r}")
    return value
