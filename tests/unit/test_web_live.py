"""The live pages' polls without a broker: when each starts, so that a change shows within
one interval (the browser tests measure it on a real cluster); the bound on the resources each
poll reads (``--live-max-per-poll``), checked."""

from __future__ import annotations

from collections import deque
from typing import Any

import anyio
import pytest

from kafka_config_admin.cli._exit import ExitCode
from kafka_config_admin.cli._main import main
from kafka_config_admin.connect import Connection
from kafka_config_admin.web import WebSettings, create_app
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
        await events.aclose()
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
        await events.aclose()


@pytest.mark.parametrize("given", ["0", "-3", "1.5", "many", ""])
def test_live_max_per_poll_must_be_a_positive_integer(
    capsys: pytest.CaptureFixture[str], given: str
) -> None:
    """One line and exit code 2, before anything is started (no broker is named)."""
    with pytest.raises(SystemExit) as exited:
        main(["web", "--live-max-per-poll", given, "-b", "127.0.0.1:1"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert exited.value.code == ExitCode.USAGE
    assert len(lines) == 1 and "'--live-max-per-poll'" in lines[0], lines


@pytest.mark.parametrize("given", [0, -1, True, 2.0, "3"])
def test_web_settings_refuse_a_bound_per_poll_that_is_not_a_positive_integer(given: Any) -> None:
    settings = WebSettings(clusters={"c": Connection()}, live_max_per_poll=given)
    assert settings.problem() == (
        f"the live page's resources read per poll must be a positive integer, not {given!r}"
    )
    with pytest.raises(ValueError, match="resources read per poll must be a positive integer"):
        create_app(settings)


def test_web_settings_take_a_bound_per_poll_or_none() -> None:
    for given in (None, 1, 500):
        assert WebSettings(clusters={"c": Connection()}, live_max_per_poll=given).problem() is None


@pytest.mark.parametrize(("given", "bound"), [([], None), (["--live-max-per-poll", "3"], 3)])
def test_the_web_command_passes_its_bound_per_poll(
    monkeypatch: pytest.MonkeyPatch, given: list[str], bound: int | None
) -> None:
    import kafka_config_admin.web as editor

    served: list[WebSettings] = []
    monkeypatch.setattr(editor, "serve", served.append)
    with pytest.raises(SystemExit) as exited:
        main(["web", "-b", "127.0.0.1:9092", *given])
    assert exited.value.code == ExitCode.OK
    assert served[0].live_max_per_poll == bound
