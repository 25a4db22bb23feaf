"""Audit findings from snapshot rows, decided by the desired module, without Spark."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

pytest.importorskip("pyspark", reason="the spark extra is not installed")

import pyarrow as pa

from kafka_config_admin.desired import parse_desired_state
from kafka_config_admin.spark._apply_rows import _group, _refused_resource
from kafka_config_admin.spark._findings import cluster_findings
from kafka_config_admin.spark._schema import SNAPSHOT_ARROW_SCHEMA

WHEN = datetime(2026, 11, 23, tzinfo=UTC)


def row(resource: str, name: str | None, value: str | None, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = dict.fromkeys(SNAPSHOT_ARROW_SCHEMA.names)
    base |= {
        "cluster": "east",
        "resource_type": "TOPIC",
        "resource_name": resource,
        "name": name,
        "value": value,
        "source": "TOPIC_CONFIG",
        "is_default": False,
        "is_read_only": False,
        "is_sensitive": False,
        "config_type": "LONG",
        "synonyms": [],
        "snapshot_time": WHEN,
    }
    return base | fields


def test_rules_drift_and_errors_become_findings() -> None:
    rows = [
        row("orders-1", "retention.ms", "3600000"),
        row("orders-2", "retention.ms", "604800000"),
        row(
            "orders-3",
            None,
            None,
            source=None,
            config_type=None,
            is_default=None,
            is_read_only=None,
            is_sensitive=None,
            error="TopicAuthorizationFailedError",
            error_message="denied",
        ),
    ]
    desired = parse_desired_state(
        "topics:\n  - pattern: 'orders-.*'\n    configs:\n      retention.ms: 7d\n"
        "rules:\n  - check: 'retention.ms >= 86400000'\n"
    )
    table = pa.Table.from_pylist(rows, schema=SNAPSHOT_ARROW_SCHEMA)
    found = cluster_findings(table, desired, prune=False).to_pylist()
    assert {(f["kind"], f["resource_name"], f["key"]) for f in found} == {
        ("error", "orders-3", None),
        ("rule", "orders-1", "retention.ms"),
        ("drift", "orders-1", "retention.ms"),
    }
    drift = next(f for f in found if f["kind"] == "drift")
    assert (drift["op"], drift["value"], drift["actual"]) == ("SET", "604800000", "3600000")
    assert all(f["cluster"] == "east" and f["snapshot_time"] == WHEN for f in found)


def test_an_invalid_op_skips_the_rest_of_its_resource() -> None:
    rows = [
        ("east", "topic", "a", "retention.ms", "FROB", "1"),
        ("east", "topic", "a", "segment.ms", "SET", "1"),
        ("east", "queue", "b", "x", "SET", "1"),
    ]
    pending, outcomes = _group(rows)
    assert [(o.status, o.error) for o in outcomes] == [("failed", "InvalidArgumentError")]
    ((resource, entry),) = pending.items()
    refused = _refused_resource(resource, entry.rows, entry.invalid)
    assert [(o.status, o.error) for o in refused] == [
        ("failed", "InvalidArgumentError"),
        ("skipped", None),
    ]
