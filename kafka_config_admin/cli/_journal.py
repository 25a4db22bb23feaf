"""The command line's journal: where its changes are recorded, as the OS user's, from ``cli``."""

from __future__ import annotations

from ..changeset import ApplyReport
from ..journal import JournalStore, Origin, Recorder, journal_of
from ._connect import resolve_connection
from ._exit import ExitCode, say
from ._options import ConnectionOptions


def journal_for(options: ConnectionOptions) -> JournalStore:
    """The journal of the cluster the options name: the topic its clusters-file entry names
    (``journal:``), else the SQLite file (``KAFKA_CONFIG_ADMIN_JOURNAL``, else the XDG data
    directory)."""
    return journal_of(resolve_connection(options)[0])


def recorder(journal: JournalStore, label: str, *, note: str = "") -> Recorder:
    """What records a command's changes to cluster ``label`` in ``journal``."""
    return Recorder(journal, Origin.of_process("cli", label, note=note))


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
