"""What :meth:`AdminClient.list_config_resources` found, and what it could not see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .configs import ConfigResource, ResourceType

__all__ = ["LISTABLE_TYPES", "ConfigResourceListing"]

#: The resource types a broker lists (ListConfigResources v1, Kafka 4.1, KIP-1142).
LISTABLE_TYPES = (
    ResourceType.TOPIC,
    ResourceType.BROKER,
    ResourceType.BROKER_LOGGER,
    ResourceType.CLIENT_METRICS,
    ResourceType.GROUP,
)


@dataclass(frozen=True, slots=True)
class ConfigResourceListing:
    """The config resources of the types asked, and the types that could not be listed in full.

    Attributes:
        resources: each resource listed, sorted by type and name.
        unseen: for each type the cluster could not list in full, why: a broker before Kafka 4.1
            lists no groups, so they come from ListGroups, which misses a group that exists only
            as config (no member, no committed offset). A resource of such a type missing from
            ``resources`` may exist all the same.
    """

    resources: tuple[ConfigResource, ...]
    unseen: Mapping[ResourceType, str]

    @property
    def complete(self) -> bool:
        """Whether every type asked was listed in full."""
        return not self.unseen

    def names(self, resource_type: ResourceType) -> list[str]:
        """The names listed of one type, sorted."""
        return [resource.name for resource in self.resources if resource.type is resource_type]
