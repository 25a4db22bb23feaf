"""aiokafka's AIOKafkaAdminClient: raw responses, legacy alter (it has no incremental alter)."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

from .base import Peer as BasePeer

NO_DOCS = "no documentation or types: speaks DescribeConfigs below v3"


def _topics(names: list[str], configs: dict[str, str] | None = None) -> list[ConfigResource]:
    return [ConfigResource(ConfigResourceType.TOPIC, name, configs) for name in names]


class Peer(BasePeer):
    notes: ClassVar[dict[str, str]] = {
        "w1": NO_DOCS,
        "w2": NO_DOCS,
        "w4": NO_DOCS,
        "w3": "legacy AlterConfigs (replaces every dynamic config)",
    }

    async def open(self, bootstrap: str) -> None:
        self.client = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=120000)
        await self.client.start()

    async def close(self) -> None:
        await self.client.close()

    async def w1_describe_all(self, topics: list[str]) -> Any:
        return await self.client.describe_configs(_topics(topics), include_synonyms=True)

    async def w2_describe_one(self, topic: str) -> Any:
        return await self.client.describe_configs(_topics([topic]), include_synonyms=True)

    async def w3_alter_each(self, topics: list[str], value: str) -> None:
        await self.client.alter_configs(_topics(topics, {"retention.ms": value}))

    async def w4_concurrent(self, topics: list[str]) -> None:
        await asyncio.gather(
            *(self.client.describe_configs(_topics([t]), include_synonyms=True) for t in topics)
        )
