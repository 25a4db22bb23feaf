"""The live pages' event streams: how many are open, and the one signal that ends them all
when the server stops.

A server waits for its open responses before it stops, and an event stream never ends by
itself: :meth:`LiveStreams.stop` (which :func:`kafka_config_admin.web.serve` calls on Ctrl-C
and SIGTERM) ends every stream within :data:`PAUSE_SLICE` seconds, so that shutdown never hangs.
A client that goes away ends its stream at once (Starlette cancels the response).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import anyio

__all__ = ["PAUSE_SLICE", "LiveStreams"]

#: Seconds a stream sleeps at a time between polls, looking at the stop signal in between.
PAUSE_SLICE = 0.2


class LiveStreams:
    """The open event streams of one app, and whether the app is stopping."""

    def __init__(self) -> None:
        self._stopping = threading.Event()  # set from a signal handler or another thread
        self._lock = threading.Lock()
        self._open = 0

    @property
    def open(self) -> int:
        """How many streams are open now."""
        with self._lock:
            return self._open

    @property
    def stopping(self) -> bool:
        """Whether :meth:`stop` was called."""
        return self._stopping.is_set()

    def stop(self) -> None:
        """End every stream (open or opened later) at its next pause."""
        self._stopping.set()

    @contextmanager
    def streaming(self) -> Iterator[None]:
        """Count one stream open while the block runs."""
        with self._lock:
            self._open += 1
        try:
            yield
        finally:
            with self._lock:
                self._open -= 1

    async def pause(self, seconds: float) -> bool:
        """Sleep ``seconds``; False, at once, when the app is stopping."""
        deadline = anyio.current_time() + seconds
        while not self.stopping:
            left = deadline - anyio.current_time()
            if left <= 0:
                return True
            await anyio.sleep(min(left, PAUSE_SLICE))
        return False
