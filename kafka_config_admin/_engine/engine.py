"""The engine behind every call: routing, retries, deadlines and settling per-key futures.

A call is an :class:`~.._ops.configs.Operation` (what to send, how answers become outcomes) and
a result (one future per key). The engine routes the operation's keys to brokers (one request
per destination broker, split when the operation allows it), sends the requests through the
transport, settles each key's future from the answer, and sends what failed in a retriable
way again, with backoff, until the call's deadline. Every task it starts belongs to the
client's task group.

A request of a hedged operation (one that may be sent twice: reads, and changes that leave the
same state however often they are applied) that its broker has not answered within the hedge
delay, and has answered nothing else meanwhile (a busy broker is left alone), is sent again to
another broker, and so on to each broker once; the first answer wins (``hedge``: one mechanism
for the engine's own requests and the gatherings'). A frozen broker then costs the call a few
seconds, not its deadline. The delay is a fifth of the shorter of ``request_timeout`` and the
call's timeout (3 s with the defaults): long past a healthy broker's answer, and leaving time
for a second and third try within the deadline.
A change waits for its answer at least ``FORWARDED_WAIT`` (35 s), whatever ``request_timeout``
says: a broker holds the changes it forwards to a frozen controller for its own 30 s, then
sends them to the new controller and answers.

A change whose request was written and never answered, or answered REQUEST_TIMED_OUT (a broker
that forwards it gave up waiting for the controller, which may still apply it), may have been
applied: when the deadline passes, it fails with ``OutcomeUnknownError``. A change whose every
request was refused for certain (NOT_CONTROLLER, throttled) or never written fails at the
deadline with a plain ``KafkaTimeoutError`` that says it was not applied.

Describes and alters that fit in one request have a faster path: calls of the same moment are
gathered into one request per broker (``coalesce``, hedged the same way), and that request
answers through a callback where it is decoded, so such a call needs no task at all unless it
must retry. The gatherer knows the engine only as its ``GatheringOwner`` (is the client open,
start a task, settle a call); the engine runs every call the gatherer cannot share.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Mapping, Set
from functools import partial
from typing import Any, Generic, NamedTuple, TypeVar

import anyio
from anyio.abc import TaskGroup

from .._exceptions import (
    BrokerError,
    ClientClosedError,
    KafkaConfigAdminError,
    KafkaTimeoutError,
    NotControllerError,
    OutcomeUnknownError,
)
from .._net.brokers import lane_of
from .._net.gc import gc_paused
from .._net.transport import Transport
from .._net.wire import BodyBuilder
from .._ops.base import Operation, route
from .._ops.configs import SharedConfigOperation
from .._ops.results import ResourceFuture, _Result
from .coalesce import Ended, GatheredCall, Gatherer
from .hedge import HedgedRequest, Outcome, send_soon
from .retries import answered_maybe_applied, retried, written_maybe_applied

__all__ = ["Engine"]

log = logging.getLogger("kafka_config_admin")

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
R = TypeVar("R", bound=_Result[Any, Any])

#: Requests of one call in flight at once. More than one lets the broker prepare the next answer
#: while the client decodes one; a bound keeps each request's timeout about its own wait.
_REQUESTS_IN_FLIGHT = 4

#: The hedge delay as a share of the shorter of request_timeout and the call's timeout.
_HEDGE_SHARE = 0.2


class Engine:
    """Runs the calls of one client over its transport, in the client's task group."""

    def __init__(
        self,
        transport: Transport,
        *,
        retry_backoff: float,
        retry_backoff_max: float,
        describe_batch_size: int,
    ) -> None:
        self._transport = transport
        self._retry_backoff = retry_backoff
        self._retry_backoff_max = retry_backoff_max
        self._describe_batch_size = describe_batch_size
        #: Set while the client is open; every task of every call belongs to it.
        self.task_group: TaskGroup | None = None
        self._gatherer = Gatherer(
            self, transport, describe_limit=describe_batch_size, hedge_share=_HEDGE_SHARE
        )

    def close(self) -> None:
        """Stop taking calls and fail the gatherings in flight (the client ends the task group).

        In one step: no answer may find the client closed and its gathering in flight.
        """
        self.task_group = None
        self._gatherer.close()

    def call(
        self,
        build: Callable[[], Operation[K, Any]],
        result_type: Callable[[list[K]], R],
        seconds: float,
    ) -> R:
        """Check the input and start the call; the result comes back at once."""
        if self.task_group is None:
            raise ClientClosedError(
                "the client is not open: use 'async with AdminClient(...) as admin'"
            )
        with gc_paused():  # checking thousands of resources allocates much, but makes no cycles
            operation = build()
            result = result_type(operation.resources)
        expires = asyncio.get_running_loop().time() + seconds
        if isinstance(operation, SharedConfigOperation):
            self._start_gathered(GatheredCall(operation, result, seconds, expires))
        else:
            self.task_group.start_soon(self._run, operation, result, seconds, expires)
        return result

    # --- config calls that may share requests (``coalesce``) ----------------------------

    @property
    def open(self) -> bool:
        """Whether the client is open (``GatheringOwner``)."""
        return self.task_group is not None

    def spawn(self, func: Callable[..., Coroutine[Any, Any, Any]], /, *args: Any) -> None:
        """Start a task in the client's task group (``GatheringOwner``)."""
        if self.task_group is None:  # a hedge's timer may fire between closing and its end
            raise ClientClosedError("the client was closed")
        self.task_group.start_soon(func, *args)

    def _start_gathered(self, call: GatheredCall) -> None:
        """After the earlier changes to its resources, gathered if it fits, else alone."""
        earlier = self._gatherer.earlier_changes(call)
        if earlier:
            self.spawn(self._after, earlier, call)
        elif not self._gatherer.gather(call):
            self.spawn(self._run, call.operation, call.result, call.timeout, call.expires)

    async def _after(self, earlier: list[ResourceFuture[Any, Any]], call: GatheredCall) -> None:
        """Start the call once the earlier changes to its resources have their outcomes."""
        waited = False
        try:
            with anyio.CancelScope(deadline=call.expires):
                for future in earlier:
                    await future._wait_done()
            waited = all(future.done() for future in earlier)
        finally:
            if not waited:  # nothing of it was sent
                self.settle_gathered(call, Ended.TIMED_OUT if self.open else Ended.CLOSED, False)
        if waited and not self._gatherer.gather(call):
            await self._run(call.operation, call.result, call.timeout, call.expires)

    def settle_gathered(self, call: GatheredCall, outcome: Outcome | Ended, unsure: bool) -> None:
        """Settle a call from its part of a shared answer; a task retries what may be retried.

        ``unsure``: the shared request of a change may have been applied without an answer
        saying so (its timeout is then ``OutcomeUnknownError``).
        """
        operation, result = call.operation, call.result
        if isinstance(outcome, Ended):
            written = frozenset(operation.resources if unsure and operation.mutates else ())
            if outcome is Ended.CLOSED:
                result._fail_pending(partial(_closed_error, operation, written))
            else:
                result._fail_pending(partial(_timeout_error, call.timeout, {}, operation, written))
            return
        attempt: _Attempt[Any] = _Attempt(operation, result)
        if unsure:
            attempt.unsure.update(operation.resources)
        try:
            failed = self._settle(attempt, operation.resources, outcome)
        except Exception as error:  # a bug fails this call, not the others
            log.exception("%s failed unexpectedly", operation.codec.name)
            _fail(result, error)
            return
        if attempt.retry:
            self.spawn(
                self._run,
                operation,
                result,
                call.timeout,
                call.expires,
                _Retry(attempt.retry, attempt.last_errors, refresh=failed, unsure=attempt.unsure),
            )

    # --- every other call, and retries: a task each ----------------------------------------

    async def _run(
        self,
        operation: Operation[K, T],
        result: _Result[K, T],
        seconds: float,
        expires: float,
        retry: _Retry[K] | None = None,
    ) -> None:
        attempt = _Attempt(operation, result)
        if retry is not None:
            attempt.last_errors = retry.last_errors
            attempt.unsure = retry.unsure
        try:
            attempt.hedge_after = _HEDGE_SHARE * min(self._transport.request_timeout, seconds)
            with anyio.CancelScope(deadline=expires):
                await self._execute(attempt, retry)
            result._fail_pending(
                partial(_timeout_error, seconds, attempt.last_errors, operation, attempt.unsure)
            )
        except Exception as error:
            # A bug here must fail this call's futures, not the client's other calls.
            log.exception("%s failed unexpectedly", operation.codec.name)
            _fail(result, error)
        finally:
            result._fail_pending(partial(_closed_error, operation, attempt.unsure))

    async def _execute(self, attempt: _Attempt[K], retry: _Retry[K] | None) -> None:
        pending, tries = attempt.operation.resources, 0
        if retry is not None:  # the first attempt was a gathering's request
            pending, tries = retry.resources, 1
            if retry.refresh:
                await self._refresh_metadata_quietly()
        while pending:
            if tries:
                await anyio.sleep(self._backoff(tries))
            attempt.retry = []
            await self._send_all(attempt, pending)
            pending, tries = attempt.retry, tries + 1

    async def _send_all(self, attempt: _Attempt[K], pending: list[K]) -> None:
        """Route the keys, send each broker's requests, and read their outcomes."""
        operation = attempt.operation
        per_request = self._describe_batch_size if operation.splittable else len(pending)
        requests = route(pending, per_request, operation.destination, operation.kept_apart)
        sends = [partial(self._send_group, attempt, node, keys) for node, keys in requests]
        if len(sends) == 1:  # the common case needs no task of its own
            await sends[0]()
            return
        in_flight = anyio.Semaphore(_REQUESTS_IN_FLIGHT)
        async with anyio.create_task_group() as group:
            for send in sends:
                group.start_soon(_in_turn, in_flight, send)

    async def _send_group(self, attempt: _Attempt[K], node: int | None, keys: list[K]) -> None:
        """One request for keys bound to one broker (or to any broker), and its outcomes."""
        operation = attempt.operation
        body = partial(operation.body, keys)
        written = _Written()
        outcome: Outcome | None = None
        try:
            if node is None and operation.hedged:
                outcome = await self._hedged_request(operation, body, attempt.hedge_after, written)
            else:
                outcome = await self._request(operation, node, body, written)
        except KafkaConfigAdminError as error:
            outcome = error
        finally:
            # A change written and not answered, or written twice (one answer ignored), may
            # have been applied: if the deadline passes before an answer, its outcome is unknown.
            if operation.mutates and written_maybe_applied(written.count, outcome):
                attempt.unsure.update(keys)
        if self._settle(attempt, keys, outcome):
            await self._refresh_metadata_quietly()

    async def _hedged_request(
        self,
        operation: Operation[Any, Any],
        build_body: BodyBuilder,
        hedge_after: float,
        written: _Written,
    ) -> Outcome:
        """Send to any broker; unanswered within ``hedge_after``, to another one too, and so on
        (``hedge``). The first answer wins; the requests still out are left to be ignored, and
        the tries still waiting for a connection end with it (or with the call)."""
        transport, lane = self._transport, lane_of(operation.mutates)
        decided: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        hedge = HedgedRequest(
            transport.choice,
            operation.codec,
            lane,
            hedge_after,
            try_node=lambda node: send_soon(
                transport,
                self.spawn,
                operation,
                node,
                build_body,
                on_answer=partial(hedge.answered, node),
                on_written=written.add,
            ),
            decided=lambda node, outcome: _set_once(decided, outcome),
        )
        try:
            hedge.start(transport.choice.any_broker(lane))
            return await decided
        finally:
            hedge.cancel()

    def _settle(
        self, attempt: _Attempt[K], keys: list[K], outcome: dict[str, Any] | Exception
    ) -> bool:
        """Set the futures of one request's keys; what may be retried goes to ``attempt.retry``.

        Returns whether the cluster's nodes are worth asking for again: the whole request
        failed in a way worth retrying, or a node said it is not the controller (a quorum's
        leader changed).
        """
        operation, retry, last_errors = attempt.operation, attempt.retry, attempt.last_errors
        if retried(outcome, operation.not_retried):
            log.debug("%s failed, will retry: %s", operation.codec.name, outcome)
            last_errors.update(dict.fromkeys(keys, outcome))
            retry.extend(keys)
            if operation.mutates and answered_maybe_applied(outcome):
                attempt.unsure.update(keys)
            return True
        futures = attempt.result.values
        if isinstance(outcome, Exception):
            for key in keys:
                futures[key]._set_exception(outcome)
            return False
        with gc_paused():
            outcomes = list(operation.outcomes(keys, outcome))
        leader_moved = False
        for key, value in outcomes:
            if not isinstance(value, BrokerError):
                futures[key]._set_result(value)
            elif retried(value, operation.not_retried):
                last_errors[key] = value
                retry.append(key)
                leader_moved = leader_moved or isinstance(value, NotControllerError)
                if operation.mutates and answered_maybe_applied(value):
                    attempt.unsure.add(key)
            else:
                futures[key]._set_exception(value)
        return leader_moved

    async def _request(
        self,
        operation: Operation[Any, Any],
        node: int | None,
        build_body: BodyBuilder,
        written: _Written | None = None,
    ) -> dict[str, Any]:
        transport = self._transport
        return await transport.send(
            node if node is not None else transport.choice.any_broker(lane_of(operation.mutates)),
            operation.codec,
            build_body,
            throttle_from_version=operation.throttle_from_version,
            memo=operation.memo,
            on_written=written.add if written is not None else None,
            forwarded=operation.mutates,
        )

    async def _refresh_metadata_quietly(self) -> None:
        # A failed refresh is not the call's error: the retry will report what went wrong.
        try:
            await self._transport.refresh_metadata()
        except KafkaConfigAdminError as error:
            log.debug("metadata refresh failed: %s", error)

    def _backoff(self, attempt: int) -> float:
        pause = min(self._retry_backoff * 2.0 ** (attempt - 1), self._retry_backoff_max)
        return pause * random.uniform(0.8, 1.2)  # jitter keeps many clients from syncing up


