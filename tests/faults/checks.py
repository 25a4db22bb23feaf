"""What every fault round checks: each call's outcome and time, the read-back, and leaks.

A round alters two configs of each topic in one change (``retention.ms`` and
``delete.retention.ms``, both to the round's value), so that the read-back tells a change
applied (both new) from one not applied (both as before) from one partly applied (anything
else). Every call's outcome is judged against the read-back: a success that did not apply, a
plain failure whose change applied, or a partial change counts as wrong; an
``OutcomeUnknownError`` may go either way, which is what it says.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AlterConfigsResult,
    ConfigResource,
    DescribeConfigsResult,
    KafkaConfigAdminError,
    OutcomeUnknownError,
)
from kafka_config_admin._client import DEFAULT_TIMEOUT
from kafka_config_admin.testing import JvmCluster, _process

__all__ = [
    "KEYS",
    "Call",
    "Snapshot",
    "alter",
    "changes",
    "describe",
    "judge",
    "leaks",
    "read_back",
]

#: The configs each round changes together, in one change per topic.
KEYS = ("retention.ms", "delete.retention.ms")
#: How long past its deadline a call may end: the event loop's turn on a busy 2-core machine.
SLACK = 2.0
#: How long past its deadline the round waits for a call before giving up on it (a hang).
GIVE_UP = 10.0


@dataclass
class Call:
    """One call of a round: what it was, how long it took, and each resource's outcome."""

    kind: str  # "alter" or "describe"
    timeout: float
    seconds: float = 0.0
    #: Each resource's error, None for a success; missing: no outcome by the give-up time.
    outcomes: dict[ConfigResource, BaseException | None] = field(default_factory=dict)
    #: For an alter: the value each resource was given.
    value: str = ""

    @property
    def hung(self) -> bool:
        """Ended past its deadline (plus slack), or not at all."""
        return self.seconds > self.timeout + SLACK

    @property
    def succeeded(self) -> bool:
        return not self.hung and all(error is None for error in self.outcomes.values())


def changes(value: str) -> list[AlterConfigOp]:
    return [AlterConfigOp(key, value) for key in KEYS]


async def alter(
    admin: AdminClient, topics: list[ConfigResource], value: str, call_timeout: float | None = None
) -> Call:
    """One incremental alter of ``topics`` (both keys to ``value``), timed and recorded."""
    call = Call("alter", call_timeout or DEFAULT_TIMEOUT, value=value)
    began = time.monotonic()
    result = admin.incremental_alter_configs(
        dict.fromkeys(topics, changes(value)), timeout=call_timeout
    )
    await _ended(call, began, result)
    return call


async def describe(admin: AdminClient, topics: list[ConfigResource]) -> Call:
    """One describe of ``topics`` with the default deadline, timed and recorded."""
    call = Call("describe", DEFAULT_TIMEOUT)
    began = time.monotonic()
    result = admin.describe_configs({topic: list(KEYS) for topic in topics})
    await _ended(call, began, result)
    return call


async def _ended(
    call: Call, began: float, result: AlterConfigsResult | DescribeConfigsResult
) -> None:
    with anyio.move_on_after(call.timeout + GIVE_UP):
        await result.wait()
    call.seconds = time.monotonic() - began
    for resource, future in result.values.items():
        if future.done():
            call.outcomes[resource] = future.exception()


async def read_back(
    bootstrap: str, topics: Iterable[ConfigResource], must_show: Mapping[ConfigResource, str]
) -> dict[ConfigResource, tuple[str | None, ...]]:
    """The two configs of each topic, once the cluster has settled (at most 40 s).

    Brokers learn a change a moment after the controller commits it, and a broker resumed or
    restarted catches up later still: read until every success shows and two reads a second
    apart agree.
    """
    topics = list(topics)
    seen: dict[ConfigResource, tuple[str | None, ...]] = {}
    async with AdminClient(bootstrap) as admin:
        with anyio.move_on_after(40):
            while True:
                result = admin.describe_configs({topic: list(KEYS) for topic in topics})
                await result.wait()
                if not result.errors():
                    configs = await result.all()
                    now = {
                        t: tuple(configs[t][k].value if k in configs[t] else None for k in KEYS)
                        for t in topics
                    }
                    shown = all(now[t] == (v,) * len(KEYS) for t, v in must_show.items())
                    if shown and now == seen:
                        return now
                    seen = now
                await anyio.sleep(1.0)
    return seen


def judge(
    calls: Iterable[Call],
    before: Mapping[ConfigResource, str],
    after: Mapping[ConfigResource, tuple[str | None, ...]],
) -> Counter[str]:
    """Count the round's calls and resources by outcome, and the wrong ones."""
    counts: Counter[str] = Counter()
    for call in calls:
        counts[f"{call.kind} calls"] += 1
        counts[f"{call.kind} calls ok"] += call.succeeded
        counts["hangs"] += call.hung
        counts["longest call ms"] = max(counts["longest call ms"], round(call.seconds * 1000))
        errors = [error for error in call.outcomes.values() if error is not None]
        if errors and not call.hung:
            counts["calls typed error"] += all(isinstance(e, KafkaConfigAdminError) for e in errors)
            counts["calls outcome unknown"] += any(
                isinstance(e, OutcomeUnknownError) for e in errors
            )
        for resource, error in call.outcomes.items():
            counts["resources"] += 1
            if error is None:
                counts["resources ok"] += 1
            else:
                counts[f"error {type(error).__name__}"] += 1
                if not isinstance(error, KafkaConfigAdminError):
                    counts["untyped errors"] += 1
            if call.kind == "alter":
                counts["wrong"] += _wrong(error, before[resource], after.get(resource), call.value)
    return counts


def _wrong(
    error: BaseException | None, before: str, seen: tuple[str | None, ...] | None, value: str
) -> bool:
    if seen is None:
        return True  # never read back: nothing proves the change right
    applied = seen == (value,) * len(KEYS)
    untouched = seen == (before,) * len(KEYS)
    if not (applied or untouched):
        return True  # partly applied
    if error is None:
        return not applied
    return applied and not isinstance(error, OutcomeUnknownError)


@dataclass(frozen=True)
class Snapshot:
    """What the process holds between rounds: asyncio tasks and open file descriptors."""

    tasks: int
    fds: int

    @classmethod
    def now(cls) -> Snapshot:
        return cls(len(asyncio.all_tasks()), len(os.listdir("/proc/self/fd")))


async def leaks(before: Snapshot, cluster: JvmCluster) -> list[str]:
    """What the round left behind: tasks, descriptors (sockets among them), JVMs.

    Closed connections and finished tasks go away within a moment: wait up to 5 s for that.
    """
    found: list[str] = []
    with anyio.move_on_after(5):
        while True:
            after = Snapshot.now()
            found = []
            if after.tasks > before.tasks:
                found.append(f"{after.tasks - before.tasks} asyncio tasks")
            if after.fds > before.fds:
                found.append(f"{after.fds - before.fds} file descriptors")
            if not found:
                break
            await anyio.sleep(0.2)
    nodes = len(cluster.running_broker_ids)
    jvms = _jvms_of(cluster)
    if jvms != nodes or len(_process.live_pids()) != nodes:
        found.append(f"{jvms} JVMs of the cluster for {nodes} nodes running")
    return found


def _jvms_of(cluster: JvmCluster) -> int:
    """Kafka JVMs on the machine that belong to this cluster (its directory in their command)."""
    mark = str(cluster.directory).encode()
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue  # ended meanwhile
            count += b"kafka.Kafka" in command and mark in command
    return count
