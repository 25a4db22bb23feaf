"""Profile our SDK on W1, W2 and W3 with cProfile: ``python -m benchmarks.profile [--topics N]
[--out DIR]``.

Writes the top functions by own time to ``benchmarks/results/profile-w1.txt``, ``-w2.txt``
and ``-w3.txt`` (or to ``DIR``); their first lines give the function calls each workload made.
With ``PYTHONPATH=TREE`` it profiles the package of another source tree (before and after a
change, call for call). :func:`w1_time_split` (``python -m benchmarks scale --profile``) says
where a W1 call's time goes on a cluster of any size: waiting for the brokers, encoding and
decoding, shaping the result, the engine, the event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from kafka_config_admin.testing import start_cluster

from . import cpu_between, dataset, tree_cpu_seconds
from .peers.ours import Peer

RESULTS = Path(__file__).parent / "results"


def top(profile: cProfile.Profile, lines: int = 25) -> str:
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(lines)
    return out.getvalue()


#: Where a function's own time goes, by where it lives (the first area that matches).
WAITING = "waiting for the brokers (epoll)"
PROTOCOL = "encoding and decoding (_protocol)"
SHAPING = "shaping the result (_ops, _models)"
ENGINE = "engine, connections, client (_engine, _net, _client)"
REST = "event loop and the rest"
AREAS = (WAITING, PROTOCOL, SHAPING, ENGINE, REST)

Function = tuple[str, int, str]  # pstats' key: file, line, name


def _own_area(function: Function) -> str | None:
    """The area of a function by its own code; None for a builtin (it counts with its callers)."""
    file, _, name = function
    if "select.epoll" in name:
        return WAITING
    if "/kafka_config_admin/_protocol/" in file or (
        file.startswith("<") and file.endswith(("decoder>", "encoder>"))
    ):
        return PROTOCOL
    if "/kafka_config_admin/_ops/" in file or "/kafka_config_admin/_models/" in file:
        return SHAPING
    if "/kafka_config_admin/" in file:
        return ENGINE
    return None if file == "~" else REST


def areas(profile: cProfile.Profile) -> dict[str, float]:
    """Seconds of own time in each area; a builtin's time (``bytes.decode``, ``dict.get``)
    goes to the areas of the functions that called it, in proportion to what each call took."""
    stats: dict[Function, Any] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    totals = dict.fromkeys(AREAS, 0.0)

    def add(function: Function, seconds: float, depth: int = 0) -> None:
        area = _own_area(function)
        callers = stats.get(function, (0, 0, 0.0, 0.0, {}))[4]
        if area is not None or not callers or depth > 20:
            totals[area or REST] += seconds
            return
        called = sum(entry[2] for entry in callers.values()) or 1.0
        for caller, entry in callers.items():
            add(caller, seconds * entry[2] / called, depth + 1)

    for function, (_, _, own, _, _) in stats.items():
        add(function, own)
    return totals


async def _w1_split(bootstrap: str, topics: list[str]) -> dict[str, Any]:
    peer = Peer()
    await peer.open(bootstrap)
    try:
        await peer.w1_describe_all(topics)  # warm-up
        tree_before = tree_cpu_seconds()
        start, start_cpu = time.perf_counter(), time.process_time()
        await peer.w1_describe_all(topics)
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        brokers = cpu_between(tree_before, tree_cpu_seconds())["brokers"]
        profile = cProfile.Profile()
        profile.enable()
        await peer.w1_describe_all(topics)
        profile.disable()
    finally:
        await peer.close()
    split = areas(profile)
    profiled = sum(split.values())
    return {
        "wall_s": wall,
        "client_cpu_s": cpu,
        "brokers_cpu_s": brokers,
        "profiled_wall_s": profiled,
        "profiled_shares": {area: seconds / profiled for area, seconds in split.items()},
        "top": top(profile, 15),
    }


def w1_time_split(bootstrap: str, topics: list[str]) -> dict[str, Any]:
    """Where our W1 call's time goes, measured in this process (a parent of the brokers, for
    their CPU): after a warm-up, one call timed (wall, this process's CPU, the brokers' CPU)
    and one under cProfile, its wall time split into :data:`AREAS` (cProfile's own overhead
    inflates the Python parts: shares, not seconds)."""
    return asyncio.run(_w1_split(bootstrap, topics))


async def _w2(peer: Peer, topics: list[str], rep: int) -> None:
    for _ in range(1000):
        await peer.w2_describe_one(topics[1])


async def _w3(peer: Peer, topics: list[str], rep: int) -> None:
    await peer.w3_alter_each(topics, ("3600000", "7200000")[rep])  # each run changes the topics


WORKLOADS: dict[str, Callable[[Peer, list[str], int], Awaitable[object]]] = {
    "w1": lambda peer, topics, rep: peer.w1_describe_all(topics),
    "w2": _w2,
    "w3": _w3,
}


async def profile_workloads(bootstrap: str, topics: list[str]) -> dict[str, str]:
    """Each workload once to warm up, then once under cProfile."""
    peer = Peer()
    await peer.open(bootstrap)
    profiles = {}
    try:
        for name, run in WORKLOADS.items():
            await run(peer, topics, 0)
            profile = cProfile.Profile()
            profile.enable()
            await run(peer, topics, 1)
            profile.disable()
            profiles[name] = top(profile)
    finally:
        await peer.close()
    return profiles


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profile")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    with start_cluster(brokers=1) as cluster:
        topics = asyncio.run(dataset.create(cluster.bootstrap_servers, args.topics))
        profiles = asyncio.run(profile_workloads(cluster.bootstrap_servers, topics))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in profiles.items():
        (args.out / f"profile-{name}.txt").write_text(text)
        print(f"== {name}\n{text}")


if __name__ == "__main__":
    main()