class _Attempt(Generic[K]):
    """One call while it runs: what it sends, its futures, what to retry and why."""

    __slots__ = ("hedge_after", "last_errors", "operation", "result", "retry", "unsure")

    def __init__(self, operation: Operation[K, Any], result: _Result[K, Any]) -> None:
        self.operation = operation
        self.result = result
        #: The keys of the current round to send again.
        self.retry: list[K] = []
        #: Each retried key's last error, for the timeout message.
        self.last_errors: dict[K, KafkaConfigAdminError] = {}
        #: The keys of a change that may have been applied without an answer saying so.
        self.unsure: set[K] = set()
        #: How long a hedged request waits for an answer before another broker is tried too.
        self.hedge_after = 0.0


class _Written:
    """Counts the requests of one group written to a connection (the broker may act on them)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def add(self) -> None:
        self.count += 1


class _Retry(NamedTuple, Generic[K]):
    """What a call's first attempt, a gathering's request, left to retry."""

    resources: list[K]
    last_errors: dict[K, KafkaConfigAdminError]
    refresh: bool  # the whole request failed: ask for the cluster's brokers again first
    unsure: set[K]  # changes that may have been applied without an answer saying so


def _fail(result: _Result[Any, Any], error: Exception) -> None:
    result._fail_pending(lambda resource: error)


def _set_once(future: asyncio.Future[Outcome], outcome: Outcome) -> None:
    if not future.done():  # its task may have been cancelled before it could end the hedge
        future.set_result(outcome)


async def _in_turn(limit: anyio.Semaphore, send: Callable[[], Awaitable[None]]) -> None:
    async with limit:
        await send()


def _timeout_error(
    timeout: float,
    last_errors: Mapping[K, Exception],
    operation: Operation[K, Any],
    unsure: Set[K],
    resource: K,
) -> KafkaTimeoutError:
    last = last_errors.get(resource)
    reason = f"; last error: {last}" if last is not None else ""
    subject = operation.subject(resource)
    if resource in unsure:
        return OutcomeUnknownError(
            f"outcome unknown: the change may have been applied; read it back with "
            f"{_READ_BACK.get(operation.codec.name, 'describe_configs')} ({subject} was sent "
            f"but had no definite answer within {timeout:g}s{reason})"
        )
    if operation.mutates:  # every request was refused for certain, or never written
        return KafkaTimeoutError(
            f"not applied: {subject} was not changed; no broker took the change within "
            f"{timeout:g}s{reason}"
        )
    return KafkaTimeoutError(f"no answer for {subject} within {timeout:g}s{reason}")


def _closed_error(operation: Operation[K, Any], unsure: Set[K], resource: K) -> ClientClosedError:
    """The client closed before ``resource`` had an answer: whether a change may have been made."""
    subject = operation.subject(resource)
    if resource in unsure:
        return ClientClosedError(
            f"outcome unknown: the change may have been applied; read it back with "
            f"{_READ_BACK.get(operation.codec.name, 'describe_configs')} (the client was closed "
            f"after {subject} was sent, before its answer came)"
        )
    if operation.mutates:
        return ClientClosedError(
            f"not applied: {subject} was not changed; the client was closed before it was sent"
        )
    return ClientClosedError(f"the client was closed before {subject} had an answer")


#: The call that reads back what a change call changed.
_READ_BACK = {
    "AlterClientQuotas": "describe_client_quotas",
    "AlterUserScramCredentials": "describe_user_scram_credentials",
    "CreateTopics": "list_topics",
}
