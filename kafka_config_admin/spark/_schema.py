"""The schemas of the pipeline's DataFrames: snapshot rows, alter ops and their outcomes.

Each is written once, as an Arrow schema (``read()`` and the apply tasks produce Arrow
batches); the Spark schema is derived from it, so the two cannot drift apart.
"""

from __future__ import annotations

import pyarrow as pa
from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.types import StructType

__all__ = [
    "CHANGES_ARROW_SCHEMA",
    "CHANGES_SCHEMA",
    "DIFF_ARROW_SCHEMA",
    "DIFF_SCHEMA",
    "OPS_ARROW_SCHEMA",
    "OPS_SCHEMA",
    "OUTCOME_ARROW_SCHEMA",
    "OUTCOME_SCHEMA",
    "SNAPSHOT_ARROW_SCHEMA",
    "SNAPSHOT_SCHEMA",
    "spark_schema",
]

_TIME = pa.timestamp("us", tz="UTC")
_SYNONYM = pa.struct([("name", pa.string()), ("value", pa.string()), ("source", pa.string())])

#: One row per (cluster, resource, config); a resource that failed is one row with its error.
SNAPSHOT_ARROW_SCHEMA = pa.schema(
    [
        ("cluster", pa.string()),
        ("resource_type", pa.string()),
        ("resource_name", pa.string()),
        ("name", pa.string()),
        ("value", pa.string()),
        ("source", pa.string()),
        ("is_default", pa.bool_()),
        ("is_read_only", pa.bool_()),
        ("is_sensitive", pa.bool_()),
        ("config_type", pa.string()),
        ("documentation", pa.string()),
        ("synonyms", pa.list_(_SYNONYM)),
        ("snapshot_time", _TIME),
        ("error", pa.string()),
        ("error_message", pa.string()),
    ]
)

#: The input of an apply: one alter op per row (value is null for DELETE).
OPS_ARROW_SCHEMA = pa.schema(
    [
        (name, pa.string())
        for name in ("cluster", "resource_type", "resource_name", "name", "op", "value")
    ]
)

#: What became of each op row: status is a value of ``OutcomeStatus`` (applied, validated on a
#: dry run, unconfirmed, failed or skipped).
OUTCOME_ARROW_SCHEMA = pa.schema(
    [
        *OPS_ARROW_SCHEMA,
        ("status", pa.string()),
        ("error", pa.string()),
        ("error_message", pa.string()),
        ("dry_run", pa.bool_()),
        ("finished_time", _TIME),
    ]
)


#: One row per change the ``kafka-config-changes`` stream saw (change: added, removed, changed,
#: error); ``key`` is null on a row about a whole resource, values are null when sensitive.
CHANGES_ARROW_SCHEMA = pa.schema(
    [
        ("cluster", pa.string()),
        ("resource_type", pa.string()),
        ("resource_name", pa.string()),
        ("key", pa.string()),
        ("change", pa.string()),
        ("before_value", pa.string()),
        ("after_value", pa.string()),
        ("before_source", pa.string()),
        ("after_source", pa.string()),
        ("config_type", pa.string()),
        ("detected_time", _TIME),
        ("snapshot_id", pa.string()),
        ("poll", pa.int64()),
        ("error", pa.string()),
        ("error_message", pa.string()),
    ]
)


#: ``diff_snapshots``: one row per change between two snapshots, as the change feed names them
#: (``name`` is the key; null on a row about a whole resource).
DIFF_ARROW_SCHEMA = pa.schema(
    [
        ("cluster", pa.string()),
        ("resource_type", pa.string()),
        ("resource_name", pa.string()),
        ("name", pa.string()),
        ("change", pa.string()),
        ("before_value", pa.string()),
        ("after_value", pa.string()),
        ("before_source", pa.string()),
        ("after_source", pa.string()),
        ("config_type", pa.string()),
        ("before_time", _TIME),
        ("after_time", _TIME),
    ]
)


def spark_schema(schema: pa.Schema) -> StructType:
    """The Spark schema of an Arrow schema."""
    converted = from_arrow_schema(schema)
    assert isinstance(converted, StructType)
    return converted


SNAPSHOT_SCHEMA = spark_schema(SNAPSHOT_ARROW_SCHEMA)
OPS_SCHEMA = spark_schema(OPS_ARROW_SCHEMA)
OUTCOME_SCHEMA = spark_schema(OUTCOME_ARROW_SCHEMA)
CHANGES_SCHEMA = spark_schema(CHANGES_ARROW_SCHEMA)
DIFF_SCHEMA = spark_schema(DIFF_ARROW_SCHEMA)
