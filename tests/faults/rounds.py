"""Fault rounds on a real 3-node cluster: ``python -m tests.faults.rounds --rounds N``.

Each round alters 20 topics in one call (and describes them at the same moment) while one node
is made sick, in turn: the broker the client sends changes to frozen (SIGSTOP), the active
controller frozen, a follower frozen, a broker stopped and restarted. After the round, the
topics are read back. Counted: rounds, resources that succeeded, typed errors (outcome unknown
among them), hangs (a call past its deadline plus 10 s) and wrong outcomes (a success not
applied, or a plain error whose change was applied). Exits 1 unless hangs and wrong are 0.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any

import anyio

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    KafkaConfigAdminError,
    OutcomeUnknownError,
    ResourceFuture,
)
from kafka_config_admin.testing import JvmCluster, start_cluster
from tests.integration.test_sick_nodes import (
    active_controller,
    frozen,
    new_topics,
    send_changes_to,
)

ROLES = ("client's broker frozen", "controller frozen", "follower frozen", "broker stopped")
TOPICS = 20
DEADLINE = 60.0  # the default call timeout


async def _round(
    cluster: JvmCluster, admin: AdminClient, topics: list[ConfigResource], role: str, value: int
) -> Counter[str]:
    counts: Counter[str] = Counter()
    controller = active_controller(cluster)
    others = [node for node in cluster.broker_ids if node != controller]
    await send_changes_to(admin, others[0], topics[0])
    victim = {"controller frozen": controller, "follower frozen": others[1]}.get(role, others[0])
    change = [AlterConfigOp("retention.ms", str(value))]
    ops = {topic: change for topic in topics}
    if role == "broker stopped":
        cluster.stop_broker(victim)
    try:
        with frozen(cluster, *([victim] if role.endswith("frozen") else [])):
            alter = admin.incremental_alter_configs(ops)
            describe = admin.describe_configs(topics)
            with anyio.move_on_after(DEADLINE + 10) as waited:
                await alter.wait()
                await describe.wait()
            if waited.cancelled_caught:
                counts["hangs"] += 1
    finally:
        if role == "broker stopped":
            cluster.start_broker(victim)
    futures: list[ResourceFuture[ConfigResource, Any]] = [
        *alter.values.values(),
        *describe.values.values(),
    ]
    for future in futures:
        if not future.done():
            continue
        error = future.exception()
        if error is None:
            counts["succeeded"] += 1
        elif isinstance(error, OutcomeUnknownError):
            counts["outcome unknown"] += 1
        elif isinstance(error, KafkaConfigAdminError):
            counts["typed errors"] += 1
        else:
            counts["untyped errors"] += 1
    counts["wrong"] += await _wrong_outcomes(admin, alter.values, str(value))
    return counts


async def _wrong_outcomes(
    admin: AdminClient,
    futures: Mapping[ConfigResource, ResourceFuture[ConfigResource, None]],
    value: str,
) -> int:
    """Successes not applied, and plain errors whose change was applied (after propagation)."""
    applied: dict[ConfigResource, bool] = {}
    with anyio.move_on_after(30):
        while True:
            configs = await admin.describe_configs(list(futures)).all()
            applied = {t: configs[t]["retention.ms"].value == value for t in futures}
            if all(applied[t] for t, f in futures.items() if f.exception() is None):
                break
            await anyio.sleep(0.5)
    wrong = 0
    for topic, future in futures.items():
        error = future.exception()
        if error is None and not applied.get(topic):
            wrong += 1
        elif error is not None and not isinstance(error, OutcomeUnknownError):
            wrong += applied.get(topic, False)
    return wrong


async def _main(rounds: int) -> int:
    totals: Counter[str] = Counter()
    started = time.monotonic()
    with start_cluster(brokers=3, backend="jvm") as cluster:
        assert isinstance(cluster, JvmCluster)
        async with AdminClient(cluster.bootstrap_servers) as admin:
            topics = await new_topics(cluster, admin, TOPICS)
            for number, role in zip(range(rounds), itertools.cycle(ROLES), strict=False):
                began = time.monotonic()
                counts = await _round(cluster, admin, topics, role, 3_600_000 + number)
                totals.update(counts)
                totals["rounds"] += 1
                print(
                    f"round {number + 1}: {role}: {dict(counts)} "
                    f"({time.monotonic() - began:.1f} s)",
                    flush=True,
                )
    print(
        f"rounds {totals['rounds']}, resources succeeded {totals['succeeded']}, typed errors "
        f"{totals['typed errors']} (+ outcome unknown {totals['outcome unknown']}), untyped "
        f"errors {totals['untyped errors']}, hangs {totals['hangs']}, partial or wrong changes "
        f"{totals['wrong']}, {time.monotonic() - started:.0f} s"
    )
    return 0 if totals["hangs"] == totals["wrong"] == totals["untyped errors"] == 0 else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    sys.exit(anyio.run(_main, parser.parse_args().rounds))


if __name__ == "__main__":
    main()
