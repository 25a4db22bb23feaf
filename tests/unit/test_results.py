"""Per-resource futures: awaitable by many, cancellable per waiter, readable after failure."""

from __future__ import annotations

import asyncio

import anyio
import anyio.lowlevel
import pytest

from kafka_config_admin import (
    Config,
    ConfigResource,
    DescribeConfigsResult,
    InvalidConfigError,
    ResourceType,
)

A = ConfigResource(ResourceType.TOPIC, "a")
B = ConfigResource(ResourceType.TOPIC, "b")


async def test_future_states_and_many_waiters() -> None:
    result = DescribeConfigsResult([A, B])
    future = result.values[A]
    assert not future.done()
    with pytest.raises(asyncio.InvalidStateError):
        future.result()
    seen: list[Config] = []
    async with anyio.create_task_group() as group:
        for _ in range(3):
            group.start_soon(lambda: _append(seen, future))
        await anyio.lowlevel.checkpoint()
        future._set_result(Config())
    assert seen == [Config()] * 3 and future.done() and future.exception() is None


async def _append(seen: list[Config], future: object) -> None:
    seen.append(await future)  # type: ignore[misc]


async def test_cancelling_one_waiter_leaves_the_others() -> None:
    result = DescribeConfigsResult([A])
    future = result.values[A]
    with anyio.move_on_after(0.01):
        await future
    assert not future.done()
    future._set_result(Config())
    assert await future == Config()


async def test_all_raises_the_first_error_and_the_rest_stay_readable() -> None:
    result = DescribeConfigsResult([A, B])
    error = InvalidConfigError("bad", resource=A)
    result.values[A]._set_exception(error)
    result.values[B]._set_result(Config())
    with pytest.raises(InvalidConfigError) as caught:
        await result.all()
    assert caught.value is error
    assert result.values[B].result() == Config()
    assert result.errors() == {A: error}
    assert "2/2 done, 1 failed" in repr(result)
