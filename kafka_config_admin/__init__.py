"""kafka-config-admin: read and change Apache Kafka configs from asyncio, safely.

The public API is what ``__all__`` lists; every module whose name starts with ``_`` is private.
"""

import typing as _typing
from importlib import import_module as _import_module

__version__ = "0.1.0"

if _typing.TYPE_CHECKING:
    from ._client import DEFAULT_TIMEOUT, AdminClient
    from ._exceptions import (
        AuthenticationError,
        AuthorizationError,
        BrokerError,
        BrokerIdNotRegisteredError,
        BrokerNotAvailableError,
        ChangeApplied,
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
        NoReassignmentInProgressError,
        NotControllerError,
        OutcomeUnknownError,
        PolicyViolationError,
        ProtocolError,
        ReassignmentInProgressError,
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
        error_line,
    )
    from ._models.catalog import (
        CatalogKey,
        CatalogMatch,
        ConfigCatalog,
        UpdateMode,
        ValidValues,
        catalog_releases,
        load_catalog,
        match_catalog,
        releases_with_key,
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
        argument_error,
        is_sensitive,
        is_sensitive_name,
    )
    from ._models.quotas import (
        ClientQuotaAlteration,
        ClientQuotaEntity,
        ClientQuotaFilter,
        ClientQuotaFilterComponent,
        QuotaEntityType,
        QuotaMatchType,
        check_quota_value,
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
    from ._models.topics import (
        CreatedTopic,
        NewPartitions,
        NewTopic,
        PartitionInfo,
        PartitionReassignment,
        TopicDescription,
        TopicListing,
        TopicPartition,
    )
    from ._models.validation import MAX_BROKER_ID, check_seconds, is_broker_id
    from ._net.connections import translate_error
    from ._net.oauth import TokenProvider
    from ._net.security import check_security_option, check_security_settings
    from ._net.security_protocols import uses_sasl, uses_tls
    from ._ops.groups import GroupListing, ListGroupsResult
    from ._ops.quotas import AlterClientQuotasResult, DescribeClientQuotasResult, QuotaValues
    from ._ops.results import (
        AlterConfigsResult,
        AlterPartitionReassignmentsResult,
        CreatePartitionsResult,
        CreateTopicsResult,
        DescribeConfigsResult,
        DescribeTopicsResult,
        ResourceFuture,
    )
    from ._ops.scram import AlterUserScramCredentialsResult, DescribeUserScramCredentialsResult

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
    "AlterPartitionReassignmentsResult",
    "AlterUserScramCredentialsResult",
    "AuthenticationError",
    "AuthorizationError",
    "BrokerError",
    "BrokerIdNotRegisteredError",
    "BrokerNotAvailableError",
    "CatalogKey",
    "CatalogMatch",
    "ChangeApplied",
    "ClientClosedError",
    "ClientQuotaAlteration",
    "ClientQuotaEntity",
    "ClientQuotaFilter",
    "ClientQuotaFilterComponent",
    "ClusterAuthorizationFailedError",
    "Config",
    "ConfigCatalog",
    "ConfigEntry",
    "ConfigResource",
    "ConfigSource",
    "ConfigSynonym",
    "ConfigType",
    "CreatePartitionsResult",
    "CreateTopicsResult",
    "CreatedTopic",
    "DescribeClientQuotasResult",
    "DescribeConfigsResult",
    "DescribeTopicsResult",
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
    "NewPartitions",
    "NewTopic",
    "NoReassignmentInProgressError",
    "NotControllerError",
    "OpType",
    "OutcomeUnknownError",
    "PartitionInfo",
    "PartitionReassignment",
    "PolicyViolationError",
    "ProtocolError",
    "QuotaEntityType",
    "QuotaMatchType",
    "QuotaValues",
    "ReassignmentInProgressError",
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
    "TopicDescription",
    "TopicListing",
    "TopicPartition",
    "UnacceptableCredentialError",
    "UnknownServerError",
    "UnknownTopicOrPartitionError",
    "UnsupportedSaslMechanismError",
    "UnsupportedVersionError",
    "UpdateMode",
    "UserScramCredentialAlteration",
    "UserScramCredentialDeletion",
    "UserScramCredentialUpsertion",
    "UserScramCredentialsDescription",
    "ValidValues",
    "__version__",
    "argument_error",
    "catalog_releases",
    "check_quota_value",
    "check_seconds",
    "check_security_option",
    "check_security_settings",
    "error_line",
    "is_broker_id",
    "is_sensitive",
    "is_sensitive_name",
    "load_catalog",
    "match_catalog",
    "releases_with_key",
    "translate_error",
    "uses_sasl",
    "uses_tls",
]

