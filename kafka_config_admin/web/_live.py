"""The live pages' event streams: one poll per interval for each cluster and scope, shared by
every page that follows it, how many streams are open, and the one signal that ends them all
when the server stops.

Ten people looking at the same cluster's live page cost the cluster one read per interval,
not ten: each poll's events go to every stream of its scope. A stream that joins after the
first read gets the ``ready`` event at once.

A server waits for its open responses before it stops, and an event stream never ends by
itself: :meth:`LiveStreams.stop` (which :func:`kafka_config_admin.web.serve` calls on Ctrl-C
and SIGTERM, and the app's lifespan at its end) ends every stream within
:data:`PAUSE_SLICE` seconds, so that shutdown never hangs. A client that goes away ends its
stream at once (Starlette cancels the response).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream

__all__ = ["PAUSE_SLICE", "LiveStreams", "Poll"]

#: Seconds a stream waits at a time, looking at the stop signal in between.
PAUSE_SLICE = 0.2
#: Events a stream may fall behind by; a client slower than that loses its stream (it
#: reconnects, with a new baseline).
BACKLOG = 1000

#: One poll of a scope: given what the last one kept (None: nothing yet), the state to keep
#: and the events it makes (each a whole server-sent event), and the ``ready`` event once the
#: baseline is read (else None).
Poll = Callable[[Any], Awaitable[tuple[Any, list[str], str | None]]]


@dataclass
class _Feed:
    """One scope's shared polls: the streams they feed, the state kept between them, when the
    next is due, and which stream runs them (None: the next stream to look takes it on)."""

    streams: set[MemoryObjectSendStream[str]] = field(default_factory=set)
    ready: str | None = None
    state: Any = None
    due: float = 0.0
    leader: object | None = None


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

    async def stream(self, key: Hashable, poll: Poll, interval: float) -> AsyncIterator[str]:
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
                if feed.leader is me and anyio.current_time() >= feed.due:
                    await self._poll(feed, poll, interval)
                wait = PAUSE_SLICE
                if feed.leader is me:
                    wait = min(wait, max(0.0, feed.due - anyio.current_time()))
                event = None
                with anyio.move_on_after(wait):  # the scope ends before the yield
                    try:
                        event = await receive.receive()
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
        dropped, and reconnects)."""
        feed.state, events, ready = await poll(feed.state)
        feed.due = anyio.current_time() + interval
        if ready is not None:
            feed.ready = ready
            events = [*events, ready]
        for send in list(feed.streams):
            try:
                for event in events:
                    send.send_nowait(event)
            except (anyio.WouldBlock, anyio.BrokenResourceError, anyio.ClosedResourceError):
                feed.streams.discard(send)
                send.close()
