"""One rule for a config value as the string Kafka reads, shared by the SDK, desired and faces."""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

import pytest

from kafka_config_admin import AlterConfigOp, InvalidArgumentError, NewTopic, kafka_string
from kafka_config_admin.state import kafka_string_for


class _Level(IntEnum):
    HIGH = 3


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("delete", "delete"),
        ("", ""),
        (True, "true"),
        (False, "false"),
        (604800000, "604800000"),
        (-1, "-1"),
        (_Level.HIGH, "3"),
        (0.5, "0.5"),
        (1e-05, "1e-05"),
        (["delete", "compact"], "delete,compact"),
        (("delete",), "delete"),
        ([], ""),
        ([True, False], "true,false"),  # list members by the same rule: never Python's True
        ([1, 2.5, "x"], "1,2.5,x"),
    ],
)
def test_kafka_string(value: object, expected: str) -> None:
    assert kafka_string(value) == expected


def test_a_member_with_a_comma_is_refused_by_position_never_quoted() -> None:
    with pytest.raises(ValueError, match=r"list member 2 of 2 contains a comma") as caught:
        kafka_string(["ok", "se,cret"])
    assert "se,cret" not in str(caught.value)


@pytest.mark.parametrize("value", [None, {"a": 1}, [["a"]], [None], b"bytes"])
def test_what_kafka_has_no_string_for_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError, match="expected a string, number, boolean or a list"):
        kafka_string(value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), [float("-inf")]])
def test_a_float_that_is_not_finite_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match="not a finite number"):
        kafka_string(value)


@pytest.mark.parametrize(
    "value", [True, [True, False], ["a", "b"], 7, 0.5, ["a,b"], {"a": 1}, [["x"]]]
)
def test_the_sdk_models_and_desired_agree(value: object) -> None:
    """AlterConfigOp, NewTopic and desired's reader give the same string, or all refuse."""
    try:
        expected: str | None = kafka_string(value)
    except (TypeError, ValueError):
        expected = None
    converters: list[Callable[[], str | None]] = [
        lambda: AlterConfigOp("cleanup.policy", value).value,
        lambda: NewTopic("t", configs={"cleanup.policy": value}).configs["cleanup.policy"],
        lambda: kafka_string_for("cleanup.policy", value),
    ]
    results = []
    for convert in converters:
        try:
            results.append(convert())
        except (InvalidArgumentError, ValueError):
            results.append(None)
    assert results == [expected] * 3


def test_the_models_refusal_names_the_comma_and_hides_the_value() -> None:
    with pytest.raises(InvalidArgumentError, match="contains a comma") as caught:
        AlterConfigOp("sasl.jaas.config", ["a", "hunter,2"])
    assert "hunter" not in str(caught.value)
    with pytest.raises(InvalidArgumentError, match="contains a comma"):
        NewTopic("t", configs={"cleanup.policy": ["a,b"]})


def test_desired_converts_units_in_list_members_then_uses_the_one_rule() -> None:
    assert kafka_string_for("retention.ms", ["1d", 5]) == "86400000,5"
    assert kafka_string_for("x", [True]) == "true"
    with pytest.raises(ValueError, match="contains a comma"):
        kafka_string_for("x", ["a,b"])


def test_desired_kafka_string_is_a_deprecated_alias() -> None:
    from kafka_config_admin import desired

    with pytest.warns(
        DeprecationWarning,
        match="desired.kafka_string moved to kafka_config_admin.state.kafka_string_for",
    ):
        assert desired.kafka_string("retention.ms", "1d") == "86400000"
