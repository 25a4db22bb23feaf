"""What a cluster has: its topics, brokers and groups, asked once at planning time.

All three come from the SDK (``list_topics``, ``broker_ids``, ``list_groups``); the group list
is asked for only when groups are wanted.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..connect import Connection

__all__ = ["Inventory", "read_inventory"]


@dataclass(frozen=True)
class Inventory:
    """The topic names (sorted), broker ids (as resource names) and groups of one cluster."""

    topics: tuple[str, ...] = ()
    brokers: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()


async def read_inventory(target: Connection, *, include_internal: bool, groups: bool) -> Inventory:
    """List the cluster's topics (internal ones only when asked), brokers and, when asked,
    its groups."""
    async with target.admin_client() as admin:
        topics = await admin.list_topics(include_internal=include_internal)
        brokers = sorted(admin.broker_ids())
        listed = await admin.list_groups().all() if groups else []
    return Inventory(
        tuple(topic.name for topic in topics),
        tuple(str(broker) for broker in brokers),
        tuple(listing.group_id for listing in listed),
    )
