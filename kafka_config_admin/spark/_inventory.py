"""What a cluster has: its topic names and broker ids, asked once at planning time.

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
    """The topic names (sorted) and broker ids (as resource names) of one cluster."""

    topics: tuple[str, ...]
    brokers: tuple[str, ...]


async def read_inventory(target: ClusterTarget, *, include_internal: bool) -> Inventory:
    """List the cluster's topics (internal ones only when asked) and brokers."""
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
    finally:
        await admin.close()
    names = sorted(
        topic["topic"] for topic in topics if include_internal or not topic["is_internal"]
    )
    brokers = sorted(int(broker["node_id"]) for broker in cluster["brokers"])
    return Inventory(tuple(names), tuple(str(broker) for broker in brokers))
