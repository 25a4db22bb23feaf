"""``history`` over a journal written here (no broker): each filter the command line takes, the
table, JSON and YAML, and a time that is not one refused in one line."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import yaml

from kafka_config_admin.cli import main
from kafka_config_admin.journal import Journal

from .journal_helpers import ENTRY

ALICE = replace(ENTRY, cluster_id="id-prod")
BOB = replace(
    ALICE,
    change_set="cs2",
    user="bob",
    face="web",
    cluster="staging",
    cluster_id="id-staging",
    resource_type="quota",
    resource_name="user=alice",
    entity={"user": "alice"},
    key="producer_byte_rate",
    old_value=None,
    new_value="1024",
)
DEFAULT = replace(
    ALICE,
    change_set="cs3",
    face="spark",
    application="app-1",
    resource_type="broker",
    resource_name="",
    key="log.retention.ms",
)


#: How long before each test its changes were recorded: counted when the test runs, since a
#: suite can run this module many minutes after reading it.
AGO = {"cs1": timedelta(hours=3), "cs2": timedelta(minutes=30), "cs3": timedelta(minutes=10)}
#: A ``--since`` value: 15 minutes before the test, in ISO 8601.
ISO_15_MINUTES_AGO = "(15 minutes ago, in ISO 8601)"


@pytest.fixture(autouse=True)
def journal() -> Journal:
    journal = Journal.at()  # the test's own (tests/conftest.py)
    now = datetime.now(UTC)
    journal.record([replace(e, time=now - AGO[e.change_set]) for e in (ALICE, BOB, DEFAULT)])
    return journal


def history(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(["history", *args])
    captured = capsys.readouterr()
    code = exited.value.code
    return (code if isinstance(code, int) else 1), captured.out, captured.err


def keys(capsys: pytest.CaptureFixture[str], *filters: str) -> list[str]:
    code, out, err = history(capsys, "-o", "json", *filters)
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return [change["key"] for change in document["changes"]]


@pytest.mark.parametrize(
    ("filters", "found"),
    [
        ((), ["retention.ms", "producer_byte_rate", "log.retention.ms"]),
        (("--cluster", "prod"), ["retention.ms", "log.retention.ms"]),
        (("--cluster", "id-staging"), ["producer_byte_rate"]),
        (("--resource", "topic:orders"), ["retention.ms"]),
        (("--resource", "orders"), ["retention.ms"]),
        (("--resource", "quota:user=alice"), ["producer_byte_rate"]),
        (("--resource", "broker:"), ["log.retention.ms"]),
        (("--key", "producer_byte_rate"), ["producer_byte_rate"]),
        (("--user", "alice"), ["retention.ms", "log.retention.ms"]),
        (("--face", "web"), ["producer_byte_rate"]),
        (("--face", "spark"), ["log.retention.ms"]),
        (("--change-set", "cs3"), ["log.retention.ms"]),
        (("--since", "1h"), ["producer_byte_rate", "log.retention.ms"]),
        (("--until", "1h"), ["retention.ms"]),
        (("--since", "1h", "--until", "20m"), ["producer_byte_rate"]),
        (("--since", ISO_15_MINUTES_AGO), ["log.retention.ms"]),
        (("--limit", "2"), ["producer_byte_rate", "log.retention.ms"]),
        (("--user", "alice", "--face", "web"), []),
    ],
)
def test_each_filter_narrows_the_rows(
    capsys: pytest.CaptureFixture[str], filters: tuple[str, ...], found: list[str]
) -> None:
    iso = (datetime.now(UTC) - timedelta(minutes=15)).isoformat()
    assert keys(capsys, *(iso if text == ISO_15_MINUTES_AGO else text for text in filters)) == found


def test_the_table_json_and_yaml_say_the_same_rows(
    capsys: pytest.CaptureFixture[str], journal: Journal
) -> None:
    _, as_json, _ = history(capsys, "-o", "json")
    _, as_yaml, _ = history(capsys, "-o", "yaml")
    assert json.loads(as_json) == yaml.safe_load(as_yaml)
    document = json.loads(as_json)
    assert document["version"] == 1 and document["journal"] == str(journal.path)
    assert document["changes"][1]["resource"] == "quota:user=alice"
    assert document["changes"][2]["application"] == "app-1"
    code, table, _ = history(capsys, "--face", "spark")
    assert code == 0
    words = " ".join(table.split())
    assert "log.retention.ms" in words and "alice (spark) app-1" in words
    assert "(not set; 604800000)" in words


@pytest.mark.parametrize("option", ["--since", "--until"])
def test_a_time_that_is_not_one_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], option: str
) -> None:
    code, out, err = history(capsys, option, "last tuesday")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"error: {option} 'last tuesday': not a time (2026-11-27T06:00:00Z, 2026-11-27) nor a "
        "duration ago (30m, 2h, 7d, 1w)"
    ]
