"""One partition of a snapshot: describe some resources of one cluster, as Arrow batches.

This runs on an executor, inside ``read()``: it opens its own client in its own event loop
(``asyncio.run``), so nothing unpicklable ever crosses from the driver. A resource that fails
becomes one row carrying its typed error; a cluster that cannot be reached fails every
resource of the shard the same way. No resource is ever left out silently.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pyarrow as pa

from .. import (
    Config,
    ConfigEntry,
    ConfigResource,
    KafkaConfigAdminError,
    ResourceFuture,
    ResourceType,
)
from ..connect import Connection
from ..state import error_values
from ..toolkit import translate_error
from ._schema import SNAPSHOT_ARROW_SCHEMA

__all__ = ["Shard", "describe_shard", "error_batch"]

#: Resources turned into one Arrow batch: bounds what a partition holds as Python objects.
RESOURCES_PER_BATCH = 100


@dataclass(frozen=True)
class Shard:
    """What one partition reads: resources of one cluster, or the error that planning met."""

    cluster: Connection
    resources: tuple[tuple[str, str], ...] = ()
    #: Set when planning could not list the cluster: the partition yields only this error.
    planning_error: tuple[str, str] | None = None


@dataclass(frozen=True)
class DescribeFlags:
    include_synonyms: bool
    include_documentation: bool
    snapshot_time: datetime


def describe_shard(shard: Shard, flags: DescribeFlags) -> list[pa.RecordBatch]:
    """Describe a shard in a new event loop; the rows as Arrow batches."""
    if shard.planning_error is not None:
        error, message = shard.planning_error
        return [error_batch(shard.cluster.label, None, None, error, message, flags.snapshot_time)]
    return asyncio.run(_describe(shard, flags))


async def _describe(shard: Shard, flags: DescribeFlags) -> list[pa.RecordBatch]:
    resources = [ConfigResource(ResourceType[kind], name) for kind, name in shard.resources]
    batches = []
    done = 0
    try:
        async with shard.cluster.admin_client() as admin:
            # One call for the whole shard: the client keeps its requests in flight while the
            # batches of the resources answered so far are built.
            futures = admin.describe_configs(
                resources,
                include_synonyms=flags.include_synonyms,
                include_documentation=flags.include_documentation,
            ).values
            for start in range(0, len(resources), RESOURCES_PER_BATCH):
                chunk = resources[start : start + RESOURCES_PER_BATCH]
                outcomes = [await _outcome(futures[resource]) for resource in chunk]
                batches.append(_batch(shard.cluster.label, chunk, outcomes, flags.snapshot_time))
                done += len(chunk)
    except Exception as error:  # the cluster itself failed: every resource not yet described
        failure = translate_error(error, f"cluster {shard.cluster.label!r}")
        failed = resources[done:]
        batches.append(
            _batch(shard.cluster.label, failed, [failure] * len(failed), flags.snapshot_time)
        )
    return batches


async def _outcome(future: ResourceFuture[ConfigResource, Config]) -> Config | BaseException:
    """A resource's configs, or its error."""
    try:
        return await future
    except Exception as error:
        return error


