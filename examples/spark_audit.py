"""Audit a fleet of Kafka clusters with Spark: snapshot, find, report, fix, check again.

    python examples/spark_audit.py --clusters-file fleet.yaml --desired kafka.yaml \\
        --table /data/kafka-snapshots --report /data/audit [--apply]

1. snapshot every cluster of the clusters file into the Parquet snapshot table (one partition
   per snapshot);
2. evaluate the desired state and its audit rules over the snapshot, per cluster;
3. write the report (findings as Parquet and CSV, the plan as CSV, summary.txt) and print the
   summary and the plan;
4. with ``--apply``: apply the plan, print every op's outcome, take a second snapshot and audit
   it (it should be clean), and print what changed between the two snapshots.

``nox -s pipeline`` runs it against two throwaway clusters with planted violations. On a Spark
cluster, submit it with ``spark-submit --master spark://host:7077 examples/spark_audit.py ...``
(see docs/pipeline.md).
"""

# example-needs-extra: spark
# example-run-by: spark_audit_demo.py

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from pyspark.sql import SparkSession

from kafka_config_admin.connect import load_clusters_file
from kafka_config_admin.desired import load_desired_state
from kafka_config_admin.spark import (
    AuditResult,
    apply_ops,
    audit,
    diff_snapshots,
    read_snapshot,
    register,
    snapshot_ids,
    summary_table,
    take_snapshot,
    write_report,
)
from kafka_config_admin.state import DesiredState

#: Brokers apply a committed change a moment apart: the second audit looks again a few times.
SETTLE_ATTEMPTS = 5


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clusters-file", required=True)
    parser.add_argument("--desired", required=True, help="the desired-state file")
    parser.add_argument("--table", required=True, help="the Parquet snapshot table (a path)")
    parser.add_argument("--report", required=True, help="a directory for the report")
    parser.add_argument("--apply", action="store_true", help="apply the plan, then audit again")
    parser.add_argument("--prune", action="store_true", help="also delete unnamed overrides")
    args = parser.parse_args(argv)

    desired = load_desired_state(args.desired)
    spark = (
        SparkSession.builder.appName("kafka-config-audit")
        # Findings are grouped per cluster: a few shuffle partitions are plenty.
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    register(spark)
    source = {"clusters.file": args.clusters_file}

    result = audit(take_snapshot(spark, args.table, source), desired, prune=args.prune)
    first_id = snapshot_ids(spark, args.table)[-1]
    print(write_report(result, args.report))
    print(f"\nreport written to {args.report}\n\nplan ({result.plan.count()} ops):")
    result.plan.orderBy("cluster", "resource_type", "resource_name", "key").show(
        100, truncate=False
    )
    if not args.apply or result.plan.isEmpty():
        return 0 if result.clean else 1

    outcomes = apply_ops(result.plan, load_clusters_file(args.clusters_file).fleet())
    print("outcomes:")
    outcomes.select("cluster", "resource_name", "key", "op", "value", "status", "error").show(
        100, truncate=False
    )
    second = audit_until_settled(spark, args.table, source, desired, args.prune)
    print("second audit:\n" + summary_table(second))
    last_id = snapshot_ids(spark, args.table)[-1]
    print(f"\nwhat changed between snapshots {first_id} and {last_id}:")
    diff_snapshots(
        read_snapshot(spark, args.table, first_id), read_snapshot(spark, args.table, last_id)
    ).orderBy("cluster", "resource_name", "key").show(100, truncate=False)
    clean = second.clean
    spark.stop()
    return 0 if clean else 1


def audit_until_settled(
    spark: SparkSession,
    table: str,
    source: dict[str, str],
    desired: DesiredState,
    prune: bool,
) -> AuditResult:
    """Audit a new snapshot; while findings remain, look again a moment later (brokers apply
    a committed change a few milliseconds apart)."""
    result = audit(take_snapshot(spark, table, source), desired, prune=prune)
    for _ in range(SETTLE_ATTEMPTS - 1):
        if result.clean:
            break
        time.sleep(1.0)
        result = audit(take_snapshot(spark, table, source), desired, prune=prune)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
