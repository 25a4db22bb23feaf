"""Profile our SDK on W1 and W2 with cProfile: ``python -m benchmarks.profile [--topics N]``.

Writes the top functions by own time to ``benchmarks/results/profile-w1.txt`` and ``-w2.txt``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
from pathlib import Path

from kafka_config_admin.testing import start_cluster

from . import dataset
from .peers.ours import Peer

RESULTS = Path(__file__).parent / "results"


def top(profile: cProfile.Profile, lines: int = 25) -> str:
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(lines)
    return out.getvalue()


async def profile_workloads(bootstrap: str, topics: list[str]) -> dict[str, str]:
    peer = Peer()
    await peer.open(bootstrap)
    try:
        await peer.w1_describe_all(topics)  # warm-up
        w1 = cProfile.Profile()
        w1.enable()
        await peer.w1_describe_all(topics)
        w1.disable()
        w2 = cProfile.Profile()
        w2.enable()
        for _ in range(1000):
            await peer.w2_describe_one(topics[1])
        w2.disable()
    finally:
        await peer.close()
    return {"w1": top(w1), "w2": top(w2)}


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
