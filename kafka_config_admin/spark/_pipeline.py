"""The audit pipeline: snapshot -> snapshot table -> findings -> report and plan -> apply.

Every step is a function over DataFrames, usable on its own::

    snapshot = take_snapshot(spark, "/data/kafka-snapshots", {"clusters.file": "fleet.yaml"})
    result = audit(snapshot, load_desired_state("kafka.yaml"))
    write_report(result, "/data/audit/2026-11-23")   # Parquet, CSV and summary.txt
    outcomes = apply_ops(result.plan, load_clusters_file("fleet.yaml").fleet())
    before, after = (read_snapshot(spark, table, id) for id in snapshot_ids(spark, table)[-2:])
    changes = diff_snapshots(before, after)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from .. import InvalidArgumentError
from ..feed import ChangeKind, ObservedState, diff_states, next_state, observed_state
from ..state import KEY_COLUMN, DesiredState
from ._findings import FINDINGS_ARROW_SCHEMA, cluster_findings, cluster_state
from ._schema import DIFF_ARROW_SCHEMA, DIFF_SCHEMA, spark_schema

__all__ = [
    "AuditResult",
    "audit",
    "diff_snapshots",
    "read_snapshot",
    "snapshot_ids",
    "summary_table",
    "take_snapshot",
    "write_report",
]

FINDINGS_SCHEMA = spark_schema(FINDINGS_ARROW_SCHEMA)
_KEY = ["cluster", "resource_type", "resource_name", "name"]


def take_snapshot(
    spark: SparkSession, table: str, options: Mapping[str, str], *, snapshot_id: str | None = None
) -> DataFrame:
    """Read a snapshot through ``kafka-configs`` and append it to the Parquet ``table``.

    The table is partitioned by ``snapshot_id`` (by default the UTC time, sortable); the
    snapshot is read once and returned as read back from the table, so every later step sees
    exactly what was stored. ``options`` are the source's (documentation is read, since the
    desired state needs the configs' types).
    """
    snapshot_id = snapshot_id or datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    frame = (
        spark.read.format("kafka-configs")
        .option("documentation", "true")
        .options(**options)
        .load()
        .withColumn("snapshot_id", F.lit(snapshot_id))
    )
    frame.write.mode("append").partitionBy("snapshot_id").parquet(table)
    return read_snapshot(spark, table, snapshot_id)


def read_snapshot(spark: SparkSession, table: str, snapshot_id: str) -> DataFrame:
    """One stored snapshot of the table."""
    frame = spark.read.parquet(table).where(F.col("snapshot_id") == snapshot_id)
    return frame


def snapshot_ids(spark: SparkSession, table: str) -> list[str]:
    """The ids of the table's snapshots, oldest first."""
    rows = spark.read.parquet(table).select("snapshot_id").distinct().collect()
    return sorted(row.snapshot_id for row in rows)


@dataclass(frozen=True)
class AuditResult:
    """What an audit found: every finding, the plan of ops that fixes the drift, and counts.

    ``findings`` has ``FINDINGS_SCHEMA`` (kind: rule, drift, problem, missing or error);
    ``plan`` the columns of ``OPS_SCHEMA`` plus ``actual`` and ``expected``, ready for
    :func:`~kafka_config_admin.spark.apply_ops`. Both are computed once and cached.
    """

    findings: DataFrame
    plan: DataFrame

    @property
    def clean(self) -> bool:
        """Whether nothing at all was found."""
        return self.findings.isEmpty()

    def counts(self) -> dict[str, int]:
        """Findings per kind."""
        return {row.kind: row["count"] for row in self.findings.groupBy("kind").count().collect()}


def audit(snapshot: DataFrame, desired: DesiredState, *, prune: bool = False) -> AuditResult:
    """Evaluate the desired state and its rules over a snapshot, per cluster, on the executors.

    The decisions are the ``desired`` module's (the same rules and diff as the CLI's
    ``audit`` and ``plan``); Spark runs them on each cluster's rows in parallel.
    """
    missing = [name for name in ("cluster", "snapshot_time", *_KEY) if name not in snapshot.columns]
    if missing:
        raise InvalidArgumentError(f"audit needs a snapshot; the DataFrame lacks {missing}")

    def evaluate(rows: pa.Table) -> pa.Table:
        return cluster_findings(rows, desired, prune=prune)

    source_columns = [name for name in snapshot.columns if name != "snapshot_id"]
    findings = (
        snapshot.select(*source_columns)
        .groupBy("cluster")
        .applyInArrow(evaluate, FINDINGS_SCHEMA)
        .cache()
    )
    plan = (
        findings.where(F.col("kind") == "drift")
        .select(
            "cluster",
            "resource_type",
            "resource_name",
            KEY_COLUMN,
            "op",
            "value",
            "actual",
            "expected",
        )
        .cache()
    )
    return AuditResult(findings, plan)


