"""Topics the docs and examples talk about, made on the session cluster."""

from __future__ import annotations

from collections.abc import Iterable

import anyio
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from kafka_config_admin import AdminClient, ConfigResource, ResourceType


async def ensure_topics(bootstrap: str, names: Iterable[str]) -> None:
    """Create the topics that do not exist yet, then wait until every broker knows them."""
    names = list(names)
    creator = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await creator.start()
    try:
        missing = [name for name in names if name not in set(await creator.list_topics())]
        if missing:
            await creator.create_topics([NewTopic(name, 1, 1) for name in missing])
    finally:
        await creator.close()
    resources = [ConfigResource(type=ResourceType.TOPIC, name=name) for name in names]
    async with AdminClient(bootstrap) as admin:
        with anyio.fail_after(20):
            # Brokers learn of new topics from the controller a moment later: ask each of them.
            while True:
                results = [admin.describe_configs(resources) for _ in range(6)]
                for result in results:
                    await result.wait()
                if not any(result.errors() for result in results):
                    return
                await anyio.sleep(0.1)
