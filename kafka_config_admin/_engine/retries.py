"""The retry table, read from the error classes: what the engine does after each error.

Every error class says two things of itself (``_exceptions``): ``retriable``, whether the same
request is sent again (with backoff, until the call's deadline), and ``change_applied``, whether
a change that ended in it may have been applied all the same. These two functions are where the
engine reads them; nothing else in the engine decides either question.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, TypeGuard

from .._exceptions import BrokerError, ChangeApplied, KafkaConfigAdminError

__all__ = ["RetryRow", "answered_maybe_applied", "retried", "retry_table", "written_maybe_applied"]


def retried(
    error: object, not_retried: tuple[type[Exception], ...] = ()
) -> TypeGuard[KafkaConfigAdminError]:
    """Whether the engine sends a request that ended in ``error`` again.

    ``not_retried``: the errors an operation keeps out of its retries (a CreateTopics answered
    REQUEST_TIMED_OUT is being created: sent again, it would fail as existing).
    """
    return (
        isinstance(error, KafkaConfigAdminError)
        and error.retriable
        and not isinstance(error, not_retried)
    )


def answered_maybe_applied(error: object) -> bool:
    """Whether a change that ended in ``error`` may have been applied, whatever was written.

    An error that leaves the outcome open only when the request had been written
    (``"if-written"``, a lost connection) is decided by the engine's count of writes.
    """
    return isinstance(error, KafkaConfigAdminError) and error.change_applied == "maybe"


class RetryRow(NamedTuple):
    """One error class in the retry table (docs/sdk.md shows it, made by ``retry_table``)."""

    name: str
    code: int | None  # the Kafka error code, for a class that has one of its own
    retried: bool
    change_applied: ChangeApplied


def retry_table(errors: Iterable[type[KafkaConfigAdminError]]) -> list[RetryRow]:
    """The rows of the retry table for ``errors``, by Kafka error code, then by name."""
    rows = [
        RetryRow(
            error.__name__,
            error.code if issubclass(error, BrokerError) and _has_own_code(error) else None,
            error.retriable,
            error.change_applied,
        )
        for error in errors
    ]
    return sorted(rows, key=lambda row: (-2 if row.code is None else row.code, row.name))


def _has_own_code(error: type[BrokerError]) -> bool:
    # BrokerError's own code stands for "a code without a class of its own".
    return error is not BrokerError and "code" in vars(error)


def written_maybe_applied(writes: int, outcome: object) -> bool:
    """Whether a change written ``writes`` times may have been applied, given the outcome that
    decided its request (an answer, an error, or None: the deadline came first).

    Written and not answered, it may have been; written twice (a hedge), the answer that came
    may be the other try's, and the ignored one may still be applied.
    """
    return writes > 1 or (writes == 1 and not isinstance(outcome, dict))
