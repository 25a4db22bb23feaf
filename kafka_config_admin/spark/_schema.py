"""The schemas of the pipeline's DataFrames: snapshot rows, alter ops and their outcomes.

Each is written once, as an Arrow schema (``read()`` and the apply tasks produce Arrow
batches); the Spark schema is derived from it, so the two cannot drift apart. The column names
of a resource, a config key, a config entry, an error and an outcome are the shared rows'
(:mod:`kafka_config_admin.state`'s ``*_COLUMNS`` and ``KEY_COLUMN``), the ones the CLI's JSON
and the change feed use.
"""

from __future__ import annotations

import pyarrow as pa
from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.types import StructType

from ..state import (
    ENTRY_COLUMNS,
    ERROR_COLUMNS,
    KEY_COLUMN,
    OUTCOME_COLUMNS,
    RESOURCE_COLUMNS,
    SYNONYM_COLUMNS,
)

__all__ = [
    "CHANGES_ARROW_SCHEMA",
    "CHANGES_SCHEMA",
    "DIFF_ARROW_SCHEMA",
    "DIFF_SCHEMA",
    "JOURNAL_ARROW_SCHEMA",
    "JOURNAL_SCHEMA",
    "OPS_ARROW_SCHEMA",
    "OPS_SCHEMA",
    "OUTCOME_ARROW_SCHEMA",
    "OUTCOME_SCHEMA",
    "POLL_COST_COLUMNS",
    "SNAPSHOT_ARROW_SCHEMA",
    "SNAPSHOT_SCHEMA",
    "spark_schema",
]

_TIME = pa.timestamp("us", tz="UTC")
_SYNONYM = pa.struct([(name, pa.string()) for name in SYNONYM_COLUMNS])
#: The Arrow type of each config entry column (desired's ``ENTRY_COLUMNS``, in its order).
_ENTRY_TYPES = {
    "name": pa.string(),
    "value": pa.string(),
    "source": pa.string(),
    "is_default": pa.bool_(),
    "is_read_only": pa.bool_(),
    "is_sensitive": pa.bool_(),
    "config_type": pa.string(),
    "documentation": pa.string(),
    "synonyms": pa.list_(_SYNONYM),
}


def _strings(names: tuple[str, ...]) -> list[tuple[str, pa.DataType]]:
    return [(name, pa.string()) for name in names]


#: One row per (cluster, resource, config); a resource that failed is one row with its error.
#: The columns are desired's rows: the resource's, the entry's, the error's.
SNAPSHOT_ARROW_SCHEMA = pa.schema(
    [
        ("cluster", pa.string()),
        *_strings(RESOURCE_COLUMNS),
        *((name, _ENTRY_TYPES[name]) for name in ENTRY_COLUMNS),
        ("snapshot_time", _TIME),
        *_strings(ERROR_COLUMNS),
    ]
)

#: The input of an apply: one alter op per row (value is null for DELETE).
OPS_ARROW_SCHEMA = pa.schema(_strings(("cluster", *RESOURCE_COLUMNS, KEY_COLUMN, "op", "value")))

#: What became of each op row: status (an ``OutcomeStatus``: applied, validated on a dry run,
#: unconfirmed, failed or skipped) and the error columns.
OUTCOME_ARROW_SCHEMA = pa.schema(
    [
        *OPS_ARROW_SCHEMA,
        *_strings(OUTCOME_COLUMNS),
        ("dry_run", pa.bool_()),
        ("finished_time", _TIME),
    ]
)


#: What the poll of a row cost (every row of one cluster's poll has the same): the resources it
#: described, the requests it sent, the bytes it received and its seconds.
POLL_COST_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("poll_resources_read", pa.int64()),
    ("poll_requests", pa.int64()),
    ("poll_bytes_received", pa.int64()),
    ("poll_seconds", pa.float64()),
)

#: One row per change the ``kafka-config-changes`` stream saw (change: added, removed, changed,
#: error; and with ``stats``, one ``poll`` row per cluster and poll); ``key`` is null on a row
#: about a whole resource, values are null when sensitive.
CHANGES_ARROW_SCHEMA = pa.schema(
    [
        ("cluster", pa.string()),
        *_strings(RESOURCE_COLUMNS),
        (KEY_COLUMN, pa.string()),
        ("change", pa.string()),
        ("before_value", pa.string()),
        ("after_value", pa.string()),
        ("before_source", pa.string()),
        ("after_source", pa.string()),
        ("config_type", pa.string()),
        ("detected_time", _TIME),
        ("snapshot_id", pa.string()),
        ("poll", pa.int64()),
        *POLL_COST_COLUMNS,
        *_strings(ERROR_COLUMNS),
    ]
)


#: ``diff_snapshots``: one row per change between two snapshots, as the change feed names them
#: (``key`` is null on a row about a whole resource).
DIFF_ARROW_SCHEMA = pa.schema(
    [
        ("cluster", pa.string()),
        *_strings(RESOURCE_COLUMNS),
        (KEY_COLUMN, pa.string()),
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


_TEXT = pa.string()
#: One row per recorded change: the journal's columns (docs/journal.md), ``resource`` beside.
JOURNAL_ARROW_SCHEMA = pa.schema(
    [
        ("id", pa.int64()),
        ("change_set", _TEXT),
        ("time", pa.timestamp("us", tz="UTC")),
        ("user", _TEXT),
        ("face", _TEXT),
        ("application", _TEXT),
        ("cluster", _TEXT),
        ("cluster_id", _TEXT),
        ("resource_type", _TEXT),
        ("resource_name", _TEXT),
        ("resource", _TEXT),
        ("entity", pa.map_(_TEXT, _TEXT)),
        ("key", _TEXT),
        ("op", _TEXT),
        ("old_value", _TEXT),
        ("old_set", pa.bool_()),
        ("new_value", _TEXT),
        ("new_set", pa.bool_()),
        ("sensitive", pa.bool_()),
        ("outcome", _TEXT),
        ("message", _TEXT),
        ("note", _TEXT),
    ]
)
JOURNAL_SCHEMA = spark_schema(JOURNAL_ARROW_SCHEMA)
