"""Change configs on many topics at once, with a dry run first.

    KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 python examples/bulk_incremental_change.py \\
        --prefix orders- --set retention.ms=604800000 --delete segment.ms

finds the topics whose names start with ``--prefix``, prints what would change on each, and
sends the change with ``validate_only=True``: the brokers check it (values, types, their
AlterConfigPolicy) and apply nothing. Only when every topic passed is it sent for real, as one
incremental alter: every other config of each topic stays as it is. ``--dry-run`` stops after
the check. Without arguments it makes 20 topics named ``bulk-demo-*`` and sets their
``retention.ms`` to 7 days.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import TopicAlreadyExistsError

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AlterConfigsResult,
    Config,
    ConfigResource,
    OpType,
    ResourceType,
    UnknownTopicOrPartitionError,
)

DEMO_PREFIX = "bulk-demo-"


async def topics_named(bootstrap: str, prefix: str) -> list[str]:
    """The topics whose name starts with ``prefix``."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        return sorted(name for name in await admin.list_topics() if name.startswith(prefix))
    finally:
        await admin.close()


async def create_demo_topics(bootstrap: str, count: int) -> list[str]:
    """Topics are created with aiokafka; this library is about their configs."""
    names = [f"{DEMO_PREFIX}{n:02}" for n in range(count)]
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        with contextlib.suppress(TopicAlreadyExistsError):
            await admin.create_topics([NewTopic(name, 1, 1) for name in names])
    finally:
        await admin.close()
    return names


def parse_ops(sets: list[str], deletes: list[str]) -> list[AlterConfigOp]:
    ops = []
    for assignment in sets:
        name, equals, value = assignment.partition("=")
        if not equals:
            raise SystemExit(f"--set {assignment!r}: write it as name=value")
        ops.append(AlterConfigOp(name=name, value=value, op=OpType.SET))
    ops += [AlterConfigOp(name=name, op=OpType.DELETE) for name in deletes]
    return ops


def report_failures(result: AlterConfigsResult, what: str) -> bool:
    """Print each topic the brokers refused; True when there was none."""
    for resource, error in result.errors().items():
        print(f"  {resource.name}: {what} refused: {type(error).__name__}: {error}")
    return not result.errors()


async def describe(
    admin: AdminClient, wanted: dict[ConfigResource, list[str]]
) -> dict[ConfigResource, Config]:
    """The configs wanted; a topic made a moment ago may not be known to every broker yet."""
    for _ in range(100):
        result = admin.describe_configs(wanted)
        await result.wait()
        if not any(isinstance(e, UnknownTopicOrPartitionError) for e in result.errors().values()):
            break
        await asyncio.sleep(0.2)
    return await result.all()


async def change(
    bootstrap: str, topics: list[str], ops: list[AlterConfigOp], dry_run: bool
) -> bool:
    resources = [ConfigResource(type=ResourceType.TOPIC, name=name) for name in topics]
    names = [op.name for op in ops]
    async with AdminClient(bootstrap) as admin:
        current = await describe(admin, dict.fromkeys(resources, names))
        for resource in resources:
            plan = ", ".join(
                f"{op.name}: {current[resource][op.name].value} -> {op.value or '(default)'}"
                for op in ops
                if op.name in current[resource]
            )
            print(f"  {resource.name}: {plan}")

        # One list of ops for every topic: it is checked, and encoded, once.
        request = dict.fromkeys(resources, ops)
        check = admin.incremental_alter_configs(request, validate_only=True)
        await check.wait()
        if not report_failures(check, "dry run"):
            print("the dry run failed on some topics: nothing was changed")
            return False
        print(f"dry run: the brokers accept the change on all {len(resources)} topics")
        if dry_run:
            return True

        applied = admin.incremental_alter_configs(request)
        await applied.wait()
        ok = report_failures(applied, "change")
        print(f"changed {len(resources) - len(applied.errors())} of {len(resources)} topics")
        return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--prefix", help="change the topics whose names start with this")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--delete", action="append", default=[], metavar="NAME")
    parser.add_argument("--dry-run", action="store_true", help="only check the change")
    args = parser.parse_args()
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    if args.prefix is None:  # the demonstration
        topics = asyncio.run(create_demo_topics(bootstrap, 20))
        ops = parse_ops(["retention.ms=604800000"], [])
    else:
        topics = asyncio.run(topics_named(bootstrap, args.prefix))
        ops = parse_ops(args.set, args.delete)
    if not topics or not ops:
        raise SystemExit("nothing to do: no topic has that prefix, or no --set/--delete given")
    print(f"{len(topics)} topics; planned change:")
    if not asyncio.run(change(bootstrap, topics, ops, args.dry_run)):
        sys.exit(1)


if __name__ == "__main__":
    main()
