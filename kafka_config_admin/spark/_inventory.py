"""What a cluster has: its topics, brokers, groups and client-metrics resources, asked once at
planning time, as the scope needs them (``state.list_scope``, the change feed's listing too).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import ResourceType
from ..connect import Connection
from ..state import ResourceScope, ScopeListing, list_scope

__all__ = ["read_inventory"]


async def read_inventory(
    target: Connection, scope: ResourceScope, type_selected: Callable[[ResourceType], bool]
) -> ScopeListing:
    """List what the scope reads of the cluster and the query selects."""
    async with target.admin_client() as admin:
        return await list_scope(admin, scope, type_selected)
