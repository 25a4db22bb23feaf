"""The Spark pipeline: fleet snapshots of Kafka configs, audits and bulk applies on PySpark.

Install with ``pip install 'kafka-config-admin[spark]'``. A thin layer: every decision about
configs lives in the SDK and in :mod:`kafka_config_admin.desired`::

    from kafka_config_admin.spark import register

    register(spark)
    configs = (
        spark.read.format("kafka-configs")
        .option("bootstrap.servers", "127.0.0.1:9092")
        .option("resourceTypes", "topic,broker")
        .load()
    )
"""

from ._apply_ops import apply_ops
from ._deprecated import fleet
from ._feed import KafkaConfigChangesDataSource
from ._journal_source import KafkaConfigJournalDataSource
from ._pipeline import (
    FINDINGS_SCHEMA,
    AuditResult,
    audit,
    diff_snapshots,
    read_snapshot,
    snapshot_ids,
    summary_table,
    take_snapshot,
    write_report,
)
from ._schema import (
    CHANGES_SCHEMA,
    DIFF_SCHEMA,
    JOURNAL_SCHEMA,
    OPS_SCHEMA,
    OUTCOME_SCHEMA,
    SNAPSHOT_SCHEMA,
)
from ._source import (
    PUSHDOWN_SETTING,
    ApplyFailedError,
    KafkaConfigsDataSource,
    KafkaConfigsDataSourceWithoutPushdown,
    register,
)

__all__ = [
    "CHANGES_SCHEMA",
    "DIFF_SCHEMA",
    "FINDINGS_SCHEMA",
    "JOURNAL_SCHEMA",
    "OPS_SCHEMA",
    "OUTCOME_SCHEMA",
    "PUSHDOWN_SETTING",
    "SNAPSHOT_SCHEMA",
    "ApplyFailedError",
    "AuditResult",
    "KafkaConfigChangesDataSource",
    "KafkaConfigJournalDataSource",
    "KafkaConfigsDataSource",
    "KafkaConfigsDataSourceWithoutPushdown",
    "apply_ops",
    "audit",
    "diff_snapshots",
    "fleet",
    "read_snapshot",
    "register",
    "snapshot_ids",
    "summary_table",
    "take_snapshot",
    "write_report",
]
