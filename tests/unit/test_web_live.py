"""The live pages' polls without a broker: when each starts, so that a change shows within
one interval (the browser tests measure it on a real cluster)."""

from __future__ import annotations

from collections import deque
from typing import Any

import anyio
import pytest

from kafka_config_admin.web._live import LiveStreams, poll_period


def test_polls_start_an_interval_apart_less_a_fifth_and_twice_the_longest_recent_read() -> None:
    assert poll_period(4.0, deque()) == pytest.approx(3.2)
    assert poll_period(4.0, deque([0.1, 0.3, 0.2])) == pytest.approx(2.6)
    assert poll_period(4.0, deque([0.9])) == 2.0  # at most twice per interval
    assert poll_period(4.0, deque([5.0])) == 2.0


async def test_the_first_poll_is_at_once_and_the_next_counted_from_its_start() -> None:
    """A poll that takes 0.3 s at an interval of 1 s: the baseline as the stream opens, the
    next poll 0.5 s after its start (not 1 s after its end, as a sleep between polls)."""
    starts: list[float] = []

    async def poll(state: Any) -> tuple[Any, list[str], str | None]:
        starts.append(anyio.current_time())
        await anyio.sleep(0.3)
        return state, ["event: polled\n\n"], None

    streams = LiveStreams()
    opened = anyio.current_time()
    with anyio.fail_after(5):
        events = streams.stream("scope", poll, 1.0)
        async for _ in events:
            if len(starts) == 2:
                break
        await events.aclose()  # type: ignore[attr-defined]  # an async generator
    assert starts[0] - opened < 0.2
    assert 0.5 <= starts[1] - starts[0] < 0.9, starts
    assert (streams.open, streams.polling) == (0, 0)  # ended with its reader


async def test_a_poll_slower_than_its_period_still_sends_its_events_at_once() -> None:
    """Polls of 0.3 s at an interval of 0.4 s: each is due when the last ends, and each one's
    event is sent before the next poll starts."""
    polls = 0

    async def poll(state: Any) -> tuple[Any, list[str], str | None]:
        nonlocal polls
        polls += 1
        await anyio.sleep(0.3)
        return state, [f"event: poll\ndata: {polls}\n\n"], None

    streams = LiveStreams()
    received = []
    with anyio.fail_after(5):
        events = streams.stream("scope", poll, 0.4)
        async for event in events:
            received.append(event)
            assert event == f"event: poll\ndata: {polls}\n\n"  # the poll just ended's
            if len(received) == 3:
                break
        await events.aclose()  # type: ignore[attr-defined]  # an async generator
