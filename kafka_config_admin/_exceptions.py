"""The exception hierarchy of kafka-config-admin.

Every error this library raises is a :class:`KafkaConfigAdminError`::

    KafkaConfigAdminError
    ├── InvalidArgumentError            bad input caught before anything is sent (also ValueError)
    ├── ProtocolError                   bytes from the broker that do not decode
    ├── KafkaConnectionError            no connection to the cluster or to one broker (retriable)
    │   ├── TlsError                    TLS failed: untrusted certificate, name, client cert
    │   └── ListenerMismatchError       the listener expects SASL or TLS, or does not speak SASL
    ├── AuthenticationError             SASL said no: wrong user, password or mechanism
    ├── KafkaTimeoutError               the call's deadline passed (also builtin TimeoutError)
    │   └── OutcomeUnknownError         a change was sent, its answer never came: read it back
    ├── ClientClosedError               the client was closed before the work finished
    └── BrokerError                     the broker answered with a Kafka error code
        ├── UnknownServerError                  -1
        ├── UnknownTopicOrPartitionError         3
        ├── RequestTimedOutError                 7  (retriable)
        ├── BrokerNotAvailableError              8
        ├── NetworkError                        13  (retriable)
        ├── InvalidTopicError                   17
        ├── AuthorizationError
        │   ├── TopicAuthorizationFailedError   29
        │   ├── GroupAuthorizationFailedError   30
        │   └── ClusterAuthorizationFailedError 31
        ├── UnsupportedSaslMechanismError       33
        ├── UnsupportedVersionError             35  (also raised when no common version exists)
        ├── TopicAlreadyExistsError             36
        ├── InvalidPartitionsError              37
        ├── InvalidReplicationFactorError       38
        ├── InvalidReplicaAssignmentError       39
        ├── InvalidConfigError                  40
        ├── NotControllerError                  41  (retriable)
        ├── InvalidRequestError                 42
        ├── PolicyViolationError                44
        ├── ReassignmentInProgressError         60
        ├── NoReassignmentInProgressError       85
        ├── ThrottlingQuotaExceededError        89  (retriable)
        ├── ResourceNotFoundError               91
        ├── DuplicateResourceError              92
        ├── UnacceptableCredentialError         93
        ├── BrokerIdNotRegisteredError         102
        ├── MismatchedEndpointTypeError        114  (a broker given as a controller, or back)
        └── UnsupportedEndpointTypeError       115  (a call a controller does not serve)

A code without a class of its own maps to :class:`BrokerError` itself, carrying the code.
Errors from aiokafka and the network are translated in one place, ``_net.connections``.

The retry table: two class attributes of every error say what the engine does with it, and
the engine reads nothing else (``_engine/retries.py``; docs/sdk.md shows them as a table).
``retriable``: the engine sends the same request again, with backoff, until the call's
deadline (an operation may name errors it does not retry, ``Operation.not_retried``).
``change_applied``: whether a change that ended in this error may have been applied all the
same: ``"no"`` (refused for certain, or never sent), ``"maybe"`` (read it back), or
``"if-written"`` (only when the request reached the network before the failure; the error's
message says which).
"""

from __future__ import annotations

from typing import ClassVar, Literal

__all__ = [
    "AuthenticationError",
    "AuthorizationError",
    "BrokerError",
    "BrokerIdNotRegisteredError",
    "BrokerNotAvailableError",
    "ChangeApplied",
    "ClientClosedError",
    "ClusterAuthorizationFailedError",
    "DuplicateResourceError",
    "GroupAuthorizationFailedError",
    "InvalidArgumentError",
    "InvalidConfigError",
    "InvalidPartitionsError",
    "InvalidReplicaAssignmentError",
    "InvalidReplicationFactorError",
    "InvalidRequestError",
    "InvalidTopicError",
    "KafkaConfigAdminError",
    "KafkaConnectionError",
    "KafkaTimeoutError",
    "ListenerMismatchError",
    "MismatchedEndpointTypeError",
    "NetworkError",
    "NoReassignmentInProgressError",
    "NotControllerError",
    "OutcomeUnknownError",
    "PolicyViolationError",
    "ProtocolError",
    "ReassignmentInProgressError",
    "RequestTimedOutError",
    "ResourceNotFoundError",
    "ThrottlingQuotaExceededError",
    "TlsError",
    "TlsFailure",
    "TopicAlreadyExistsError",
    "TopicAuthorizationFailedError",
    "UnacceptableCredentialError",
    "UnknownServerError",
    "UnknownTopicOrPartitionError",
    "UnsupportedEndpointTypeError",
    "UnsupportedSaslMechanismError",
    "UnsupportedVersionError",
    "error_for_code",
    "error_line",
]


