"""Config values parsed by their KIP-569 type, the way the broker's ConfigDef parses them.

Kafka's ``ConfigDef.parseType`` trims the string, then: BOOLEAN is ``true`` or ``false`` in any
case; INT, SHORT and LONG are Java's ``parseInt``/``parseShort``/``parseLong`` (an optional sign
and decimal digits, within 32, 16 or 64 bits); DOUBLE is Java's ``Double.parseDouble`` (which
also takes ``NaN``, ``Infinity``, an ``f``/``d`` suffix and hex floats); LIST splits on commas
with the whitespace around them, an empty string being the empty list; CLASS is a class name
(whether the class exists only the broker can tell); STRING and PASSWORD are the trimmed text.

Two values are equal when they parse to the same typed value: ``"604800000"`` and
``" 604800000 "`` for a LONG, ``"delete,compact"`` and ``"delete, compact"`` for a LIST.
"""

from __future__ import annotations

import math
import re

from .. import ConfigType

__all__ = ["TypedValue", "expected_type", "parse_typed", "same_value"]

#: What a value parses to: bool, int, float, a tuple of list members, or the trimmed string.
TypedValue = bool | int | float | tuple[str, ...] | str

_INTEGER = re.compile(r"[+-]?[0-9]+")
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
_LIST_SEPARATOR = re.compile(r"\s*,\s*")
_JAVA_IDENTIFIER = r"[A-Za-z_$][A-Za-z0-9_$]*"
_CLASS_NAME = re.compile(rf"{_JAVA_IDENTIFIER}(?:\.{_JAVA_IDENTIFIER})*")

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


def parse_typed(kind: ConfigType, text: str) -> TypedValue:
    """Parse ``text`` as the broker parses a value of type ``kind``; ValueError if it cannot.

    UNKNOWN (a broker too old to report types) gives the trimmed string: only the broker can
    check such a value.
    """
    trimmed = text.strip()
    if kind is ConfigType.BOOLEAN:
        lowered = trimmed.lower()
        if lowered not in ("true", "false"):
            raise ValueError("expected true or false (in any case)")
        return lowered == "true"
    if kind in _BOUNDS:
        return _parse_integer(kind, trimmed)
    if kind is ConfigType.DOUBLE:
        return _parse_double(trimmed)
    if kind is ConfigType.LIST:
        return _parse_list(trimmed)
    if kind is ConfigType.CLASS and not _CLASS_NAME.fullmatch(trimmed):
        raise ValueError("not a Java class name")
    return trimmed


def _parse_integer(kind: ConfigType, trimmed: str) -> int:
    if not _INTEGER.fullmatch(trimmed):
        raise ValueError("not an integer")
    number = int(trimmed)
    low, high = _BOUNDS[kind]
    if not low <= number <= high:
        raise ValueError(f"out of range for {kind.name} ({low} to {high})")
    return number


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
    members = tuple(_LIST_SEPARATOR.split(trimmed))
    if "" in members:
        # ConfigDef keeps empty members, but Kafka's list validators refuse them (KIP-1161):
        # "a,,b" or a trailing comma is a typo, not a value.
        raise ValueError("a list member is empty (two commas in a row, or one at an end)")
    return members


def same_value(kind: ConfigType, left: str | None, right: str | None) -> bool:
    """Whether two values are the same once parsed by ``kind`` (None only equals None).

    Values that do not parse are compared as trimmed text.
    """
    if left is None or right is None:
        return left is right
    try:
        parsed_left, parsed_right = parse_typed(kind, left), parse_typed(kind, right)
    except ValueError:
        return left.strip() == right.strip()
    if isinstance(parsed_left, float) and isinstance(parsed_right, float):
        return parsed_left == parsed_right or (math.isnan(parsed_left) and math.isnan(parsed_right))
    return parsed_left == parsed_right
