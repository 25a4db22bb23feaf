"""Users' regular expressions (the topic search, a bulk edit's pattern), matched in a time
budget: a pattern that backtracks without end, such as ``(a|aa)+z``, gets a message instead of
stalling the editor for every user. Python's ``re`` cannot stop a match; the ``regex`` module
(the same syntax) stops one when its timeout passes."""

from __future__ import annotations

import time
from collections.abc import Iterable

import regex
from starlette.exceptions import HTTPException

__all__ = ["MATCH_SECONDS", "matching"]

#: Seconds one request may spend matching a user's pattern against every name.
MATCH_SECONDS = 1.0


def matching(pattern: str, names: Iterable[str], *, whole: bool) -> list[str]:
    """The names ``pattern`` finds (``whole``: matches entirely, as Kafka's tools mean a
    pattern); 400 for a pattern that is not a regular expression or takes too long."""
    try:
        compiled = regex.compile(pattern)
    except regex.error as error:
        raise HTTPException(400, f"{pattern!r} is not a regular expression: {error}") from None
    match = compiled.fullmatch if whole else compiled.search
    deadline = time.monotonic() + MATCH_SECONDS
    found = []
    try:
        for name in names:
            if match(name, timeout=max(deadline - time.monotonic(), 0.001)) is not None:
                found.append(name)
    except TimeoutError:
        raise HTTPException(
            400,
            f"{pattern!r} takes too long to match (over {MATCH_SECONDS:g} s; it backtracks "
            "too much): simplify it",
        ) from None
    return found
