"""What a cluster has: its topics, brokers and groups, asked once at planning time.

Topics and brokers come from the SDK (``list_topics``, ``broker_ids``). The SDK has no call
that lists consumer groups yet, so only that list is asked of aiokafka's admin client, and only
when groups are wanted.
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
    async with target.admin_client() as admin:
        topics = await admin.list_topics(include_internal=include_internal)
        brokers = sorted(admin.broker_ids())
    group_names = await _consumer_groups(target) if groups else []
    return Inventory(
        tuple(topic.name for topic in topics),
        tuple(str(broker) for broker in brokers),
        tuple(sorted(set(group_names))),
    )


async def _consumer_groups(target: ClusterTarget) -> list[str]:
    admin = AIOKafkaAdminClient(
        bootstrap_servers=target.bootstrap_servers,
        request_timeout_ms=int(target.timeout * 1000),
        client_id="kafka-config-admin-spark",
        **target.connection_options(),
    )
    await admin.start()
    try:
        return [group[0] for group in await admin.list_consumer_groups()]
    finally:
        await admin.close()
