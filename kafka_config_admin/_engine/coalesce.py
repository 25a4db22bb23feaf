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

A gathering for any broker is hedged by the engine's one mechanism (``hedge``): when its broker
has answered nothing within the hedge delay, the same request goes to another broker too, and
so on to each broker once; the first answer wins. A change written and not answered by its
deadline, or written twice, may have been applied: its timeout is ``OutcomeUnknownError``.

Gathered requests answer through a callback, run where the answer is decoded, which settles
every call of the gathering at once: a call needs a task only to wait for an earlier change,
to wait for a connection, or to retry.

The gatherer knows the engine only as a :class:`GatheringOwner`: whether the client is open,
a way to start a task, and where each call's outcome goes. It never runs a call itself: a call
that cannot be gathered is the engine's to run.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable, Coroutine, Hashable
from functools import partial
from typing import Any, Protocol

import anyio

from .._models.configs import ConfigResource
from .._net.brokers import lane_of
from .._net.transport import Transport
from .._ops.base import route
from .._ops.configs import SharedConfigOperation
from .._ops.results import ResourceFuture, _Result
from .hedge import HedgedRequest, Outcome, Spawn, send_soon
from .retries import written_maybe_applied

__all__ = ["Ended", "GatheredCall", "Gatherer", "Gathering", "GatheringKey", "GatheringOwner"]

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

    Also the request's state once written: its hedge, and how often it was written.
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
        #: The request's tries while it is hedged (sent to any broker, and hedged).
        self.hedge: HedgedRequest | None = None
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


class Ended(enum.Enum):
    """How a gathered call ends without an outcome from its request."""

    TIMED_OUT = "timed out"  # its deadline passed
    CLOSED = "closed"  # the client was closed


class GatheringOwner(Protocol):
    """What the gatherer needs of the engine: all it may ask, the one way back."""

    @property
    def open(self) -> bool:
        """Whether the client is open (calls may start, tasks may be spawned)."""
        ...

    def spawn(self, func: Callable[..., Coroutine[Any, Any, Any]], /, *args: Any) -> None:
        """Start a task in the client's task group."""
        ...

    def settle_gathered(self, call: GatheredCall, outcome: Outcome | Ended, unsure: bool) -> None:
        """A gathered call's request has its outcome (the call's part of the answer), or the
        call ended first; ``unsure``: a change that may have been applied without an answer
        saying so."""
        ...


class Gatherer:
    """The gatherings of one engine: which call joins which request, and their answers."""

    def __init__(
        self,
        owner: GatheringOwner,
        transport: Transport,
        *,
        describe_limit: int,
        hedge_share: float,
    ) -> None:
        self._owner = owner
        self._spawn: Spawn = owner.spawn
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
            if gathering.timer is not None:
                gathering.timer.cancel()
            if gathering.hedge is not None:
                gathering.hedge.cancel()
            for call in gathering.calls:
                self._owner.settle_gathered(call, Ended.CLOSED, gathering.written > 0)

    # --- changes to one resource, in order ------------------------------------------------

    def earlier_changes(self, call: GatheredCall) -> list[ResourceFuture[Any, Any]]:
        """The changes of earlier calls to the call's resources still without an outcome.

        The call must wait for them (its own changes are then the latest to its resources).
        """
        if not call.operation.mutates:
            return []
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

    # --- gathering --------------------------------------------------------------------------

    def gather(self, call: GatheredCall) -> bool:
        """Write a call that fits in one request, or gather it with others; or say no.

        A call is written at once when nothing for the same key is in flight. Otherwise it
        joins the calls of the same moment (before the event loop turns), and their shared
        request is written when the loop turns. A call refused (split into several requests,
        or bound for several brokers) is the engine's to run.
        """
        operation = call.operation
        limit = self._describe_limit if operation.splittable else ALTERS_PER_REQUEST
        if len(operation.resources) > limit:
            return False
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
        if not self._owner.open:
            for call in gathering.calls:
                self._owner.settle_gathered(call, Ended.CLOSED, False)
            return
        self._in_flight.add(gathering)
        self._busy[gathering.key] = self._busy.get(gathering.key, 0) + 1
        loop = asyncio.get_running_loop()
        earliest = min(call.expires for call in gathering.calls)
        gathering.timer = loop.call_at(earliest, self._deadline_passed, gathering)
        leader, node = gathering.leader, gathering.node
        if node is not None:
            self._try(gathering, node)
            return
        try:
            node = self._transport.choice.any_broker(lane_of(leader.mutates))
        except Exception as error:  # reaches the calls (a bug too), not the loop's handler
            self._answered(gathering, error)
            return
        if not leader.hedged:
            self._try(gathering, node)
            return
        shortest = min(call.timeout for call in gathering.calls)
        gathering.hedge = HedgedRequest(
            self._transport.choice,
            leader.codec,
            lane_of(leader.mutates),
            self._hedge_share * min(self._transport.request_timeout, shortest),
            try_node=partial(self._try, gathering),
            decided=lambda node, outcome: self._answered(gathering, outcome),
        )
        gathering.hedge.start(node)

    def _try(self, gathering: Gathering, node: int) -> anyio.CancelScope | None:
        """Write the gathering's request to one broker (once more, when hedging); the cancel
        scope of the task that waits to write it, if one must (``send_soon``)."""
        hedge = gathering.hedge
        return send_soon(
            self._transport,
            self._spawn,
            gathering.leader,
            node,
            gathering.body,
            on_answer=(
                partial(hedge.answered, node)
                if hedge is not None
                else partial(self._answered, gathering)
            ),
            on_written=gathering.wrote,
        )

    # --- answers and deadlines ------------------------------------------------------------

    def _answered(self, gathering: Gathering, outcome: Outcome) -> None:
        """The gathering's request has the outcome that decides it: settle every call."""
        if gathering not in self._in_flight:
            return  # the client was closed first
        self._in_flight.discard(gathering)
        if self._busy[gathering.key] == 1:
            del self._busy[gathering.key]
        else:
            self._busy[gathering.key] -= 1
        if gathering.timer is not None:
            gathering.timer.cancel()
        # While hedging, the error that decides may be another try's (a broker it could not
        # reach), so any error after a write leaves the outcome open.
        unsure = gathering.leader.mutates and written_maybe_applied(gathering.written, outcome)
        for call in gathering.calls:
            self._owner.settle_gathered(call, gathering.answer_for(call, outcome), unsure)

    def _deadline_passed(self, gathering: Gathering) -> None:
        """Time out the calls of the gathering whose deadline passed; wait for the rest."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        waiting = gathering.waiting()
        for call in waiting:
            if call.expires <= now:
                self._owner.settle_gathered(call, Ended.TIMED_OUT, gathering.written > 0)
        earliest = min((call.expires for call in waiting if call.expires > now), default=None)
        gathering.timer = (
            None if earliest is None else loop.call_at(earliest, self._deadline_passed, gathering)
        )
