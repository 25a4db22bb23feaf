"""kafka-config-admin: one describe call for all topics, one incremental alter for all.

``kafka-config-admin-no-docs`` (:class:`WithoutDocumentation`) is the same client asking for no
documentation: the figure issue 35's targets compare W1 with documentation against.
"""

from __future__ import annotations

from typing import Any

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, ResourceType

from .base import Peer as BasePeer


def _topics(names: list[str]) -> list[ConfigResource]:
    return [ConfigResource(ResourceType.TOPIC, name) for name in names]


class Peer(BasePeer):
    #: Whether the describes ask for each config's documentation.
    documentation = True

    async def open(self, bootstrap: str) -> None:
        self.client = AdminClient(bootstrap, timeout=120)
        await self.client.__aenter__()

    async def close(self) -> None:
        await self.client.__aexit__(None, None, None)

    def bytes_received(self) -> int:
        """Bytes received from the brokers so far (``AdminClient.traffic``)."""
        return self.client.traffic().bytes_received

    async def w1_describe_all(self, topics: list[str]) -> Any:
        return await self.client.describe_configs(
            _topics(topics), include_synonyms=True, include_documentation=self.documentation
        ).all()

    async def w2_describe_one(self, topic: str) -> Any:
        resource = ConfigResource(ResourceType.TOPIC, topic)
        return await self.client.describe_configs(
            [resource], include_synonyms=True, include_documentation=self.documentation
        ).values[resource]

    async def w3_alter_each(self, topics: list[str], value: str) -> None:
        op = [AlterConfigOp("retention.ms", value)]
        await self.client.incremental_alter_configs(dict.fromkeys(_topics(topics), op)).all()

    async def w4_concurrent(self, topics: list[str]) -> None:
        results = [
            self.client.describe_configs(
                [resource], include_synonyms=True, include_documentation=self.documentation
            )
            for resource in _topics(topics)
        ]
        for result in results:
            await result.all()


class WithoutDocumentation(Peer):
    documentation = False
