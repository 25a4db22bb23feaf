"""The narrowing of a snapshot by the filters Spark pushes down.

The options choose clusters and a :class:`~kafka_config_admin.state.ResourceScope`; the
filters narrow them further. :class:`Selection` holds the narrowing, and the scope's
``config_resources`` applies it to what a cluster lists, so "a query for three topics describes
three topics". Nothing here talks to a broker.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .. import ResourceType

__all__ = ["PUSHABLE_COLUMNS", "Selection"]

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