def write_report(result: AuditResult, directory: str | Path) -> str:
    """Write the findings (Parquet and CSV), the plan (CSV) and ``summary.txt``; the summary."""
    out = Path(directory)
    result.findings.write.mode("overwrite").parquet(str(out / "findings.parquet"))
    result.findings.coalesce(1).write.mode("overwrite").option("header", "true").csv(
        str(out / "findings.csv")
    )
    result.plan.coalesce(1).write.mode("overwrite").option("header", "true").csv(
        str(out / "plan.csv")
    )
    summary = summary_table(result)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.txt").write_text(summary + "\n", encoding="utf-8")
    return summary


def summary_table(result: AuditResult, *, limit: int = 50) -> str:
    """A readable summary: findings per cluster and kind, then the findings themselves."""
    counts = result.findings.groupBy("cluster", "kind").count().orderBy("cluster", "kind").collect()
    if not counts:
        return "audit: clean (no findings)"
    lines = ["findings per cluster and kind:"]
    lines += _table(
        ["cluster", "kind", "count"], [[r.cluster, r.kind, str(r["count"])] for r in counts]
    )
    shown = (
        result.findings.orderBy("cluster", "kind", "resource_type", "resource_name", "key")
        .limit(limit)
        .collect()
    )
    lines.append("")
    lines.append(f"findings (first {limit}):" if len(shown) == limit else "findings:")
    lines += _table(
        ["cluster", "kind", "resource", "key", "actual", "expected", "rule / reason"],
        [
            [
                r.cluster,
                r.kind,
                f"{r.resource_type.lower()} {r.resource_name!r}",
                r.key or "",
                _shown(r.actual),
                _shown(r.expected),
                r.rule or r.reason or "",
            ]
            for r in shown
        ],
    )
    return "\n".join(lines)


def diff_snapshots(before: DataFrame, after: DataFrame) -> DataFrame:
    """What changed between two snapshots, per cluster: the change feed's diff
    (:func:`~kafka_config_admin.feed.diff_states`, as the ``kafka-config-changes`` stream
    and ``watch`` report it).

    One row per key ``added`` (now set on the resource itself), ``removed`` (no longer) or
    ``changed`` (value or source moved), and one row with a null ``key`` per resource that
    appears or goes. Columns (``DIFF_SCHEMA``): cluster, resource_type, resource_name, key,
    change, before_value, after_value (null when sensitive), before_source, after_source,
    config_type, before_time, after_time (the two snapshots' times). A resource that failed
    to describe in ``after`` is compared with its last keys, never reported removed; a
    cluster that could not be read in either snapshot gives no rows.
    """
    columns = [name for name in after.columns if name != "snapshot_id"]
    sides = before.select(*columns, F.lit(False).alias("after")).unionByName(
        after.select(*columns, F.lit(True).alias("after"))
    )
    return sides.groupBy("cluster").applyInArrow(_cluster_changes, DIFF_SCHEMA)


def _cluster_changes(rows: pa.Table) -> pa.Table:
    """One cluster's rows of both snapshots (``after`` tells them apart) -> its changes."""
    records = rows.to_pylist()
    if not records:
        return DIFF_ARROW_SCHEMA.empty_table()
    cluster = records[0]["cluster"]
    old = [record for record in records if not record["after"]]
    new = [record for record in records if record["after"]]
    before, after = _snapshot_state(cluster, old), _snapshot_state(cluster, new)
    if before is None or after is None:
        return DIFF_ARROW_SCHEMA.empty_table()
    changes = [
        change
        for change in diff_states(before, next_state(before, after))
        if change.change is not ChangeKind.ERROR
    ]
    return pa.Table.from_pylist(
        [
            {
                "cluster": change.cluster,
                "resource_type": change.resource_type,
                "resource_name": change.resource_name,
                KEY_COLUMN: change.key,
                "change": change.change.value,
                "before_value": change.before_value,
                "after_value": change.after_value,
                "before_source": change.before_source,
                "after_source": change.after_source,
                "config_type": change.config_type,
                "before_time": before.time,
                "after_time": after.time,
            }
            for change in changes
        ],
        schema=DIFF_ARROW_SCHEMA,
    )


def _snapshot_state(cluster: str, records: list[dict[str, Any]]) -> ObservedState | None:
    """One cluster's rows of one snapshot as the feed's state; None when the snapshot has no
    row of the cluster, or only the error of a cluster that could not be read."""
    if not records or any(record["resource_type"] is None for record in records):
        return None
    state = cluster_state(records)
    time = max(record["snapshot_time"] for record in records)
    return observed_state(cluster, time, state.configs, state.errors)


def _shown(value: str | None) -> str:
    return "-" if value is None else value


def _table(header: list[str], rows: Iterable[list[str]]) -> list[str]:
    rows = [[cell if len(cell) <= 60 else cell[:57] + "..." for cell in row] for row in rows]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))

    return [
        line(header).rstrip(),
        line(["-" * w for w in widths]),
        *(line(r).rstrip() for r in rows),
    ]
