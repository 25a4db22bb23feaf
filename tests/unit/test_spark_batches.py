"""The snapshot's Arrow batches, built column by column, hold exactly the rows of the configs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="the spark extra is not installed")

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
from kafka_config_admin.spark._schema import SNAPSHOT_ARROW_SCHEMA
from kafka_config_admin.spark._snapshot import _batch

WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
RETENTION = ConfigEntry(
    name="retention.ms",
    value="3600000",
    source=ConfigSource.TOPIC_CONFIG,
    synonyms=(
        ConfigSynonym(name="retention.ms", value="3600000", source=ConfigSource.TOPIC_CONFIG),
        ConfigSynonym(name="log.retention.ms", value=None, source=ConfigSource.DEFAULT_CONFIG),
    ),
    type=ConfigType.LONG,
    documentation="How long a log is kept.",
)
CLEANUP = ConfigEntry(
    name="cleanup.policy", value="delete", source=ConfigSource.DEFAULT_CONFIG, is_default=True
)
SECRET = ConfigEntry(
    name="sasl.jaas.config",
    value="hidden",
    is_sensitive=True,
    is_read_only=True,
    synonyms=(ConfigSynonym(name="x", value="also hidden", source=ConfigSource.DEFAULT_CONFIG),),
)


def expected_rows(
    resources: list[ConfigResource], outcomes: list[Config | BaseException]
) -> list[dict[str, Any]]:
    """The rows, one Python dict each: what the batch must hold."""
    rows = []
    for resource, outcome in zip(resources, outcomes, strict=True):
        base = {
            "cluster": "prod",
            "resource_type": resource.type.name,
            "resource_name": resource.name,
            "snapshot_time": WHEN,
        }
        nothing = dict.fromkeys(SNAPSHOT_ARROW_SCHEMA.names)
        if isinstance(outcome, BaseException) or not outcome:
            error = isinstance(outcome, BaseException)
            rows.append(
                {
                    **nothing,
                    **base,
                    "error": type(outcome).__name__ if error else None,
                    "error_message": str(outcome) if error else None,
                }
            )
            continue
        for entry in outcome.entries:
            hide = entry.is_sensitive
            synonyms = [
                {"name": s.name, "value": None if hide else s.value, "source": s.source.name}
                for s in entry.synonyms
            ]
            rows.append(
                {
                    **nothing,
                    **base,
                    "name": entry.name,
                    "value": None if hide else entry.value,
                    "source": entry.source.name,
                    "is_default": entry.is_default,
                    "is_read_only": entry.is_read_only,
                    "is_sensitive": entry.is_sensitive,
                    "config_type": entry.type.name,
                    "documentation": entry.documentation,
                    "synonyms": synonyms,
                }
            )
    return rows


def test_shared_and_distinct_entries_errors_and_empty_configs_make_the_same_rows() -> None:
    shared = Config(entries=(RETENTION, CLEANUP))
    resources = [ConfigResource(ResourceType.TOPIC, f"t{i}") for i in range(6)]
    outcomes: list[Config | BaseException] = [
        shared,
        UnknownTopicOrPartitionError("topic 't1' does not exist"),
        shared,  # the same Config object: its rows are reused
        Config(entries=(CLEANUP, SECRET)),  # a distinct Config sharing an entry
        Config(entries=()),  # no configs and no error: one row of nulls
        Config(entries=(RETENTION.model_copy(), CLEANUP)),  # equal entries, other objects
    ]
    batch = _batch("prod", resources, outcomes, WHEN)
    assert batch.schema == SNAPSHOT_ARROW_SCHEMA
    assert batch.to_pylist() == expected_rows(resources, outcomes)


def test_a_batch_of_only_failed_resources() -> None:
    resources = [ConfigResource(ResourceType.TOPIC, "a"), ConfigResource(ResourceType.BROKER, "1")]
    failure = UnknownTopicOrPartitionError("gone")
    batch = _batch("prod", resources, [failure, failure], WHEN)
    assert batch.to_pylist() == expected_rows(resources, [failure, failure])


def test_an_empty_batch() -> None:
    batch = _batch("prod", [], [], WHEN)
    assert batch.num_rows == 0
    assert batch.schema == SNAPSHOT_ARROW_SCHEMA
