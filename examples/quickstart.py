"""Quickstart: describe a topic's configs with their types and documentation, change two of them
incrementally, and show them before and after.

Run it against any cluster::

    KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 python examples/quickstart.py

or let ``nox -s demo`` start a throwaway broker for it.
"""

from __future__ import annotations

import asyncio
import os
import textwrap

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import TopicAlreadyExistsError

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    Config,
    ConfigResource,
    OpType,
    ResourceType,
)

TOPIC = "quickstart-orders"
SHOWN = ("retention.ms", "cleanup.policy", "max.message.bytes", "min.insync.replicas")


async def create_topic(bootstrap: str) -> None:
    """Topics are created with aiokafka; this library is about their configs."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        await admin.create_topics([NewTopic(TOPIC, num_partitions=1, replication_factor=1)])
    except TopicAlreadyExistsError:
        pass
    finally:
        await admin.close()


def show(title: str, config: Config, *, with_docs: bool = False) -> None:
    print(f"\n== {title}")
    for name in SHOWN:
        entry = config[name]
        print(
            f"{name:22} = {entry.value!s:12} type={entry.type.name:8} "
            f"source={entry.source.name}  parsed={entry.parsed_value!r}"
        )
        if with_docs and entry.documentation:
            print(textwrap.indent(textwrap.shorten(entry.documentation, 150), "    "))


async def main() -> None:
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    await create_topic(bootstrap)
    topic = ConfigResource(type=ResourceType.TOPIC, name=TOPIC)

    async with AdminClient(bootstrap_servers=bootstrap) as admin:
        before = await admin.describe_configs(
            [topic], include_synonyms=True, include_documentation=True
        ).values[topic]
        show("before", before, with_docs=True)

        alter = admin.incremental_alter_configs(
            {
                topic: [
                    AlterConfigOp(name="retention.ms", value="86400000", op=OpType.SET),
                    AlterConfigOp(name="cleanup.policy", value="compact", op=OpType.APPEND),
                ]
            }
        )
        await alter.all()
        print("\nset retention.ms=86400000 and appended 'compact' to cleanup.policy")

        # Brokers apply an alter a moment after the controller accepts it: wait to see it.
        for _ in range(50):
            after = await admin.describe_configs(
                [topic], include_synonyms=True, include_documentation=True
            ).values[topic]
            if after["retention.ms"].value == "86400000":
                break
            await asyncio.sleep(0.1)
        show("after", after)
        synonyms = ", ".join(f"{s.source.name}={s.value}" for s in after["retention.ms"].synonyms)
        print(f"\nretention.ms now comes from: {synonyms}")


if __name__ == "__main__":
    asyncio.run(main())
