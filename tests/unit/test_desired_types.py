"""KIP-569 type checks: each type's edges, parsed the way the broker's ConfigDef parses them."""

from __future__ import annotations

import math

import pytest

from kafka_config_admin import ConfigType
from kafka_config_admin.desired import expected_type, parse_typed, same_value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true", True),
        ("TRUE", True),
        ("True", True),
        (" tRuE ", True),
        ("false", False),
        ("FALSE", False),
        ("False", False),
        ("\tfalse\n", False),
    ],
)
def test_booleans_in_any_case_and_trimmed(text: str, expected: bool) -> None:
    assert parse_typed(ConfigType.BOOLEAN, text) is expected


@pytest.mark.parametrize("text", ["yes", "1", "0", "on", "t", "", "truee", "true false"])
def test_booleans_refuse_anything_else(text: str) -> None:
    with pytest.raises(ValueError, match="true or false"):
        parse_typed(ConfigType.BOOLEAN, text)


@pytest.mark.parametrize(
    ("kind", "low", "high"),
    [
        (ConfigType.SHORT, -(2**15), 2**15 - 1),
        (ConfigType.INT, -(2**31), 2**31 - 1),
        (ConfigType.LONG, -(2**63), 2**63 - 1),
    ],
)
def test_integer_bounds_are_inclusive(kind: ConfigType, low: int, high: int) -> None:
    assert parse_typed(kind, str(low)) == low
    assert parse_typed(kind, str(high)) == high
    assert parse_typed(kind, f"+{high}") == high
    for outside in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"out of range for {kind.name}"):
            parse_typed(kind, str(outside))


@pytest.mark.parametrize("text", ["1.0", "1e3", "0x10", "1_000", "", "ten", "1 2", "--1", "7d"])
@pytest.mark.parametrize("kind", [ConfigType.SHORT, ConfigType.INT, ConfigType.LONG])
def test_integers_refuse_what_java_does_not_parse(kind: ConfigType, text: str) -> None:
    with pytest.raises(ValueError, match="not an integer"):
        parse_typed(kind, text)


def test_integers_are_trimmed_and_keep_leading_zeros_decimal() -> None:
    assert parse_typed(ConfigType.INT, " 42 ") == 42
    assert parse_typed(ConfigType.LONG, "0777") == 777
    assert parse_typed(ConfigType.INT, "-0") == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.5", 0.5),
        ("1", 1.0),
        ("1.", 1.0),
        (".5", 0.5),
        ("-2.5e3", -2500.0),
        ("1e-3", 0.001),
        ("1.5d", 1.5),
        ("2F", 2.0),
        ("Infinity", math.inf),
        ("-Infinity", -math.inf),
        ("0x1p3", 8.0),
        (" 3.25 ", 3.25),
    ],
)
def test_doubles_as_java_parses_them(text: str, expected: float) -> None:
    assert parse_typed(ConfigType.DOUBLE, text) == expected


def test_double_nan_is_a_number_and_equals_itself() -> None:
    assert math.isnan(float(parse_typed(ConfigType.DOUBLE, "NaN")))  # type: ignore[arg-type]
    assert same_value(ConfigType.DOUBLE, "NaN", "NaN")


@pytest.mark.parametrize("text", ["inf", "nan", "1_0.5", "0.5.1", "", "e3", "1e", "abc", "1,5"])
def test_doubles_refuse_what_java_does_not_parse(text: str) -> None:
    with pytest.raises(ValueError, match="not a number"):
        parse_typed(ConfigType.DOUBLE, text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("delete,compact", ("delete", "compact")),
        ("delete, compact", ("delete", "compact")),
        ("  delete  ,\tcompact  ", ("delete", "compact")),
        ("one", ("one",)),
        ("", ()),
        ("   ", ()),
        ("a b,c", ("a b", "c")),
    ],
)
def test_lists_split_on_commas_with_whitespace(text: str, expected: tuple[str, ...]) -> None:
    assert parse_typed(ConfigType.LIST, text) == expected


@pytest.mark.parametrize("text", ["a,,b", "a,", ",a", "a, ,b", ","])
def test_lists_refuse_empty_members(text: str) -> None:
    with pytest.raises(ValueError, match="empty"):
        parse_typed(ConfigType.LIST, text)


def test_strings_and_passwords_are_trimmed_and_anything_goes() -> None:
    assert parse_typed(ConfigType.STRING, "  a b  ") == "a b"
    assert parse_typed(ConfigType.PASSWORD, " s3cret ") == "s3cret"
    assert parse_typed(ConfigType.STRING, "") == ""
    assert parse_typed(ConfigType.UNKNOWN, " whatever ") == "whatever"


@pytest.mark.parametrize(
    "text", ["org.apache.kafka.Foo", "Foo", "a.b$Inner", " com.x.Y_1 ", "_x.$y"]
)
def test_class_names(text: str) -> None:
    assert parse_typed(ConfigType.CLASS, text) == text.strip()


@pytest.mark.parametrize("text", ["", "1abc", "a..b", "a.b.", "a b", "a-b"])
def test_class_names_refused(text: str) -> None:
    with pytest.raises(ValueError, match="class name"):
        parse_typed(ConfigType.CLASS, text)


@pytest.mark.parametrize(
    ("kind", "left", "right", "equal"),
    [
        (ConfigType.LONG, "604800000", " 604800000", True),
        (ConfigType.LONG, "604800000", "+604800000", True),
        (ConfigType.LONG, "1", "2", False),
        (ConfigType.LIST, "delete,compact", "delete, compact", True),
        (ConfigType.LIST, "delete,compact", "compact,delete", False),
        (ConfigType.BOOLEAN, "TRUE", "true", True),
        (ConfigType.DOUBLE, "0.5", "5e-1", True),
        (ConfigType.STRING, "a", "a ", True),
        (ConfigType.STRING, "a", "A", False),
        (ConfigType.INT, "x", "x", True),  # does not parse: compared as text
        (ConfigType.INT, None, None, True),
        (ConfigType.INT, None, "1", False),
    ],
)
def test_same_value_compares_typed(
    kind: ConfigType, left: str | None, right: str | None, equal: bool
) -> None:
    assert same_value(kind, left, right) is equal


def test_every_type_has_an_expected_text() -> None:
    for kind in ConfigType:
        assert expected_type(kind)
    assert "32-bit" in expected_type(ConfigType.INT)


def test_integers_of_any_length_parse_as_java_reads_them_or_are_out_of_range() -> None:
    assert parse_typed(ConfigType.LONG, "0" * 5000 + "1") == 1  # Java's parseLong reads it
    assert parse_typed(ConfigType.INT, "-0005") == -5
    with pytest.raises(ValueError, match="out of range for LONG"):
        parse_typed(ConfigType.LONG, "9" * 5000)
