"""Profile our SDK on W1, W2 and W3 with cProfile: ``python -m benchmarks.profile [--topics N]``.

Writes the top functions by own time to ``benchmarks/results/profile-w1.txt``, ``-w2.txt``
and ``-w3.txt``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
from collections.abc import Awaitable, Callable
from pathlib import Path

from kafka_config_admin.testing import start_cluster

from . import dataset
from .peers.ours import Peer

RESULTS = Path(__file__).parent / "results"


def top(profile: cProfile.Profile, lines: int = 25) -> str:
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(lines)
    return out.getvalue()


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
    args = parser.parse_args()
    with start_cluster(brokers=1) as cluster:
        topics = asyncio.run(dataset.create(cluster.bootstrap_servers, args.topics))
        profiles = asyncio.run(profile_workloads(cluster.bootstrap_servers, topics))
    RESULTS.mkdir(exist_ok=True)
    for name, text in profiles.items():
        (RESULTS / f"profile-{name}.txt").write_text(text)
        print(f"== {name}\n{text}")


if __name__ == "__main__":
    main()
