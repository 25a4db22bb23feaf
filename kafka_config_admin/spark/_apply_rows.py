"""Apply alter ops (rows of a DataFrame) to their clusters, and say what became of each row.

This runs on an executor with the rows of one Spark partition. The ops of each cluster go
through the change pipeline (:mod:`kafka_config_admin.changeset`) as one change set, one call
per cluster in its own event loop: the client's checks (only what is certain for the broker's
release), the broker's dry run, the alter (each resource's ops together, atomic on the broker)
and the read back. Every input row gets exactly one outcome, in the one status vocabulary
(:class:`~kafka_config_admin.state.OutcomeStatus`): applied (and read back), validated (on a
dry run), unconfirmed (applied, not read back in time), failed with the typed error and its
message (a value the client's checks refuse is ``PlanRejectedError`` and is never sent), or
skipped: a DELETE of a key the resource does not set (never sent, its reason in
``error_message``: the state it asks for already holds, and the resource's other ops are
applied), or an op of a resource another op of which was refused first. A failed resource
never stops the others.

Guardrails: the rules each cluster's clusters-file entry names (``rules: FILE``) are checked on
its ops; the rows of a resource whose change breaks a rule not overridden (``overrideRules``)
fail with :class:`~kafka_config_admin.changeset.RuleRefusedError` naming the rule, and nothing of
that resource is sent; a resource changed despite a rule says ``rule 'X' overridden`` in its
rows' ``error_message``.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from .. import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    InvalidArgumentError,
    KafkaConfigAdminError,
    changeset,
)
from ..changeset import (
    ChangeSet,
    OutcomeStatus,
    PlanRejectedError,
    RuleRefusedError,
    UnsetDeletes,
    check_overrides,
    review,
)
from ..connect import Connection
from ..desired import connection_rules
from ..journal import Journal, Origin, Recorder, journal_of
from ..state import KEY_COLUMN, RESOURCE_COLUMNS, Problem, Rule
from ..toolkit import translate_error

__all__ = [
    "NOT_DONE",
    "OP_COLUMNS",
    "OUTCOME_STATUS",
    "Journaling",
    "Outcome",
    "apply_op_rows",
    "check_override_rules",
    "op_columns",
]

#: The columns of an ops row, in order (see ``OPS_SCHEMA``).
OP_COLUMNS = ("cluster", *RESOURCE_COLUMNS, KEY_COLUMN, "op", "value")

#: The config key's column of an ops row before it was ``key`` (as every other row names it).
_OLD_KEY_COLUMN = "name"


def op_columns(present: Sequence[str]) -> tuple[str, ...]:
    """The columns to read ops rows from, in ``OP_COLUMNS`` order: a DataFrame of ops whose
    config key is still in a ``name`` column (``OPS_SCHEMA`` named it so before) is read, with
    a warning, for one release; any other lack is the caller's missing-column error."""
    old = tuple(_OLD_KEY_COLUMN if name == KEY_COLUMN else name for name in OP_COLUMNS)
    if KEY_COLUMN in present or not set(old) <= set(present):
        return OP_COLUMNS
    warnings.warn(
        f"the ops' config key column is now {KEY_COLUMN!r} (OPS_SCHEMA); a "
        f"{_OLD_KEY_COLUMN!r} column is read as it until the release after next: rename it",
        DeprecationWarning,
        stacklevel=3,
    )
    return old


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
        status = self.status.value
        return (*self.row, status, self.error, self.error_message, dry_run, finished)


@dataclass
class _Pending:
    """The parsed ops of one resource, with the rows they came from (by row index: the
    rows that do not parse; the resource is sent only when there are none)."""

    rows: list[tuple[Any, ...]]
    ops: list[AlterConfigOp]
    invalid: dict[int, BaseException]


@dataclass(frozen=True)
class _Settled:
    """What became of one resource sent to the pipeline: its outcome, or the client's
    problems with some of its ops (then nothing of it was sent); ``skipped``: the keys of its
    ops left out, never sent, with their reasons."""

    status: OutcomeStatus
    error: BaseException | None = None
    note: str = ""
    problems: tuple[Problem, ...] = ()
    skipped: Mapping[str, str] = field(default_factory=dict)


