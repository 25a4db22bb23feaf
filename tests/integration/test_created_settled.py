"""Settled after create: what ``apply`` and the SDK create is seen by the very next read.

Kafka answers CreateTopics and CreatePartitions once the controller has made the change; each
broker learns of it a moment later (on a loaded broker, thousands of new topics take seconds
to show). ``AdminClient.wait_for_topics`` waits until every broker shows them, and
``apply_plan`` (so the CLI's ``apply``) does so by default: a plan run right after an apply
that created 2,000 topics sees every one of them.
"""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    DescribeTopicsResult,
    KafkaTimeoutError,
    NewPartitions,
    NewTopic,
)
from kafka_config_admin._ops.topics import DescribeTopicsOn

from .cli_helpers import run_process
from .helpers import unique_name

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

#: How many topics the apply creates at once (the issue's count).
TOPICS = 2000


def test_a_plan_right_after_an_apply_of_2000_topics_sees_them_all(
    kafka_bootstrap: str, tmp_path: Path
) -> None:
    prefix = f"settled{os.getpid()}"
    lines = ["topics:"]
    for n in range(TOPICS):
        lines += [f"  - name: {prefix}-{n}", "    partitions: 1", "    replication_factor: 1"]
    file = tmp_path / "topics.yaml"
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")

    started = time.monotonic()
    applied = run_process("apply", str(file), "--yes", "-b", kafka_bootstrap, "--timeout", "300")
    took = time.monotonic() - started
    assert applied.code == 0, applied.err[-3000:]
    planned = run_process("plan", str(file), "-o", "json", "-b", kafka_bootstrap)
    assert planned.code == 0, planned.err[-3000:]
    document = planned.json()
    assert [item for item in document["resources"] if item["action"] != "unchanged"] == []
    print(f"apply of {TOPICS} topics, settled: {took:.1f} s")


async def test_2000_topics_created_then_waited_for_are_seen_by_every_broker_and_the_plan(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_broker_ids: list[int], tmp_path: Path
) -> None:
    prefix = f"sdksettled{os.getpid()}"
    names = [f"{prefix}-{n}" for n in range(TOPICS)]
    await admin_client.create_topics([NewTopic(name, 1, 1) for name in names]).all()
    started = time.monotonic()
    await admin_client.wait_for_topics(names)
    print(f"wait_for_topics of {TOPICS} new topics: {time.monotonic() - started:.1f} s")
    # Each broker, asked once and at once, has every one of them.
    for broker in kafka_broker_ids:
        on_broker = partial(DescribeTopicsOn.on, broker, names)
        described = admin_client._call(on_broker, DescribeTopicsResult, 1)
        await described.wait()
        assert described.errors() == {}, (broker, len(described.errors()))
    file = tmp_path / "topics.yaml"
    file.write_text(
        "topics:\n" + "".join(f"  - name: {name}\n    partitions: 1\n" for name in names),
        encoding="utf-8",
    )
    planned = await anyio.to_thread.run_sync(
        lambda: run_process("plan", str(file), "-o", "json", "-b", kafka_bootstrap)
    )
    assert planned.code == 0, planned.err[-3000:]
    assert [i for i in planned.json()["resources"] if i["action"] != "unchanged"] == []


async def test_wait_for_topics_sees_new_partitions_on_every_broker(
    admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    names = [unique_name() for _ in range(20)]
    created = admin_client.create_topics([NewTopic(name, 1, 1) for name in names])
    await created.all()
    await admin_client.wait_for_topics(names)
    grown = admin_client.create_partitions({name: NewPartitions(3) for name in names})
    await grown.all()
    await admin_client.wait_for_topics({name: 3 for name in names})
    # Every broker answers with the new count at once: each asked on its own, once.
    for broker in kafka_broker_ids:
        on_broker = partial(DescribeTopicsOn.on, broker, names)
        described = await admin_client._call(on_broker, DescribeTopicsResult, 30).all()
        assert {len(d.partitions) for d in described.values()} == {3}, broker


async def test_wait_for_topics_that_never_come_is_a_timeout_naming_them(
    admin_client: AdminClient,
) -> None:
    missing = unique_name()
    with pytest.raises(KafkaTimeoutError) as raised:
        await admin_client.wait_for_topics([missing], timeout=2)
    assert repr(missing) in str(raised.value) and "after 2s" in str(raised.value)
