"""Regular expressions people give (a desired-state file's topic patterns, ``ignore`` entries
and rule selectors; the web editor's topic search and bulk patterns), matched within a time
budget when the caller sets one.

A pattern such as ``(a|aa)+z`` backtracks without end on a long name: Python's ``re`` cannot
stop such a match, and a server matching a pattern someone pasted would stall for everyone. The
``regex`` module takes the same syntax and stops a match when its timeout passes. Inside
:func:`match_budget`, every match of a :class:`UserPattern` draws on one budget of seconds
(matching time only: time spent waiting for brokers does not count); past it, the match raises
:class:`PatternTimeoutError` naming the pattern. Outside, matches have no limit (a tool
matching its own user's file, who can interrupt it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from .. import InvalidArgumentError

if TYPE_CHECKING:
    import regex

__all__ = ["MATCH_SECONDS", "PatternTimeoutError", "UserPattern", "match_budget"]

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
    """The matching seconds left in one :func:`match_budget`."""

    __slots__ = ("left", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.left = seconds


#: ``fullmatch`` or ``search`` of a compiled pattern.
_Match = Callable[..., "regex.Match[str] | None"]

_BUDGET: ContextVar[_Budget | None] = ContextVar("kafka_config_admin_match_budget", default=None)


@contextmanager
def match_budget(seconds: float = MATCH_SECONDS) -> Iterator[None]:
    """Within this block, matching users' patterns may take ``seconds`` in all; past that, a
    match raises :class:`PatternTimeoutError`. Tasks started inside share the budget. Inside
    another budget, the outer one stays in force (a part of a request cannot extend it)."""
    if _BUDGET.get() is not None:
        yield
        return
    token = _BUDGET.set(_Budget(seconds))
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
        import regex  # imported by the first pattern: most files and commands have none

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
            budget.left = 0.0
            raise PatternTimeoutError(self.pattern, budget.seconds) from None
        finally:
            budget.left -= time.perf_counter() - start

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
