"""Clients in services: opened in one task (startup), closed in another (shutdown)."""

from __future__ import annotations

import asyncio

import anyio
import pytest

from kafka_config_admin import AdminClient, ClientClosedError, ConfigResource, ResourceType

pytestmark = pytest.mark.integration


async def test_clients_open_in_one_task_and_close_in_another_in_any_order(
    kafka_bootstrap: str, kafka_broker_ids: list[int]
) -> None:
    broker = ConfigResource(ResourceType.BROKER, str(kafka_broker_ids[0]))
    first, second = AdminClient(kafka_bootstrap), AdminClient(kafka_bootstrap)

    async def startup() -> None:
        await first.__aenter__()
        await second.__aenter__()

    with anyio.fail_after(30):
        await asyncio.ensure_future(startup())
        assert "node.id" in await first.describe_configs([broker]).values[broker]
        assert "node.id" in await second.describe_configs([broker]).values[broker]
        # Shutdown runs in another task, and closes the first client opened first.
        await asyncio.ensure_future(first.__aexit__(None, None, None))
        assert "node.id" in await second.describe_configs([broker]).values[broker]
        await second.__aexit__(None, None, None)
    for admin in (first, second):
        with pytest.raises(ClientClosedError):
            admin.describe_configs([broker])