#: Where each public name lives. A name is imported the first time it is asked for (PEP 562):
#: ``import kafka_config_admin`` builds no model, loads no codec and imports neither aiokafka nor
#: pydantic, so the command line's ``--help`` and a Spark task pay only for what they use.
#: ``NAME=ATTRIBUTE`` exports a module's ATTRIBUTE as NAME.
_HOMES: dict[str, tuple[str, ...]] = {
    "._client": (
        "DEFAULT_TIMEOUT",
        "AdminClient",
    ),
    "._exceptions": (
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
        "TopicAlreadyExistsError",
        "TopicAuthorizationFailedError",
        "UnacceptableCredentialError",
        "UnknownServerError",
        "UnknownTopicOrPartitionError",
        "UnsupportedSaslMechanismError",
        "UnsupportedVersionError",
        "error_line",
    ),
    "._models.catalog": (
        "CatalogKey",
        "CatalogMatch",
        "ConfigCatalog",
        "UpdateMode",
        "ValidValues",
        "catalog_releases",
        "load_catalog",
        "match_catalog",
        "releases_with_key",
    ),
    "._models.configs": (
        "HIDDEN",
        "AlterConfigOp",
        "Config",
        "ConfigEntry",
        "ConfigResource",
        "ConfigSource",
        "ConfigSynonym",
        "ConfigType",
        "OpType",
        "ResourceType",
        "argument_error",
        "is_sensitive",
        "is_sensitive_name",
    ),
    "._models.quotas": (
        "ClientQuotaAlteration",
        "ClientQuotaEntity",
        "ClientQuotaFilter",
        "ClientQuotaFilterComponent",
        "QuotaEntityType",
        "QuotaMatchType",
        "check_quota_value",
    ),
    "._models.scram": (
        "DEFAULT_SCRAM_ITERATIONS",
        "ScramCredentialInfo",
        "ScramMechanism",
        "UserScramCredentialAlteration",
        "UserScramCredentialDeletion",
        "UserScramCredentialsDescription",
        "UserScramCredentialUpsertion",
        "MAX_SCRAM_ITERATIONS=MAX_ITERATIONS",
        "MIN_SCRAM_ITERATIONS=MIN_ITERATIONS",
    ),
    "._models.topics": (
        "CreatedTopic",
        "NewPartitions",
        "NewTopic",
        "PartitionInfo",
        "PartitionReassignment",
        "TopicDescription",
        "TopicListing",
        "TopicPartition",
    ),
    "._models.validation": (
        "MAX_BROKER_ID",
        "check_seconds",
        "is_broker_id",
    ),
    "._net.connections": ("translate_error",),
    "._net.oauth": ("TokenProvider",),
    "._net.security": ("check_security_option", "check_security_settings"),
    "._net.security_protocols": ("uses_sasl", "uses_tls"),
    "._ops.groups": (
        "GroupListing",
        "ListGroupsResult",
    ),
    "._ops.quotas": (
        "AlterClientQuotasResult",
        "DescribeClientQuotasResult",
        "QuotaValues",
    ),
    "._ops.results": (
        "AlterConfigsResult",
        "AlterPartitionReassignmentsResult",
        "CreatePartitionsResult",
        "CreateTopicsResult",
        "DescribeConfigsResult",
        "DescribeTopicsResult",
        "ResourceFuture",
    ),
    "._ops.scram": (
        "AlterUserScramCredentialsResult",
        "DescribeUserScramCredentialsResult",
    ),
}
_MODULE_OF = {
    exported.partition("=")[0]: module for module, names in _HOMES.items() for exported in names
}


def __getattr__(name: str) -> object:
    """Import the module a public name lives in, and every public name of that module."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    home = _MODULE_OF[name]
    module = _import_module(home, __name__)
    for exported in _HOMES[home]:
        public, _, attribute = exported.partition("=")
        value = getattr(module, attribute or public)
        if isinstance(value, type):
            # Show public names as kafka_config_admin.X rather than their private module.
            value.__module__ = __name__
        globals()[public] = value
    return globals()[name]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
