"""How a value a user gave stands in a message: readable, whatever its size."""

from __future__ import annotations

__all__ = ["shorten"]

#: The longest value a message shows whole; a longer one shows its start and its length.
_SHOWN_CHARS = 80


def shorten(value: str | None) -> str | None:
    """A value as a message shows it: whole up to 80 characters, else its start and length
    (a 10 MB value is never echoed into a message)."""
    if value is None or len(value) <= _SHOWN_CHARS:
        return value
    return f"{value[: _SHOWN_CHARS - 20]}... ({len(value)} characters)"
