"""What a cluster has of the resources a :class:`ResourceScope` reads: the one listing the change
feed and the Spark source share.

Topics come from ``list_topics``, broker ids from the client's metadata, and groups and
client-metrics resources from ``list_config_resources`` (KIP-1142: groups that exist only as
config included; on older brokers what it could not see is in ``unseen``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .. import AdminClient, ResourceType
from ._scope import ResourceScope

__all__ = ["ScopeListing", "list_scope"]


@dataclass(frozen=True)
class ScopeListing:
    """The names a cluster listed for a scope (each sorted), and what it could not list in full.

    Attributes:
        topics, brokers, groups, client_metrics: the names listed of each (empty when the scope
            did not need them listed).
        unseen: per resource type, why the cluster could not list it in full
            (:attr:`ConfigResourceListing.unseen`).
    """

    topics: tuple[str, ...] = ()
    brokers: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    client_metrics: tuple[str, ...] = ()
    unseen: Mapping[ResourceType, str] = field(default_factory=dict)


async def list_scope(
    admin: AdminClient,
    scope: ResourceScope,
    type_selected: Callable[[ResourceType], bool] = lambda _: True,
) -> ScopeListing:
    """List what ``scope`` (narrowed by ``type_selected``) needs listed, and nothing else."""
    topics: tuple[str, ...] = ()
    if scope.lists_topics(type_selected):
        listed = await admin.list_topics(include_internal=scope.include_internal)
        topics = tuple(topic.name for topic in listed)
    brokers = (
        tuple(str(node) for node in sorted(admin.broker_ids()))
        if scope.lists_brokers(type_selected)
        else ()
    )
    types = [
        kind
        for kind, wanted in (
            (ResourceType.GROUP, scope.lists_groups(type_selected)),
            (ResourceType.CLIENT_METRICS, scope.lists_client_metrics(type_selected)),
        )
        if wanted
    ]
    if not types:
        return ScopeListing(topics, brokers)
    listing = await admin.list_config_resources(types)
    return ScopeListing(
        topics,
        brokers,
        tuple(listing.names(ResourceType.GROUP)),
        tuple(listing.names(ResourceType.CLIENT_METRICS)),
        listing.unseen,
    )
