"""kafka-config-admin: read and change Apache Kafka configs from asyncio, safely.

The public API is what ``__all__`` lists; every module whose name starts with ``_`` is private.
"""

import typing as _typing

from ._exports import exported_names as _exported_names
from ._exports import lazy_exports as _lazy_exports

__version__ = "0.1.0"

if _typing.TYPE_CHECKING:
    from ._client import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
    from ._client import AdminClient as AdminClient
    from ._exceptions import AuthenticationError as AuthenticationError
    from ._exceptions import AuthorizationError as AuthorizationError
    from ._exceptions import BrokerError as BrokerError
    from ._exceptions import BrokerIdNotRegisteredError as BrokerIdNotRegisteredError
    from ._exceptions import BrokerNotAvailableError as BrokerNotAvailableError
    from ._exceptions import ChangeApplied as ChangeApplied
    from ._exceptions import ClientClosedError as ClientClosedError
    from ._exceptions import ClusterAuthorizationFailedError as ClusterAuthorizationFailedError
    from ._exceptions import CoordinatorLoadInProgressError as CoordinatorLoadInProgressError
    from ._exceptions import CoordinatorNotAvailableError as CoordinatorNotAvailableError
    from ._exceptions import DuplicateResourceError as DuplicateResourceError
    from ._exceptions import GroupAuthorizationFailedError as GroupAuthorizationFailedError
    from ._exceptions import InvalidArgumentError as InvalidArgumentError
    from ._exceptions import InvalidConfigError as InvalidConfigError
    from ._exceptions import InvalidPartitionsError as InvalidPartitionsError
    from ._exceptions import InvalidReplicaAssignmentError as InvalidReplicaAssignmentError
    from ._exceptions import InvalidReplicationFactorError as InvalidReplicationFactorError
    from ._exceptions import InvalidRequestError as InvalidRequestError
    from ._exceptions import InvalidTopicError as InvalidTopicError
    from ._exceptions import KafkaConfigAdminError as KafkaConfigAdminError
    from ._exceptions import KafkaConnectionError as KafkaConnectionError
    from ._exceptions import KafkaTimeoutError as KafkaTimeoutError
    from ._exceptions import ListenerMismatchError as ListenerMismatchError
    from ._exceptions import MismatchedEndpointTypeError as MismatchedEndpointTypeError
    from ._exceptions import NetworkError as NetworkError
    from ._exceptions import NoReassignmentInProgressError as NoReassignmentInProgressError
    from ._exceptions import NotControllerError as NotControllerError
    from ._exceptions import OutcomeUnknownError as OutcomeUnknownError
    from ._exceptions import PolicyViolationError as PolicyViolationError
    from ._exceptions import ProtocolError as ProtocolError
    from ._exceptions import ReassignmentInProgressError as ReassignmentInProgressError
    from ._exceptions import RequestTimedOutError as RequestTimedOutError
    from ._exceptions import ResourceNotFoundError as ResourceNotFoundError
    from ._exceptions import ThrottlingQuotaExceededError as ThrottlingQuotaExceededError
    from ._exceptions import TlsError as TlsError
    from ._exceptions import TopicAlreadyExistsError as TopicAlreadyExistsError
    from ._exceptions import TopicAuthorizationFailedError as TopicAuthorizationFailedError
    from ._exceptions import UnacceptableCredentialError as UnacceptableCredentialError
    from ._exceptions import UnknownServerError as UnknownServerError
    from ._exceptions import UnknownTopicOrPartitionError as UnknownTopicOrPartitionError
    from ._exceptions import UnsupportedEndpointTypeError as UnsupportedEndpointTypeError
    from ._exceptions import UnsupportedSaslMechanismError as UnsupportedSaslMechanismError
    from ._exceptions import UnsupportedVersionError as UnsupportedVersionError
    from ._models.catalog import CatalogKey as CatalogKey
    from ._models.catalog import CatalogMatch as CatalogMatch
    from ._models.catalog import ConfigCatalog as ConfigCatalog
    from ._models.catalog import UpdateMode as UpdateMode
    from ._models.catalog import ValidValues as ValidValues
    from ._models.catalog import ValueRule as ValueRule
    from ._models.cluster import ClusterDescription as ClusterDescription
    from ._models.cluster import ClusterNode as ClusterNode
    from ._models.cluster import EndpointType as EndpointType
    from ._models.cluster import WireTraffic as WireTraffic
    from ._models.configs import HIDDEN as HIDDEN
    from ._models.configs import AlterConfigOp as AlterConfigOp
    from ._models.configs import Config as Config
    from ._models.configs import ConfigEntry as ConfigEntry
    from ._models.configs import ConfigResource as ConfigResource
    from ._models.configs import ConfigSource as ConfigSource
    from ._models.configs import ConfigSynonym as ConfigSynonym
    from ._models.configs import ConfigType as ConfigType
    from ._models.configs import OpType as OpType
    from ._models.configs import ResourceType as ResourceType
    from ._models.configs import is_sensitive as is_sensitive
    from ._models.configs import kafka_string as kafka_string
    from ._models.listing import ConfigResourceListing as ConfigResourceListing
    from ._models.quotas import ClientQuotaAlteration as ClientQuotaAlteration
    from ._models.quotas import ClientQuotaEntity as ClientQuotaEntity
    from ._models.quotas import ClientQuotaFilter as ClientQuotaFilter
    from ._models.quotas import ClientQuotaFilterComponent as ClientQuotaFilterComponent
    from ._models.quotas import QuotaEntityType as QuotaEntityType
    from ._models.quotas import QuotaMatchType as QuotaMatchType
    from ._models.scram import (
        DEFAULT_SCRAM_ITERATIONS as DEFAULT_SCRAM_ITERATIONS,
    )
    from ._models.scram import (
        MAX_SCRAM_ITERATIONS as MAX_SCRAM_ITERATIONS,
    )
    from ._models.scram import (
        MIN_SCRAM_ITERATIONS as MIN_SCRAM_ITERATIONS,
    )
    from ._models.scram import ScramCredentialInfo as ScramCredentialInfo
    from ._models.scram import ScramMechanism as ScramMechanism
    from ._models.scram import UserScramCredentialAlteration as UserScramCredentialAlteration
    from ._models.scram import UserScramCredentialDeletion as UserScramCredentialDeletion
    from ._models.scram import UserScramCredentialsDescription as UserScramCredentialsDescription
    from ._models.scram import UserScramCredentialUpsertion as UserScramCredentialUpsertion
    from ._models.topics import CreatedTopic as CreatedTopic
    from ._models.topics import NewPartitions as NewPartitions
    from ._models.topics import NewTopic as NewTopic
    from ._models.topics import PartitionInfo as PartitionInfo
    from ._models.topics import PartitionReassignment as PartitionReassignment
    from ._models.topics import TopicDescription as TopicDescription
    from ._models.topics import TopicListing as TopicListing
    from ._models.topics import TopicPartition as TopicPartition
    from ._net.oauth import TokenProvider as TokenProvider
    from ._ops.groups import GroupListing as GroupListing
    from ._ops.groups import ListGroupsResult as ListGroupsResult
    from ._ops.quotas import AlterClientQuotasResult as AlterClientQuotasResult
    from ._ops.quotas import DescribeClientQuotasResult as DescribeClientQuotasResult
    from ._ops.quotas import QuotaValues as QuotaValues
    from ._ops.results import AlterConfigsResult as AlterConfigsResult
    from ._ops.results import AlterPartitionReassignmentsResult as AlterPartitionReassignmentsResult
    from ._ops.results import CreatePartitionsResult as CreatePartitionsResult
    from ._ops.results import CreateTopicsResult as CreateTopicsResult
    from ._ops.results import DescribeConfigsResult as DescribeConfigsResult
    from ._ops.results import DescribeTopicsResult as DescribeTopicsResult
    from ._ops.results import ResourceFuture as ResourceFuture
    from ._ops.scram import AlterUserScramCredentialsResult as AlterUserScramCredentialsResult
    from ._ops.scram import DescribeUserScramCredentialsResult as DescribeUserScramCredentialsResult


