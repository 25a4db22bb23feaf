"""kafka-python's KafkaAdminClient: synchronous; incremental alter where the broker has it."""

from __future__ import annotations

from typing import Any, ClassVar

from kafka import KafkaAdminClient
from kafka.admin import ConfigResource, ConfigResourceType

from .base import NotSupported
from .base import Peer as BasePeer

NO_DOCS = "no documentation or types: no include-documentation option"


def _topics(names: list[str], configs: dict[str, Any] | None = None) -> list[ConfigResource]:
    return [ConfigResource(ConfigResourceType.TOPIC, name, configs) for name in names]


class Peer(BasePeer):
    notes: ClassVar[dict[str, str]] = {"w1": NO_DOCS, "w2": NO_DOCS}

    async def open(self, bootstrap: str) -> None:
        self.client = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=120000)

    async def close(self) -> None:
        self.client.close()

    async def w1_describe_all(self, topics: list[str]) -> Any:
        return self.client.describe_configs(
            _topics(topics), include_synonyms=True, config_filter="all"
        )

    async def w2_describe_one(self, topic: str) -> Any:
        return self.client.describe_configs(
            _topics([topic]), include_synonyms=True, config_filter="all"
        )

    async def w3_alter_each(self, topics: list[str], value: str) -> None:
        self.client.alter_configs(_topics(topics, {"retention.ms": ("SET", value)}))

    async def w4_concurrent(self, topics: list[str]) -> None:
        raise NotSupported("synchronous client: one call at a time")