#: Whether a change that ended in an error may have been applied (see the module's docstring).
ChangeApplied = Literal["no", "maybe", "if-written"]


class KafkaConfigAdminError(Exception):
    """Base class of every error raised by kafka-config-admin."""

    #: True when the engine sends the same request again after this error (until the deadline).
    retriable: ClassVar[bool] = False
    #: Whether a change that ended in this error may have been applied all the same.
    change_applied: ClassVar[ChangeApplied] = "no"


class InvalidArgumentError(KafkaConfigAdminError, ValueError):
    """The caller passed input that cannot be sent; nothing was sent."""


class ProtocolError(KafkaConfigAdminError):
    """A response could not be decoded, or did not answer the request that was sent."""

    # The broker answered, so it handled the request: what it did cannot be read.
    change_applied = "maybe"


class KafkaConnectionError(KafkaConfigAdminError):
    """The cluster, or the broker a request had to go to, could not be reached."""

    retriable = True
    # A connection that broke after the request was written may have carried it.
    change_applied = "if-written"


class ListenerMismatchError(KafkaConnectionError):
    """The listener speaks another security protocol than the client's.

    A PLAINTEXT client at a SASL or TLS listener, or a SASL client at a listener without SASL:
    the message names the listener, the client's ``security_protocol`` and what to use.
    """

    retriable = False


TlsFailure = Literal[
    "untrusted-certificate",
    "hostname-mismatch",
    "client-certificate-refused",
    "not-tls",
    "handshake-failed",
]


class TlsError(KafkaConnectionError):
    """A TLS connection to a broker failed; trying again with the same settings will not help.

    Attributes:
        address: the broker's ``host:port``.
        failure: what went wrong: ``"untrusted-certificate"`` (the client does not trust the
            CA that signed the broker's certificate), ``"hostname-mismatch"`` (the certificate
            does not name the host connected to), ``"client-certificate-refused"`` (the
            listener requires a client certificate, none was sent or it was not trusted),
            ``"not-tls"`` (the port does not speak TLS) or ``"handshake-failed"``.
    """

    retriable = False

    def __init__(self, address: str, failure: TlsFailure, detail: str) -> None:
        self.address = address
        self.failure: TlsFailure = failure
        super().__init__(f"TLS with {address} failed: {detail}")


class AuthenticationError(KafkaConfigAdminError):
    """The broker refused the credentials (SASL) or the mechanism."""


class KafkaTimeoutError(KafkaConfigAdminError, TimeoutError):
    """The call's deadline passed before every resource had an answer."""


class OutcomeUnknownError(KafkaTimeoutError):
    """A change was sent, but no answer came before the deadline: it may have been applied.

    The request reached the network (it was written, then the connection broke or the broker
    did not answer in time), so the broker may have applied it. Read the resource back
    (``describe_configs``, ``describe_client_quotas``...) to learn its state; every config and
    quota change this library sends is idempotent, so sending it again is safe.
    """

    change_applied = "maybe"


class ClientClosedError(KafkaConfigAdminError):
    """The client was closed (or never opened) while the call needed it.

    For a change, the message starts "outcome unknown" when its request had been written, and
    "not applied" when it had not.
    """

    change_applied = "if-written"


class BrokerError(KafkaConfigAdminError):
    """The broker answered with a Kafka error code.

    Attributes:
        code: the Kafka error code (``INVALID_CONFIG`` is 40, and so on).
        error_name: the protocol's name for the code, such as ``"INVALID_CONFIG"``.
        broker_message: the broker's own explanation, when it sent one.
        resource: what the error is about, when it is about one: a ``ConfigResource`` for the
            config and topic calls (a topic is ``ConfigResource(TOPIC, name)``).
    """

    code: int = -1000
    error_name: str = "UNKNOWN_ERROR_CODE"

    def __init__(
        self,
        broker_message: str | None = None,
        *,
        resource: object | None = None,
        code: int | None = None,
    ) -> None:
        self.broker_message = broker_message
        self.resource = resource
        if code is not None:
            self.code = code
        super().__init__(self._describe())

    def _describe(self) -> str:
        where = f" for {self.resource}" if self.resource is not None else ""
        text = f"{self.error_name} (error code {self.code}){where}"
        return f"{text}: {self.broker_message}" if self.broker_message else text


