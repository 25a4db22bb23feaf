"""KIP-569 type checks: each type's edges, parsed the way the broker's ConfigDef parses them."""

from __future__ import annotations

import math

import pytest

from kafka_config_admin import ConfigType
from kafka_config_admin.state import (
    expected_type,
    java_equals_ignore_case,
    java_trim,
    parse_typed,
    same_value,
)


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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0:1,,1:2", ("0:1", "", "1:2")),
        ("GSSAPI,,", ("GSSAPI", "", "")),
        (",a", ("", "a")),
        (",", ("", "")),
        ("a, ,b", ("a", "", "b")),
    ],
)
def test_lists_keep_empty_members_as_java_splits_them(text: str, expected: tuple[str, ...]) -> None:
    # ConfigDef splits with limit -1: whether an empty member is allowed is the validator's call
    assert parse_typed(ConfigType.LIST, text) == expected


def test_list_separators_are_java_whitespace_only() -> None:
    # Java's \s is ASCII: a no-break space stays in the member
    assert parse_typed(ConfigType.LIST, "a\u00a0,\u2003b") == ("a\u00a0", "\u2003b")


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        (ConfigType.INT, "\u0661\u0660\u0664\u0668\u0665\u0667\u0666", 1048576),
        (ConfigType.LONG, "\u0967\u0968", 12),
        (ConfigType.INT, "\uff19", 9),
        (ConfigType.INT, "+7", 7),
        (ConfigType.LONG, "-\u0660\u0660\u0669", -9),
        (ConfigType.INT, "0" * 5000 + "42", 42),
        (ConfigType.INT, "1\u0660", 10),
        (ConfigType.LONG, "\u0660" * 30 + "5", 5),
    ],
)
def test_integers_are_read_as_java_reads_them(kind: ConfigType, text: str, expected: int) -> None:
    assert parse_typed(kind, text) == expected


@pytest.mark.parametrize(
    "text", ["1_000", "\U0001d7ce", "1e3", "0x10", "+-1", "++1", "\u00a042", "\u00b2"]
)
def test_integers_java_refuses_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not an integer"):
        parse_typed(ConfigType.INT, text)


@pytest.mark.parametrize(
    "text", ["0", "-7", "+32767", "32768", "-2147483648", "2147483648", "0009223372036854775807"]
)
@pytest.mark.parametrize("kind", [ConfigType.SHORT, ConfigType.INT, ConfigType.LONG])
def test_ascii_and_other_decimal_digits_read_alike(kind: ConfigType, text: str) -> None:
    # ASCII digits take a shorter path than the other scripts' digits: the same answers
    arabic_indic = text.translate({ord(digit): 0x0660 + int(digit) for digit in "0123456789"})

    def read(written: str) -> int | str:
        try:
            parsed = parse_typed(kind, written)
        except ValueError as error:
            return str(error)
        assert isinstance(parsed, int)
        return parsed

    assert read(text) == read(arabic_indic)


def test_a_number_of_thousands_of_digits_is_out_of_range_not_a_python_error() -> None:
    with pytest.raises(ValueError, match="out of range") as raised:
        parse_typed(ConfigType.LONG, "9" * 5000)
    assert "out of range for LONG" in str(raised.value)
    assert "digits" not in str(raised.value)


@pytest.mark.parametrize(
    ("text", "trimmed"),
    [
        (" \t x \n", "x"),
        ("\x00\x1fx\x20", "x"),
        ("\u00a0x\u00a0", "\u00a0x\u00a0"),
        ("\u3000x", "\u3000x"),
        ("", ""),
    ],
)
def test_java_trim_strips_only_chars_up_to_space(text: str, trimmed: str) -> None:
    assert java_trim(text) == trimmed
    assert parse_typed(ConfigType.STRING, text) == trimmed


def test_a_non_ascii_space_makes_a_number_no_number() -> None:
    with pytest.raises(ValueError, match="not an integer"):
        parse_typed(ConfigType.INT, "\u00a05")
    with pytest.raises(ValueError, match="not a number"):
        parse_typed(ConfigType.DOUBLE, "0.5\u2003")


@pytest.mark.parametrize("text", ["TRUE", "fAlSe", "fal\u017fe", " true "])
def test_booleans_compare_as_javas_equals_ignore_case(text: str) -> None:
    assert isinstance(parse_typed(ConfigType.BOOLEAN, text), bool)
    assert java_equals_ignore_case("fal\u017fe", "false")


def test_strings_and_passwords_are_trimmed_and_anything_goes() -> None:
    assert parse_typed(ConfigType.STRING, "  a b  ") == "a b"
    assert parse_typed(ConfigType.PASSWORD, " s3cret ") == "s3cret"
    assert parse_typed(ConfigType.STRING, "") == ""
    assert parse_typed(ConfigType.UNKNOWN, " whatever ") == "whatever"


@pytest.mark.parametrize(
    "text", ["org.apache.kafka.Foo", "Foo", "a.b$Inner", " com.x.Y_1 ", "_x.$y", "a b", "1abc"]
)
def test_class_names_are_the_brokers_to_judge(text: str) -> None:
    # Whether a class of that name exists only the broker's class path can tell.
    assert parse_typed(ConfigType.CLASS, text) == text.strip()


@pytest.mark.parametrize("text", ["", "  ", "a..b", ".a", "a.", "a/b"])
def test_names_no_class_can_have_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="no class can have this name"):
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
