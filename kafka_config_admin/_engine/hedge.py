"""Hedging: a request its broker leaves unanswered goes to another broker too; first answer wins.

One mechanism for every hedged request, the engine's own and the gatherings' (``coalesce``):
callbacks and one timer, no task of its own. The request goes to a first broker; when that
broker has answered nothing for the hedge delay (a broker that answers other requests meanwhile
is slow, not sick, and is left alone: a second request elsewhere would only add load to a
cluster that is busy already), the same request goes to the next broker too, and so on to each
broker once. An error ends the request only when no other try is out or left to make; it
starts the next try at once.

What the deciding outcome means is the caller's (``decided``); each try is written by
:func:`send_soon`, at once when the broker's connection is open, else by a task of the client's
task group that waits for it. Such a task ends when the request is decided (or cancelled): no
try is written after its request has its answer. A request needs no task group of its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import anyio

from .._net.brokers import BrokerChoice
from .._net.transport import Transport
from .._net.wire import BodyBuilder
from .._ops.base import Operation
from .._protocol import ApiCodec

__all__ = ["HedgedRequest", "Outcome", "Spawn", "send_soon"]

log = logging.getLogger("kafka_config_admin")

#: What one try of a request ends with: the decoded answer, or the error that ended it.
Outcome = dict[str, Any] | Exception


#: Starts a task in a task group (``TaskGroup.start_soon``).
Spawn = Callable[..., object]


def send_soon(
    transport: Transport,
    spawn: Spawn,
    operation: Operation[Any, Any],
    node: int,
    build_body: BodyBuilder,
    *,
    on_answer: Callable[[Outcome], None],
    on_written: Callable[[], None],
) -> anyio.CancelScope | None:
    """Write one request to ``node``: now if its connection is open and not throttled, else
    from a task (``spawn``) that waits for both. ``on_answer`` gets its outcome once (unless
    the waiting task is cancelled); ``on_written`` is called when it is on the connection (the
    broker may act on it from then on).

    Returns the waiting task's cancel scope, None when no task was needed.
    """
    try:
        if transport.submit(
            node,
            operation.codec,
            build_body,
            throttle_from_version=operation.throttle_from_version,
            memo=operation.memo,
            on_answer=on_answer,
            forwarded=operation.mutates,
        ):
            on_written()
            return None
        waiting = anyio.CancelScope()
        spawn(
            _send_when_connected,
            waiting,
            transport,
            operation,
            node,
            build_body,
            on_answer,
            on_written,
        )
    except Exception as error:  # reaches the call (a bug, a closed client), not the loop
        on_answer(error)
        return None
    return waiting


async def _send_when_connected(
    waiting: anyio.CancelScope,
    transport: Transport,
    operation: Operation[Any, Any],
    node: int,
    build_body: BodyBuilder,
    on_answer: Callable[[Outcome], None],
    on_written: Callable[[], None],
) -> None:
    with waiting:
        try:
            response = await transport.send(
                node,
                operation.codec,
                build_body,
                throttle_from_version=operation.throttle_from_version,
                memo=operation.memo,
                on_written=on_written,
                forwarded=operation.mutates,
            )
        except Exception as error:  # reaches the call (a bug too), not the task group
            on_answer(error)
        else:
            on_answer(response)


def _ignore(*args: object) -> None:
    return None


class HedgedRequest:
    """One request that may go to each broker once, the first answer deciding it."""

    __slots__ = (
        "_choice",
        "_codec",
        "_decided",
        "_done",
        "_first",
        "_hedge_after",
        "_lane",
        "_out",
        "_timer",
        "_try_node",
        "_untried",
        "_waiting",
    )

    def __init__(
        self,
        choice: BrokerChoice,
        codec: ApiCodec,
        lane: int,
        hedge_after: float,
        *,
        try_node: Callable[[int], anyio.CancelScope | None],
        decided: Callable[[int, Outcome], None],
    ) -> None:
        """``try_node`` writes the request to a broker (:func:`send_soon`), returning the
        cancel scope of a task that waits to write it; ``decided`` gets the deciding outcome."""
        self._choice = choice
        self._codec = codec
        self._lane = lane
        self._hedge_after = hedge_after
        self._try_node = try_node
        self._decided = decided
        self._first = -1
        #: The brokers not tried yet, popped from the end; listed when a hedge is first needed.
        self._untried: list[int] | None = None
        self._out = 0
        self._done = False
        self._timer: asyncio.TimerHandle | None = None
        #: The tasks of tries still waiting for a connection (rare: made when first needed).
        self._waiting: list[anyio.CancelScope] | None = None

    def start(self, first: int) -> None:
        """Write the request to its first broker, and watch that broker for silence."""
        self._first = first
        self._try(first)

    def answered(self, node: int, outcome: Outcome) -> None:
        """One try has its outcome: the first answer decides; an error starts the next try."""
        if self._done:
            return  # decided already (a later answer is ignored), or cancelled
        if isinstance(outcome, Exception):
            self._out -= 1
            log.debug("%s to broker %d failed: %s", self._codec.name, node, outcome)
            if self._untried_brokers():
                self._hedge()
                return
            if self._out:
                return
        decided = self._decided
        self.cancel()
        if node != self._first and not isinstance(outcome, Exception):
            self._choice.hedge_won(self._lane, node)  # the lane's next requests go there
        decided(node, outcome)

    def cancel(self) -> None:
        """Try no more brokers; outcomes still to come are ignored, and the tries still
        waiting for a connection end unwritten.

        A try still out keeps this object until its answer or timeout: it lets go of the
        caller's callbacks (and what they hold, the answer among them) at once.
        """
        self._done = True
        self._try_node = self._decided = _ignore
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._waiting is not None:  # cancel() formats the task's repr: not on the common path
            waiting, self._waiting = self._waiting, None
            for scope in waiting:
                scope.cancel()

    def _try(self, node: int) -> None:
        self._out += 1
        waiting = self._try_node(node)  # may decide at once (a failure to write)
        if waiting is not None:
            if self._waiting is None:
                self._waiting = []
            self._waiting.append(waiting)
        if not self._done and self._timer is None and self._untried != []:
            self._look_for_silence(node)  # the other brokers are listed when first needed

    def _look_for_silence(self, node: int) -> None:
        self._timer = asyncio.get_running_loop().call_later(
            self._hedge_after, self._hedge_if_silent, node
        )

    def _hedge_if_silent(self, node: int) -> None:
        """The hedge delay has passed: try the next broker, unless ``node`` is only busy."""
        self._timer = None
        if self._choice.answered_within(node, self._hedge_after):
            self._look_for_silence(node)
        else:
            self._hedge()

    def _hedge(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        untried = self._untried_brokers()
        if untried:
            self._try(untried.pop())

    def _untried_brokers(self) -> list[int]:
        """The brokers not tried yet, in broker choice's order from the end; listed once a
        hedge is first needed."""
        if self._untried is None:
            self._untried = self._choice.hedge_targets(self._lane, self._first)[::-1]
        return self._untried
