"""The audit pipeline end to end on local[2]: planted violations are found, fixed, gone."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from kafka_config_admin.connect import Connection
from kafka_config_admin.desired import parse_desired_state
from kafka_config_admin.spark import (
    apply_ops,
    audit,
    diff_snapshots,
    snapshot_ids,
    take_snapshot,
    write_report,
)

from .helpers import config_value, create_topics, topic, unique, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

DESIRED = """
topics:
  - pattern: "{prefix}-.*"
    configs:
      retention.ms: 3d
      max.message.bytes: 2000000
      cleanup.policy: delete
rules:
  - resource: topic
    match: "{prefix}-.*"
    check: "retention.ms >= 86400000"
  - resource: topic
    match: "{prefix}-.*"
    check: "cleanup.policy in [delete]"
"""


def test_audit_finds_the_planted_violations_and_its_plan_fixes_them(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path
) -> None:
    prefix = unique("audit")
    good = {"retention.ms": "259200000", "max.message.bytes": "2000000"}
    create_topics(kafka_bootstrap, [f"{prefix}-ok"], good)
    create_topics(kafka_bootstrap, [f"{prefix}-a"], {**good, "retention.ms": "3600000"})
    create_topics(kafka_bootstrap, [f"{prefix}-b"], {**good, "max.message.bytes": "500000"})
    create_topics(kafka_bootstrap, [f"{prefix}-c"], {**good, "cleanup.policy": "compact"})
    desired = parse_desired_state(DESIRED.format(prefix=prefix))
    table = str(tmp_path / "snapshots")
    options = {
        "bootstrap.servers": kafka_bootstrap,
        "cluster": "main",
        "topicPattern": f"{prefix}-.*",
    }

    first = audit(take_snapshot(spark, table, options), desired)
    found = {(r.kind, r.resource_name, r.key) for r in first.findings.collect()}
    assert found == {
        ("drift", f"{prefix}-a", "retention.ms"),
        ("rule", f"{prefix}-a", "retention.ms"),
        ("drift", f"{prefix}-b", "max.message.bytes"),
        ("drift", f"{prefix}-c", "cleanup.policy"),
        ("rule", f"{prefix}-c", "cleanup.policy"),
    }
    summary = write_report(first, tmp_path / "report")
    assert "drift" in summary and f"{prefix}-a" in summary
    for name in ("findings.parquet", "findings.csv", "plan.csv", "summary.txt"):
        assert (tmp_path / "report" / name).exists()
    assert first.plan.count() == 3

    target = Connection(name="main", bootstrap_servers=kafka_bootstrap)
    outcomes = apply_ops(first.plan, target)
    assert {row.status for row in outcomes.collect()} == {"applied"}
    for name, key, value in [
        (f"{prefix}-a", "retention.ms", "259200000"),
        (f"{prefix}-b", "max.message.bytes", "2000000"),
        (f"{prefix}-c", "cleanup.policy", "delete"),
    ]:
        wait_until(
            lambda n=name, k=key, v=value: config_value(kafka_bootstrap, topic(n), k) == v, name
        )

    second = audit(take_snapshot(spark, table, options), desired)
    assert second.clean, second.findings.collect()

    before, after = snapshot_ids(spark, table)
    stored = spark.read.parquet(table)
    changes = diff_snapshots(
        stored.where(stored.snapshot_id == before), stored.where(stored.snapshot_id == after)
    ).collect()
    changed = {(r.resource_name, r.key, r.before_value, r.after_value) for r in changes}
    assert (f"{prefix}-a", "retention.ms", "3600000", "259200000") in changed
    assert (f"{prefix}-b", "max.message.bytes", "500000", "2000000") in changed
    assert {r.resource_name for r in changes} == {f"{prefix}-a", f"{prefix}-b", f"{prefix}-c"}
    assert all(r.before_time < r.after_time for r in changes)
