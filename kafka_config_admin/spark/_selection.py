"""Which resources of which clusters one snapshot describes.

The options choose clusters, resource kinds and names; the filters Spark pushes down narrow
them further. :class:`Selection` holds the narrowing, and :func:`resources_to_describe` applies
options and selection to what a cluster lists, so "a query for three topics describes three
topics". Nothing here talks to a broker.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .. import ConfigResource, ResourceType
from ..desired import ResourceKind
from ._options import SnapshotOptions

__all__ = ["PUSHABLE_COLUMNS", "Selection", "resources_to_describe"]

#: The columns whose equality, IN and prefix filters the source evaluates itself.
PUSHABLE_COLUMNS = ("cluster", "resource_type", "resource_name")


@dataclass(frozen=True)
class Selection:
    """Allowed values per pushable column (None: any), and prefixes resource names must have."""

    clusters: frozenset[str] | None = None
    resource_types: frozenset[str] | None = None
    resource_names: frozenset[str] | None = None
    name_prefixes: tuple[str, ...] = field(default=())

    def allow(self, column: str, values: Iterable[object]) -> Selection:
        """This selection and ``column IN values``; values of another type match nothing."""
        allowed = frozenset(value for value in values if isinstance(value, str))
        if column == "cluster":
            return replace(self, clusters=_both(self.clusters, allowed))
        if column == "resource_type":
            return replace(self, resource_types=_both(self.resource_types, allowed))
        return replace(self, resource_names=_both(self.resource_names, allowed))

    def with_prefix(self, prefix: str) -> Selection:
        return replace(self, name_prefixes=(*self.name_prefixes, prefix))

    def cluster_selected(self, name: str) -> bool:
        return self.clusters is None or name in self.clusters

    def type_selected(self, resource_type: ResourceType) -> bool:
        return self.resource_types is None or resource_type.name in self.resource_types

    def name_selected(self, name: str) -> bool:
        if self.resource_names is not None and name not in self.resource_names:
            return False
        return all(name.startswith(prefix) for prefix in self.name_prefixes)


def _both(current: frozenset[str] | None, allowed: frozenset[str]) -> frozenset[str]:
    return allowed if current is None else current & allowed


def needs_topic_list(options: SnapshotOptions, selection: Selection) -> bool:
    """Whether the cluster must be asked for its topic names (no explicit list given)."""
    return (
        ResourceKind.TOPIC in options.kinds
        and selection.type_selected(ResourceType.TOPIC)
        and options.topics is None
    )


def needs_broker_list(options: SnapshotOptions, selection: Selection) -> bool:
    """Whether the cluster must be asked for its broker ids (no explicit list given)."""
    return options.brokers is None and any(
        kind in options.kinds and selection.type_selected(_config_type(kind))
        for kind in (ResourceKind.BROKER, ResourceKind.BROKER_LOGGER)
    )


def needs_group_list(options: SnapshotOptions, selection: Selection) -> bool:
    """Whether the cluster must be asked for its consumer groups (no explicit list given)."""
    return (
        ResourceKind.GROUP in options.kinds
        and selection.type_selected(ResourceType.GROUP)
        and options.groups is None
    )


def resources_to_describe(
    options: SnapshotOptions,
    selection: Selection,
    *,
    listed_topics: Sequence[str] = (),
    listed_brokers: Sequence[str] = (),
    listed_groups: Sequence[str] = (),
) -> list[ConfigResource]:
    """The resources one cluster's snapshot describes, in a stable order.

    Explicit names in the options are described even when the cluster lacks them (the row
    then carries the error); listed names are filtered by the topic pattern.
    """
    resources: list[ConfigResource] = []
    for kind in options.kinds:
        resource_type = _config_type(kind)
        if not selection.type_selected(resource_type):
            continue
        listed = {
            ResourceKind.TOPIC: listed_topics,
            ResourceKind.BROKER: listed_brokers,
            ResourceKind.BROKER_LOGGER: listed_brokers,
            ResourceKind.GROUP: listed_groups,
        }.get(kind, ())
        names = _names_of(kind, options, listed)
        resources.extend(
            ConfigResource(resource_type, name) for name in names if selection.name_selected(name)
        )
    return list(dict.fromkeys(resources))


def _config_type(kind: ResourceKind) -> ResourceType:
    resource_type = kind.resource_type
    assert resource_type is not None  # the options take only kinds that have configs
    return resource_type


def _names_of(kind: ResourceKind, options: SnapshotOptions, listed: Sequence[str]) -> Iterable[str]:
    """The names of one kind: given in the options, else listed (topics by the pattern)."""
    if kind is ResourceKind.TOPIC:
        if options.topics is not None:
            return options.topics
        pattern = options.topic_pattern
        return sorted(name for name in listed if pattern is None or pattern.fullmatch(name))
    if kind in (ResourceKind.BROKER, ResourceKind.BROKER_LOGGER):
        return options.brokers if options.brokers is not None else listed
    if kind is ResourceKind.CLUSTER_DEFAULT:
        return ("",)
    if kind is ResourceKind.GROUP:
        return options.groups if options.groups is not None else sorted(listed)
    return options.client_metrics
