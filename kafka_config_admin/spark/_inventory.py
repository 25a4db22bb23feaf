"""What a cluster has: its topics, brokers and groups, asked once at planning time.

The SDK describes and alters configs; listing topics and brokers is a Metadata request, which
aiokafka's admin client already makes, so the planning step asks it through its public API.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiokafka.admin import AIOKafkaAdminClient

from ._clusters import ClusterTarget

__all__ = ["Inventory", "read_inventory"]


@dataclass(frozen=True)
class Inventory:
    """The topic names (sorted), broker ids (as resource names) and groups of one cluster."""

    topics: tuple[str, ...] = ()
    brokers: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()


async def read_inventory(
    target: ClusterTarget, *, include_internal: bool, groups: bool
) -> Inventory:
    """List the cluster's topics (internal ones only when asked), brokers and, when asked,
    its consumer groups."""
    admin = AIOKafkaAdminClient(
        bootstrap_servers=target.bootstrap_servers,
        request_timeout_ms=int(target.timeout * 1000),
        client_id="kafka-config-admin-spark",
        **target.connection_options(),
    )
    await admin.start()
    try:
        topics = await admin.describe_topics()
        cluster = await admin.describe_cluster()
        group_names = [group[0] for group in await admin.list_consumer_groups()] if groups else []
    finally:
        await admin.close()
    names = sorted(
        topic["topic"] for topic in topics if include_internal or not topic["is_internal"]
    )
    brokers = sorted(int(broker["node_id"]) for broker in cluster["brokers"])
    return Inventory(
        tuple(names), tuple(str(broker) for broker in brokers), tuple(sorted(set(group_names)))
    )
