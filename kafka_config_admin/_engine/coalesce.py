"""Config calls made at the same moment share one request per broker: describes and alters.

Six hundred concurrent calls for one topic each should cost the broker a request or two, not
six hundred: the broker answers one connection's requests one at a time, and the controller
commits each alter request on its own. A call that fits in one request opens a *gathering* for
its API, broker and flags (a describe's ``include_*``, an alter's ``validate_only``); calls made
in the same moment (before the event loop turns) join it. When the loop turns, one request is
written for all of them, and each call reads its own resources from the shared response. A
call made when nothing for its key is in flight is written at once, in a gathering of its own:
one call after another never waits for the loop.

What each call keeps of its own: its deadline, its futures (a broker error about one resource
reaches only that resource's future), its retries, and its input checks, made before it joins
(a call with bad input is refused, and fails no other call).

A request carries each resource once. Two describes asking the same names of one resource
share its answer; two changes to one resource never share a request, and apply in the order
made: a change to a resource that an earlier change of this client still works on waits until
that one has its outcome, then goes into the next request.

A gathering for any broker is hedged as the engine hedges its own requests: when its broker has
answered nothing within the hedge delay, the same request goes to another broker too, and so on
to each broker once; the first answer wins. A change written and not answered by its deadline,
or written twice, may have been applied: its timeout is ``OutcomeUnknownError``.

Gathered requests answer through a callback, run where the answer is decoded, which settles
every call of the gathering at once: a call needs a task only to wait for an earlier change,
to wait for a connection, or to retry.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio

from .._models.configs import ConfigResource
from .._net.transport import CHANGES, READS, Transport
from .._ops.configs import SharedConfigOperation, route
from .._ops.results import ResourceFuture, _Result

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["GatheredCall", "Gatherer", "Gathering", "GatheringKey"]

log = logging.getLogger("kafka_config_admin")

#: Calls may share a request of one API (its key) to one broker (None: any) with equal flags,
#: when their resources need not be kept apart (``Operation.kept_apart``).
GatheringKey = tuple[int, int | None, tuple[bool, ...], object]

#: Resources in one gathered alter request: the controller commits one request at a time, so
#: the more of the moment's changes it carries, the fewer commits they wait for.
ALTERS_PER_REQUEST = 1000

#: Past this many resources remembered (or twice as many as were left the last time), those
#: whose change has its outcome are forgotten.
_CHANGES_REMEMBERED = 4096


class GatheredCall:
    """One call in a gathering, with its own deadline (in the event loop's clock)."""

    __slots__ = ("expires", "operation", "result", "timeout")

    def __init__(
        self,
        operation: SharedConfigOperation[Any],
        result: _Result[ConfigResource, Any],
        timeout: float,
        expires: float,
    ) -> None:
        self.operation = operation
        self.result = result
        self.timeout = timeout
        self.expires = expires


class Gathering:
    """Calls waiting for one shared request; the first one is the leader.

    Also the request's state once written: the brokers tried and still to try (hedging), and
    how often it was written.
    """

    def __init__(
        self, key: GatheringKey, node: int | None, leader: SharedConfigOperation[Any], limit: int
    ) -> None:
        self.key = key
        self.node = node
        self.leader = leader
        self._limit = limit
        #: The calls that share the request.
        self.calls: list[GatheredCall] = []
        #: Each resource of the request with its part (names to describe, ops to apply).
        self._parts: dict[ConfigResource, Any] = {}
        #: Fires at the earliest deadline of a call still waiting.
        self.timer: asyncio.TimerHandle | None = None
        #: Hedging: the broker tried first, the brokers left to try (listed when first
        #: needed), the tries without an answer yet, and the timer that looks for silence.
        self.first: int | None = None
        self.untried: list[int] | None = None
        self.out = 0
        self.hedge_after = 0.0
        self.hedge_timer: asyncio.TimerHandle | None = None
        #: How many times the request was written to a connection (a broker may act on it).
        self.written = 0
        self._index: dict[tuple[int, str], Any] | None = None

    def join(self, call: GatheredCall) -> bool:
        """Add a call's resources, unless the request would grow too big or disagree.

        A resource already in the request joins only when both calls read it with the same
        config names: the request carries each resource once.
        """
        operation, parts = call.operation, self._parts
        wanted = list(operation.parts())
        added = 0
        for resource, part in wanted:
            if resource not in parts:
                added += 1
            elif not operation.shares_a_resource or parts[resource] != part:
                return False
        if len(parts) + added > self._limit:
            return False
        for resource, part in wanted:
            parts.setdefault(resource, part)
        self.calls.append(call)
        return True

    def body(self, version: int) -> dict[str, Any]:
        """The one request body for every call that joined and is still waiting.

        Built when the request is written, which may be after a call's deadline passed (the
        connection was not open yet): that call was told its change was not sent, so its
        resources stay out.
        """
        waiting = self.waiting()
        if len(waiting) == len(self.calls):
            return self.leader.body_for(self._parts, version)
        parts = {r: part for call in waiting for r, part in call.operation.parts()}
        return self.leader.body_for(parts, version)

    def wrote(self) -> None:
        self.written += 1

    def waiting(self) -> list[GatheredCall]:
        """The calls with a resource still waiting for its outcome."""
        return [call for call in self.calls if not call.result._settled()]

    def answer_for(
        self, call: GatheredCall, outcome: dict[str, Any] | Exception
    ) -> dict[str, Any] | Exception:
        """The part of the shared answer about the call's own resources, in its order."""
        if isinstance(outcome, Exception) or len(self.calls) == 1:
            return outcome
        results_key = self.leader.results_key
        if self._index is None:  # once per answer, not once per call
            self._index = {
                (result["resource_type"], result["resource_name"]): result
                for result in outcome[results_key]
            }
        index = self._index
        own = [
            index[key]
            for key in ((r.type.value, r.name) for r in call.operation.resources)
            if key in index
        ]
        return {**outcome, results_key: own}  # a resource left out is reported unanswered


class Gatherer:
    """The gatherings of one engine: which call joins which request, and their answers."""

    def __init__(
        self, engine: Engine, transport: Transport, *, describe_limit: int, hedge_share: float
    ) -> None:
        self._engine = engine
        self._transport = transport
        self._describe_limit = describe_limit
        self._hedge_share = hedge_share
        #: The gathering of each key that calls may still join.
        self._open: dict[GatheringKey, Gathering] = {}
        #: Gatherings written and not yet answered: no task owns them, so closing fails them.
        self._in_flight: set[Gathering] = set()
        #: How many of them each gathering key has.
        self._busy: dict[GatheringKey, int] = {}
        #: The future of the latest change to each resource (changes apply in the order made).
        self._latest_change: dict[Hashable, ResourceFuture[Any, Any]] = {}
        self._forget_past = _CHANGES_REMEMBERED

    def close(self) -> None:
        """Fail the gatherings in flight; in one step, so no answer finds the client closed."""
        in_flight, self._in_flight = self._in_flight, set()
        self._busy.clear()
        for gathering in in_flight:
            for timer in (gathering.timer, gathering.hedge_timer):
                if timer is not None:
                    timer.cancel()
            for call in gathering.calls:
                self._engine.fail_closed(call, unsure=gathering.written > 0)

    def start(self, call: GatheredCall) -> None:
        """Start a call: after the earlier changes to its resources, gathered if it fits."""
        earlier = self._earlier_changes(call) if call.operation.mutates else []
        if earlier:
            task_group = self._engine.task_group
            assert task_group is not None  # the engine takes calls only while open
            task_group.start_soon(self._after, earlier, call)
        elif not self._gather(call):
            self._engine.run_alone(call)

    # --- changes to one resource, in order ------------------------------------------------

    def _earlier_changes(self, call: GatheredCall) -> list[ResourceFuture[Any, Any]]:
        """The changes of earlier calls to the call's resources still without an outcome."""
        latest = self._latest_change
        if len(latest) > self._forget_past:
            self._latest_change = latest = {r: f for r, f in latest.items() if not f.done()}
            self._forget_past = max(_CHANGES_REMEMBERED, 2 * len(latest))
        earlier = []
        for resource, future in call.result.values.items():
            before = latest.get(resource)
            if before is not None and not before.done():
                earlier.append(before)
            latest[resource] = future
        return earlier

    async def _after(self, earlier: list[ResourceFuture[Any, Any]], call: GatheredCall) -> None:
        """Start the call once the earlier changes to its resources have their outcomes."""
        started = False
        try:
            with anyio.CancelScope(deadline=call.expires):
                for future in earlier:
                    await future._wait_done()
            if all(future.done() for future in earlier):
                started = True
                if not self._gather(call):
                    self._engine.run_alone(call)
            else:
                self._engine.time_out(call, unsure=False)
        finally:
            if not started:
                self._engine.fail_closed(call, unsure=False)

    # --- gathering --------------------------------------------------------------------------

    def _gather(self, call: GatheredCall) -> bool:
        """Write a call that fits in one request, or gather it with others; or say no.

        A call is written at once when nothing for the same key is in flight. Otherwise it
        joins the calls of the same moment (before the event loop turns), and their shared
        request is written when the loop turns.
        """
        operation = call.operation
        limit = self._describe_limit if operation.splittable else ALTERS_PER_REQUEST
        if len(operation.resources) > limit:
            return False  # split into several requests, or too big to share: the engine's
        requests = route(operation.resources, limit, operation.destination, operation.kept_apart)
        if len(requests) != 1:
            return False
        [(node, resources)] = requests
        apart = operation.kept_apart(resources[0])
        key = (operation.codec.api_key, node, operation.gathering_flags, apart)
        gathering = self._open.get(key)
        if gathering is None or not gathering.join(call):
            gathering = Gathering(key, node, operation, limit)
            gathering.join(call)
            if key in self._busy:
                self._open[key] = gathering
                asyncio.get_running_loop().call_soon(self._flush, gathering)
            else:
                self._write(gathering)
        return True

    def _flush(self, gathering: Gathering) -> None:
        """The loop has turned: write the gathering; calls may join it no more."""
        if self._open.get(gathering.key) is gathering:
            del self._open[gathering.key]
        self._write(gathering)

    def _write(self, gathering: Gathering) -> None:
        if self._engine.task_group is None:
            for call in gathering.calls:
                self._engine.fail_closed(call, unsure=False)
            return
        self._in_flight.add(gathering)
        self._busy[gathering.key] = self._busy.get(gathering.key, 0) + 1
        loop = asyncio.get_running_loop()
        earliest = min(call.expires for call in gathering.calls)
        gathering.timer = loop.call_at(earliest, self._deadline_passed, gathering)
        node = gathering.node
        try:
            if node is None:
                node = self._transport.any_broker(_lane(gathering.leader))
                if gathering.leader.hedged:
                    self._plan_hedge(gathering, node)
        except Exception as error:  # reaches the calls (a bug too), not the loop's handler
            self._answered(gathering, node, error)
            return
        self._try(gathering, node)

    def _try(self, gathering: Gathering, node: int) -> None:
        """Write the gathering's request to one broker (once more, when hedging)."""
        gathering.out += 1
        leader = gathering.leader
        try:
            if self._transport.submit(
                node,
                leader.codec,
                gathering.body,
                throttle_from_version=leader.throttle_from_version,
                memo=leader.memo,
                on_answer=partial(self._answered, gathering, node),
                forwarded=leader.mutates,
            ):
                gathering.wrote()
                return
        except Exception as error:  # reaches the calls (a bug too), not the loop's handler
            self._answered(gathering, node, error)
            return
        # No open connection, or throttled: a task waits for it.
        task_group = self._engine.task_group
        assert task_group is not None  # closing empties _in_flight at once
        task_group.start_soon(self._send, gathering, node)

    async def _send(self, gathering: Gathering, node: int) -> None:
        leader = gathering.leader
        try:
            response = await self._transport.send(
                node,
                leader.codec,
                gathering.body,
                throttle_from_version=leader.throttle_from_version,
                memo=leader.memo,
                on_written=gathering.wrote,
                forwarded=leader.mutates,
            )
        except Exception as error:
            self._answered(gathering, node, error)
        else:
            self._answered(gathering, node, response)

    # --- hedging: a silent broker's request goes to another broker too --------------------

    def _plan_hedge(self, gathering: Gathering, first: int) -> None:
        gathering.first = first
        shortest = min(call.timeout for call in gathering.calls)
        gathering.hedge_after = self._hedge_share * min(self._transport.request_timeout, shortest)
        self._look_for_silence(gathering, first)

    def _look_for_silence(self, gathering: Gathering, node: int) -> None:
        gathering.hedge_timer = asyncio.get_running_loop().call_later(
            gathering.hedge_after, self._hedge_if_silent, gathering, node
        )

    def _hedge_if_silent(self, gathering: Gathering, node: int) -> None:
        """The hedge delay has passed: try the next broker, unless ``node`` is only busy.

        A broker that answers other requests meanwhile is slow, not sick: a second request
        elsewhere would only add load to a cluster that is busy already.
        """
        gathering.hedge_timer = None
        if gathering not in self._in_flight:
            return
        if self._transport.answered_within(node, gathering.hedge_after):
            self._look_for_silence(gathering, node)
        else:
            self._hedge(gathering)

    def _hedge(self, gathering: Gathering) -> None:
        if gathering.hedge_timer is not None:
            gathering.hedge_timer.cancel()
            gathering.hedge_timer = None
        untried = self._untried(gathering)
        if not untried:
            return
        node = untried.pop()
        self._try(gathering, node)
        if gathering in self._in_flight and untried and gathering.hedge_timer is None:
            self._look_for_silence(gathering, node)

    def _untried(self, gathering: Gathering) -> list[int]:
        """The brokers not tried yet, in the transport's order; listed once a hedge is needed."""
        if gathering.untried is None:
            assert gathering.first is not None  # only hedged gatherings are asked
            others = self._transport.hedge_targets(_lane(gathering.leader), gathering.first)
            gathering.untried = others[::-1]  # popped from the end
        return gathering.untried

    # --- answers and deadlines ------------------------------------------------------------

    def _answered(
        self, gathering: Gathering, node: int | None, outcome: dict[str, Any] | Exception
    ) -> None:
        """A try of the gathering's request has its answer, or failed: settle every call.

        While hedging, an error decides only when no other try is out or left to make; it
        starts the next try at once.
        """
        if gathering not in self._in_flight:
            return  # decided already, or the client was closed first
        if isinstance(outcome, Exception) and gathering.first is not None:
            gathering.out -= 1
            log.debug("%s to broker %s failed: %s", gathering.leader.codec.name, node, outcome)
            if self._untried(gathering):
                self._hedge(gathering)
                return
            if gathering.out:
                return
        self._in_flight.discard(gathering)
        if self._busy[gathering.key] == 1:
            del self._busy[gathering.key]
        else:
            self._busy[gathering.key] -= 1
        for timer in (gathering.timer, gathering.hedge_timer):
            if timer is not None:
                timer.cancel()
        leader = gathering.leader
        hedge_won = gathering.first is not None and node != gathering.first
        if hedge_won and node is not None and not isinstance(outcome, Exception):
            self._transport.hedge_won(_lane(leader), node)  # the next call goes there
        # A change written and not answered, or written twice (one answer ignored), may have
        # been applied: if its retries end at the deadline, its outcome is unknown. While
        # hedging, the error that decides may be another try's (a broker it could not reach),
        # so any error after a write leaves the outcome open.
        unsure = (
            leader.mutates
            and gathering.written > 0
            and (gathering.written > 1 or isinstance(outcome, Exception))
        )
        for call in gathering.calls:
            self._engine.settle_gathered(call, gathering.answer_for(call, outcome), unsure)

    def _deadline_passed(self, gathering: Gathering) -> None:
        """Time out the calls of the gathering whose deadline passed; wait for the rest."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        waiting = gathering.waiting()
        for call in waiting:
            if call.expires <= now:
                self._engine.time_out(call, unsure=gathering.written > 0)
        earliest = min((call.expires for call in waiting if call.expires > now), default=None)
        gathering.timer = (
            None if earliest is None else loop.call_at(earliest, self._deadline_passed, gathering)
        )


def _lane(operation: SharedConfigOperation[Any]) -> int:
    return CHANGES if operation.mutates else READS
