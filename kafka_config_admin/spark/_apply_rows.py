"""Apply alter ops (rows of a DataFrame) to their clusters, and say what became of each row.

This runs on an executor with the rows of one Spark partition. The ops of each resource go
out together in one incremental alter (grouped per resource, each resource atomic on the
broker), one call per cluster in its own event loop. Every input row gets exactly one outcome:
applied (validated, on a dry run), failed with the typed error and its message, or skipped
because another op of the same resource could not be sent. A failed resource never stops the
others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .. import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    InvalidArgumentError,
    KafkaConfigAdminError,
    translate_error,
)
from ..connect import Connection
from ..desired import OutcomeStatus, Proposal, ask_broker

__all__ = ["NOT_DONE", "OP_COLUMNS", "OUTCOME_STATUS", "Outcome", "apply_op_rows"]

#: The columns of an ops row, in order (see ``OPS_SCHEMA``).
OP_COLUMNS = ("cluster", "resource_type", "resource_name", "name", "op", "value")

#: Statuses of rows whose op did not take effect (or pass validation, on a dry run).
NOT_DONE = frozenset({OutcomeStatus.FAILED, OutcomeStatus.SKIPPED})
#: Where the status sits in an outcome tuple (after the op columns).
OUTCOME_STATUS = len(OP_COLUMNS)


@dataclass(frozen=True)
class Outcome:
    """What became of one op row; its fields are the columns of ``OUTCOME_SCHEMA``."""

    row: tuple[Any, ...]
    status: OutcomeStatus
    error: str | None
    error_message: str | None

    def as_tuple(self, dry_run: bool, finished: datetime) -> tuple[Any, ...]:
        return (*self.row, self.status, self.error, self.error_message, dry_run, finished)


@dataclass
class _Pending:
    """The parsed ops of one resource, with the rows they came from (by row index: the
    rows that do not parse; the resource is sent only when there are none)."""

    rows: list[tuple[Any, ...]]
    ops: list[AlterConfigOp]
    invalid: dict[int, InvalidArgumentError]


def apply_op_rows(
    rows: Iterable[Sequence[Any]], clusters: Mapping[str, Connection], *, dry_run: bool
) -> list[tuple[Any, ...]]:
    """Apply op rows (in ``OP_COLUMNS`` order); one outcome tuple per row."""
    by_cluster: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_cluster.setdefault(row[0], []).append(tuple(row))
    outcomes: list[Outcome] = []
    for cluster, cluster_rows in by_cluster.items():
        target = clusters.get(cluster)
        if target is None:
            known = ", ".join(sorted(clusters)) or "none"
            error = InvalidArgumentError(f"cluster {cluster!r} is not configured (known: {known})")
            outcomes.extend(_failed(row, error) for row in cluster_rows)
            continue
        outcomes.extend(asyncio.run(_apply_cluster(target, cluster_rows, dry_run)))
    finished = datetime.now(UTC)
    return [outcome.as_tuple(dry_run, finished) for outcome in outcomes]


async def _apply_cluster(
    target: Connection, rows: list[tuple[Any, ...]], dry_run: bool
) -> list[Outcome]:
    pending, outcomes = _group(rows)
    sendable = {resource: p.ops for resource, p in pending.items() if not p.invalid}
    errors: dict[ConfigResource, BaseException] = {}
    try:
        async with target.admin_client() as admin:
            errors = await _alter(admin, sendable, dry_run)
    except Exception as exception:
        errors = dict.fromkeys(sendable, translate_error(exception, f"cluster {target.label!r}"))
    done = OutcomeStatus.VALIDATED if dry_run else OutcomeStatus.APPLIED
    for resource, p in pending.items():
        if p.invalid:
            outcomes.extend(_invalid_resource(resource, p))
            continue
        error = errors.get(resource)
        outcomes.extend(
            Outcome(row, done, None, None) if error is None else _failed(row, error)
            for row in p.rows
        )
    return outcomes


async def _alter(
    admin: AdminClient, ops: dict[ConfigResource, list[AlterConfigOp]], dry_run: bool
) -> dict[ConfigResource, BaseException]:
    """Send every resource's ops in one call; each failed resource's error. A dry run asks
    the broker's verdict as ``plan`` and the CLI's dry runs ask it (``desired.ask_broker``)."""
    if not ops:
        return {}
    if dry_run:
        verdict = await ask_broker(admin, Proposal(configs=ops))
        return {resource: refusal.error for resource, refusal in verdict.configs.items()}
    try:
        result = admin.incremental_alter_configs(ops)
    except InvalidArgumentError as error:
        if len(ops) == 1:
            return dict.fromkeys(ops, error)
        # The client checks the whole call before sending (a SET without a value, one name
        # twice): send each resource alone, so that only the one at fault fails.
        errors: dict[ConfigResource, BaseException] = {}
        for resource, resource_ops in ops.items():
            errors.update(await _alter(admin, {resource: resource_ops}, dry_run=False))
        return errors
    await result.wait()
    return result.errors()


def _group(rows: list[tuple[Any, ...]]) -> tuple[dict[ConfigResource, _Pending], list[Outcome]]:
    """Parse rows into ops per resource; rows whose resource cannot even be named fail here."""
    pending: dict[ConfigResource, _Pending] = {}
    outcomes: list[Outcome] = []
    for row in rows:
        _, resource_type, resource_name, name, op, value = row
        try:
            resource = ConfigResource(resource_type, resource_name)
        except (ValueError, TypeError) as error:
            outcomes.append(_failed(row, _invalid(f"resource of {_where(row)}: {error}")))
            continue
        entry = pending.setdefault(resource, _Pending([], [], {}))
        entry.rows.append(row)
        try:
            entry.ops.append(AlterConfigOp(name, value, op))
        except (ValueError, TypeError) as error:
            entry.invalid[len(entry.rows) - 1] = _invalid(f"op of {_where(row)}: {error}")
    return pending, outcomes


def _invalid_resource(resource: ConfigResource, pending: _Pending) -> list[Outcome]:
    outcomes = []
    for index, row in enumerate(pending.rows):
        error = pending.invalid.get(index)
        if error is not None:
            outcomes.append(_failed(row, error))
        else:
            outcomes.append(
                Outcome(
                    row,
                    OutcomeStatus.SKIPPED,
                    None,
                    f"not sent: another op of {resource} is invalid, and a resource's ops "
                    "are applied together or not at all",
                )
            )
    return outcomes


def _invalid(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message)


def _where(row: Sequence[Any]) -> str:
    cluster, resource_type, resource_name, name = row[:4]
    return (
        f"row (cluster={cluster!r}, resource_type={resource_type!r}, "
        f"resource_name={resource_name!r}, name={name!r})"
    )


def _failed(row: tuple[Any, ...], error: BaseException) -> Outcome:
    name = type(error).__name__
    if isinstance(error, Exception) and not isinstance(error, KafkaConfigAdminError):
        name = type(translate_error(error, "the cluster")).__name__
    return Outcome(row, OutcomeStatus.FAILED, name, str(error))
