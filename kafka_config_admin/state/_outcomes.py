"""What became of each part of a plan when it was applied: one status vocabulary for all."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = ["OutcomeStatus", "status_dict"]


class OutcomeStatus(StrEnum):
    """What became of one resource of a plan."""

    APPLIED = "applied"  #: changed, and read back showing the new values
    VALIDATED = "validated"  #: dry run: the broker accepted the change and applied nothing
    UNCONFIRMED = "unconfirmed"  #: changed, but not read back as wanted before the deadline
    FAILED = "failed"  #: refused (``error`` says why); nothing of it was changed
    SKIPPED = "skipped"  #: nothing sent (nothing to change, or only sensitive or kept keys)


def status_dict(status: OutcomeStatus, error: BaseException | None, note: str) -> dict[str, Any]:
    """What every outcome's JSON says besides its subject."""
    return {
        "status": status.value,
        "error": None if error is None else type(error).__name__,
        "message": str(error) if error is not None else note,
    }