def check_override_rules(clusters: Iterable[Connection], overrides: Collection[str]) -> None:
    """Raise :class:`~kafka_config_admin.changeset.UnknownRuleError` for an override that names
    no rule of any of ``clusters`` (a typo would override nothing, silently); said on the
    driver, before any task runs."""
    check_overrides([rule for target in clusters for rule in connection_rules(target)], overrides)


@dataclass(frozen=True)
class Journaling:
    """Where the executors record the changes (a target's journal topic, else the journal's
    file, as the driver named it) and whose they are (the Spark application and its user;
    the cluster is each target's)."""

    journal: Journal
    origin: Origin

    def recorder(self, target: Connection) -> Recorder:
        """The recorder of the changes to ``target``."""
        journal = journal_of(target, self.journal)
        return Recorder(journal, replace(self.origin, cluster=target.label))


def apply_op_rows(
    rows: Iterable[Sequence[Any]],
    clusters: Mapping[str, Connection],
    *,
    dry_run: bool,
    override_rules: Collection[str] = (),
    journaling: Journaling | None = None,
) -> list[tuple[Any, ...]]:
    """Apply op rows (in ``OP_COLUMNS`` order); one outcome tuple per row. Each cluster's
    rules (its clusters-file entry's) guard its ops, but those ``override_rules`` name; the
    changes made are recorded as ``journaling`` says (a failure to record is said in each
    row's message)."""
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
        recorder = None if journaling is None else journaling.recorder(target)
        outcomes.extend(
            asyncio.run(_apply_cluster(target, cluster_rows, dry_run, override_rules, recorder))
        )
    finished = datetime.now(UTC)
    return [outcome.as_tuple(dry_run, finished) for outcome in outcomes]


async def _apply_cluster(
    target: Connection,
    rows: list[tuple[Any, ...]],
    dry_run: bool,
    overrides: Collection[str],
    recorder: Recorder | None,
) -> list[Outcome]:
    pending, outcomes = _group(rows)
    sendable = {resource: p.ops for resource, p in pending.items() if not p.invalid}
    settled: dict[ConfigResource, _Settled] = {}
    try:
        rules = connection_rules(target)
        guard = _Guard(rules, tuple(name for name in overrides if name in _labels(rules)))
        async with target.admin_client() as admin:
            settled = await _through_pipeline(admin, sendable, dry_run, guard, recorder)
    except Exception as exception:
        error = translate_error(exception, f"cluster {target.label!r}")
        settled = dict.fromkeys(sendable, _Settled(OutcomeStatus.FAILED, error))
    for resource, p in pending.items():
        if p.invalid:
            outcomes.extend(_refused_resource(resource, p.rows, p.invalid))
        else:
            outcomes.extend(_settled_rows(resource, p.rows, settled[resource]))
    return outcomes


@dataclass(frozen=True)
class _Guard:
    """A cluster's rules, and the overrides among ``overrideRules`` that name one of them."""

    rules: tuple[Rule, ...]
    overrides: tuple[str, ...]


def _labels(rules: Iterable[Rule]) -> set[str]:
    return {rule.label for rule in rules}


