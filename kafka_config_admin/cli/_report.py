"""What became of a change: one line per resource, quota entity, SCRAM user and growing
topic, in the one outcome vocabulary (``applied``, ``validated``, ``unconfirmed``, ``failed``,
``skipped``), then a tally. ``apply`` and ``alter`` (configs, quotas, SCRAM) print it alike."""

from __future__ import annotations

from .. import ConfigResource
from ..changeset import ApplyReport, ResourceOutcome
from ..desired import Plan
from ..state import OutcomeStatus
from ._exit import ExitCode, say, say_lines
from ._journal import say_recorded
from ._output import failures_lines, reason_line, resource_title, stderr
from ._quotas import entity_text


def print_outcome(what: str, status: OutcomeStatus, error: BaseException | None, note: str) -> None:
    """One line: the status, what it is about, and the error or the note."""
    line = f"{status.value}: {what}"
    if error is not None:
        line += f": {reason_line(error)}"
    elif note:
        line += f" ({note})"
    say(line)


def changed_keys(made: Plan, resource: ConfigResource) -> list[str]:
    """The keys the plan changes on ``resource``."""
    item = made.get(resource)
    return [change.key for change in item.changes] if item is not None else []


def outcome_line(outcome: ResourceOutcome) -> str:
    """``applied: topic orders [alter]``, with the outcome's note when it has one."""
    title = resource_title(outcome.resource.type.name, outcome.resource.name)
    note = f" ({outcome.note})" if outcome.note else ""
    return f"{outcome.status.value}: {title} [{outcome.action.value}]{note}"


def print_report(made: Plan, report: ApplyReport) -> int:
    """Each resource's outcome; exit 1 when any failed (each failure on one line: resource,
    keys, reason) or when the journal could not record the changes made.

    Plain lines in one write (``say_lines``), not rich's: rich lays out each line on its own,
    which for 2,000 resources took longer than the broker took to apply them.
    """
    failures = [
        (outcome.resource, changed_keys(made, outcome.resource), outcome.error)
        for outcome in report.failed
        if outcome.error is not None
    ]
    # A failure is one line, with its keys and reason: never a second line of its status.
    say_lines(
        outcome_line(outcome)
        for outcome in report.outcomes
        if outcome.status is not OutcomeStatus.FAILED or outcome.error is None
    )
    say_lines(f"failed: {line}" for line in failures_lines(failures))
    for quota in report.quotas:
        what = f"quotas of {entity_text(dict(quota.entity))}"
        print_outcome(what, quota.status, quota.error, quota.note)
    for user in report.scram:
        print_outcome(
            f"SCRAM credentials of user {user.user!r}", user.status, user.error, user.note
        )
    for moved in report.partitions:
        print_outcome(
            f"partitions of topic {moved.topic!r} ({moved.summary})",
            moved.status,
            moved.error,
            moved.note,
        )
    verb = "validated (dry run, nothing changed)" if report.dry_run else "applied"
    parts = []
    if report.outcomes or not (report.quotas or report.scram):
        done = len(report.outcomes) - len(report.failed)
        parts.append(f"{done} resource(s) {verb}, {len(report.failed)} failed")
    if report.quotas:
        failed = sum(quota.status is OutcomeStatus.FAILED for quota in report.quotas)
        parts.append(f"quotas of {len(report.quotas) - failed} entities {verb}, {failed} failed")
    if report.scram:
        failed = sum(user.status is OutcomeStatus.FAILED for user in report.scram)
        parts.append(f"SCRAM users: {len(report.scram) - failed} {verb}, {failed} failed")
    tally = "; ".join(parts)
    stderr.print(tally)
    recorded = say_recorded(report)
    return ExitCode.OK if report.ok and recorded == ExitCode.OK else ExitCode.FAILED
