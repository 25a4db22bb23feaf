"""Users' regular expressions (the topic search, a bulk edit's pattern) matched against topic
names as desired-state files' patterns are: within the request's time budget (see
:func:`kafka_config_admin.desired.match_budget`), so a pattern that backtracks without end,
such as ``(a|aa)+z``, gets a message instead of stalling the editor for every user."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.exceptions import HTTPException

from ..desired import PatternTimeoutError, UserPattern, match_budget

__all__ = ["matching"]


def matching(pattern: str, names: Iterable[str], *, whole: bool) -> list[str]:
    """The names ``pattern`` finds (``whole``: matches entirely, as Kafka's tools mean a
    pattern); 400 for a pattern that is not a regular expression or takes too long."""
    try:
        compiled = UserPattern(pattern)
    except ValueError as error:
        raise HTTPException(400, str(error).removeprefix("pattern ")) from None
    match = compiled.fullmatch if whole else compiled.search
    try:
        with match_budget():
            return [name for name in names if match(name) is not None]
    except PatternTimeoutError as error:
        raise HTTPException(400, str(error)) from None