async def _through_pipeline(
    admin: AdminClient,
    ops: dict[ConfigResource, list[AlterConfigOp]],
    dry_run: bool,
    guard: _Guard,
    recorder: Recorder | None,
) -> dict[ConfigResource, _Settled]:
    """Review the ops as one change set and apply it (with ``dry_run``: the broker validates
    it); each resource's outcome. The resources the client's checks or the cluster's rules
    refuse are left out and the rest reviewed again, so that one bad value never holds back
    the others."""
    settled: dict[ConfigResource, _Settled] = {}
    left = dict(ops)
    while left:
        try:
            changes = ChangeSet(configs=left, unset_deletes=UnsetDeletes.SKIP)
            reviewed = await review(admin, changes, rules=guard.rules, overrides=guard.overrides)
            if reviewed.problems:
                for resource in {problem.resource for problem in reviewed.problems}:
                    failure = reviewed.state.errors.get(resource)  # a topic that is not there
                    mine = tuple(p for p in reviewed.problems if p.resource == resource)
                    settled[resource] = _Settled(OutcomeStatus.FAILED, failure, problems=mine)
                    del left[resource]
                continue
            refusing = reviewed.guard.refusing
            if refusing:
                for broken in [r for r in left if any(f.violation.resource == r for f in refusing)]:
                    found = [f for f in refusing if f.violation.resource == broken]
                    settled[broken] = _Settled(OutcomeStatus.FAILED, RuleRefusedError(found))
                    del left[broken]
                continue
            report = await changeset.apply(admin, reviewed, dry_run=dry_run, recorder=recorder)
        except InvalidArgumentError as error:
            if len(left) == 1:
                return settled | dict.fromkeys(left, _Settled(OutcomeStatus.FAILED, error))
            # The client refuses the whole call before sending (a resource it cannot name):
            # each resource alone, so that only the one at fault fails.
            for resource, resource_ops in left.items():
                alone = {resource: resource_ops}
                settled |= await _through_pipeline(admin, alone, dry_run, guard, recorder)
            return settled
        unrecorded = (
            f"not recorded in the journal: {report.journal_error}" if report.journal_error else ""
        )
        skipped: dict[ConfigResource, dict[str, str]] = {}
        for change in reviewed.skipped:
            skipped.setdefault(change.resource, {})[change.key] = change.reason
        for resource, reasons in skipped.items():  # all its ops left out, unless it has an outcome
            settled[resource] = _Settled(OutcomeStatus.SKIPPED, skipped=reasons)
        for outcome in report.outcomes:
            note = "; ".join(part for part in (outcome.note, unrecorded) if part)
            reasons = skipped.get(outcome.resource, {})
            settled[outcome.resource] = _Settled(
                outcome.status, outcome.error, note, skipped=reasons
            )
        return settled
    return settled


def _settled_rows(
    resource: ConfigResource, rows: list[tuple[Any, ...]], settled: _Settled
) -> list[Outcome]:
    """The outcome of each op row of a resource the pipeline settled: its typed error, the
    client's problem with the row's op (the resource's other rows skipped), or its status;
    the rows of ops left out unsent are skipped with their reason."""
    if settled.skipped:
        sent = [row for row in rows if row[3] not in settled.skipped]
        done = iter(_settled_rows(resource, sent, replace(settled, skipped={})))
        return [
            Outcome(row, OutcomeStatus.SKIPPED, None, settled.skipped[row[3]])
            if row[3] in settled.skipped
            else next(done)
            for row in rows
        ]
    if settled.error is not None:
        return [_failed(row, settled.error) for row in rows]
    if settled.problems:
        refused: dict[int, BaseException] = {}
        for index, row in enumerate(rows):
            found = [p for p in settled.problems if p.key in (None, row[3])]
            if found:
                refused[index] = PlanRejectedError(found)
        if not refused:  # a problem of no row's key: the resource as a whole
            refused = dict.fromkeys(range(len(rows)), PlanRejectedError(settled.problems))
        return _refused_resource(resource, rows, refused)
    return [Outcome(row, settled.status, None, settled.note or None) for row in rows]


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


def _refused_resource(
    resource: ConfigResource, rows: list[tuple[Any, ...]], refused: Mapping[int, BaseException]
) -> list[Outcome]:
    """The rows of a resource not sent: those ``refused`` (by row index) failed, the others
    skipped, since a resource's ops are applied together or not at all."""
    outcomes = []
    for index, row in enumerate(rows):
        error = refused.get(index)
        if error is not None:
            outcomes.append(_failed(row, error))
        else:
            outcomes.append(
                Outcome(
                    row,
                    OutcomeStatus.SKIPPED,
                    None,
                    f"not sent: another op of {resource} was refused, and a resource's ops "
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
