"""kafka-config-admin: read and change Apache Kafka configs from asyncio, safely.

The public API is what ``__all__`` lists; every module whose name starts with ``_`` is private.
"""

from ._client import DEFAULT_TIMEOUT, AdminClient
from ._exceptions import (
    AuthenticationError,
    AuthorizationError,
    BrokerError,
    BrokerIdNotRegisteredError,
    BrokerNotAvailableError,
    ClientClosedError,
    ClusterAuthorizationFailedError,
    DuplicateResourceError,
    GroupAuthorizationFailedError,
    InvalidArgumentError,
    InvalidConfigError,
    InvalidPartitionsError,
    InvalidReplicaAssignmentError,
    InvalidReplicationFactorError,
    InvalidRequestError,
    InvalidTopicError,
    KafkaConfigAdminError,
    KafkaConnectionError,
    KafkaTimeoutError,
    ListenerMismatchError,
    NetworkError,
    NotControllerError,
    OutcomeUnknownError,
    PolicyViolationError,
    ProtocolError,
    RequestTimedOutError,
    ResourceNotFoundError,
    ThrottlingQuotaExceededError,
    TlsError,
    TopicAlreadyExistsError,
    TopicAuthorizationFailedError,
    UnacceptableCredentialError,
    UnknownServerError,
    UnknownTopicOrPartitionError,
    UnsupportedSaslMechanismError,
    UnsupportedVersionError,
)
from ._models.configs import (
    HIDDEN,
    AlterConfigOp,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigSynonym,
    ConfigType,
    OpType,
    ResourceType,
    is_sensitive_name,
)
from ._models.quotas import (
    ClientQuotaAlteration,
    ClientQuotaEntity,
    ClientQuotaFilter,
    ClientQuotaFilterComponent,
    QuotaEntityType,
    QuotaMatchType,
)
from ._models.scram import (
    DEFAULT_SCRAM_ITERATIONS,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialsDescription,
    UserScramCredentialUpsertion,
)
from ._models.scram import MAX_ITERATIONS as MAX_SCRAM_ITERATIONS
from ._models.scram import MIN_ITERATIONS as MIN_SCRAM_ITERATIONS
from ._models.topics import CreatedTopic, NewTopic, TopicListing
from ._models.validation import MAX_BROKER_ID, is_broker_id
from ._net.oauth import TokenProvider
from ._ops.groups import GroupListing, ListGroupsResult
from ._ops.quotas import AlterClientQuotasResult, DescribeClientQuotasResult, QuotaValues
from ._ops.results import (
    AlterConfigsResult,
    CreateTopicsResult,
    DescribeConfigsResult,
    ResourceFuture,
)
from ._ops.scram import AlterUserScramCredentialsResult, DescribeUserScramCredentialsResult

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_SCRAM_ITERATIONS",
    "DEFAULT_TIMEOUT",
    "HIDDEN",
    "MAX_BROKER_ID",
    "MAX_SCRAM_ITERATIONS",
    "MIN_SCRAM_ITERATIONS",
    "AdminClient",
    "AlterClientQuotasResult",
    "AlterConfigOp",
    "AlterConfigsResult",
    "AlterUserScramCredentialsResult",
    "AuthenticationError",
    "AuthorizationError",
    "BrokerError",
    "BrokerIdNotRegisteredError",
    "BrokerNotAvailableError",
    "ClientClosedError",
    "ClientQuotaAlteration",
    "ClientQuotaEntity",
    "ClientQuotaFilter",
    "ClientQuotaFilterComponent",
    "ClusterAuthorizationFailedError",
    "Config",
    "ConfigEntry",
    "ConfigResource",
    "ConfigSource",
    "ConfigSynonym",
    "ConfigType",
    "CreateTopicsResult",
    "CreatedTopic",
    "DescribeClientQuotasResult",
    "DescribeConfigsResult",
    "DescribeUserScramCredentialsResult",
    "DuplicateResourceError",
    "GroupAuthorizationFailedError",
    "GroupListing",
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
    "ListGroupsResult",
    "ListenerMismatchError",
    "NetworkError",
    "NewTopic",
    "NotControllerError",
    "OpType",
    "OutcomeUnknownError",
    "PolicyViolationError",
    "ProtocolError",
    "QuotaEntityType",
    "QuotaMatchType",
    "QuotaValues",
    "RequestTimedOutError",
    "ResourceFuture",
    "ResourceNotFoundError",
    "ResourceType",
    "ScramCredentialInfo",
    "ScramMechanism",
    "ThrottlingQuotaExceededError",
    "TlsError",
    "TokenProvider",
    "TopicAlreadyExistsError",
    "TopicAuthorizationFailedError",
    "TopicListing",
    "UnacceptableCredentialError",
    "UnknownServerError",
    "UnknownTopicOrPartitionError",
    "UnsupportedSaslMechanismError",
    "UnsupportedVersionError",
    "UserScramCredentialAlteration",
    "UserScramCredentialDeletion",
    "UserScramCredentialUpsertion",
    "UserScramCredentialsDescription",
    "__version__",
    "is_broker_id",
    "is_sensitive_name",
]

# Show public names as kafka_config_admin.X rather than their private module.
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type):
        _obj.__module__ = __name__
del _name, _obj
