"""The times a user types for the journal's ``since`` and ``until`` (the CLI's options, the
web editor's history filters): one grammar, in ``journal.parse_time``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kafka_config_admin import InvalidArgumentError
from kafka_config_admin.journal import parse_time


def test_an_iso_time_without_a_zone_is_utc() -> None:
    assert parse_time("2026-11-27T06:00") == datetime(2026, 11, 27, 6, tzinfo=UTC)
    assert parse_time(" 2026-11-27T06:00:00+01:00 ") == datetime(2026, 11, 27, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "ago"),
    [("30m", timedelta(minutes=30)), ("2h", timedelta(hours=2)), ("1w", timedelta(weeks=1))],
)
def test_a_duration_is_that_long_ago(text: str, ago: timedelta) -> None:
    before = datetime.now(UTC)
    parsed = parse_time(text)
    assert before - ago - timedelta(seconds=5) <= parsed <= datetime.now(UTC) - ago


def test_anything_else_is_refused_naming_the_text() -> None:
    with pytest.raises(InvalidArgumentError, match="'last tuesday': not a time"):
        parse_time("last tuesday")
