"""Time the test harness: `python -m benchmarks.startup` starts and stops each shape twice."""

from __future__ import annotations

import time

from kafka_config_admin.testing import start_cluster

SHAPES: list[dict[str, int | bool]] = [
    {"brokers": 1},
    {"brokers": 3, "sasl": True, "policy": True},
]


def main() -> None:
    for shape in SHAPES:
        for _ in range(2):
            started = time.monotonic()
            cluster = start_cluster(**shape)  # type: ignore[arg-type]
            ready = time.monotonic()
            cluster.stop()
            print(f"{shape}: start {ready - started:.1f} s, stop {time.monotonic() - ready:.1f} s")


if __name__ == "__main__":
    main()
