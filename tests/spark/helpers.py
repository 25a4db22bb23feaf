"""Setup and checks for the pipeline tests, through the SDK (and aiokafka to create topics)."""

from __future__ import annotations

import asyncio
import itertools
import os
import time
from collections.abc import Iterable, Mapping

from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from kafka_config_admin import AdminClient, Config, ConfigResource, ResourceType

_counter = itertools.count()


def unique(prefix: str) -> str:
    return f"{prefix}{os.getpid()}-{next(_counter)}"


def create_topics(
    bootstrap: str, names: Iterable[str], configs: Mapping[str, str] | None = None
) -> list[str]:
    """Create topics and wait until every broker's metadata shows them."""
    names = list(names)

    async def create() -> None:
        creator = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
        await creator.start()
        try:
            await creator.create_topics(
                [NewTopic(name, 1, 1, topic_configs=dict(configs or {})) for name in names]
            )
        finally:
            await creator.close()
        async with AdminClient(bootstrap) as admin:
            await admin.wait_for_topics(names, timeout=30)

    asyncio.run(create())
    return names


def topic(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


def describe(
    bootstrap: str,
    resources: Iterable[ConfigResource],
    *,
    include_synonyms: bool = False,
    include_documentation: bool = False,
) -> dict[ConfigResource, Config | BaseException]:
    """What the SDK describes, per resource: its config or its error."""

    async def run() -> dict[ConfigResource, Config | BaseException]:
        async with AdminClient(bootstrap) as admin:
            result = admin.describe_configs(
                list(resources),
                include_synonyms=include_synonyms,
                include_documentation=include_documentation,
            )
            await result.wait()
            return {
                resource: future.exception() or future.result()
                for resource, future in result.values.items()
            }

    return asyncio.run(run())


def config_value(bootstrap: str, resource: ConfigResource, name: str) -> str | None:
    outcome = describe(bootstrap, [resource])[resource]
    assert not isinstance(outcome, BaseException), outcome
    return outcome[name].value


def wait_until(condition: object, what: str, timeout: float = 20.0) -> None:
    """Poll ``condition()`` until it is true: brokers learn of changes a moment apart."""
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)