class AuthorizationError(BrokerError):
    """The principal is not allowed to do this (an ACL said no)."""


class UnknownServerError(BrokerError):
    """The broker hit an unexpected error while handling the request."""

    code = -1
    error_name = "UNKNOWN_SERVER_ERROR"


class UnknownTopicOrPartitionError(BrokerError):
    """The topic does not exist (on this broker's view of the cluster).

    Not retried: a missing topic is an answer, and a call about one would otherwise wait out
    its whole deadline. (Kafka's Java clients retry it, since their producers and consumers
    wait for topics to appear; an admin call asks about the cluster as it is.)
    """

    code = 3
    error_name = "UNKNOWN_TOPIC_OR_PARTITION"


class RequestTimedOutError(BrokerError):
    """The broker timed out while handling the request."""

    code = 7
    error_name = "REQUEST_TIMED_OUT"
    retriable = True
    # A broker that forwards a change answers this when the controller is late, and the
    # controller may still apply it.
    change_applied = "maybe"


class BrokerNotAvailableError(BrokerError):
    """The broker is not available."""

    code = 8
    error_name = "BROKER_NOT_AVAILABLE"


class NetworkError(BrokerError):
    """The broker lost a connection while handling the request."""

    code = 13
    error_name = "NETWORK_EXCEPTION"
    retriable = True
    # The broker lost its own connection (to the controller, say) after taking the change.
    change_applied = "maybe"


class CoordinatorLoadInProgressError(BrokerError):
    """The broker is still loading its group coordinator's state (after a start or a move of
    the coordinator): a group listing or describe is answered once it is loaded."""

    code = 14
    error_name = "COORDINATOR_LOAD_IN_PROGRESS"
    retriable = True


class CoordinatorNotAvailableError(BrokerError):
    """The broker's group coordinator is not available yet (it is starting, or its internal
    offsets topic is being created)."""

    code = 15
    error_name = "COORDINATOR_NOT_AVAILABLE"
    retriable = True


class InvalidTopicError(BrokerError):
    """The topic name is not valid."""

    code = 17
    error_name = "INVALID_TOPIC_EXCEPTION"


class TopicAuthorizationFailedError(AuthorizationError):
    """The principal may not describe or alter this topic."""

    code = 29
    error_name = "TOPIC_AUTHORIZATION_FAILED"


class GroupAuthorizationFailedError(AuthorizationError):
    """The principal may not describe or alter this group."""

    code = 30
    error_name = "GROUP_AUTHORIZATION_FAILED"


class ClusterAuthorizationFailedError(AuthorizationError):
    """The principal may not describe or alter cluster resources."""

    code = 31
    error_name = "CLUSTER_AUTHORIZATION_FAILED"


class UnsupportedSaslMechanismError(BrokerError):
    """The broker does not know or allow this SASL mechanism (a SCRAM credential's, say)."""

    code = 33
    error_name = "UNSUPPORTED_SASL_MECHANISM"


class UnsupportedVersionError(BrokerError):
    """The broker does not speak a version of the API that this request needs."""

    code = 35
    error_name = "UNSUPPORTED_VERSION"


class TopicAlreadyExistsError(BrokerError):
    """A topic of that name exists already."""

    code = 36
    error_name = "TOPIC_ALREADY_EXISTS"


class InvalidPartitionsError(BrokerError):
    """The number of partitions is not valid (below 1, or above what the broker allows)."""

    code = 37
    error_name = "INVALID_PARTITIONS"


class InvalidReplicationFactorError(BrokerError):
    """The replication factor is not valid: below 1, or more than the brokers available."""

    code = 38
    error_name = "INVALID_REPLICATION_FACTOR"


class InvalidReplicaAssignmentError(BrokerError):
    """A manual replica assignment is not valid (unknown brokers, uneven or missing partitions)."""

    code = 39
    error_name = "INVALID_REPLICA_ASSIGNMENT"