#: Type checkers read the names that moved to the faces' toolkit from there (the runtime warns:
#: ``_MOVED``).
if _typing.TYPE_CHECKING:
    from .toolkit import MAX_BROKER_ID as MAX_BROKER_ID
    from .toolkit import argument_error as argument_error
    from .toolkit import catalog_releases as catalog_releases
    from .toolkit import check_quota_value as check_quota_value
    from .toolkit import check_seconds as check_seconds
    from .toolkit import check_security_option as check_security_option
    from .toolkit import check_security_settings as check_security_settings
    from .toolkit import cut_short as cut_short
    from .toolkit import decoding_problem as decoding_problem
    from .toolkit import error_line as error_line
    from .toolkit import is_broker_id as is_broker_id
    from .toolkit import is_sensitive_name as is_sensitive_name
    from .toolkit import load_catalog as load_catalog
    from .toolkit import match_catalog as match_catalog
    from .toolkit import quota_value_text as quota_value_text
    from .toolkit import releases_with_key as releases_with_key
    from .toolkit import shorten as shorten
    from .toolkit import translate_error as translate_error
    from .toolkit import uses_sasl as uses_sasl
    from .toolkit import uses_tls as uses_tls


#: Where each public name lives: the one list of them (``__all__`` is made from it, and the
#: ``TYPE_CHECKING`` imports above, for type checkers, are tested against it). A name is
#: imported the first time it is asked for (PEP 562):
#: ``import kafka_config_admin`` builds no model, loads no codec and imports neither aiokafka nor
#: pydantic, so the command line's ``--help`` and a Spark task pay only for what they use.
#: Classes show this package as their
#: module rather than their private one.
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
        "CoordinatorLoadInProgressError",
        "CoordinatorNotAvailableError",
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
        "TopicAlreadyExistsError",
        "TopicAuthorizationFailedError",
        "UnacceptableCredentialError",
        "UnknownServerError",
        "UnknownTopicOrPartitionError",
        "UnsupportedEndpointTypeError",
        "UnsupportedSaslMechanismError",
        "UnsupportedVersionError",
    ),
    "._models.catalog": (
        "CatalogKey",
        "CatalogMatch",
        "ConfigCatalog",
        "UpdateMode",
        "ValidValues",
        "ValueRule",
    ),
    "._models.cluster": ("ClusterDescription", "ClusterNode", "EndpointType", "WireTraffic"),
    "._models.listing": ("ConfigResourceListing",),
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
        "is_sensitive",
        "kafka_string",
    ),
    "._models.quotas": (
        "ClientQuotaAlteration",
        "ClientQuotaEntity",
        "ClientQuotaFilter",
        "ClientQuotaFilterComponent",
        "QuotaEntityType",
        "QuotaMatchType",
    ),
    "._models.scram": (
        "DEFAULT_SCRAM_ITERATIONS",
        "ScramCredentialInfo",
        "ScramMechanism",
        "UserScramCredentialAlteration",
        "UserScramCredentialDeletion",
        "UserScramCredentialsDescription",
        "UserScramCredentialUpsertion",
        "MAX_SCRAM_ITERATIONS",
        "MIN_SCRAM_ITERATIONS",
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
    "._net.oauth": ("TokenProvider",),
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
#: The names that moved to :mod:`kafka_config_admin.toolkit` (what only the faces share), still
#: read here for one release with a ``DeprecationWarning``; neither in ``__all__`` nor kept here.
_MOVED: dict[str, str] = {
    "MAX_BROKER_ID": "kafka_config_admin.toolkit.MAX_BROKER_ID",
    "argument_error": "kafka_config_admin.toolkit.argument_error",
    "catalog_releases": "kafka_config_admin.toolkit.catalog_releases",
    "check_quota_value": "kafka_config_admin.toolkit.check_quota_value",
    "check_seconds": "kafka_config_admin.toolkit.check_seconds",
    "check_security_option": "kafka_config_admin.toolkit.check_security_option",
    "check_security_settings": "kafka_config_admin.toolkit.check_security_settings",
    "cut_short": "kafka_config_admin.toolkit.cut_short",
    "decoding_problem": "kafka_config_admin.toolkit.decoding_problem",
    "error_line": "kafka_config_admin.toolkit.error_line",
    "is_broker_id": "kafka_config_admin.toolkit.is_broker_id",
    "is_sensitive_name": "kafka_config_admin.toolkit.is_sensitive_name",
    "load_catalog": "kafka_config_admin.toolkit.load_catalog",
    "match_catalog": "kafka_config_admin.toolkit.match_catalog",
    "quota_value_text": "kafka_config_admin.toolkit.quota_value_text",
    "releases_with_key": "kafka_config_admin.toolkit.releases_with_key",
    "shorten": "kafka_config_admin.toolkit.shorten",
    "translate_error": "kafka_config_admin.toolkit.translate_error",
    "uses_sasl": "kafka_config_admin.toolkit.uses_sasl",
    "uses_tls": "kafka_config_admin.toolkit.uses_tls",
}
__all__ = _exported_names(_HOMES, also=("__version__",))
__getattr__, __dir__ = _lazy_exports(globals(), _HOMES, show_as_package=True, moved=_MOVED)
