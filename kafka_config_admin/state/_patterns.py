"""Regular expressions people give (a desired-state file's topic patterns, ``ignore`` entries
and rule selectors; the CLI's ``--match``; the web editor's topic search and bulk patterns),
matched within a time budget when the caller sets one.

A pattern such as ``(a|aa)+z`` backtracks without end on a long name: Python's ``re`` cannot
stop such a match, and a server matching a pattern someone pasted would stall for everyone. The
``regex`` module takes the same syntax and stops a match when its timeout passes. Inside
:func:`match_budget`, every match of a :class:`UserPattern` draws on one budget of seconds
(matching time only: time spent waiting for brokers does not count); past it, the match raises
:class:`PatternTimeoutError` naming the pattern. ``match_budget(per_match=True)`` gives each
match the whole budget instead (a command line matching many patterns over many topics, whose
user is the one waiting). Outside, matches have no limit.

What bounds a match: the ``regex`` module measures its timeout with C's ``clock()``, the
processor time of the whole process, not the wall clock. On an idle machine the two agree; on a
loaded one a process that gets a share *s* of a core spends 1 s of processor time in about
1/*s* s (a 1 s budget ended after 3-4 s at load 12 on 2 cores), and while the match runs on the
event loop's thread nothing else of the process runs. A server uses :func:`find_matching`: it
matches in a worker thread (``regex`` lets go of the GIL while it matches a ``str``), so the
event loop serves other requests meanwhile, and its caller has the answer within the budget's
seconds of wall clock; a match still running then stops by itself within the processor time
left.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

import anyio

from .. import AdminClient, InvalidArgumentError, TopicListing

if TYPE_CHECKING:
    import regex

__all__ = [
    "MATCH_SECONDS",
    "PatternTimeoutError",
    "UserPattern",
    "find_matching",
    "list_matching_topics",
    "match_budget",
]

#: Seconds the matches of users' patterns may take in all, within one :func:`match_budget`.
MATCH_SECONDS = 1.0


class PatternTimeoutError(InvalidArgumentError):
    """A user's pattern took longer to match than the budget allows (it backtracks too much)."""

    def __init__(self, pattern: str, seconds: float) -> None:
        self.pattern = pattern
        self.seconds = seconds
        super().__init__(
            f"{pattern!r} takes too long to match (over {seconds:g} s; it backtracks too "
            "much): simplify it"
        )


class _Budget:
    """The matching seconds left in one :func:`match_budget` (or each match's, ``per_match``)."""

    __slots__ = ("left", "per_match", "seconds")

    def __init__(self, seconds: float, per_match: bool) -> None:
        self.seconds = seconds
        self.left = seconds
        self.per_match = per_match

    def spend(self, seconds: float) -> None:
        if not self.per_match:
            self.left -= seconds

    def end(self) -> None:
        """No more matching within this budget."""
        self.left = 0.0
        self.per_match = False


#: ``fullmatch`` or ``search`` of a compiled pattern.
_Match = Callable[..., "regex.Match[str] | None"]

_BUDGET: ContextVar[_Budget | None] = ContextVar("kafka_config_admin_match_budget", default=None)


@contextmanager
def match_budget(seconds: float = MATCH_SECONDS, *, per_match: bool = False) -> Iterator[None]:
    """Within this block, matching users' patterns may take ``seconds`` in all (``per_match``:
    each match may take ``seconds``); past that, a match raises :class:`PatternTimeoutError`.
    Tasks and worker threads started inside share the budget. Inside another budget, the
    outer one stays in force (a part of a request cannot extend it)."""
    if _BUDGET.get() is not None:
        yield
        return
    token = _BUDGET.set(_Budget(seconds, per_match))
    try:
        yield
    finally:
        _BUDGET.reset(token)


class UserPattern:
    """A user's regular expression (Python's syntax), matched within the budget in force.

    ``label`` names where the pattern comes from in the error for one that does not compile
    (``pattern``, ``ignore``, ``--match``, ``topicPattern``...): an
    :class:`~kafka_config_admin.InvalidArgumentError` (a :class:`ValueError`).
    """

    __slots__ = ("_compiled", "pattern")

    def __init__(self, pattern: str, label: str = "pattern") -> None:
        import regex  # here, not at import: most commands and files have no pattern

        try:
            self._compiled = regex.compile(pattern)
        except regex.error as error:
            raise InvalidArgumentError(
                f"{label} {pattern!r} is not a regular expression: {error}"
            ) from None
        self.pattern = pattern

    def fullmatch(self, text: str) -> regex.Match[str] | None:
        """The match of the whole of ``text``, or None."""
        return self._timed(self._compiled.fullmatch, text)

    def search(self, text: str) -> regex.Match[str] | None:
        """The first match anywhere in ``text``, or None."""
        return self._timed(self._compiled.search, text)

    def _timed(self, match: _Match, text: str) -> regex.Match[str] | None:
        budget = _BUDGET.get()
        if budget is None:
            return match(text)
        if budget.left <= 0:
            raise PatternTimeoutError(self.pattern, budget.seconds)
        start = time.perf_counter()
        try:
            return match(text, timeout=budget.left)
        except TimeoutError:
            budget.end()
            raise PatternTimeoutError(self.pattern, budget.seconds) from None
        finally:
            budget.spend(time.perf_counter() - start)

    def __repr__(self) -> str:
        return f"UserPattern({self.pattern!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UserPattern):
            return self.pattern == other.pattern
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.pattern)

    def __reduce__(self) -> tuple[type[UserPattern], tuple[str]]:
        return UserPattern, (self.pattern,)


async def find_matching(pattern: UserPattern, texts: Iterable[str], *, whole: bool) -> list[str]:
    """The ``texts`` that ``pattern`` matches (``whole``: the whole text, else anywhere in
    it), matched in a worker thread while the event loop goes on serving.

    Within a :func:`match_budget` (not ``per_match``), the answer comes within the seconds
    left of wall clock (not only of processor time, which passes slower on a loaded machine):
    past them, :class:`PatternTimeoutError`, and the thread stops at its next text, or within
    the processor time left when a match is under way.
    """
    candidates = list(texts)
    match = pattern.fullmatch if whole else pattern.search
    stopped = False

    def matches() -> list[str]:
        found = []
        for text in candidates:
            if stopped:
                break
            if match(text) is not None:
                found.append(text)
        return found

    budget = _BUDGET.get()
    wall = None if budget is None or budget.per_match else max(budget.left, 0.0)
    try:
        with anyio.move_on_after(wall):
            return await anyio.to_thread.run_sync(matches, abandon_on_cancel=True)
    finally:
        stopped = True  # answered, out of time or cancelled: the thread matches no more
    assert budget is not None
    budget.end()
    raise PatternTimeoutError(pattern.pattern, budget.seconds)


async def list_matching_topics(
    admin: AdminClient, pattern: str | None, *, label: str = "pattern"
) -> list[TopicListing]:
    """The cluster's topics (internal ones left out) whose whole name ``pattern``, a user's
    regular expression, matches, within the budget in force; every one for None. ``label``
    names the pattern in the error when it does not compile."""
    compiled = None if pattern is None else UserPattern(pattern, label)
    listed = await admin.list_topics()
    if compiled is None:
        return listed
    return [topic for topic in listed if compiled.fullmatch(topic.name) is not None]
