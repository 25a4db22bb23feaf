"""The client's task group may be closed by another task than the one that opened it."""

from __future__ import annotations

import asyncio

import anyio

from kafka_config_admin._engine.lifetime import TaskGroupHost


async def test_a_task_group_opened_in_one_task_is_closed_in_another() -> None:
    first, second = TaskGroupHost(), TaskGroupHost()
    cancelled: list[str] = []

    async def runs_until_closed(name: str) -> None:
        try:
            await anyio.sleep_forever()
        finally:
            cancelled.append(name)

    async def startup() -> None:
        (await first.open()).start_soon(runs_until_closed, "first")
        (await second.open()).start_soon(runs_until_closed, "second")

    await asyncio.ensure_future(startup())  # a task of its own, like a service's startup
    await asyncio.sleep(0)
    with anyio.fail_after(5):
        await asyncio.ensure_future(first.close())  # not nested: the first opened closes first
        assert cancelled == ["first"]
        await second.close()
        await second.close()  # closing twice is harmless
    assert cancelled == ["first", "second"]
