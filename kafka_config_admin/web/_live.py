"""The live pages' event streams: the polls of each cluster and scope, shared by every page
that follows it, how many streams are open, and the one signal that ends them all when the
server stops.

The interval is a promise to the reader: a change appears on the page within one interval of
being made (with a bound on the resources a poll reads, within the polls a whole turn takes:
:mod:`.views.live`). A change is shown by the first poll that starts after it, so polls are
``0.8 * interval - 2 * read`` seconds apart from start to start (not from one's end to the
next's start), where ``read`` is the longest of the last few polls (:func:`poll_period`):
the next poll's events are ready within four fifths of an interval of the last poll's start
even when it reads twice as slowly, and the last fifth is for sending them to the pages on a
loaded machine. Polls never start more than twice per interval: a cluster whose reads take
near half the interval or more shows its changes up to a read late, rather than being read
without pause. A stream sends the events it holds before it polls again.

Ten people looking at the same cluster's live page cost the cluster the reads of one, not
ten: each poll's events go to every stream of its scope. The first stream polls at once (the
baseline); a stream that joins after it gets the ``ready`` event at once.

A server waits for its open responses before it stops, and an event stream never ends by
itself: :meth:`LiveStreams.stop` (which :func:`kafka_config_admin.web.serve` calls on Ctrl-C
and SIGTERM, and the app's lifespan at its end) ends every stream within
:data:`PAUSE_SLICE` seconds, so that shutdown never hangs. A client that goes away ends its
stream at once (Starlette cancels the response).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

__all__ = ["PAUSE_SLICE", "LiveStreams", "Poll", "poll_period"]

#: Seconds a stream waits at a time, looking at the stop signal in between.
PAUSE_SLICE = 0.2
#: How many of the last polls' durations the next poll's start is planned from.
READS_REMEMBERED = 8
#: The share of the interval kept for sending a poll's events to the pages, and for a loaded
#: machine's late wake-ups.
SENDING_SHARE = 0.2
#: Events a stream may fall behind by; a client slower than that loses its stream (it
#: reconnects, with a new baseline).
BACKLOG = 1000

#: One poll of a scope: given what the last one kept (None: nothing yet), the state to keep
#: and the events it makes (each a whole server-sent event), and the ``ready`` event once the
#: baseline is read (else None).
Poll = Callable[[Any], Awaitable[tuple[Any, list[str], str | None]]]


@dataclass
class _Feed:
    """One scope's shared polls: the streams they feed, the state kept between them, how long
    the last polls took, when the next is due (0: at once), and which stream runs them (None:
    the next stream to look takes it on)."""

    streams: set[MemoryObjectSendStream[str]] = field(default_factory=set)
    ready: str | None = None
    state: Any = None
    reads: deque[float] = field(default_factory=lambda: deque(maxlen=READS_REMEMBERED))
    due: float = 0.0
    leader: object | None = None

    def wait(self, leading: bool, now: float) -> float:
        """How long a stream waits for an event before it looks again: until the next poll
        is due, if it runs the polls or the poll is yet to come (the stream that runs them
        may go before then: another takes them on in time), and at most :data:`PAUSE_SLICE`
        (the stop signal)."""
        if leading or now < self.due:
            return min(PAUSE_SLICE, max(0.0, self.due - now))
        return PAUSE_SLICE


async def _next_event(receive: MemoryObjectReceiveStream[str], wait: float) -> str | None:
    """The next event, or None when none came within ``wait`` seconds. One already there is
    taken even when ``wait`` is 0 (a poll slower than its period): a wait that has already
    ended would cancel the take."""
    try:
        return receive.receive_nowait()
    except anyio.WouldBlock:
        pass
    with anyio.move_on_after(wait):  # the scope ends here, never across the stream's yield
        return await receive.receive()
    return None


def poll_period(interval: float, reads: deque[float]) -> float:
    """Seconds from one poll's start to the next's, so that the next poll's events reach the
    pages within ``interval`` of the last one's start: ``interval`` less its
    :data:`SENDING_SHARE` and twice the longest of the last ``reads`` (a margin for a read
    slower than those), and at least half of it."""
    return max(interval / 2, interval * (1 - SENDING_SHARE) - 2 * max(reads, default=0.0))


class LiveStreams:
    """The open event streams of one app, the polls they share, and whether the app is
    stopping.

    No task outlives a request: of the streams of one scope, one (the first, then whichever
    looks next when it goes) runs the polls in its own request and hands each poll's events
    to all of them."""

    def __init__(self) -> None:
        self._stopping = threading.Event()  # set from a signal handler or another thread
        self._feeds: dict[Hashable, _Feed] = {}
        self._open = 0

    @property
    def open(self) -> int:
        """How many streams are open now."""
        return self._open

    @property
    def polling(self) -> int:
        """How many scopes are followed now (each read once per interval, however many
        streams follow it)."""
        return len(self._feeds)

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stopping.is_set()

    def stop(self) -> None:
        """End every stream (open or opened later) within :data:`PAUSE_SLICE` seconds."""
        self._stopping.set()

    async def stream(self, key: Hashable, poll: Poll, interval: float) -> AsyncGenerator[str]:
        """The events of ``key``'s scope from now on, ``poll`` run every ``interval`` seconds
        for all the streams of ``key``."""
        send, receive = anyio.create_memory_object_stream[str](BACKLOG)
        feed = self._feeds.setdefault(key, _Feed())
        feed.streams.add(send)
        self._open += 1
        me = object()
        try:
            if feed.ready is not None:
                yield feed.ready
            while not self.stopping:
                if feed.leader is None:
                    feed.leader = me
                due = anyio.current_time() >= feed.due
                if feed.leader is me and due and not receive.statistics().current_buffer_used:
                    await self._poll(feed, poll, interval)
                wait = feed.wait(feed.leader is me, anyio.current_time())
                try:
                    event = await _next_event(receive, wait)
                except anyio.EndOfStream:  # dropped: it fell behind
                    return
                if event is not None:
                    yield event
        finally:
            self._open -= 1
            feed.streams.discard(send)
            send.close()
            receive.close()
            if feed.leader is me:
                feed.leader = None
            if not feed.streams and self._feeds.get(key) is feed:
                del self._feeds[key]

    @staticmethod
    async def _poll(feed: _Feed, poll: Poll, interval: float) -> None:
        """One poll, its events to every stream of ``feed`` (one that fell behind is
        dropped, and reconnects), and when the next is due, counted from this one's start."""
        started = anyio.current_time()
        feed.state, events, ready = await poll(feed.state)
        feed.reads.append(anyio.current_time() - started)
        feed.due = started + poll_period(interval, feed.reads)
        if ready is not None:  # first: the page says what it follows, then what was found
            feed.ready = ready
            events = [ready, *events]
        for send in list(feed.streams):
            try:
                for event in events:
                    send.send_nowait(event)
            except (anyio.WouldBlock, anyio.BrokenResourceError, anyio.ClosedResourceError):
                feed.streams.discard(send)
                send.close()
