"""Values of a desired-state file: scalars, lists and human units, converted exactly."""

from __future__ import annotations

import pytest

from kafka_config_admin.state import (
    human_units,
    kafka_string_for,
    parse_duration_ms,
    parse_size_bytes,
)


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("7d", 604_800_000),
        ("12h", 43_200_000),
        ("30m", 1_800_000),
        ("30min", 1_800_000),
        ("1s", 1000),
        ("250ms", 250),
        ("2w", 1_209_600_000),
        ("1.5s", 1500),
        ("0.5h", 1_800_000),
        ("0d", 0),
        (" 7 d ", 604_800_000),
        ("7D", 604_800_000),
    ],
)
def test_durations_exact(text: str, ms: int) -> None:
    assert parse_duration_ms(text) == ms


@pytest.mark.parametrize("text", ["1.5ms", "0.0001s", "1.0001s", "0.00000001h"])
def test_durations_inexact_are_errors(text: str) -> None:
    with pytest.raises(ValueError, match="not a whole number of milliseconds"):
        parse_duration_ms(text)


@pytest.mark.parametrize("text", ["7y", "7 days", "d", "-1d", "1e3s", "7d12h"])
def test_durations_malformed_are_errors(text: str) -> None:
    with pytest.raises(ValueError, match=r"unit|not a number"):
        parse_duration_ms(text)


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("1GiB", 1024**3),
        ("512KiB", 512 * 1024),
        ("1MiB", 1024**2),
        ("2TiB", 2 * 1024**4),
        ("10MB", 10_000_000),
        ("1kB", 1000),
        ("1KB", 1000),
        ("100B", 100),
        ("1.5GiB", 1_610_612_736),
        ("0.5KiB", 512),
        ("1gib", 1024**3),
    ],
)
def test_sizes_exact(text: str, size: int) -> None:
    assert parse_size_bytes(text) == size


@pytest.mark.parametrize("text", ["1.5B", "0.1KiB", "1.0000000001GB"])
def test_sizes_inexact_are_errors(text: str) -> None:
    with pytest.raises(ValueError, match="not a whole number of bytes"):
        parse_size_bytes(text)


def test_size_unknown_unit_names_the_units() -> None:
    with pytest.raises(ValueError, match=r"unknown unit 'XB'.*GiB"):
        parse_size_bytes("1XB")


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("retention.ms", "7d", "604800000"),
        ("retention.ms", 604800000, "604800000"),
        ("retention.ms", "604800000", "604800000"),
        ("retention.ms", -1, "-1"),
        ("retention.ms", "-1", "-1"),
        ("segment.bytes", "1GiB", "1073741824"),
        ("max.message.bytes", "512KiB", "524288"),
        ("cleanup.policy", ["delete", "compact"], "delete,compact"),
        ("cleanup.policy", "delete,compact", "delete,compact"),
        ("cleanup.policy", [], ""),
        ("unclean.leader.election.enable", True, "true"),
        ("unclean.leader.election.enable", False, "false"),
        ("min.cleanable.dirty.ratio", 0.5, "0.5"),
        ("compression.type", "7d", "7d"),  # not a .ms key: no units
        ("retention.ms", None, None),
    ],
)
def test_kafka_string(key: str, value: object, expected: str | None) -> None:
    assert kafka_string_for(key, value) == expected


def test_kafka_string_refuses_nested_values_and_commas_in_members() -> None:
    with pytest.raises(ValueError, match="expected a string, number, boolean or a list"):
        kafka_string_for("x", {"a": 1})
    with pytest.raises(ValueError, match="got list"):
        kafka_string_for("x", [["a"]])
    with pytest.raises(ValueError, match="contains a comma"):
        kafka_string_for("x", ["a,b"])


def test_kafka_string_inexact_unit_is_an_error() -> None:
    with pytest.raises(ValueError, match="not a whole number"):
        kafka_string_for("retention.ms", "1.5ms")


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("retention.ms", "604800000", "1 week"),
        ("retention.ms", "86400000", "1 day"),
        ("retention.ms", "172800000", "2 days"),
        ("retention.ms", "129600000", "~1.5 days"),
        ("segment.ms", "90000", "~1.5 minutes"),
        ("segment.bytes", "1073741824", "1 GiB"),
        ("max.message.bytes", "1048588", "~1 MiB"),
        ("producer_byte_rate", "2097152", "2 MiB"),
        ("retention.ms", "-1", "unlimited"),
        ("retention.bytes", "-1", "unlimited"),
        ("log.retention.ms", "-1", "unlimited"),
        ("local.retention.ms", "-2", "as retention.ms"),
        ("log.local.retention.bytes", "-2", "as retention.bytes"),
        ("segment.jitter.ms", "-1", None),  # -1 means no limit only for a retention
        ("flush.ms", "9223372036854775807", "never"),
        ("max.compaction.lag.ms", "9223372036854775807", "never"),
        ("log.flush.interval.ms", "9223372036854775806", "~1.53e+10 weeks"),
        ("retention.bytes", "9223372036854775807", "unlimited"),
        ("producer_byte_rate", "9.223372036854776E18", "unlimited"),  # a quota's double
        ("consumer_byte_rate", "1048576.0", "1 MiB"),
        ("consumer_byte_rate", "1048576.5", None),
        ("retention.ms", "nan", None),
        ("retention.ms", "1e400", None),
        ("retention.ms", "500", None),
        ("segment.bytes", "1000", None),
        ("min.insync.replicas", "2", None),
        ("retention.ms", None, None),
        ("retention.ms", "soon", None),
        ("retention.ms", "9" * 5000, None),  # no Python digit-limit error
        ("retention.ms", "\u00b2", None),  # a superscript is no decimal digit
        ("retention.ms", "\u0668\u0666\u0664\u0660\u0660\u0660\u0660\u0660", "1 day"),
    ],
)
def test_human_units(key: str, value: str | None, shown: str | None) -> None:
    assert human_units(key, value) == shown


def test_human_units_read_back_exactly() -> None:
    assert parse_duration_ms(str(human_units("x.ms", "172800000")).replace(" days", "d")) == (
        172800000
    )


def test_a_number_of_thousands_of_digits_with_a_unit_is_refused_readably() -> None:
    with pytest.raises(ValueError, match="far beyond any number Kafka takes") as raised:
        kafka_string_for("segment.bytes", "9" * 5000 + "MB")
    assert "(5002 characters)" in str(raised.value) and len(str(raised.value)) < 200
