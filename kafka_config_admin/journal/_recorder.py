"""The journal's hook in the change pipeline: readied while an apply sends its changes, then
handed the report."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import anyio

from .. import AdminClient, KafkaConfigAdminError
from ..changeset import ApplyReport
from ..desired import Plan
from ._entries import Origin, PlannedRows, entries_of, planned_rows
from ._store import JournalError
from ._stores import JournalStore
from ._threads import run_in_daemon_thread

__all__ = ["Recorder", "Recording"]


@dataclass(frozen=True)
class Recorder:
    """Records every change an apply sent in ``journal``, said to come from ``origin``
    (a :class:`~kafka_config_admin.changeset.ApplyRecorder`: hand it to ``changeset.apply``
    or ``changeset.apply_plan`` as ``recorder``). One recorder serves any number of applies,
    one after another or at once."""

    journal: JournalStore
    origin: Origin

    async def prepare(self, admin: AdminClient, plan: Plan) -> Recording:
        """What :meth:`Recording.record` needs besides the report: the cluster's id (the
        plan's, else the client's metadata's, else asked) and the plan's rows, made while the
        broker works on the changes."""
        cluster_id = plan.cluster_id or admin.cluster_id() or await _cluster_id(admin)
        return Recording(self.journal, self.origin, cluster_id, planned_rows(plan))


@dataclass(frozen=True)
class Recording:
    """One apply's recording, readied by :meth:`Recorder.prepare` (a
    :class:`~kafka_config_admin.changeset.ApplyRecording`)."""

    journal: JournalStore
    origin: Origin
    cluster_id: str | None
    planned: PlannedRows

    async def record(self, report: ApplyReport) -> ApplyReport:
        """Write a row per change sent, in one transaction; the report with the change set's
        id, or with ``journal_error`` saying why nothing could be written (never raised: the
        changes were made, and their outcomes are the caller's to report)."""
        change_set = uuid.uuid4().hex[:12]
        entries = entries_of(
            self.planned,
            report,
            origin=self.origin,
            cluster_id=self.cluster_id,
            change_set=change_set,
            time=datetime.now(UTC),
        )
        try:
            if report.interrupted:  # bounded by the apply: left to its daemon thread after
                await run_in_daemon_thread(self.journal.record, entries)
            else:
                await anyio.to_thread.run_sync(self.journal.record, entries)
        except JournalError as error:
            return replace(report, journal_error=str(error))
        return replace(report, change_set_id=change_set)


async def _cluster_id(admin: AdminClient) -> str | None:
    """The cluster's id, or None when it cannot be read (the label still names it)."""
    try:
        return (await admin.describe_cluster()).cluster_id
    except KafkaConfigAdminError:
        return None
