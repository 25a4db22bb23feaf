"""confluent-kafka (librdkafka): futures per resource, incremental alter."""

from __future__ import annotations

from typing import Any, ClassVar

from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    ResourceType,
)

from .base import Peer as BasePeer

NO_DOCS = "no documentation: librdkafka exposes no include-documentation option"


def _topics(names: list[str]) -> list[ConfigResource]:
    return [ConfigResource(ResourceType.TOPIC, name) for name in names]


def _wait(futures: dict[Any, Any]) -> dict[Any, Any]:
    return {resource: future.result() for resource, future in futures.items()}


class Peer(BasePeer):
    notes: ClassVar[dict[str, str]] = {"w1": NO_DOCS, "w2": NO_DOCS, "w4": NO_DOCS}

    async def open(self, bootstrap: str) -> None:
        self.client = AdminClient({"bootstrap.servers": bootstrap})

    async def close(self) -> None:
        pass

    async def w1_describe_all(self, topics: list[str]) -> Any:
        return _wait(self.client.describe_configs(_topics(topics), request_timeout=120))

    async def w2_describe_one(self, topic: str) -> Any:
        return _wait(self.client.describe_configs(_topics([topic])))

    async def w3_alter_each(self, topics: list[str], value: str) -> None:
        resources = []
        for resource in _topics(topics):
            resource.add_incremental_config(
                ConfigEntry("retention.ms", value, incremental_operation=AlterConfigOpType.SET)
            )
            resources.append(resource)
        _wait(self.client.incremental_alter_configs(resources, request_timeout=120))

    async def w4_concurrent(self, topics: list[str]) -> None:
        futures: dict[Any, Any] = {}
        for resource in _topics(topics):
            futures.update(self.client.describe_configs([resource]))
        _wait(futures)