class InvalidConfigError(BrokerError):
    """A config name or value was refused (unknown key, bad value, APPEND on a non-list...)."""

    code = 40
    error_name = "INVALID_CONFIG"


class NotControllerError(BrokerError):
    """The request reached a broker that is not the controller."""

    code = 41
    error_name = "NOT_CONTROLLER"
    retriable = True


class InvalidRequestError(BrokerError):
    """The broker found the request malformed (duplicate names, wrong broker id...)."""

    code = 42
    error_name = "INVALID_REQUEST"


class PolicyViolationError(BrokerError):
    """The broker's policy (AlterConfigPolicy, CreateTopicPolicy) rejected the change."""

    code = 44
    error_name = "POLICY_VIOLATION"


class ReassignmentInProgressError(BrokerError):
    """A partition of the topic is being reassigned: its partitions cannot change meanwhile."""

    code = 60
    error_name = "REASSIGNMENT_IN_PROGRESS"


class NoReassignmentInProgressError(BrokerError):
    """A reassignment to cancel is not in progress (it completed, or never started)."""

    code = 85
    error_name = "NO_REASSIGNMENT_IN_PROGRESS"


class ThrottlingQuotaExceededError(BrokerError):
    """The principal exceeded its controller mutation quota."""

    code = 89
    error_name = "THROTTLING_QUOTA_EXCEEDED"
    retriable = True


class ResourceNotFoundError(BrokerError):
    """The resource does not exist."""

    code = 91
    error_name = "RESOURCE_NOT_FOUND"


class DuplicateResourceError(BrokerError):
    """The same resource appeared twice in one request."""

    code = 92
    error_name = "DUPLICATE_RESOURCE"


class UnacceptableCredentialError(BrokerError):
    """The broker refused a SCRAM credential: an empty user name, too few or many iterations."""

    code = 93
    error_name = "UNACCEPTABLE_CREDENTIAL"


class BrokerIdNotRegisteredError(BrokerError):
    """The broker id is not registered in the cluster."""

    code = 102
    error_name = "BROKER_ID_NOT_REGISTERED"


class MismatchedEndpointTypeError(BrokerError):
    """A request went to the wrong kind of node: a broker given where a KRaft controller was
    expected (``bootstrap_controllers``), or a controller given as a broker."""

    code = 114
    error_name = "MISMATCHED_ENDPOINT_TYPE"


class UnsupportedEndpointTypeError(BrokerError):
    """The call is not served by the kind of node the client talks to: a KRaft controller
    (``bootstrap_controllers``) serves configs, loggers and its quorum's nodes, not topics,
    groups, quotas or SCRAM credentials (KIP-919)."""

    code = 115
    error_name = "UNSUPPORTED_ENDPOINT_TYPE"


_BY_CODE: dict[int, type[BrokerError]] = {
    cls.code: cls
    for cls in (
        UnknownServerError,
        UnknownTopicOrPartitionError,
        RequestTimedOutError,
        BrokerNotAvailableError,
        NetworkError,
        CoordinatorLoadInProgressError,
        CoordinatorNotAvailableError,
        InvalidTopicError,
        TopicAuthorizationFailedError,
        GroupAuthorizationFailedError,
        ClusterAuthorizationFailedError,
        UnsupportedSaslMechanismError,
        UnsupportedVersionError,
        TopicAlreadyExistsError,
        InvalidPartitionsError,
        InvalidReplicationFactorError,
        InvalidReplicaAssignmentError,
        InvalidConfigError,
        NotControllerError,
        InvalidRequestError,
        PolicyViolationError,
        ReassignmentInProgressError,
        NoReassignmentInProgressError,
        ThrottlingQuotaExceededError,
        ResourceNotFoundError,
        DuplicateResourceError,
        UnacceptableCredentialError,
        BrokerIdNotRegisteredError,
        MismatchedEndpointTypeError,
        UnsupportedEndpointTypeError,
    )
}


def error_for_code(
    code: int, broker_message: str | None = None, *, resource: object | None = None
) -> BrokerError:
    """Build the typed exception for a non-zero Kafka error code."""
    cls = _BY_CODE.get(code, BrokerError)
    return cls(broker_message, resource=resource, code=code)


def error_line(error: BaseException) -> str:
    """An error's message on one line (its class's name when it has none): how the CLI, the
    web editor and the connection settings quote an error inside their own message."""
    return " ".join(str(error).split()) or type(error).__name__
