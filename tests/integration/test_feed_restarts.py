"""Brokers stopped, killed and started again on a 3-broker cluster: nothing reads as removed.

A broker that is down is not in the cluster's metadata (it lists live brokers only), so a
reader that took the metadata's list for the cluster's brokers would report the broker, its
overrides and its loggers removed, and added again once it is back. The change feed's poll
(shared by the stream and ``watch``), ``plan --prune`` and ``audit`` are run through one
graceful stop and one SIGKILL, each followed by a restart: no change row, no removal, no
DELETE planned, no violation.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin.feed import (
    ChangeKind,
    ObservedState,
    StateChange,
    diff_states,
    next_state,
    observe_once,
)
from kafka_config_admin.state import ResourceKind, ResourceScope
from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import run_process
from .helpers import new_topic, settled_entry

pytestmark = [pytest.mark.integration, pytest.mark.kafka(brokers=3), pytest.mark.timeout(900)]

#: The key the issue saw reported removed when its broker restarted.
BROKER_KEY = "log.cleaner.threads"


class Feed:
    """The feed's poll and diff, as the stream and ``watch`` run them, with every row kept."""

    def __init__(self, bootstrap: str, scope: ResourceScope) -> None:
        self.bootstrap = bootstrap
        self.scope = scope
        self.state: ObservedState | None = None
        self.rows: list[StateChange] = []

    async def poll(self) -> ObservedState:
        observed = await observe_once(
            lambda: AdminClient(self.bootstrap, timeout=20), self.scope, "main"
        )
        after = next_state(self.state, observed)
        self.rows += diff_states(self.state, after)
        self.state = after
        return after

    async def poll_until(self, settled: Callable[[ObservedState], bool], what: str) -> None:
        deadline = anyio.current_time() + 180
        while not settled(await self.poll()):
            assert anyio.current_time() < deadline, f"{what}: not within 180 s; {self.state}"
            await anyio.sleep(1)

    def changes(self) -> list[StateChange]:
        return [row for row in self.rows if row.change is not ChangeKind.ERROR]


def every_broker_read(brokers: list[int]) -> Callable[[ObservedState], bool]:
    """Whether the poll read each broker's configs and loggers (listed, described, no error)."""

    def settled(state: ObservedState) -> bool:
        if state.error is not None:
            return False
        for broker in brokers:
            for kind in ("BROKER", "BROKER_LOGGER"):
                seen = state.resources.get((kind, str(broker)))
                if seen is None or seen.error is not None or seen.missing_since is not None:
                    return False
        return True

    return settled


def desired_file(tmp_path: Path, broker: int, topic: str) -> Path:
    path = tmp_path / "desired.yaml"
    path.write_text(
        f"brokers:\n  {broker}:\n    configs:\n      {BROKER_KEY}: 2\n"
        f"topics:\n  - name: {topic}\n    configs:\n      retention.ms: 3600000\n"
        "rules:\n"
        f"  - {{resource: broker, check: {BROKER_KEY} <= 8}}\n"
        f"  - {{check: retention.ms >= 1000, match: '{topic}'}}\n",
        encoding="utf-8",
    )
    return path


def plan_and_audit(bootstrap: str, file: Path, *, named_down: bool, settled: bool) -> None:
    """``plan --prune`` deletes nothing and ``audit`` finds nothing. While the broker the file
    names is down (``named_down``), the plan says it could not be described (a problem: exit
    code 2) and plans nothing for it; once every broker is back (``settled``), the plan has
    nothing to do."""
    plan = run_process("plan", str(file), "--prune", "-o", "json", "-b", bootstrap)
    assert "Traceback" not in plan.err, plan.err
    document = json.loads(plan.out)
    deletes = [
        (item["resource"], change["key"])
        for item in document["resources"]
        for change in item.get("changes", [])
        if change["op"] == "DELETE"
    ]
    assert deletes == [], document
    assert "removed" not in plan.out
    if settled:
        assert plan.code == 0, (plan.out, plan.err)
    if named_down:
        assert plan.code == 2 and "could not be described" in plan.err, (plan.out, plan.err)
    audit = run_process("audit", str(file), "-b", bootstrap)
    assert "Traceback" not in audit.err, audit.err
    assert "violation(s)" in audit.err and " 0 violation(s)" in audit.err, audit.err
    if settled:
        assert audit.code == 0, (audit.out, audit.err)
    if named_down:
        assert audit.code == 1 and "failed: " in audit.err, (audit.out, audit.err)


