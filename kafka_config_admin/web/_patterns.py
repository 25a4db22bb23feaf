"""Users' regular expressions (the topic search, a bulk edit's pattern) matched against topic
names as desired-state files' patterns are: within the request's time budget (see
:func:`kafka_config_admin.state.match_budget`), in a worker thread
(:func:`kafka_config_admin.state.find_matching`), so a pattern that backtracks without end,
such as ``(a|aa)+z``, gets a message instead of stalling the editor for every user."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.exceptions import HTTPException

from ..state import PatternTimeoutError, UserPattern, find_matching, match_budget

__all__ = ["matching"]


async def matching(pattern: str, names: Iterable[str], *, whole: bool) -> list[str]:
    """The names ``pattern`` finds (``whole``: matches entirely, as Kafka's tools mean a
    pattern), matched off the event loop within the request's budget of wall-clock time; 400
    for a pattern that is not a regular expression or takes too long."""
    try:
        compiled = UserPattern(pattern)
    except ValueError as error:
        raise HTTPException(400, str(error).removeprefix("pattern ")) from None
    try:
        with match_budget():
            return await find_matching(compiled, names, whole=whole)
    except PatternTimeoutError as error:
        raise HTTPException(400, str(error)) from None
