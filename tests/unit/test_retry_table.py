"""The retry table: per exported error class, whether the engine retries it and whether a change
that ended in it may have been applied. The expectations are written out here, class by class,
so a changed flag fails a test that names it; the engine reads only ``_engine.retries``."""

from __future__ import annotations

import pytest

import kafka_config_admin
from kafka_config_admin import (
    KafkaConfigAdminError,
    NotControllerError,
    OutcomeUnknownError,
    RequestTimedOutError,
)
from kafka_config_admin._engine.retries import answered_maybe_applied, retried, retry_table
from kafka_config_admin._net.wire import AnswerLostError

#: class name -> (retried, whether a change that ended in it may have been applied)
EXPECTED: dict[str, tuple[bool, str]] = {
    "KafkaConfigAdminError": (False, "no"),
    "InvalidArgumentError": (False, "no"),
    "ProtocolError": (False, "maybe"),
    "KafkaConnectionError": (True, "if-written"),
    "TlsError": (False, "if-written"),
    "ListenerMismatchError": (False, "if-written"),
    "AuthenticationError": (False, "no"),
    "KafkaTimeoutError": (False, "no"),
    "OutcomeUnknownError": (False, "maybe"),
    "ClientClosedError": (False, "if-written"),
    "BrokerError": (False, "no"),
    "UnknownServerError": (False, "no"),
    "UnknownTopicOrPartitionError": (False, "no"),
    "RequestTimedOutError": (True, "maybe"),
    "BrokerNotAvailableError": (False, "no"),
    "NetworkError": (True, "maybe"),
    "CoordinatorLoadInProgressError": (True, "no"),
    "CoordinatorNotAvailableError": (True, "no"),
    "InvalidTopicError": (False, "no"),
    "AuthorizationError": (False, "no"),
    "TopicAuthorizationFailedError": (False, "no"),
    "GroupAuthorizationFailedError": (False, "no"),
    "ClusterAuthorizationFailedError": (False, "no"),
    "UnsupportedSaslMechanismError": (False, "no"),
    "UnsupportedVersionError": (False, "no"),
    "TopicAlreadyExistsError": (False, "no"),
    "InvalidPartitionsError": (False, "no"),
    "InvalidReplicationFactorError": (False, "no"),
    "InvalidReplicaAssignmentError": (False, "no"),
    "InvalidConfigError": (False, "no"),
    "NotControllerError": (True, "no"),
    "InvalidRequestError": (False, "no"),
    "PolicyViolationError": (False, "no"),
    "ReassignmentInProgressError": (False, "no"),
    "NoReassignmentInProgressError": (False, "no"),
    "ThrottlingQuotaExceededError": (True, "no"),
    "ResourceNotFoundError": (False, "no"),
    "DuplicateResourceError": (False, "no"),
    "UnacceptableCredentialError": (False, "no"),
    "BrokerIdNotRegisteredError": (False, "no"),
    "MismatchedEndpointTypeError": (False, "no"),
    "UnsupportedEndpointTypeError": (False, "no"),
}

EXPORTED_ERRORS = sorted(
    name
    for name in kafka_config_admin.__all__
    if isinstance(cls := getattr(kafka_config_admin, name), type)
    and issubclass(cls, KafkaConfigAdminError)
)


def instance(cls: type[KafkaConfigAdminError]) -> KafkaConfigAdminError:
    if cls is kafka_config_admin.TlsError:
        return cls("broker:9093", "untrusted-certificate", "not trusted")
    return cls("what went wrong")


def test_every_exported_error_has_its_row() -> None:
    assert set(EXPECTED) == set(EXPORTED_ERRORS)


@pytest.mark.parametrize("name", EXPORTED_ERRORS)
def test_the_engine_reads_each_error_class_as_the_table_says(name: str) -> None:
    error = instance(getattr(kafka_config_admin, name))
    expected_retried, expected_applied = EXPECTED[name]
    assert retried(error) is expected_retried
    assert error.change_applied == expected_applied
    assert answered_maybe_applied(error) is (expected_applied == "maybe")


def test_an_operation_may_keep_a_retriable_error_out_of_its_retries() -> None:
    assert retried(RequestTimedOutError(), (RequestTimedOutError,)) is False
    assert retried(NotControllerError(), (RequestTimedOutError,)) is True


def test_a_lost_answer_is_retried_and_leaves_a_written_change_open() -> None:
    assert retried(AnswerLostError("broker 1 did not answer"))
    assert AnswerLostError.change_applied == "if-written"


def test_what_is_no_library_error_is_never_retried() -> None:
    assert not retried(TimeoutError())
    assert not retried(ConnectionError())
    assert not answered_maybe_applied(ValueError())
    assert OutcomeUnknownError.retriable is False


def test_the_documented_table_has_a_row_per_exported_error_made_from_its_flags() -> None:
    # docs/sdk.md renders these rows (tools/docs/hooks.py, "retry-table").
    errors = [getattr(kafka_config_admin, name) for name in EXPORTED_ERRORS]
    rows = retry_table(errors)
    assert {row.name: (row.retried, row.change_applied) for row in rows} == EXPECTED
    codes = {row.name: row.code for row in rows}
    assert codes["KafkaConnectionError"] is None and codes["BrokerError"] is None
    assert codes["AuthorizationError"] is None
    assert codes["UnknownServerError"] == -1 and codes["NotControllerError"] == 41
