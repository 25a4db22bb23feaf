"""An async service that watches a topic's configs and reacts when one changes.

Here the reaction guards a floor: when someone lowers ``retention.ms`` below one day, the
service reports who won (the new value and where it comes from) and sets it back to the floor
with an incremental alter, leaving every other config as it is.

Watch a topic until Ctrl-C::

    KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 python examples/watch_topic_config.py --topic orders

Without ``--topic`` it shows itself: it creates a topic, starts watching it, lowers its
retention from a second client, and exits once the watcher has put it back.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import TopicAlreadyExistsError

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    Config,
    ConfigEntry,
    ConfigResource,
    OpType,
    ResourceType,
)

GUARDED = "retention.ms"
FLOOR_MS = 86_400_000  # one day


@dataclass(frozen=True)
class Change:
    """One config whose value differs from the last time the watcher looked."""

    name: str
    old: ConfigEntry | None
    new: ConfigEntry | None


def changes(before: Config, after: Config) -> list[Change]:
    """Configs added, removed or given another value between two describes."""
    names = sorted(set(before) | set(after))
    return [
        Change(name, before.get(name), after.get(name))
        for name in names
        if _value(before.get(name)) != _value(after.get(name))
    ]


def _value(entry: ConfigEntry | None) -> str | None:
    return None if entry is None else entry.value


async def watch(
    admin: AdminClient, topic: ConfigResource, interval: float
) -> AsyncIterator[Change]:
    """Yield every change of the topic's configs, looking every ``interval`` seconds."""
    last = await admin.describe_configs([topic]).values[topic]
    while True:
        await asyncio.sleep(interval)
        current = await admin.describe_configs([topic]).values[topic]
        for change in changes(last, current):
            yield change
        last = current


async def react(admin: AdminClient, topic: ConfigResource, change: Change) -> bool:
    """Put the guarded config back to the floor when it went below it; True if it did."""
    print(f"{topic.name}: {change.name} {_value(change.old)} -> {_value(change.new)}", end="")
    print(f" ({change.new.source.name})" if change.new else " (removed)")
    if change.name != GUARDED or change.new is None or change.new.value is None:
        return False
    value = int(change.new.value)
    if value == -1 or value >= FLOOR_MS:
        return False
    await admin.incremental_alter_configs(
        {topic: [AlterConfigOp(name=GUARDED, value=str(FLOOR_MS), op=OpType.SET)]}
    ).all()
    print(f"{topic.name}: {GUARDED} {value} is below the floor; set it back to {FLOOR_MS}")
    return True


async def serve(bootstrap: str, topic: ConfigResource, interval: float, stop_after: int) -> None:
    """Watch and react until ``stop_after`` reactions (0: forever)."""
    reactions = 0
    async with AdminClient(bootstrap) as admin:
        print(f"watching {topic.name} every {interval:g}s")
        async for change in watch(admin, topic, interval):
            if await react(admin, topic, change):
                reactions += 1
                if reactions == stop_after:
                    return


async def wait_until_known(admin: AdminClient, topic: ConfigResource) -> None:
    """Brokers learn of a new topic a moment after it is created: wait until it describes."""
    for _ in range(100):
        result = admin.describe_configs([topic])
        await result.wait()
        if not result.errors():
            return
        await asyncio.sleep(0.2)
    raise SystemExit(f"{topic.name} was created but no broker describes it")


async def demo(bootstrap: str) -> None:
    """Create a topic, watch it, lower its retention from outside, and see it put back."""
    name = "watch-demo"
    creator = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await creator.start()
    try:
        await creator.create_topics([NewTopic(name, num_partitions=1, replication_factor=1)])
    except TopicAlreadyExistsError:
        pass
    finally:
        await creator.close()
    topic = ConfigResource(type=ResourceType.TOPIC, name=name)
    async with AdminClient(bootstrap) as admin:
        await wait_until_known(admin, topic)
    service = asyncio.create_task(serve(bootstrap, topic, interval=0.2, stop_after=1))
    await asyncio.sleep(1)  # let the watcher read the configs it compares with
    async with AdminClient(bootstrap) as someone_else:
        print(f"someone sets {GUARDED} of {name} to one hour")
        await someone_else.incremental_alter_configs(
            {topic: [AlterConfigOp(name=GUARDED, value="3600000", op=OpType.SET)]}
        ).all()
    await asyncio.wait_for(service, timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topic", help="the topic to watch (without it: a demonstration)")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between looks")
    args = parser.parse_args()
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    if args.topic is None:
        asyncio.run(demo(bootstrap))
    else:
        topic = ConfigResource(type=ResourceType.TOPIC, name=args.topic)
        asyncio.run(serve(bootstrap, topic, args.interval, stop_after=0))


if __name__ == "__main__":
    main()
