"""Kafka wire codecs for the config, topic, client-quota and SCRAM-credential APIs (private).

One module per API declares its request and response schema (``describe_configs``,
``alter_configs``, ``incremental_alter_configs``, ``metadata``, ``describe_cluster``,
``create_topics``, ``describe_client_quotas``, ``alter_client_quotas``,
``describe_user_scram_credentials``, ``alter_user_scram_credentials``, ``list_groups``,
``list_config_resources``, ``api_versions``, ``create_partitions``,
``alter_partition_reassignments``, ``list_partition_reassignments``); ``_schema`` compiles
them; ``_header`` does the request and response headers. Bodies are plain dicts with snake_case
keys; every key of every version is present after decoding (fields a version lacks take their
schema default). Unknown tagged fields are skipped, not kept. Identical items of a shared struct
decode to one object (``Struct(shared=True)``), so decoded bodies must not be mutated.
Undecodable bytes raise ProtocolError; a body that cannot be encoded raises
InvalidArgumentError, or UnsupportedVersionError for a non-ignorable field the version lacks
and for a version outside ``min_version``-``max_version``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import (
    alter_configs,
    api_versions,
    describe_cluster,
    describe_configs,
    incremental_alter_configs,
    list_config_resources,
    metadata,
)
from ._header import decode_response_header, encode_request_header
from ._schema import Memo, Message
from .answered_by import ANSWERED_BY, Answerer

__all__ = [
    "ALTER_CLIENT_QUOTAS",
    "ALTER_CONFIGS",
    "ALTER_PARTITION_REASSIGNMENTS",
    "ALTER_USER_SCRAM_CREDENTIALS",
    "ANSWERED_BY",
    "API_VERSIONS",
    "CREATE_PARTITIONS",
    "CREATE_TOPICS",
    "DESCRIBE_CLIENT_QUOTAS",
    "DESCRIBE_CLUSTER",
    "DESCRIBE_CONFIGS",
    "DESCRIBE_USER_SCRAM_CREDENTIALS",
    "INCREMENTAL_ALTER_CONFIGS",
    "LIST_CONFIG_RESOURCES",
    "LIST_GROUPS",
    "LIST_PARTITION_REASSIGNMENTS",
    "METADATA",
    "Answerer",
    "ApiCodec",
    "Memo",
    "decode_response_header",
    "encode_request_header",
]


@dataclass(frozen=True)
class ApiCodec:
    """The request and response codecs of one API, every version it may be spoken at."""

    name: str
    api_key: int
    request: Message
    response: Message
    #: The first Kafka release whose brokers answer the API (so an older broker is named).
    since: str
    #: Whether a flexible version's response has the flexible header (v1); ApiVersions' has
    #: header v0 in every version, so that any client can read it.
    flexible_response_header: bool = True

    @property
    def min_version(self) -> int:
        return self.request.versions[0]

    @property
    def max_version(self) -> int:
        return self.request.versions[1]

    def is_flexible(self, version: int) -> bool:
        return self.request.flexible(version)

    def is_response_header_flexible(self, version: int) -> bool:
        return self.flexible_response_header and self.is_flexible(version)

    def encode_request(self, version: int, body: Mapping[str, Any]) -> bytes:
        return self.request.encode(version, body)

    def decode_request(
        self, version: int, data: bytes | memoryview, offset: int = 0
    ) -> dict[str, Any]:
        return self.request.decode(version, data, offset)

    def encode_response(self, version: int, body: Mapping[str, Any]) -> bytes:
        return self.response.encode(version, body)

    def decode_response(
        self, version: int, data: bytes | memoryview, offset: int = 0, memo: Memo | None = None
    ) -> dict[str, Any]:
        return self.response.decode(version, data, offset, memo)


DESCRIBE_CONFIGS = ApiCodec(
    "DescribeConfigs", 32, describe_configs.REQUEST, describe_configs.RESPONSE, "0.11.0"
)
ALTER_CONFIGS = ApiCodec(
    "AlterConfigs", 33, alter_configs.REQUEST, alter_configs.RESPONSE, "0.11.0"
)
INCREMENTAL_ALTER_CONFIGS = ApiCodec(
    "IncrementalAlterConfigs",
    44,
    incremental_alter_configs.REQUEST,
    incremental_alter_configs.RESPONSE,
    "2.3",
)
DESCRIBE_CLUSTER = ApiCodec(
    "DescribeCluster", 60, describe_cluster.REQUEST, describe_cluster.RESPONSE, "2.8"
)
METADATA = ApiCodec("Metadata", 3, metadata.REQUEST, metadata.RESPONSE, "0.8.0")
API_VERSIONS = ApiCodec(
    "ApiVersions",
    18,
    api_versions.REQUEST,
    api_versions.RESPONSE,
    "0.10.0",
    flexible_response_header=False,
)
LIST_CONFIG_RESOURCES = ApiCodec(
    "ListConfigResources",
    74,
    list_config_resources.REQUEST,
    list_config_resources.RESPONSE,
    "3.7",
)


# The codecs of calls other than the config calls are built when first read (PEP 562): a
# program that imports the client pays for the APIs it speaks (``nox -s bench -- cli``).
#: Each codec's module, then its ``ApiCodec`` name, key and first release.
_LATER: dict[str, tuple[str, str, int, str]] = {
    "DESCRIBE_CLIENT_QUOTAS": ("describe_client_quotas", "DescribeClientQuotas", 48, "2.6"),
    "ALTER_CLIENT_QUOTAS": ("alter_client_quotas", "AlterClientQuotas", 49, "2.6"),
    "DESCRIBE_USER_SCRAM_CREDENTIALS": (
        "describe_user_scram_credentials",
        "DescribeUserScramCredentials",
        50,
        "2.7",
    ),
    "ALTER_USER_SCRAM_CREDENTIALS": (
        "alter_user_scram_credentials",
        "AlterUserScramCredentials",
        51,
        "2.7",
    ),
    "CREATE_TOPICS": ("create_topics", "CreateTopics", 19, "0.10.1"),
    "LIST_GROUPS": ("list_groups", "ListGroups", 16, "0.9.0"),
    "CREATE_PARTITIONS": ("create_partitions", "CreatePartitions", 37, "1.0.0"),
    "ALTER_PARTITION_REASSIGNMENTS": (
        "alter_partition_reassignments",
        "AlterPartitionReassignments",
        45,
        "2.4",
    ),
    "LIST_PARTITION_REASSIGNMENTS": (
        "list_partition_reassignments",
        "ListPartitionReassignments",
        46,
        "2.4",
    ),
}

if TYPE_CHECKING:
    DESCRIBE_CLIENT_QUOTAS: ApiCodec
    ALTER_CLIENT_QUOTAS: ApiCodec
    DESCRIBE_USER_SCRAM_CREDENTIALS: ApiCodec
    ALTER_USER_SCRAM_CREDENTIALS: ApiCodec
    CREATE_TOPICS: ApiCodec
    LIST_GROUPS: ApiCodec
    CREATE_PARTITIONS: ApiCodec
    ALTER_PARTITION_REASSIGNMENTS: ApiCodec
    LIST_PARTITION_REASSIGNMENTS: ApiCodec


def __getattr__(name: str) -> ApiCodec:
    """A codec of ``_LATER``, built (its schema module imported) the first time it is read."""
    later = _LATER.get(name)
    if later is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, api, api_key, since = later
    module = importlib.import_module(f"{__name__}.{module_name}")
    codec = ApiCodec(api, api_key, module.REQUEST, module.RESPONSE, since)
    globals()[name] = codec  # read once: the same object ever after
    return codec
