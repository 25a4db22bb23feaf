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

from .. import Config, ConfigResource, KafkaConfigAdminError, ResourceType, translate_error
from ..connect import Connection
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
            for start in range(0, len(resources), RESOURCES_PER_BATCH):
                chunk = resources[start : start + RESOURCES_PER_BATCH]
                result = admin.describe_configs(
                    chunk,
                    include_synonyms=flags.include_synonyms,
                    include_documentation=flags.include_documentation,
                )
                await result.wait()
                outcomes: list[Config | BaseException] = []
                for resource in chunk:
                    future = result.values[resource]
                    error = future.exception()
                    outcomes.append(future.result() if error is None else error)
                batches.append(_batch(shard.cluster.label, chunk, outcomes, flags.snapshot_time))
                done += len(chunk)
    except Exception as error:  # the cluster itself failed: every resource not yet described
        failure = translate_error(error, f"cluster {shard.cluster.label!r}")
        failed = resources[done:]
        batches.append(
            _batch(shard.cluster.label, failed, [failure] * len(failed), flags.snapshot_time)
        )
    return batches


def _batch(
    cluster: str,
    resources: Sequence[ConfigResource],
    outcomes: Sequence[Config | BaseException],
    snapshot_time: datetime,
) -> pa.RecordBatch:
    columns: dict[str, list[Any]] = {name: [] for name in SNAPSHOT_ARROW_SCHEMA.names}
    for resource, outcome in zip(resources, outcomes, strict=True):
        if isinstance(outcome, BaseException) or not outcome:
            _error_row(columns, cluster, resource, outcome)
            continue
        for entry in outcome.entries:
            columns["cluster"].append(cluster)
            columns["resource_type"].append(resource.type.name)
            columns["resource_name"].append(resource.name)
            columns["name"].append(entry.name)
            columns["value"].append(None if entry.is_sensitive else entry.value)
            columns["source"].append(entry.source.name)
            columns["is_default"].append(entry.is_default)
            columns["is_read_only"].append(entry.is_read_only)
            columns["is_sensitive"].append(entry.is_sensitive)
            columns["config_type"].append(entry.type.name)
            columns["documentation"].append(entry.documentation)
            columns["synonyms"].append(
                [
                    {
                        "name": synonym.name,
                        "value": None if entry.is_sensitive else synonym.value,
                        "source": synonym.source.name,
                    }
                    for synonym in entry.synonyms
                ]
            )
            columns["error"].append(None)
            columns["error_message"].append(None)
    count = len(columns["cluster"])
    columns["snapshot_time"] = [snapshot_time] * count
    return pa.RecordBatch.from_pydict(columns, schema=SNAPSHOT_ARROW_SCHEMA)


def _error_row(
    columns: dict[str, list[Any]],
    cluster: str,
    resource: ConfigResource,
    outcome: Config | BaseException,
) -> None:
    """One row for a resource without configs: its error, or none when it simply has none."""
    for name in SNAPSHOT_ARROW_SCHEMA.names:
        columns[name].append(None)
    columns["cluster"][-1] = cluster
    columns["resource_type"][-1] = resource.type.name
    columns["resource_name"][-1] = resource.name
    if isinstance(outcome, BaseException):
        columns["error"][-1] = _error_name(outcome)
        columns["error_message"][-1] = str(outcome)


def _error_name(error: BaseException) -> str:
    if isinstance(error, Exception) and not isinstance(error, KafkaConfigAdminError):
        error = translate_error(error, "the cluster")
    return type(error).__name__


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
