"""``python -m benchmarks load``: many concurrent describes and alters from one client.

On a real 3-node cluster, for a bounded time: ``--alters N`` single-topic alters in flight at
once (each task alters again as soon as its call ends) and ``--describes N`` single-topic
describes alongside. Reports calls/s, errors and p50/p99 latency per kind, and the open file
descriptors and asyncio tasks before and after. Results in ``benchmarks/results/load.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, ResourceType
from kafka_config_admin.testing import start_cluster

RESULTS = Path(__file__).parent / "results" / "load.json"


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _summary(latencies: list[float], errors: int, seconds: float) -> dict[str, Any]:
    ordered = sorted(latencies)
    return {
        "calls": len(ordered),
        "errors": errors,
        "calls_per_s": round(len(ordered) / seconds, 1),
        "p50_ms": round(1000 * statistics.median(ordered), 1) if ordered else None,
        "p99_ms": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 1) if ordered else None,
    }


async def _load(bootstrap: str, alters: int, describes: int, seconds: float) -> dict[str, Any]:
    names = [f"load-{n}" for n in range(max(alters, describes))]
    creator = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await creator.start()
    try:
        await creator.create_topics([NewTopic(name, 1, 1) for name in names])
    finally:
        await creator.close()
    await asyncio.sleep(3)  # every broker learns the topics
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    latencies: dict[str, list[float]] = {"alter": [], "describe": []}
    errors = {"alter": 0, "describe": 0}
    async with AdminClient(bootstrap) as admin:
        fds_before, tasks_before = _open_fds(), len(asyncio.all_tasks())
        end = time.monotonic() + seconds

        async def alter(topic: ConfigResource) -> None:
            value = 3_600_000
            while time.monotonic() < end:
                value += 1
                began = time.monotonic()
                ops = {topic: [AlterConfigOp("retention.ms", str(value))]}
                result = admin.incremental_alter_configs(ops)
                await result.wait()
                latencies["alter"].append(time.monotonic() - began)
                errors["alter"] += len(result.errors())

        async def describe(topic: ConfigResource) -> None:
            while time.monotonic() < end:
                began = time.monotonic()
                result = admin.describe_configs([topic])
                await result.wait()
                latencies["describe"].append(time.monotonic() - began)
                errors["describe"] += len(result.errors())

        started = time.monotonic()
        await asyncio.gather(
            *(alter(t) for t in topics[:alters]), *(describe(t) for t in topics[:describes])
        )
        elapsed = time.monotonic() - started
        await asyncio.sleep(0.5)
        fds_after, tasks_after = _open_fds(), len(asyncio.all_tasks())
    return {
        "concurrent_alters": alters,
        "concurrent_describes": describes,
        "seconds": round(elapsed, 1),
        "alter": _summary(latencies["alter"], errors["alter"], elapsed),
        "describe": _summary(latencies["describe"], errors["describe"], elapsed),
        "open_fds": [fds_before, fds_after],
        "tasks": [tasks_before, tasks_after],
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks load", description=__doc__)
    parser.add_argument("--alters", type=int, default=200)
    parser.add_argument("--describes", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args(argv)
    with start_cluster(brokers=3, backend="jvm") as cluster:
        result = asyncio.run(
            _load(cluster.bootstrap_servers, args.alters, args.describes, args.seconds)
        )
    print(json.dumps(result, indent=2))
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
