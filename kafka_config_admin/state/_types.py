"""Config values parsed by their KIP-569 type, the way the broker's ConfigDef parses them.

Kafka's ``ConfigDef.parseType`` trims the string, then: BOOLEAN is ``true`` or ``false`` in any
case; INT, SHORT and LONG are Java's ``parseInt``/``parseShort``/``parseLong`` (an optional sign
and decimal digits, within 32, 16 or 64 bits); DOUBLE is Java's ``Double.parseDouble`` (which
also takes ``NaN``, ``Infinity``, an ``f``/``d`` suffix and hex floats); LIST splits on commas
with the whitespace around them, an empty string being the empty list; CLASS is a class name
(whether the class exists only the broker can tell); STRING and PASSWORD are the trimmed text.

Two values are equal when they parse to the same typed value: ``"604800000"`` and
``" 604800000 "`` for a LONG, ``"delete,compact"`` and ``"delete, compact"`` for a LIST. The
LIST keys in :data:`SET_LIKE_KEYS`, whose order means nothing to Kafka, are equal as sets:
``"compact,delete"`` and ``"delete,compact"`` for ``cleanup.policy``.
"""

from __future__ import annotations

import math
import re
import unicodedata

from .. import ConfigType
from ._references import has_reference

__all__ = [
    "SET_LIKE_KEYS",
    "TypedValue",
    "expected_type",
    "is_set_like",
    "java_equals_ignore_case",
    "java_trim",
    "parse_typed",
    "same_value",
]

#: LIST keys whose members Kafka reads as a set: the order (and a repeated member) changes
#: nothing, so values that differ only in order are the same value. Every other LIST keeps its
#: order: cipher suites, SASL mechanisms offered to clients, metric reporters, assignors and the
#: like are tried or run in list order. docs/desired-state.md has this table with the reasons.
SET_LIKE_KEYS = frozenset(
    {
        # topic: which cleanups run (Kafka checks membership: compact? delete?)
        "cleanup.policy",
        # topic: partition:broker pairs to throttle (read into a set)
        "leader.replication.throttled.replicas",
        "follower.replication.throttled.replicas",
        # broker: the cluster-default form of cleanup.policy
        "log.cleanup.policy",
        # broker: listener name -> protocol pairs (a STRING Kafka splits into a map)
        "listener.security.protocol.map",
        # broker: the SASL mechanisms the broker enables (a set; the client picks one)
        "sasl.enabled.mechanisms",
        # broker: the TLS versions enabled (the handshake picks the highest both have)
        "ssl.enabled.protocols",
        # broker: the listeners started before the authorizer is ready (read into a set)
        "early.start.listeners",
        # broker: the group protocols the coordinator enables (read into a set)
        "group.coordinator.rebalance.protocols",
        # broker: the roles of a KRaft node (read into a set: broker, controller)
        "process.roles",
        # broker: the audiences an OAuth token may name (a token must name one of them)
        "sasl.oauthbearer.expected.audience",
        # client metrics (KIP-714): metric name prefixes, and client matching patterns
        "metrics",
        "match",
    }
)

#: What a value parses to: bool, int, float, a tuple of list members, or the trimmed string.
TypedValue = bool | int | float | tuple[str, ...] | str

#: Java's ``Integer.parseInt``/``Long.parseLong``: an optional sign, then digits, where a digit
#: is any Unicode decimal digit (``Character.digit``: ``'\u0661\u0660'`` is 10), one UTF-16
#: unit each.
_INTEGER = re.compile(r"[+-]?[\d]+")
#: The longest run of digits (leading zeros aside) that can still fit in 64 bits: beyond it a
#: value is out of range without being converted (Python refuses ints of thousands of digits).
_MAX_DIGITS = 19
_BOUNDS = {
    ConfigType.SHORT: (-(2**15), 2**15 - 1),
    ConfigType.INT: (-(2**31), 2**31 - 1),
    ConfigType.LONG: (-(2**63), 2**63 - 1),
}
_DECIMAL_FLOAT = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)"
)
_HEX_FLOAT = re.compile(
    r"[+-]?0[xX](?:[0-9a-fA-F]+\.?|[0-9a-fA-F]*\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[fFdD]?"
)
#: ConfigDef's ``\s*,\s*``: Java's ``\s`` is ASCII whitespace only.
_LIST_SEPARATOR = re.compile(r"[ \t\n\x0b\f\r]*,[ \t\n\x0b\f\r]*")

_EXPECTED = {
    ConfigType.BOOLEAN: "BOOLEAN (true or false)",
    ConfigType.STRING: "STRING",
    ConfigType.INT: "INT (a 32-bit integer, -2147483648 to 2147483647)",
    ConfigType.SHORT: "SHORT (a 16-bit integer, -32768 to 32767)",
    ConfigType.LONG: "LONG (a 64-bit integer, -9223372036854775808 to 9223372036854775807)",
    ConfigType.DOUBLE: "DOUBLE (a decimal number)",
    ConfigType.LIST: "LIST (comma-separated values)",
    ConfigType.CLASS: "CLASS (a Java class name)",
    ConfigType.PASSWORD: "PASSWORD",
    ConfigType.UNKNOWN: "a value (type not reported by the broker)",
}


def expected_type(kind: ConfigType) -> str:
    """A short description of what a value of this type looks like, for error messages."""
    return _EXPECTED[kind]


