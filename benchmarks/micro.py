"""What the per-call machinery costs, in µs: ``python -m benchmarks.micro``.

The numbers behind the design of a describe's call path (docs/benchmarks.md): why a call that
fits in one request has no task, no cancel scope and no anyio Event of its own, and why
``ConfigResource`` skips validation for arguments of the right types. No broker is needed.
"""

from __future__ import annotations

import asyncio
import timeit
from collections.abc import Callable

import anyio

from kafka_config_admin import ConfigResource, ResourceType

CALLS = 20_000


def microseconds(work: Callable[[], object]) -> float:
    """The best of five runs of CALLS calls, per call."""
    return min(timeit.repeat(work, number=CALLS, repeat=5)) / CALLS * 1e6


async def measure() -> dict[str, float]:
    async def nothing() -> None:
        pass

    def cancel_scope() -> None:
        with anyio.move_on_after(10):  # noqa: ASYNC100 (the scope is what is measured)
            pass

    loop = asyncio.get_running_loop()
    costs = {
        "anyio Event()": microseconds(anyio.Event),
        "asyncio Event()": microseconds(asyncio.Event),
        "anyio move_on_after, entered and left": microseconds(cancel_scope),
        "loop.call_later + cancel": microseconds(lambda: loop.call_later(10, print).cancel()),
        "ConfigResource(ResourceType.TOPIC, name)": microseconds(
            lambda: ConfigResource(ResourceType.TOPIC, "orders")
        ),
        "ConfigResource(type='topic', name=name), validated": microseconds(
            lambda: ConfigResource(type="topic", name="orders")
        ),
    }
    async with anyio.create_task_group() as group:
        costs["anyio TaskGroup.start_soon"] = microseconds(lambda: group.start_soon(nothing))
    return costs


def main() -> None:
    for name, cost in asyncio.run(measure()).items():
        print(f"{cost:7.2f} µs  {name}")


if __name__ == "__main__":
    main()
