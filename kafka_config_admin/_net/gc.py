"""Pausing the cyclic garbage collector around bulk decoding."""

from __future__ import annotations

import gc
from types import TracebackType


class _Pause:
    """The context manager behind :func:`gc_paused`; re-entrant, so blocks may nest.

    A class rather than ``@contextmanager``: it is entered several times per call, and a
    generator-based one costs several times as much to enter and leave.
    """

    __slots__ = ("_depth", "_resume")

    def __init__(self) -> None:
        self._depth = 0
        self._resume = False

    def __enter__(self) -> None:
        if self._depth == 0:
            self._resume = gc.isenabled()
            gc.disable()
        self._depth += 1

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._depth -= 1
        if self._depth == 0 and self._resume:
            gc.enable()


_PAUSE = _Pause()


def gc_paused() -> _Pause:
    """Hold the cyclic GC off while a large response is decoded and shaped.

    Decoding a describe of thousands of resources allocates hundreds of thousands of container
    objects and no cycles; without this, generation scans triggered by those allocations cost
    about twice the decoding itself (W1 in ``benchmarks``). Reference counting
    still frees everything; the collector resumes, as it was, when the outermost block ends.
    """
    return _PAUSE
