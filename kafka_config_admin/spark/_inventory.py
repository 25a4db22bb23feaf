"""What a cluster has: its topics, brokers and groups, asked once at planning time.

All three come from the SDK (``list_topics``, ``broker_ids``, ``list_groups``); the topic and
group lists are asked for only when wanted (a KRaft controller quorum, ``bootstrap.controllers``,
serves neither: its nodes are the brokers of its inventory).
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


async def read_inventory(
    target: Connection, *, include_internal: bool, groups: bool, topics: bool
) -> Inventory:
    """List the cluster's brokers and, when asked, its topics (internal ones only when asked)
    and its groups."""
    async with target.admin_client() as admin:
        listed_topics = await admin.list_topics(include_internal=include_internal) if topics else []
        brokers = sorted(admin.broker_ids())
        listed = await admin.list_groups().all() if groups else []
    return Inventory(
        tuple(topic.name for topic in listed_topics),
        tuple(str(broker) for broker in brokers),
        tuple(listing.group_id for listing in listed),
    )
