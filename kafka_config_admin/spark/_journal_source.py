"""The ``kafka-config-journal`` data source: the journal of changes as a DataFrame, read from
the SQLite file or from the Kafka topic a team shares (one partition: the journal is small and
its order matters).

Options: ``path`` (an SQLite journal; the default: the journal's path as the driver sees it,
``KAFKA_CONFIG_ADMIN_JOURNAL`` else the XDG data directory), or one cluster as
``kafka-configs`` names it (``bootstrap.servers`` and Kafka's security properties, or
``clusters.file`` with ``cluster``) with ``topic`` (else the topic the cluster's clusters-file
entry names, ``journal: {topic: ...}``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.types import StructType

from .. import InvalidArgumentError
from ..connect import JournalTopic, connections_from_options
from ..journal import Journal, JournalEntry, JournalStore, TopicJournal, journal_of
from ._schema import JOURNAL_ARROW_SCHEMA, JOURNAL_SCHEMA

__all__ = ["KafkaConfigJournalDataSource"]

SOURCE_NAME = "kafka-config-journal"

#: The options that name a cluster (``connections_from_options``').
_CLUSTER_OPTIONS = ("bootstrap.servers", "bootstrap.controllers", "clusters.file")


class KafkaConfigJournalDataSource(DataSource):
    """``spark.read.format("kafka-config-journal")``: one row per change the journal holds,
    oldest first."""

    @classmethod
    def name(cls) -> str:
        return SOURCE_NAME

    def schema(self) -> StructType:
        return JOURNAL_SCHEMA

    def reader(self, schema: StructType) -> DataSourceReader:
        return JournalReader(journal_store(self.options))


def journal_store(options: Mapping[str, str]) -> JournalStore:
    """The journal the options name (the module's docstring)."""
    named = [option for option in _CLUSTER_OPTIONS if options.get(option)]
    if not named:
        if options.get("topic"):
            raise InvalidArgumentError(
                f"{SOURCE_NAME}: topic needs its cluster (bootstrap.servers, or clusters.file "
                "and cluster)"
            )
        return Journal.at(options.get("path"))
    if options.get("path"):
        raise InvalidArgumentError(
            f"{SOURCE_NAME}: give path (an SQLite journal) or a cluster ({named[0]}), not both"
        )
    clusters = connections_from_options(options)
    if len(clusters) != 1:
        raise InvalidArgumentError(
            f"{SOURCE_NAME} reads one cluster's journal: name it with the option cluster"
        )
    (cluster,) = clusters
    topic = options.get("topic")
    if topic:
        return TopicJournal(cluster, JournalTopic(topic=topic))
    if cluster.journal is None:
        raise InvalidArgumentError(
            f"{SOURCE_NAME}: cluster {cluster.label} names no journal topic: give the option "
            "topic, or journal: {topic: NAME} in its clusters-file entry"
        )
    return journal_of(cluster)


class JournalReader(DataSourceReader):
    """One partition: the whole journal, read where the task runs."""

    def __init__(self, store: JournalStore) -> None:
        self.store = store

    def partitions(self) -> Sequence[InputPartition]:
        return [InputPartition(0)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        rows = [_row(entry) for entry in self.store.entries()]
        yield pa.RecordBatch.from_pylist(rows, schema=JOURNAL_ARROW_SCHEMA)


def _row(entry: JournalEntry) -> dict[str, Any]:
    row = entry.to_dict()
    row["time"] = entry.time
    row["entity"] = None if entry.entity is None else list(entry.entity.items())
    return row
