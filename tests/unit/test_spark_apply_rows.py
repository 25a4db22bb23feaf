"""How the change pipeline's verdict on a resource becomes the outcome of each op row (no I/O;
the whole path runs against a real broker in tests/spark/test_apply.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspark", reason="the spark extra is not installed")

from kafka_config_admin import (
    ConfigResource,
    ConfigType,
    ResourceType,
    UnknownTopicOrPartitionError,
)
from kafka_config_admin.changeset import OutcomeStatus
from kafka_config_admin.spark._apply_rows import OP_COLUMNS, _Settled, _settled_rows, op_columns
from kafka_config_admin.state import KEY_COLUMN, Problem

TOPIC = ConfigResource(ResourceType.TOPIC, "orders")
ROWS = [
    ("main", "topic", "orders", "retention.ms", "SET", "forever"),
    ("main", "topic", "orders", "segment.ms", "SET", "3600000"),
]


def outcomes(settled: _Settled) -> list[tuple[str, str | None, str | None]]:
    return [(o.status.value, o.error, o.error_message) for o in _settled_rows(TOPIC, ROWS, settled)]


def test_an_unconfirmed_resource_makes_every_row_unconfirmed_with_the_note() -> None:
    note = "applied, but a describe did not show the new values in time"
    assert outcomes(_Settled(OutcomeStatus.UNCONFIRMED, note=note)) == [
        ("unconfirmed", None, note),
        ("unconfirmed", None, note),
    ]


def test_a_refused_key_fails_its_row_and_skips_the_rest_of_its_resource() -> None:
    problem = Problem(
        resource=TOPIC,
        key="retention.ms",
        value="forever",
        expected_type=ConfigType.LONG,
        message="not a number: expected a LONG",
    )
    (refused, skipped) = outcomes(_Settled(OutcomeStatus.FAILED, problems=(problem,)))
    assert refused[:2] == ("failed", "PlanRejectedError")
    assert refused[2] is not None and "retention.ms = 'forever': not a number" in refused[2]
    assert skipped[:2] == ("skipped", None)
    assert skipped[2] is not None and "not sent: another op of" in skipped[2]


def test_a_resource_that_could_not_be_described_fails_every_row_with_its_error() -> None:
    error = UnknownTopicOrPartitionError("This server does not host this topic-partition.")
    problem = Problem(
        resource=TOPIC,
        key=None,
        value=None,
        expected_type=None,
        message=f"could not be described: {error}",
    )
    settled = _Settled(OutcomeStatus.FAILED, error, problems=(problem,))
    assert [row[:2] for row in outcomes(settled)] == [
        ("failed", "UnknownTopicOrPartitionError")
    ] * 2


def test_ops_name_their_config_key_as_every_row_does() -> None:
    assert OP_COLUMNS[3] == KEY_COLUMN == "key"
    assert op_columns([*OP_COLUMNS, "extra"]) == OP_COLUMNS


def test_ops_with_the_old_name_column_are_read_with_a_warning() -> None:
    old = ["cluster", "resource_type", "resource_name", "name", "op", "value"]
    with pytest.warns(DeprecationWarning, match="config key column is now 'key'"):
        assert op_columns(old) == tuple(old)


def test_a_frame_that_is_not_ops_is_left_to_the_missing_column_error() -> None:
    assert op_columns(["cluster", "op"]) == OP_COLUMNS
    assert op_columns(["name"]) == OP_COLUMNS  # no warning: not an old ops frame either
