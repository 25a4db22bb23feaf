"""The command line's journal: where its changes are recorded, as the OS user's, from ``cli``."""

from __future__ import annotations

from dataclasses import dataclass

import anyio

from .. import AdminClient
from ..changeset import (
    INTERRUPTED_RECORD_TIMEOUT,
    ApplyRecorder,
    ApplyRecording,
    ApplyReport,
)
from ..desired import Plan
from ..journal import JournalStore, Origin, Recorder, journal_of
from ._connect import resolve_connection
from ._exit import ExitCode, say
from ._options import ConnectionOptions


def journal_for(options: ConnectionOptions) -> JournalStore:
    """The journal of the cluster the options name: the topic its clusters-file entry names
    (``journal:``), else the SQLite file (``KAFKA_CONFIG_ADMIN_JOURNAL``, else the XDG data
    directory)."""
    return journal_of(resolve_connection(options)[0])


def recorder(journal: JournalStore, label: str, *, note: str = "") -> ApplyRecorder:
    """What records a command's changes to cluster ``label`` in ``journal`` (and says on
    stderr what became of an interrupted apply's changes)."""
    return _SayingRecorder(Recorder(journal, Origin.of_process("cli", label, note=note)))


@dataclass(frozen=True)
class _SayingRecorder:
    """The journal's recorder, whose recordings say what they recorded of an interrupted
    apply: the command's own lines end with the interruption."""

    recorder: Recorder

    async def prepare(self, admin: AdminClient, plan: Plan) -> ApplyRecording:
        return _SayingRecording(await self.recorder.prepare(admin, plan))


@dataclass(frozen=True)
class _SayingRecording:
    recording: ApplyRecording

    async def record(self, report: ApplyReport) -> ApplyReport:
        try:
            recorded = await self.recording.record(report)
        except anyio.get_cancelled_exc_class():
            if report.interrupted:  # the apply's bound ran out
                say(
                    "error: the changes sent before the apply was interrupted were not "
                    f"recorded within {INTERRUPTED_RECORD_TIMEOUT:g} s"
                )
            raise
        note = recorded.interruption_note() if recorded.interrupted else None
        if note is not None:
            say(f"error: {note}" if recorded.journal_error is not None else note)
        return recorded


def say_recorded(report: ApplyReport) -> int:
    """One line: the change set's id in the journal (exit 0), or why the changes made could
    not be recorded (exit 1: they were made all the same)."""
    if report.journal_error is not None:
        say(f"error: the changes were made but not recorded: {report.journal_error}")
        return ExitCode.FAILED
    if report.change_set_id is not None:
        say(
            f"recorded in the journal as change set {report.change_set_id} "
            f"(kafka-config-admin undo --change-set {report.change_set_id} puts it back)"
        )
    return ExitCode.OK
