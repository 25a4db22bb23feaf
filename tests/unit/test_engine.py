"""The engine driven through a fake transport in virtual time (``engine_harness``): retries and
backoff, deadlines, hedging, "outcome unknown" and closing, for direct and gathered calls.

A single describe or alter of topics is a gathered call (``coalesce``); a call bound for two
brokers (BROKER resources) or split into several requests runs as the engine's own task.
"""

from __future__ import annotations

import itertools
from typing import Any

import anyio
import pytest

from kafka_config_admin import (
    ClientClosedError,
    ConfigResource,
    KafkaConnectionError,
    KafkaTimeoutError,
    OutcomeUnknownError,
    ResourceType,
    TlsError,
    UnknownTopicOrPartitionError,
)

from .engine_harness import Answer, Harness, Lose, Request, Silent, run

NOT_CONTROLLER, REQUEST_TIMED_OUT, UNKNOWN_TOPIC = 41, 7, 3
ERROR_NAMES = {NOT_CONTROLLER: "NOT_CONTROLLER", REQUEST_TIMED_OUT: "REQUEST_TIMED_OUT"}

#: 1/5 of the shorter of request_timeout (10 s) and the call's timeout (30 s).
HEDGE_AFTER = 2.0


def topic(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


def broker(node: int) -> ConfigResource:
    return ConfigResource(ResourceType.BROKER, str(node))


DIRECT_OR_GATHERED = pytest.mark.parametrize("direct", [False, True], ids=["gathered", "direct"])


def subjects(direct: bool) -> tuple[ConfigResource, ...]:
    """A direct call's resources (bound for two brokers), or a gathered call's (one topic)."""
    return (broker(1), broker(2)) if direct else (topic("orders"),)


def answered_with(code: int, times: int | None = None, after: float = 0.01) -> Any:
    """A script: every request answered with ``code`` (the first ``times`` only, then 0)."""
    seen = [0]

    def script(request: Request) -> Answer:
        seen[0] += 1
        failing = times is None or seen[0] <= times
        return Answer({name: code for name in request.resources} if failing else {}, after)

    return script


async def outcome(future: Any) -> Any:
    try:
        return await future
    except Exception as error:
        return error


# --- retries and backoff ------------------------------------------------------------------


@DIRECT_OR_GATHERED
def test_a_retriable_error_is_sent_again_after_a_doubling_backoff(direct: bool) -> None:
    async def scenario(h: Harness) -> None:
        await h.alter(*subjects(direct)).all()
        first = subjects(direct)[0].name
        writes = [r.at for r in h.transport.requests if r.resources == [first]]
        assert len(writes) == 3
        first_pause, second_pause = (b - a - 0.01 for a, b in itertools.pairwise(writes))
        assert 0.08 <= first_pause <= 0.12  # retry_backoff with its jitter
        assert 0.16 <= second_pause <= 0.24  # then twice that

    # Each resource's first two answers fail (direct: two brokers, one request each).
    run(scenario, script=answered_with(NOT_CONTROLLER, times=2 * len(subjects(direct))))


def test_the_backoff_stops_growing_at_its_maximum() -> None:
    async def scenario(h: Harness) -> None:
        result = h.alter("orders", timeout=6.0)
        error = await outcome(result.values[topic("orders")])
        assert isinstance(error, KafkaTimeoutError)
        writes = [r.at for r in h.transport.requests]
        pauses = [b - a - 0.01 for a, b in itertools.pairwise(writes)]
        assert max(pauses) <= 0.3 * 1.2  # retry_backoff_max, with its jitter
        assert pauses[-1] >= 0.3 * 0.8

    run(scenario, script=answered_with(NOT_CONTROLLER), retry_backoff_max=0.3)


def test_an_error_that_is_not_retriable_ends_the_call_at_once() -> None:
    async def scenario(h: Harness) -> None:
        error = await outcome(h.describe("gone").values[topic("gone")])
        assert isinstance(error, UnknownTopicOrPartitionError)
        assert len(h.transport.requests) == 1 and h.now < 0.1

    run(scenario, script=answered_with(UNKNOWN_TOPIC))


def test_a_tls_failure_is_not_retried_although_it_is_a_connection_error() -> None:
    async def scenario(h: Harness) -> None:
        h.transport.down[1] = TlsError("broker-1:9093", "untrusted-certificate", "not trusted")
        error = await outcome(h.describe("orders").values[topic("orders")])
        assert isinstance(error, TlsError)
        assert len(h.transport.requests) == 1 and h.now < 0.1

    run(scenario, brokers=[1])


def test_a_broker_that_cannot_be_reached_is_tried_again_until_the_deadline() -> None:
    async def scenario(h: Harness) -> None:
        h.transport.down[1] = KafkaConnectionError("broker 1: connection refused")
        error = await outcome(h.describe("orders", timeout=3.0).values[topic("orders")])
        assert type(error) is KafkaTimeoutError
        assert "within 3s" in str(error) and "connection refused" in str(error)
        assert h.now == pytest.approx(3.0)
        assert len(h.transport.requests) > 3 and h.transport.metadata_refreshes > 0

    run(scenario, brokers=[1])


# --- deadlines and "outcome unknown" ------------------------------------------------------


@DIRECT_OR_GATHERED
@pytest.mark.parametrize(
    ("change", "code", "expected", "says"),
    [
        (False, REQUEST_TIMED_OUT, KafkaTimeoutError, "no answer for"),
        (True, REQUEST_TIMED_OUT, OutcomeUnknownError, "outcome unknown: the change may have"),
        (True, NOT_CONTROLLER, KafkaTimeoutError, "not applied:"),
    ],
    ids=["read", "change-maybe-applied", "change-refused-for-certain"],
)
def test_a_call_that_keeps_failing_ends_at_its_deadline_saying_what_became_of_it(
    direct: bool, change: bool, code: int, expected: type[Exception], says: str
) -> None:
    async def scenario(h: Harness) -> None:
        call = h.alter if change else h.describe
        result = call(*subjects(direct), timeout=5.0)
        for value in result.values.values():
            error = await outcome(value)
            assert type(error) is expected
            assert says in str(error) and "within 5s" in str(error)
            assert f"last error: {ERROR_NAMES[code]}" in str(error)
        assert h.now == pytest.approx(5.0)

    # Answered at once: a change in flight when the deadline passes would be unknown instead.
    run(scenario, script=answered_with(code, after=0.0))


def test_a_change_never_written_was_not_applied() -> None:
    async def scenario(h: Harness) -> None:
        for node in (1, 2, 3):
            h.transport.down[node] = KafkaConnectionError(f"broker {node}: connection refused")
        error = await outcome(h.alter("orders", timeout=4.0).values[topic("orders")])
        assert type(error) is KafkaTimeoutError and str(error).startswith("not applied:")
        assert not any(request.written for request in h.transport.requests)

    run(scenario)


@DIRECT_OR_GATHERED
def test_a_change_written_and_lost_has_an_unknown_outcome(direct: bool) -> None:
    async def scenario(h: Harness) -> None:
        result = h.alter(*subjects(direct), timeout=4.0)
        for value in result.values.values():
            assert isinstance(await outcome(value), OutcomeUnknownError)
        assert h.now == pytest.approx(4.0)

    run(scenario, script=lambda request: Lose())


def test_a_change_left_unanswered_has_an_unknown_outcome_at_its_deadline() -> None:
    async def scenario(h: Harness) -> None:
        error = await outcome(h.alter("orders", timeout=5.0).values[topic("orders")])
        assert isinstance(error, OutcomeUnknownError)
        assert h.now == pytest.approx(5.0)

    run(scenario, brokers=[1], script=lambda request: Silent())


# --- hedging --------------------------------------------------------------------------------


def silent_broker(node: int) -> Any:
    def script(request: Request) -> Answer | Silent:
        return Silent() if request.node == node else Answer()

    return script


@DIRECT_OR_GATHERED
def test_a_request_a_silent_broker_leaves_unanswered_goes_to_another_broker(
    direct: bool,
) -> None:
    async def scenario(h: Harness) -> None:
        names = ("a", "b") if direct else ("a",)  # direct: one request per topic
        result = h.describe(*names)
        await result.all()
        assert h.now == pytest.approx(HEDGE_AFTER + 0.01)
        hedges = [r for r in h.transport.requests if r.node != 1]
        assert {r.node for r in hedges} == {2} and {r.at for r in hedges} == {HEDGE_AFTER}
        await h.describe("c").all()  # the next read goes to the broker that answered
        assert h.transport.requests[-1].node == 2

    run(scenario, script=silent_broker(1), describe_batch_size=1)


@DIRECT_OR_GATHERED
def test_a_try_still_waiting_for_a_connection_ends_when_another_broker_answers(
    direct: bool,
) -> None:
    async def scenario(h: Harness) -> None:
        h.transport.opens_at[1] = 60.0  # broker 1's connection takes a minute to open
        names = ("a", "b") if direct else ("a",)  # direct: one request per topic
        await h.describe(*names).all()
        assert h.now == pytest.approx(HEDGE_AFTER + 0.01)
        await anyio.sleep(120.0)  # broker 1's connection has opened meanwhile
        assert h.transport.written_to(1) == []  # the tries waiting for it were not written
        assert {r.node for r in h.transport.requests if r.written} == {2}

    run(scenario, describe_batch_size=1)


def test_a_hedged_request_tries_each_broker_once_then_waits_for_the_deadline() -> None:
    async def scenario(h: Harness) -> None:
        error = await outcome(h.describe("a", timeout=30.0).values[topic("a")])
        assert isinstance(error, KafkaTimeoutError)
        firsts = [(r.node, r.at) for r in h.transport.requests[:3]]
        assert firsts == [(1, 0.0), (2, HEDGE_AFTER), (3, 2 * HEDGE_AFTER)]

    run(scenario, script=lambda request: Silent())


@DIRECT_OR_GATHERED
def test_a_broker_that_answers_other_requests_is_busy_not_sick_and_is_not_hedged(
    direct: bool,
) -> None:
    def script(request: Request) -> Answer:
        return Answer(after=5.0) if "slow" in request.resources else Answer()

    async def scenario(h: Harness) -> None:
        slow = h.describe("slow", "slow2") if direct else h.describe("slow")
        for tick in range(8):  # other reads answered by the same broker meanwhile
            await h.describe(f"other-{tick}").all()
            await anyio.sleep(0.5)
        await slow.all()
        assert {r.node for r in h.transport.requests} == {1}

    run(scenario, script=script, describe_batch_size=1)


def test_a_hedged_change_written_twice_and_answered_is_applied() -> None:
    async def scenario(h: Harness) -> None:
        await h.alter("orders").all()
        assert [r.node for r in h.transport.requests] == [1, 2]

    run(scenario, script=silent_broker(1))


# --- closing while calls run ----------------------------------------------------------------


@DIRECT_OR_GATHERED
def test_closing_fails_what_runs_saying_whether_a_change_may_have_been_made(
    direct: bool,
) -> None:
    async def scenario(h: Harness) -> None:
        h.transport.down[3] = KafkaConnectionError("broker 3: connection refused")
        written = h.alter(*subjects(direct))
        never_written = h.alter(broker(3))
        read = h.describe("orders")
        await anyio.sleep(1.0)
        await h.close()
        for value in written.values.values():
            error = await outcome(value)
            assert isinstance(error, ClientClosedError)
            assert str(error).startswith("outcome unknown: the change may have been applied")
        error = await outcome(never_written.values[broker(3)])
        assert isinstance(error, ClientClosedError) and str(error).startswith("not applied:")
        error = await outcome(read.values[topic("orders")])
        assert isinstance(error, ClientClosedError) and "closed before" in str(error)
        with pytest.raises(ClientClosedError):
            h.describe("orders")

    run(scenario, script=lambda request: Silent())


# --- changes to one resource, in order --------------------------------------------------------


def test_a_change_waits_for_an_earlier_change_to_its_resource() -> None:
    async def scenario(h: Harness) -> None:
        first, second = h.alter("orders"), h.alter("orders")
        await first.all()
        await second.all()
        assert [r.at for r in h.transport.requests] == [0.0, 1.0]  # after the first's answer

    run(scenario, script=lambda request: Answer(after=1.0))  # within the hedge delay


def test_a_change_still_waiting_for_an_earlier_one_at_its_deadline_was_not_applied() -> None:
    async def scenario(h: Harness) -> None:
        h.alter("orders")
        waiting = h.alter("orders", timeout=0.5)
        error = await outcome(waiting.values[topic("orders")])
        assert type(error) is KafkaTimeoutError and str(error).startswith("not applied:")
        assert h.now == pytest.approx(0.5) and len(h.transport.requests) == 1

    run(scenario, script=lambda request: Answer(after=1.0))


def test_closing_fails_a_change_waiting_for_an_earlier_one_as_not_applied() -> None:
    async def scenario(h: Harness) -> None:
        h.alter("orders")
        waiting = h.alter("orders")
        await anyio.sleep(0.5)
        await h.close()
        error = await outcome(waiting.values[topic("orders")])
        assert isinstance(error, ClientClosedError) and str(error).startswith("not applied:")

    run(scenario, script=lambda request: Answer(after=1.0))


@DIRECT_OR_GATHERED
def test_not_controller_for_a_resource_asks_for_the_nodes_again_before_the_retry(
    direct: bool,
) -> None:
    """A quorum's leader moved (or a broker's controller): the retry must find the new one."""

    async def scenario(h: Harness) -> None:
        await h.alter(*subjects(direct)).all()
        # One per request answered so (the transport shares refreshes made at one moment).
        assert h.transport.metadata_refreshes == (2 if direct else 1)
        assert len(h.transport.requests) == (4 if direct else 2)

    run(scenario, script=answered_with(41, times=2 if direct else 1))


@DIRECT_OR_GATHERED
def test_another_retriable_error_of_a_resource_does_not_refresh(direct: bool) -> None:
    async def scenario(h: Harness) -> None:
        await h.alter(*subjects(direct)).all()
        assert h.transport.metadata_refreshes == 0

    run(scenario, script=answered_with(89, times=2 if direct else 1))  # throttled
