"""kafka-config-admin: read and change Apache Kafka configs from asyncio, safely.

The public API is what ``__all__`` lists; every module whose name starts with ``_`` is private.
"""

from ._client import AdminClient
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
    AlterConfigOp,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigSynonym,
    ConfigType,
    OpType,
    ResourceType,
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
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialDeletion,
    UserScramCredentialsDescription,
    UserScramCredentialUpsertion,
)
from ._models.topics import CreatedTopic, NewTopic, TopicListing
from ._net.oauth import TokenProvider
from ._ops.groups import GroupListing, ListGroupsResult
from ._ops.results import (
    AlterConfigsResult,
    CreateTopicsResult,
    DescribeConfigsResult,
    ResourceFuture,
)

__version__ = "0.1.0"

__all__ = [
    "AdminClient",
    "AlterConfigOp",
    "AlterConfigsResult",
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
    "DescribeConfigsResult",
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
    "NetworkError",
    "NewTopic",
    "NotControllerError",
    "OpType",
    "OutcomeUnknownError",
    "PolicyViolationError",
    "ProtocolError",
    "QuotaEntityType",
    "QuotaMatchType",
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
    "UserScramCredentialDeletion",
    "UserScramCredentialUpsertion",
    "UserScramCredentialsDescription",
    "__version__",
]

# Show public names as kafka_config_admin.X rather than their private module.
for _name in __all__:
    _obj = globals()[_name]
    if isinstance(_obj, type):
        _obj.__module__ = __name__
del _name, _obj