async def restart(
    cluster: KafkaCluster, broker: int, how: str, feed: Feed, while_down: Callable[[], None]
) -> None:
    """Stop (or kill) ``broker``, poll and run ``while_down`` while it is down, start it again."""
    end = cluster.stop_broker if how == "stop" else cluster.kill_broker
    await anyio.to_thread.run_sync(end, broker)
    for _ in range(3):
        await feed.poll()
        await anyio.sleep(1)
    await anyio.to_thread.run_sync(while_down)
    await feed.poll()
    await anyio.to_thread.run_sync(cluster.start_broker, broker)


async def test_stopped_and_killed_brokers_give_no_change_rows_and_no_removal(
    kafka_cluster: KafkaCluster,
    admin_client: AdminClient,
    kafka_bootstrap: str,
    tmp_path: Path,
) -> None:
    brokers = sorted(admin_client.broker_ids())
    assert len(brokers) == 3
    stopped, killed = brokers[1], brokers[2]
    name = await new_topic(admin_client, kafka_bootstrap, {"retention.ms": "3600000"})
    own = ConfigResource(ResourceType.BROKER, str(stopped))
    await admin_client.incremental_alter_configs({own: [AlterConfigOp(BROKER_KEY, "2")]}).all()
    await settled_entry(admin_client, own, BROKER_KEY, "2")  # the broker has taken it
    scope = ResourceScope(
        kinds=(
            ResourceKind.TOPIC,
            ResourceKind.BROKER,
            ResourceKind.CLUSTER_DEFAULT,
            ResourceKind.BROKER_LOGGER,
        ),
        topics=(name,),
    )
    feed = Feed(kafka_bootstrap, scope)
    file = desired_file(tmp_path, stopped, name)
    try:
        await feed.poll_until(every_broker_read(brokers), "the baseline")
        assert feed.state is not None
        seen = feed.state.resources[("BROKER", str(stopped))].configs
        assert seen is not None and seen[BROKER_KEY].value == "2"

        await restart(
            kafka_cluster,
            stopped,
            "stop",
            feed,
            lambda: plan_and_audit(kafka_bootstrap, file, named_down=True, settled=False),
        )
        unknown = feed.state.resources[("BROKER", str(stopped))]
        await feed.poll_until(every_broker_read(brokers), f"broker {stopped} back")

        await restart(
            kafka_cluster,
            killed,
            "kill",
            feed,
            lambda: plan_and_audit(kafka_bootstrap, file, named_down=False, settled=False),
        )
        await feed.poll_until(every_broker_read(brokers), f"broker {killed} back")
        for _ in range(3):  # loggers a restarted broker makes as it works
            await anyio.sleep(2)
            await feed.poll()
        await anyio.to_thread.run_sync(
            lambda: plan_and_audit(kafka_bootstrap, file, named_down=False, settled=True)
        )
    finally:
        await admin_client.incremental_alter_configs(
            {own: [AlterConfigOp(BROKER_KEY, op=OpType.DELETE)]}
        ).all()

    assert feed.changes() == []
    assert unknown.configs is not None and unknown.configs[BROKER_KEY].value == "2"
    # While down, each broker was unknown (an error row about it), never the cluster's rows.
    failed = {(row.resource_type, row.resource_name) for row in feed.rows}
    assert failed <= {
        (None, None),
        *((kind, str(b)) for kind in ("BROKER", "BROKER_LOGGER") for b in (stopped, killed)),
    }, failed
    assert ("BROKER", str(stopped)) in failed
