"""Runs one client's workloads in this process and prints the timings as JSON.

``python -m benchmarks.runner PEER BOOTSTRAP TOPICS_JSON REPS SETTLE_SECONDS [WORKLOADS
[no-memory]]``

WORKLOADS (``w1,w3``; default all) picks the workloads. W1's memory is measured on fresh
clients of the same process: the process's RSS around the first call, then tracemalloc (not
with ``no-memory``: two W1 calls fewer). With :data:`benchmarks.BROKER_PIDS` set, each timed
call also records the brokers' CPU seconds and bytes written during it, and a client that
counts its own traffic (``Peer.bytes_received``) the bytes it received.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import json
import os
import sys
import time
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from pathlib import Path
from typing import Any

from . import BROKER_PIDS, broker_counters, memory_mb, reset_peak_rss
from .peers import MODULES
from .peers.base import NotSupported, Peer

WORKLOADS = ("w1", "w2", "w3", "w4")
W2_CALLS = 1000
W4_CALLS = 50
VALUES = ("3600000", "7200000")  # alternate so that every alter really changes the topic
#: W3 takes a tenth of a second, most of it the controller's commit, whose time varies by tens
#: of percent from one alter to the next: it gets more samples than the other workloads.
W3_REPS_PER_REP = 3


async def _call(result: Any) -> Any:
    return await result if inspect.isawaitable(result) else result


def _counters(peer: Peer | None) -> dict[str, float]:
    """What each timed call is measured by beside time: the brokers' CPU and bytes written
    (with :data:`BROKER_PIDS` set), the bytes ``peer`` received (where it counts them)."""
    counters: dict[str, float] = {}
    pids = [int(pid) for pid in os.environ.get(BROKER_PIDS, "").split(",") if pid]
    if pids:
        counters["broker_cpu_seconds"], counters["broker_bytes_written"] = broker_counters(pids)
    received = getattr(peer, "bytes_received", None)
    if received is not None:
        counters["bytes_received"] = received()
    return counters


async def _timed(
    reps: int, warmups: int, run: Callable[[int], Awaitable[Any]], peer: Peer | None = None
) -> dict[str, list[float]]:
    """Each repetition's wall time, the CPU time this process spent on it, and what
    :func:`_counters` counted during it."""
    for rep in range(warmups):
        await run(rep)
    timings: dict[str, list[float]] = {"seconds": [], "cpu_seconds": []}
    for rep in range(reps):
        before = _counters(peer)
        start, start_cpu = time.perf_counter(), time.process_time()
        await run(rep)
        timings["seconds"].append(time.perf_counter() - start)
        timings["cpu_seconds"].append(time.process_time() - start_cpu)
        for name, value in _counters(peer).items():
            timings.setdefault(name, []).append(value - before[name])
    return timings


async def _w2_latencies(peer: Peer, topic: str) -> list[float]:
    latencies = []
    for _ in range(W2_CALLS):
        start = time.perf_counter()
        await _call(peer.w2_describe_one(topic))
        latencies.append(time.perf_counter() - start)
    return sorted(latencies)


async def measure(
    peer: Peer,
    topics: list[str],
    reps: int,
    settle: float,
    only: Collection[str] = WORKLOADS,
) -> dict[str, Any]:
    """Each workload's timings; the broker is left ``settle`` seconds before each.

    Without the pause, the broker's own aftermath of one workload (its garbage collection after
    W1's large answers) lands in the next one's latencies, and more so the faster a client ran
    the workload before.
    """
    workloads: dict[str, Callable[[], Awaitable[dict[str, Any]]]] = {
        "w1": lambda: _seconds(reps, 1, lambda rep: peer.w1_describe_all(topics), peer),
        "w2": lambda: _w2(peer, topics[1], max(1, reps // 2)),
        "w3": lambda: _seconds(
            W3_REPS_PER_REP * reps, 2, lambda rep: peer.w3_alter_each(topics, VALUES[rep % 2])
        ),
        "w4": lambda: _seconds(reps, 1, lambda rep: peer.w4_concurrent(topics[:W4_CALLS])),
    }
    results: dict[str, Any] = {}
    for name, run in workloads.items():
        if name not in only:
            continue
        await asyncio.sleep(settle)
        try:
            results[name] = await run()
        except NotSupported as reason:
            results[name] = {"unsupported": str(reason)}
        if name in peer.notes and "unsupported" not in results[name]:
            results[name]["note"] = peer.notes[name]
    return results


async def _seconds(
    reps: int, warmups: int, run: Callable[[int], Any], peer: Peer | None = None
) -> dict[str, Any]:
    return await _timed(reps, warmups, lambda rep: _call(run(rep)), peer)


async def _w2(peer: Peer, topic: str, reps: int) -> dict[str, Any]:
    await _w2_latencies(peer, topic)  # warm-up
    runs, cpu_seconds = [], []
    for _ in range(reps):
        start_cpu = time.process_time()
        runs.append(await _w2_latencies(peer, topic))
        cpu_seconds.append(time.process_time() - start_cpu)
    return {
        "seconds": [sum(run) for run in runs],
        "cpu_seconds": cpu_seconds,
        "p50_ms": [run[len(run) // 2] * 1000 for run in runs],
        "p99_ms": [run[int(len(run) * 0.99)] * 1000 for run in runs],
    }


async def w1_memory(peer: Peer, topics: list[str]) -> dict[str, float]:
    """Bytes the decoded W1 result keeps, and the peak while the call ran (tracemalloc).

    ``peer`` is freshly opened: nothing a client cached in earlier calls is left out.
    """
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    result = await _call(peer.w1_describe_all(topics))
    retained, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return {"result_mb": (retained - baseline) / 1e6, "peak_mb": (peak - baseline) / 1e6}


async def w1_rss(peer: Peer, topics: list[str]) -> dict[str, float]:
    """The process's RSS before the first W1 call, and its peak during it, in MB.

    The peak is reset just before the call (:func:`benchmarks.reset_peak_rss`): the call's own.
    """
    before = memory_mb()
    reset_peak_rss()
    result = await _call(peer.w1_describe_all(topics))
    peak = memory_mb("VmHWM")
    del result
    return {"rss_before_mb": before, "rss_peak_mb": peak, "rss_growth_mb": peak - before}


async def main(
    name: str,
    bootstrap: str,
    topics: list[str],
    reps: int,
    settle: float,
    only: Collection[str] = WORKLOADS,
    with_memory: bool = True,
) -> None:
    report: dict[str, Any] = {"peer": name}
    memory: dict[str, float] = {}
    decodes = with_memory and name != "floor" and "w1" in only
    if decodes:
        async with _opened(name, bootstrap) as peer:
            memory.update(await w1_rss(peer, topics))
    async with _opened(name, bootstrap) as peer:
        report["workloads"] = await measure(peer, topics, reps, settle, only)
    if decodes:
        async with _opened(name, bootstrap) as peer:
            memory.update(await w1_memory(peer, topics))
        report["w1_memory"] = memory
    print(json.dumps(report))


@contextlib.asynccontextmanager
async def _opened(name: str, bootstrap: str) -> AsyncIterator[Peer]:
    module, _, cls = MODULES[name].partition(":")
    peer: Peer = getattr(importlib.import_module(module), cls or "Peer")()
    await peer.open(bootstrap)
    try:
        yield peer
    finally:
        await peer.close()


if __name__ == "__main__":
    topic_names = json.loads(Path(sys.argv[3]).read_text())
    chosen = sys.argv[6].split(",") if sys.argv[6:] else WORKLOADS
    memory_too = sys.argv[7:] != ["no-memory"]
    asyncio.run(
        main(
            sys.argv[1],
            sys.argv[2],
            topic_names,
            int(sys.argv[4]),
            float(sys.argv[5]),
            chosen,
            memory_too,
        )
    )
