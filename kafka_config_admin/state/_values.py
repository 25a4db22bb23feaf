"""Values as a desired-state file writes them, turned into the strings Kafka takes.

A file may give a config value as a YAML scalar (string, integer, float, boolean), as a list
of scalars (joined with commas, as Kafka's LIST type expects) or as null (no override wanted).
Keys ending in ``.ms`` also take durations (``7d``, ``12h``, ``1.5s``) and keys ending in
``.bytes`` sizes (``1GiB``, ``512KiB``, ``10MB``); both are converted exactly, and a value that
is not a whole number of milliseconds or bytes is an error, never rounded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

from .. import kafka_string
from ..toolkit import quota_value_text, shorten

__all__ = [
    "DURATION_UNITS",
    "SIZE_UNITS",
    "human_units",
    "kafka_string_for",
    "parse_duration_ms",
    "parse_size_bytes",
]

#: Milliseconds in each duration unit a ``.ms`` key accepts (case-insensitive).
DURATION_UNITS: Mapping[str, int] = {
    "ms": 1,
    "s": 1000,
    "m": 60_000,
    "min": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
    "w": 604_800_000,
}

#: Bytes in each size unit a ``.bytes`` key accepts (case-insensitive): IEC units are powers
#: of 1024, SI units powers of 1000.
SIZE_UNITS: Mapping[str, int] = {
    "b": 1,
    "kib": 1024,
    "mib": 1024**2,
    "gib": 1024**3,
    "tib": 1024**4,
    "pib": 1024**5,
    "kb": 1000,
    "mb": 1000**2,
    "gb": 1000**3,
    "tb": 1000**4,
    "pb": 1000**5,
}

#: The most characters the number of a value with a unit may have: a LONG has 19 digits, and
#: a longer number (its fraction aside) is no Kafka number whatever the unit.
_MAX_UNIT_DIGITS = 40

_HUMAN = re.compile(r"\s*(?P<number>[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>[A-Za-z]+)\s*")

Scalar = str | int | float | bool


def parse_duration_ms(text: str) -> int:
    """``7d`` -> 604800000: a duration with a unit, in whole milliseconds.

    Raises ValueError for an unknown unit or a value that is not a whole number of ms.
    """
    return _convert(text, DURATION_UNITS, "milliseconds", "ms, s, m (or min), h, d, w")


def parse_size_bytes(text: str) -> int:
    """``1GiB`` -> 1073741824: a size with a unit, in whole bytes.

    Raises ValueError for an unknown unit or a value that is not a whole number of bytes.
    """
    return _convert(text, SIZE_UNITS, "bytes", "B, KiB, MiB, GiB, TiB, PiB, kB, MB, GB, TB, PB")


def _convert(text: str, units: Mapping[str, int], what: str, known: str) -> int:
    match = _HUMAN.fullmatch(text)
    shown = shorten(text)
    if match is None:
        raise ValueError(f"{shown} is not a number followed by a unit ({known})")
    if len(match["number"]) > _MAX_UNIT_DIGITS:
        raise ValueError(f"{shown} is far beyond any number Kafka takes")
    factor = units.get(match["unit"].lower())
    if factor is None:
        raise ValueError(
            f"{shown} has an unknown unit {shorten(match['unit'])}: use one of {known}"
        )
    amount = Fraction(Decimal(match["number"])) * factor
    if amount.denominator != 1:
        raise ValueError(f"{shown} is not a whole number of {what} ({float(amount):g})")
    return amount.numerator


def _with_units(key: str, value: str) -> str:
    """The value with a human unit converted, for keys ending in ``.ms`` or ``.bytes`` (and
    sizes for the ``*_byte_rate`` client quotas, bytes per second)."""
    stripped = value.strip()
    if not stripped or not _HUMAN.fullmatch(stripped):
        return value
    if key.endswith(".ms"):
        return str(parse_duration_ms(stripped))
    if key.endswith((".bytes", "_byte_rate")):
        return str(parse_size_bytes(stripped))
    return value


def kafka_string_for(key: str, value: object) -> str | None:
    """The string Kafka takes for ``key``'s value as a user wrote it (None stays None).

    Human units on ``.ms``/``.bytes`` keys (and the ``*_byte_rate`` quotas) become their exact
    number, a list's members each; then the SDK's one rule, :func:`kafka_config_admin.kafka_string`:
    booleans ``true``/``false``, numbers their decimal text, lists their members joined with
    commas (a member may not contain a comma). Raises ValueError naming what is wrong.
    """
    if value is None:
        return None
    try:
        if isinstance(value, list | tuple):
            return kafka_string([_units_of(key, member) for member in value])
        return kafka_string(_units_of(key, value))
    except TypeError as error:
        raise ValueError(str(error)) from None


def _units_of(key: str, value: object) -> object:
    return _with_units(key, value) if isinstance(value, str) else value


#: The most digits a value :func:`human_units` reads may have (a LONG has at most 19).
_MAX_DIGITS = 19

#: The units :func:`human_units` writes, largest first: (factor, singular, plural).
_DURATION_WORDS: tuple[tuple[int, str, str], ...] = (
    (604_800_000, "week", "weeks"),
    (86_400_000, "day", "days"),
    (3_600_000, "hour", "hours"),
    (60_000, "minute", "minutes"),
    (1000, "second", "seconds"),
    (1, "ms", "ms"),
)
_SIZE_WORDS: tuple[tuple[int, str, str], ...] = (
    *(
        (1024**power, name, name)
        for power, name in ((5, "PiB"), (4, "TiB"), (3, "GiB"), (2, "MiB"))
    ),
    (1024, "KiB", "KiB"),
    (1, "byte", "bytes"),
)


#: Kafka's largest LONG, which its ``.ms`` and ``.bytes`` keys take as "no end" (``flush.ms``,
#: ``max.compaction.lag.ms``) and a quota's rate as no limit (``9.223372036854776E18``).
_LONG_MAX = 2**63 - 1
#: Keys that read -1 as no limit at all (Kafka's docs: "-1 ... no time limit / no size limit").
_UNLIMITED_AT_MINUS_ONE = ("retention.ms", "retention.bytes")
#: Tiered storage's local retention at -2: the same as the topic's whole retention.
_LOCAL_RETENTION = ("local.retention.ms", "local.retention.bytes")


def human_units(key: str, value: str | None) -> str | None:
    """A ``.ms`` or ``.bytes`` key's value as people read it (``604800000`` -> ``1 week``,
    ``1073741824`` -> ``1 GiB``, Kafka's largest LONG -> ``never`` for a duration and
    ``unlimited`` for a size or a quota's rate, ``-1`` -> ``unlimited`` for a retention), or
    None when there is nothing to add (another key, a value that is not a whole number, or
    one already in its plainest unit). The CLI and the web editor both show these words.

    The largest unit that divides the value exactly is used; when none above the base unit
    does, the nearest value in the largest unit below it, marked with ``~`` (``~1.5 days``).
    Other negative values are left alone, and so are numbers too long for any Kafka number (a
    value of thousands of digits says nothing in days).
    """
    text = None if value is None else value.strip()
    if text is None:
        return None
    if key.endswith(".ms"):
        units, endless = _DURATION_WORDS, "never"
    elif key.endswith((".bytes", "_byte_rate")):
        units, endless = _SIZE_WORDS, "unlimited"
    else:
        return None
    if text == "-1" and key.endswith(_UNLIMITED_AT_MINUS_ONE):
        return "unlimited"
    if text == "-2" and key.endswith(_LOCAL_RETENTION):
        return "as " + key.removeprefix("log.").replace("local.", "", 1)
    number = _whole_number(text)
    if number is None:
        return None
    if number >= _LONG_MAX:
        return endless
    for factor, singular, plural in units:
        if factor == 1:
            return None
        if number >= factor:
            whole, rest = divmod(number, factor)
            if rest == 0:
                return f"{whole} {singular if whole == 1 else plural}"
            return f"~{number / factor:.3g} {plural}"
    return None


def _whole_number(text: str) -> int | None:
    """A whole number written as digits, or as a quota's double (``1048576.0``,
    ``9.223372036854776E18``); None for anything else."""
    if text.isdecimal():
        return int(text) if len(text) <= _MAX_DIGITS else None
    try:
        number = float(text)
    except ValueError:
        return None
    if not 0 <= number < 2**64:
        return None
    whole = quota_value_text(number)  # the one format of a quota: no fraction when whole
    return int(whole) if whole is not None and whole.isdecimal() else None