def java_trim(text: str) -> str:
    """Java's ``String.trim()``: every char at or below U+0020 off both ends, and nothing else
    (a no-break space U+00A0 or an ideographic space U+3000 stays, as Kafka keeps it)."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def java_equals_ignore_case(text: str, other: str) -> bool:
    """Java's ``String.equalsIgnoreCase``: char by char, equal as they are, in upper case or in
    lower case of the upper case (``'fal\\u017fe'`` equals ``'false'``: the long s is an s)."""
    if len(text) != len(other):
        return False
    return all(
        a == b
        or _java_upper(a) == _java_upper(b)
        or _java_upper(a).lower() == _java_upper(b).lower()
        for a, b in zip(text, other, strict=True)
    )


def _java_upper(char: str) -> str:
    """``Character.toUpperCase`` of one char: one char, never a longer mapping (``ß`` stays)."""
    upper = char.upper()
    return upper if len(upper) == 1 else char


def parse_typed(kind: ConfigType, text: str) -> TypedValue:
    """Parse ``text`` as the broker parses a value of type ``kind``; ValueError if it cannot.

    Kafka's ``ConfigDef.parseType``, with Java's rules: the text is trimmed by Java's
    ``trim()``; numbers take Java's digits (any Unicode decimal digit for integers, ASCII for
    doubles); a LIST keeps its empty members (whether a member may be empty is its validator's
    to say: :func:`kafka_config_admin.state.check_value`). A CLASS is its trimmed name,
    refused only where no class can have it (empty, an empty part between dots, a ``/``):
    whether the class exists only the broker can tell. UNKNOWN (a broker too old to report
    types) gives the trimmed string: only the broker can check such a value.
    """
    trimmed = java_trim(text)
    if kind is ConfigType.BOOLEAN:
        if java_equals_ignore_case(trimmed, "true"):
            return True
        if java_equals_ignore_case(trimmed, "false"):
            return False
        raise ValueError("expected true or false (in any case)")
    if kind in _BOUNDS:
        return _parse_integer(kind, trimmed)
    if kind is ConfigType.DOUBLE:
        return _parse_double(trimmed)
    if kind is ConfigType.LIST:
        return _parse_list(trimmed)
    if kind is ConfigType.CLASS and not _may_name_a_class(trimmed):
        raise ValueError("no class can have this name")
    return trimmed


def _may_name_a_class(name: str) -> bool:
    """Whether Java's ``Class.forName`` could find a class of this name: not empty, no empty
    part between dots, no ``/`` (the JVM's binary names). Whether the class exists only the
    broker can tell."""
    return bool(name) and "/" not in name and all(name.split("."))


def _parse_integer(kind: ConfigType, trimmed: str) -> int:
    if not _INTEGER.fullmatch(trimmed):
        raise ValueError("not an integer")
    low, high = _BOUNDS[kind]
    digits = trimmed.lstrip("+-")
    if not digits.isascii():
        digits = _ascii_digits(digits)
    significant = digits.lstrip("0")
    if len(significant) > _MAX_DIGITS:
        raise ValueError(f"out of range for {kind.name} ({low} to {high})")
    number = int(significant or "0")
    if trimmed.startswith("-"):
        number = -number
    if not low <= number <= high:
        raise ValueError(f"out of range for {kind.name} ({low} to {high})")
    return number


def _ascii_digits(digits: str) -> str:
    """Unicode decimal digits as the ASCII digits of their values (Java's
    ``Character.digit``), one UTF-16 unit each. The usual value is ASCII already and skips
    this: a plan of thousands of keys parses each value up to three times."""
    if any(ord(char) > 0xFFFF for char in digits):
        raise ValueError("not an integer")  # a digit outside the BMP is two Java chars
    return "".join(str(unicodedata.decimal(char)) for char in digits)


def _parse_double(trimmed: str) -> float:
    if _HEX_FLOAT.fullmatch(trimmed):
        return float.fromhex(trimmed.rstrip("fFdD"))
    if not _DECIMAL_FLOAT.fullmatch(trimmed):
        raise ValueError("not a number")
    body = trimmed.replace("Infinity", "inf").replace("NaN", "nan")
    if not body.endswith(("inf", "nan")):
        body = body.rstrip("fFdD")
    return float(body)


def _parse_list(trimmed: str) -> tuple[str, ...]:
    if not trimmed:
        return ()
    return tuple(_LIST_SEPARATOR.split(trimmed))


def is_set_like(key: str | None) -> bool:
    """Whether the LIST key ``key`` is compared as a set (see :data:`SET_LIKE_KEYS`)."""
    return key in SET_LIKE_KEYS


#: The types a set-like key's value is read as a comma-separated set in: LIST, a STRING that
#: Kafka splits itself (``listener.security.protocol.map``), and no type (a broker before 2.6).
_SET_CARRIERS = frozenset({ConfigType.LIST, ConfigType.STRING, ConfigType.UNKNOWN})


def same_value(
    kind: ConfigType, left: str | None, right: str | None, *, key: str | None = None
) -> bool:
    """Whether two values are the same once parsed by ``kind`` (None only equals None).

    Values that do not parse, and config provider references, are compared as trimmed text.
    Given the ``key``, a list whose order means nothing (:func:`is_set_like`) is compared as a
    set of members, also where the broker types it STRING or reports no type.
    """
    if left is None or right is None:
        return left is right
    if has_reference(left) or has_reference(right):
        return left.strip() == right.strip()  # a reference is never resolved here
    if is_set_like(key) and kind in _SET_CARRIERS:
        kind = ConfigType.LIST
    try:
        parsed_left, parsed_right = parse_typed(kind, left), parse_typed(kind, right)
    except ValueError:
        return java_trim(left) == java_trim(right)
    if isinstance(parsed_left, tuple) and isinstance(parsed_right, tuple) and is_set_like(key):
        return set(parsed_left) == set(parsed_right)
    if isinstance(parsed_left, float) and isinstance(parsed_right, float):
        return parsed_left == parsed_right or (math.isnan(parsed_left) and math.isnan(parsed_right))
    return parsed_left == parsed_right
