"""One row shape per concept: the CLI's JSON, the Spark schemas and the feed name alike."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from kafka_config_admin import (
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigSynonym,
    ConfigType,
    ResourceType,
    UnknownTopicOrPartitionError,
)
from kafka_config_admin.cli._diff import load_snapshot
from kafka_config_admin.cli._output import DescribeView, describe_document
from kafka_config_admin.cli._resources import UsageError
from kafka_config_admin.feed import ChangeKind, StateChange
from kafka_config_admin.state import (
    ENTRY_COLUMNS,
    ERROR_COLUMNS,
    KEY_COLUMN,
    RESOURCE_COLUMNS,
    SYNONYM_COLUMNS,
    entry_row,
    error_row,
    error_values,
    resource_row,
)

TOPIC = ConfigResource(ResourceType.TOPIC, "orders")
RETENTION = ConfigEntry(
    name="retention.ms",
    value="3600000",
    source=ConfigSource.TOPIC_CONFIG,
    type=ConfigType.LONG,
    documentation="How long",
    synonyms=(
        ConfigSynonym(name="retention.ms", value="3600000", source=ConfigSource.TOPIC_CONFIG),
    ),
)


def test_the_row_functions_give_exactly_the_columns() -> None:
    assert tuple(resource_row(TOPIC)) == RESOURCE_COLUMNS
    assert resource_row(TOPIC) == {"resource_type": "TOPIC", "resource_name": "orders"}
    row = entry_row(RETENTION)
    assert tuple(row) == ENTRY_COLUMNS
    assert row["config_type"] == "LONG" and row["source"] == "TOPIC_CONFIG"
    assert tuple(row["synonyms"][0]) == SYNONYM_COLUMNS
    short = entry_row(RETENTION, documentation=False, synonyms=False)
    assert tuple(short) == ENTRY_COLUMNS[:-2]


def test_a_sensitive_entry_row_hides_every_value() -> None:
    secret = RETENTION.model_copy(update={"name": "ssl.key.password", "is_sensitive": True})
    row = entry_row(secret)
    assert row["value"] is None and row["is_sensitive"] is True
    assert row["synonyms"][0]["value"] is None


def test_an_error_row_is_its_class_and_one_line() -> None:
    error = ValueError("no such\n  topic")
    assert tuple(error_row(error)) == ERROR_COLUMNS
    assert error_row(error) == {"error": "ValueError", "error_message": "no such topic"}
    assert error_values(error) == ("ValueError", "no such topic")
    assert error_values(KeyError()) == ("KeyError", "KeyError")  # never an empty message
    assert error_row(None) == {"error": None, "error_message": None}


def test_the_describe_document_uses_the_rows() -> None:
    view = DescribeView(docs=True, synonyms=True)
    missing = ConfigResource(ResourceType.TOPIC, "gone")
    document = describe_document(
        "c", {TOPIC: Config(entries=(RETENTION,)), missing: UnknownTopicOrPartitionError("x")}, view
    )
    assert document["version"] == 2
    found, failed = document["resources"]
    assert found == {
        **resource_row(TOPIC),
        **error_row(None),
        "configs": {"retention.ms": entry_row(RETENTION)},
    }
    assert failed == {
        **resource_row(missing),
        **error_row(UnknownTopicOrPartitionError("x")),
        "configs": {},
    }


def test_the_spark_schemas_name_their_columns_as_the_rows_do() -> None:
    pytest.importorskip("pyspark", reason="the spark extra is not installed")
    from kafka_config_admin.spark import (
        CHANGES_SCHEMA,
        DIFF_SCHEMA,
        FINDINGS_SCHEMA,
        OPS_SCHEMA,
        OUTCOME_SCHEMA,
        SNAPSHOT_SCHEMA,
    )
    from kafka_config_admin.spark._schema import POLL_COST_COLUMNS
    from kafka_config_admin.spark._snapshot import _entry_columns

    snapshot = SNAPSHOT_SCHEMA.names
    assert snapshot == [
        "cluster",
        *RESOURCE_COLUMNS,
        *ENTRY_COLUMNS,
        "snapshot_time",
        *ERROR_COLUMNS,
    ]
    assert list(_entry_columns([RETENTION])) == list(ENTRY_COLUMNS)
    for schema in (OPS_SCHEMA, OUTCOME_SCHEMA, CHANGES_SCHEMA, DIFF_SCHEMA, FINDINGS_SCHEMA):
        # a config key is `key` in every row about one (a config entry's own column is `name`)
        first = schema.names.index(RESOURCE_COLUMNS[0])
        assert schema.names[first : first + 3] == [*RESOURCE_COLUMNS, KEY_COLUMN]
        assert "name" not in schema.names
    assert OUTCOME_SCHEMA.names[-5:-2] == ["status", *ERROR_COLUMNS]
    assert CHANGES_SCHEMA.names[-2:] == list(ERROR_COLUMNS)
    feed = StateChange(
        "c", "TOPIC", "orders", "retention.ms", ChangeKind.CHANGED, datetime.now(UTC)
    ).to_dict()
    # The feed's JSON and its Spark stream have the same columns, but the stream's poll's.
    polls = {"snapshot_id", "poll", *(name for name, _ in POLL_COST_COLUMNS)}
    assert set(feed) == set(CHANGES_SCHEMA.names) - polls


def _v1_snapshot(path: Path) -> Path:
    document: dict[str, Any] = {
        "kind": "describe",
        "version": 1,
        "cluster": "old",
        "resources": [
            {
                "type": "TOPIC",
                "name": "orders",
                "error": None,
                "configs": {
                    "retention.ms": {
                        "value": "3600000",
                        "source": "TOPIC_CONFIG",
                        "type": "LONG",
                        "is_default": False,
                        "is_read_only": False,
                        "is_sensitive": False,
                    }
                },
            },
            {
                "type": "TOPIC",
                "name": "gone",
                "error": {"type": "UnknownTopicOrPartitionError", "message": "x"},
                "configs": {},
            },
        ],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_diff_reads_a_version_1_snapshot_as_a_version_2_one(tmp_path: Path) -> None:
    old = load_snapshot(_v1_snapshot(tmp_path / "old.json"))
    document = describe_document(
        "new",
        {
            TOPIC: Config(entries=(RETENTION,)),
            ConfigResource(ResourceType.TOPIC, "gone"): KeyError(),
        },
        DescribeView(),
    )
    (tmp_path / "new.json").write_text(json.dumps(document), encoding="utf-8")
    new = load_snapshot(tmp_path / "new.json")
    assert old.overrides == new.overrides == {TOPIC: {"retention.ms": ("3600000", ConfigType.LONG)}}


def test_diff_refuses_a_snapshot_version_it_does_not_know(tmp_path: Path) -> None:
    path = tmp_path / "future.json"
    path.write_text(json.dumps({"kind": "describe", "version": 3, "resources": []}), "utf-8")
    with pytest.raises(UsageError, match="version 3: this release reads 1 and 2"):
        load_snapshot(path)
