"""Checks of user input shared by the calls and the client's options (no I/O)."""

from __future__ import annotations

from .._exceptions import InvalidArgumentError

__all__ = [
    "MAX_BROKER_ID",
    "MAX_STRING_BYTES",
    "check_flag",
    "check_seconds",
    "check_string",
    "cut_short",
    "given",
    "is_broker_id",
    "shorten",
]

#: The most bytes a Kafka STRING may hold (its length is an INT16, even where it is a varint).
MAX_STRING_BYTES = 32_767
#: A broker id is a non-negative INT32.
MAX_BROKER_ID = 2**31 - 1


def is_broker_id(name: str) -> bool:
    """Whether ``name`` names a broker: ASCII digits, at most :data:`MAX_BROKER_ID`."""
    # ASCII only: str.isdigit() also takes '\u00b2' (int() refuses it) and Arabic digits.
    return name.isascii() and name.isdigit() and int(name) <= MAX_BROKER_ID


def check_string(what: str, value: str) -> None:
    """Refuse a string Kafka cannot carry: not UTF-8 encodable, or longer than 32,767 bytes.

    A broker drops the connection on a longer string, failing every request sharing it.
    """
    if len(value) <= MAX_STRING_BYTES and value.isascii():
        return
    try:
        size = len(value.encode())
    except UnicodeEncodeError as error:
        raise InvalidArgumentError(
            f"{what} cannot be encoded as UTF-8 ({error.reason} at index {error.start})"
        ) from None
    if size > MAX_STRING_BYTES:
        raise InvalidArgumentError(
            f"{what} is {size} bytes long; Kafka strings hold at most {MAX_STRING_BYTES}"
        )


def cut_short(text: str, limit: int = 80) -> str:
    """``text`` whole when at most ``limit`` characters, else its start and its length: how a
    table cell or a stored message holds a value a user gave (never 10 MB of it)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def shorten(text: str, limit: int = 60) -> str:
    """``repr(text)``, cut short when long (its start, then its length): an error message
    quotes a name or a value, not a novel. Every face quotes values with it."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def decoding_problem(error: UnicodeDecodeError) -> tuple[int, str]:
    """Where and why a file's bytes are not UTF-8, for its loader's message: the line of the
    first bad byte (1-based) and e.g. "byte 0xff is not UTF-8 (invalid start byte)"."""
    data = bytes(error.object)
    line = data[: error.start].count(b"\n") + 1
    return line, f"byte 0x{data[error.start]:02x} is not UTF-8 ({error.reason})"


def given(value: object, limit: int = 60) -> str:
    """What a caller gave, for an error message: ``shorten`` for a str, else its repr cut short."""
    if isinstance(value, str):
        return shorten(value, limit)
    text = repr(value)
    return text if len(text) <= limit else f"{type(value).__name__} {text[:limit]}..."


def check_flag(name: str, value: object) -> bool:
    """A flag must be a real bool: a truthy string such as "no" must not mean True."""
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{name} must be True or False, got {given(value)}")
    return value


def check_seconds(name: str, value: object, *, text: bool = False) -> float:
    """``value`` as a duration in seconds: a finite number above 0 (not a bool). With
    ``text``, a string of one is taken too (an option or a file gives it so). The one rule
    for the client's timeouts and the faces' durations (a clusters file's timeout, the change
    feed's interval).

    Raises :class:`InvalidArgumentError`: "timeout must be a positive number of seconds,
    got -2".
    """
    number = value
    if text and isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            number = None
    if (
        isinstance(number, bool)
        or not isinstance(number, int | float)
        or not 0 < number < float("inf")
    ):
        raise InvalidArgumentError(
            f"{name} must be a positive number of seconds, got {given(value)}"
        )
    return float(number)
