"""The ``kafka-configs`` Python data source: snapshots (read) and alter ops (write).

Spark plans a read in a separate Python process (``reader()``, ``pushFilters()``,
``partitions()``) and pickles the reader to executors, where ``read()`` runs once per
partition. So the reader holds only options and plain values, and every partition opens its
own client in its own event loop. Spark calls ``pushFilters`` only when
``spark.sql.python.filterPushdown.enabled`` is true, and refuses a reader that defines it
while the setting is false; :func:`register` therefore registers the variant that matches the
session (and the ``filterPushdown`` option can choose explicitly).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa
from pyspark.sql import Row, SparkSession
from pyspark.sql.datasource import (
    DataSource,
    DataSourceReader,
    DataSourceWriter,
    EqualNullSafe,
    EqualTo,
    Filter,
    In,
    InputPartition,
    StringStartsWith,
    WriterCommitMessage,
)
from pyspark.sql.types import StructType

from .. import InvalidArgumentError, KafkaConfigAdminError
from ..connect import Connection, connections_from_options
from ..journal import Journal, Origin, os_user
from ..state import ScopeListing, error_values
from ..toolkit import translate_error
from ._apply_rows import (
    NOT_DONE,
    OUTCOME_STATUS,
    Journaling,
    apply_op_rows,
    check_override_rules,
    op_columns,
)
from ._feed import KafkaConfigChangesDataSource
from ._inventory import read_inventory
from ._journal_source import KafkaConfigJournalDataSource
from ._options import SnapshotOptions, parse_bool, parse_names
from ._schema import OPS_SCHEMA, SNAPSHOT_SCHEMA
from ._selection import PUSHABLE_COLUMNS, Selection
from ._snapshot import DescribeFlags, Shard, describe_shard, iter_batches

__all__ = ["PUSHDOWN_SETTING", "KafkaConfigsDataSource", "register"]

PUSHDOWN_SETTING = "spark.sql.python.filterPushdown.enabled"
SOURCE_NAME = "kafka-configs"


class KafkaConfigsDataSource(DataSource):
    """``spark.read.format("kafka-configs")``: one row per (cluster, resource, config).

    Its reader takes the filters Spark pushes down (use it when
    ``spark.sql.python.filterPushdown.enabled`` is true; :func:`register` picks for you).
    """

    #: Whether the reader implements ``pushFilters``: only for sessions that allow it.
    filter_pushdown = True

    @classmethod
    def name(cls) -> str:
        return SOURCE_NAME

    def schema(self) -> StructType:
        return SNAPSHOT_SCHEMA

    def reader(self, schema: StructType) -> DataSourceReader:
        options = SnapshotOptions.parse(self.options)
        pushdown = options.filter_pushdown
        if pushdown is None:
            pushdown = self.filter_pushdown
        return FilteringSnapshotReader(options) if pushdown else SnapshotReader(options)

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
        return OpsWriter(self.options, schema)


class KafkaConfigsDataSourceWithoutPushdown(KafkaConfigsDataSource):
    """The same source for sessions where filter pushdown is off (Spark's default)."""

    filter_pushdown = False


def register(spark: SparkSession) -> None:
    """Register the ``kafka-configs`` data source, the ``kafka-config-changes`` stream and the
    ``kafka-config-journal`` source on a session (call it again after changing
    ``spark.sql.python.filterPushdown.enabled``)."""
    enabled = (spark.conf.get(PUSHDOWN_SETTING, "false") or "false").lower() == "true"
    source = KafkaConfigsDataSource if enabled else KafkaConfigsDataSourceWithoutPushdown
    spark.dataSource.register(source)
    spark.dataSource.register(KafkaConfigChangesDataSource)
    spark.dataSource.register(KafkaConfigJournalDataSource)


# --- read -------------------------------------------------------------------------------------


class SnapshotReader(DataSourceReader):
    """Plans shards per cluster and reads each in its own event loop."""

    def __init__(self, options: SnapshotOptions) -> None:
        self.options = options
        self.selection = Selection()
        # One time for the whole snapshot, taken at planning: every partition's rows share it.
        self.flags = DescribeFlags(
            include_synonyms=options.include_synonyms,
            include_documentation=options.include_documentation,
            snapshot_time=datetime.now(UTC),
        )

    def partitions(self) -> Sequence[InputPartition]:
        shards = [
            shard
            for target in self.options.clusters
            if self.selection.cluster_selected(target.label)
            for shard in plan_shards(target, self.options, self.selection)
        ]
        return [InputPartition(shard) for shard in shards] or [InputPartition(None)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        shard = partition.value
        if shard is None:
            return iter(())
        return iter_batches(describe_shard(shard, self.flags))


class FilteringSnapshotReader(SnapshotReader):
    """A snapshot reader that narrows what it describes by the filters Spark pushes down.

    Every filter is also handed back to Spark, which evaluates it again on the rows: the
    result is the same with pushdown on or off, only the work differs.
    """

    def pushFilters(self, filters: list[Filter]) -> Iterable[Filter]:
        for pushed in filters:
            self.selection = narrow(self.selection, pushed)
            yield pushed


def narrow(selection: Selection, pushed: Filter) -> Selection:
    """The selection with one pushed filter applied, when the source can use it."""
    attribute: tuple[str, ...] = getattr(pushed, "attribute", ())
    if len(attribute) != 1 or attribute[0] not in PUSHABLE_COLUMNS:
        return selection
    column = attribute[0]
    if isinstance(pushed, EqualTo | EqualNullSafe):
        return selection.allow(column, [pushed.value])
    if isinstance(pushed, In):
        return selection.allow(column, pushed.value)
    if isinstance(pushed, StringStartsWith) and column == "resource_name":
        return selection.with_prefix(pushed.value)
    return selection


def plan_shards(target: Connection, options: SnapshotOptions, selection: Selection) -> list[Shard]:
    """The shards of one cluster: topics in groups of ``topicsPerPartition``, then the rest.

    A cluster that cannot be listed gets one shard carrying the error, so the snapshot has a
    row saying so instead of silently lacking the cluster.
    """
    scope, selected = options.scope, selection.type_selected
    inventory = ScopeListing()
    if any(
        lists(selected)
        for lists in (
            scope.lists_topics,
            scope.lists_brokers,
            scope.lists_groups,
            scope.lists_client_metrics,
        )
    ):
        try:
            inventory = asyncio.run(read_inventory(target, scope, selected))
        except Exception as error:
            failure = translate_error(error, f"cluster {target.label!r}")
            return [Shard(target, planning_error=error_values(failure))]
    resources = scope.config_resources(
        listed_topics=inventory.topics,
        listed_brokers=inventory.brokers,
        listed_groups=inventory.groups,
        listed_client_metrics=inventory.client_metrics,
        type_selected=selected,
        name_selected=selection.name_selected,
    )
    topics = [(r.type.name, r.name) for r in resources if r.type.name == "TOPIC"]
    others = [(r.type.name, r.name) for r in resources if r.type.name != "TOPIC"]
    size = options.topics_per_partition
    shards = [
        Shard(target, tuple(topics[start : start + size])) for start in range(0, len(topics), size)
    ]
    if others:
        shards.append(Shard(target, tuple(others)))
    return shards


# --- write ------------------------------------------------------------------------------------


@dataclass
class OpsCommitMessage(WriterCommitMessage):
    """The outcomes of one task's rows, as tuples in ``OUTCOME_SCHEMA`` order."""

    outcomes: list[tuple[Any, ...]]


class ApplyFailedError(KafkaConfigAdminError):
    """Some ops of a ``df.write.format("kafka-configs")`` did not apply; the others did."""


class OpsWriter(DataSourceWriter):
    """``ops.write.format("kafka-configs").mode("append").save()``: apply alter ops.

    Each task applies the rows of its partition, grouped per resource (repartition by
    cluster, resource_type and resource_name first so that a resource's ops go out together).
    On the driver, ``commit`` fails the job naming the rows that did not apply, so nothing is
    lost silently; :func:`kafka_config_admin.spark.apply_ops` returns every row's outcome as a
    DataFrame instead.
    """

    def __init__(self, options: Any, schema: StructType) -> None:
        self.columns = op_columns(schema.fieldNames())
        missing = [name for name in self.columns if name not in schema.fieldNames()]
        if missing:
            raise InvalidArgumentError(
                f"kafka-configs writes alter ops: the DataFrame lacks {', '.join(missing)} "
                f"(expected columns: {OPS_SCHEMA.simpleString()})"
            )
        self.clusters = {target.label: target for target in connections_from_options(options)}
        self.dry_run = parse_bool(options, "dryRun", False)
        self.override_rules = parse_names(options, "overrideRules")
        check_override_rules(self.clusters.values(), self.override_rules)
        # The journal's file as the option names it, else as the default resolves here.
        self.journal = Journal.at(options.get("journal"))

    def write(self, iterator: Iterator[Row]) -> OpsCommitMessage:
        rows = [tuple(row[name] for name in self.columns) for row in iterator]
        # The task's user: Spark's, as it runs the executor (the application's id is not
        # known to a data source's task).
        user = os.environ.get("SPARK_USER") or os_user()
        journaling = Journaling(self.journal, Origin(face="spark", user=user, cluster=""))
        outcomes = apply_op_rows(
            rows,
            self.clusters,
            dry_run=self.dry_run,
            override_rules=self.override_rules,
            journaling=journaling,
        )
        return OpsCommitMessage(outcomes)

    def commit(self, messages: list[WriterCommitMessage | None]) -> None:
        outcomes = [
            outcome
            for message in messages
            if isinstance(message, OpsCommitMessage)
            for outcome in message.outcomes
        ]
        failed = [outcome for outcome in outcomes if outcome[OUTCOME_STATUS] in NOT_DONE]
        if failed:
            shown = "; ".join(_describe_outcome(outcome) for outcome in failed[:5])
            more = f" (and {len(failed) - 5} more)" if len(failed) > 5 else ""
            raise ApplyFailedError(
                f"{len(failed)} of {len(outcomes)} ops did not apply: {shown}{more}"
            )


def _describe_outcome(outcome: tuple[Any, ...]) -> str:
    cluster, resource_type, resource_name, name, op = outcome[:5]
    status, error, message = outcome[OUTCOME_STATUS : OUTCOME_STATUS + 3]
    return f"{cluster} {resource_type} {resource_name!r} {op} {name}: {status} ({error}: {message})"