def _batch(
    cluster: str,
    resources: Sequence[ConfigResource],
    outcomes: Sequence[Config | BaseException],
    snapshot_time: datetime,
) -> pa.RecordBatch:
    """The rows of ``resources``, built column by column without a Python object per row.

    The client shares one model among identical entries (and one ``Config`` among identical
    topics), so each distinct entry's columns are made once and the rows pick them by index;
    a resource without configs is one row whose entry columns are null.
    """
    entry_index: dict[int, int] = {}  # id(entry) -> its place in ``entries``
    entries: list[ConfigEntry] = []
    rows_of_config: dict[int, list[int]] = {}  # id(config) -> its rows' entry places
    entry_rows: list[int | None] = []  # per row: the entry's place; None for a resource's row
    owners: list[int] = []  # per row: the resource's place in ``resources``
    for position, outcome in enumerate(outcomes):
        if isinstance(outcome, BaseException) or not outcome:
            entry_rows.append(None)
            owners.append(position)
            continue
        rows = rows_of_config.get(id(outcome))
        if rows is None:
            rows = rows_of_config[id(outcome)] = []
            for entry in outcome.entries:
                place = entry_index.get(id(entry))
                if place is None:
                    place = entry_index[id(entry)] = len(entries)
                    entries.append(entry)
                rows.append(place)
        entry_rows.extend(rows)
        owners.extend([position] * len(rows))
    pick_entry = pa.array(entry_rows, type=pa.int32())
    pick_resource = pa.array(owners, type=pa.int32())
    errors = [_error_of(outcome) for outcome in outcomes]
    count = len(owners)
    columns = {
        "cluster": pa.repeat(pa.scalar(cluster, pa.string()), count),
        "resource_type": [resource.type.name for resource in resources],
        "resource_name": [resource.name for resource in resources],
        "snapshot_time": pa.repeat(
            pa.scalar(snapshot_time, SNAPSHOT_ARROW_SCHEMA.field("snapshot_time").type), count
        ),
        "error": [error[0] for error in errors],
        "error_message": [error[1] for error in errors],
        **_entry_columns(entries),
    }
    arrays = []
    for field in SNAPSHOT_ARROW_SCHEMA:
        column = columns[field.name]
        if isinstance(column, list):  # one value per distinct entry, or per resource
            pick = pick_resource if field.name in _RESOURCE_COLUMNS else pick_entry
            column = pa.array(column, type=field.type).take(pick)
        arrays.append(column)
    return pa.RecordBatch.from_arrays(arrays, schema=SNAPSHOT_ARROW_SCHEMA)


#: Columns with one value per resource; the entry columns have one per distinct entry.
_RESOURCE_COLUMNS = frozenset({"resource_type", "resource_name", "error", "error_message"})


def _entry_columns(entries: Sequence[ConfigEntry]) -> dict[str, list[Any]]:
    """The entry columns of each distinct entry (sensitive values hidden, synonyms' too)."""
    return {
        "name": [entry.name for entry in entries],
        "value": [None if entry.sensitive else entry.value for entry in entries],
        "source": [entry.source.name for entry in entries],
        "is_default": [entry.is_default for entry in entries],
        "is_read_only": [entry.is_read_only for entry in entries],
        "is_sensitive": [entry.sensitive for entry in entries],
        "config_type": [entry.type.name for entry in entries],
        "documentation": [entry.documentation for entry in entries],
        "synonyms": [
            [
                {
                    "name": synonym.name,
                    "value": None if entry.sensitive else synonym.value,
                    "source": synonym.source.name,
                }
                for synonym in entry.synonyms
            ]
            for entry in entries
        ],
    }


def _error_of(outcome: Config | BaseException) -> tuple[str | None, str | None]:
    """A resource's error column values (desired's ``error_values``), or none."""
    if not isinstance(outcome, BaseException):
        return None, None
    if isinstance(outcome, Exception) and not isinstance(outcome, KafkaConfigAdminError):
        outcome = translate_error(outcome, "the cluster")
    return error_values(outcome)


def error_batch(
    cluster: str,
    resource_type: str | None,
    resource_name: str | None,
    error: str,
    message: str,
    snapshot_time: datetime,
) -> pa.RecordBatch:
    """A batch of one row that reports an error not tied to a described resource."""
    row: dict[str, list[Any]] = {name: [None] for name in SNAPSHOT_ARROW_SCHEMA.names}
    row["cluster"] = [cluster]
    row["resource_type"] = [resource_type]
    row["resource_name"] = [resource_name]
    row["error"] = [error]
    row["error_message"] = [message]
    row["snapshot_time"] = [snapshot_time]
    return pa.RecordBatch.from_pydict(row, schema=SNAPSHOT_ARROW_SCHEMA)


def iter_batches(batches: list[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """Hand batches over one at a time, letting go of each once Spark has it."""
    while batches:
        yield batches.pop(0)
