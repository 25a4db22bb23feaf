"""Which resources of a cluster to read: one home for the Spark snapshot and the change feed.

A :class:`ResourceScope` names kinds of resource and, per kind, either the names to read or
that the cluster's own listing decides (topics narrowed by a pattern). Listing is I/O and stays
with the caller; :meth:`ResourceScope.config_resources` turns what was listed into the config
resources to describe. Nothing here talks to a broker.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .. import ConfigResource, InvalidArgumentError, ResourceType
from ..toolkit import MAX_BROKER_ID, is_broker_id
from ._kinds import ResourceKind
from ._patterns import UserPattern

__all__ = ["ResourceScope"]


def _everything(_: object) -> bool:
    return True


@dataclass(frozen=True)
class ResourceScope:
    """Which resources of a cluster to read.

    Names given (``topics``, ``brokers``, ``groups``, ``client_metrics``) are read even when
    the cluster lacks them; None means what the cluster lists (``list_scope``), read anew each
    time so that resources that appear or go are seen. ``topic_pattern`` must match a listed
    topic's whole name (a user's pattern: :class:`UserPattern`).
    """

    kinds: tuple[ResourceKind, ...] = (ResourceKind.TOPIC,)
    topics: tuple[str, ...] | None = None
    topic_pattern: UserPattern | re.Pattern[str] | None = None
    include_internal: bool = False
    brokers: tuple[str, ...] | None = None
    groups: tuple[str, ...] | None = None
    client_metrics: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.kinds:
            raise InvalidArgumentError("no resource type to read")
        for name in self.brokers or ():
            if not is_broker_id(name):
                raise InvalidArgumentError(
                    f"broker {name!r}: a broker is named by its numeric id (0 to {MAX_BROKER_ID})"
                )

    def lists_topics(self, type_selected: Callable[[ResourceType], bool] = _everything) -> bool:
        """Whether the cluster's topics must be listed (topics read, none named)."""
        return (
            ResourceKind.TOPIC in self.kinds
            and type_selected(ResourceType.TOPIC)
            and self.topics is None
        )

    def lists_brokers(self, type_selected: Callable[[ResourceType], bool] = _everything) -> bool:
        """Whether the cluster's broker ids must be listed (brokers read, none named)."""
        return self.brokers is None and any(
            kind in self.kinds and type_selected(resource_type)
            for kind, resource_type in (
                (ResourceKind.BROKER, ResourceType.BROKER),
                (ResourceKind.BROKER_LOGGER, ResourceType.BROKER_LOGGER),
            )
        )

    def lists_groups(self, type_selected: Callable[[ResourceType], bool] = _everything) -> bool:
        """Whether the cluster's consumer groups must be listed (groups read, none named)."""
        return (
            ResourceKind.GROUP in self.kinds
            and type_selected(ResourceType.GROUP)
            and self.groups is None
        )

    def lists_client_metrics(
        self, type_selected: Callable[[ResourceType], bool] = _everything
    ) -> bool:
        """Whether the cluster's client-metrics resources must be listed (read, none named)."""
        return (
            ResourceKind.CLIENT_METRICS in self.kinds
            and type_selected(ResourceType.CLIENT_METRICS)
            and self.client_metrics is None
        )

    def config_resources(
        self,
        *,
        listed_topics: Sequence[str] = (),
        listed_brokers: Sequence[str] = (),
        listed_groups: Sequence[str] = (),
        listed_client_metrics: Sequence[str] = (),
        type_selected: Callable[[ResourceType], bool] = _everything,
        name_selected: Callable[[str], bool] = _everything,
    ) -> list[ConfigResource]:
        """The config resources to describe, in a stable order: named ones as given, listed
        ones sorted (topics by the pattern), narrowed by ``type_selected`` and
        ``name_selected`` (a query's pushed-down filters)."""
        listed = {
            ResourceKind.TOPIC: listed_topics,
            ResourceKind.BROKER: listed_brokers,
            ResourceKind.BROKER_LOGGER: listed_brokers,
            ResourceKind.GROUP: listed_groups,
            ResourceKind.CLIENT_METRICS: listed_client_metrics,
        }
        resources: list[ConfigResource] = []
        for kind in self.kinds:
            resource_type = kind.resource_type
            if resource_type is None or not type_selected(resource_type):
                continue
            names = self._names_of(kind, listed.get(kind, ()))
            resources.extend(
                ConfigResource(resource_type, name) for name in names if name_selected(name)
            )
        return list(dict.fromkeys(resources))

    def _names_of(self, kind: ResourceKind, listed: Sequence[str]) -> Iterable[str]:
        if kind is ResourceKind.TOPIC:
            if self.topics is not None:
                return self.topics
            pattern = self.topic_pattern
            return sorted(name for name in listed if pattern is None or pattern.fullmatch(name))
        if kind in (ResourceKind.BROKER, ResourceKind.BROKER_LOGGER):
            return self.brokers if self.brokers is not None else listed
        if kind is ResourceKind.CLUSTER_DEFAULT:
            return ("",)
        if kind is ResourceKind.GROUP:
            return self.groups if self.groups is not None else sorted(listed)
        return self.client_metrics if self.client_metrics is not None else sorted(listed)
