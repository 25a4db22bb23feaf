"""ApiVersions (API key 18): the API versions and feature levels one broker supports.

aiokafka asks v0 when it opens a connection, which says nothing of features. From v3 (Kafka
2.8, KIP-584) the answer carries, in tagged fields, the features the broker supports and the
cluster-wide finalized feature levels (``metadata.version``, ``eligible.leader.replicas.version``
...). Flexible from v3, but the response header stays v0 in every version: a client that does
not know the broker's versions yet must be able to read it.
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 4)
FLEXIBLE_FROM = 3

REQUEST = Message(
    "ApiVersionsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("client_software_name", "string", versions=(3, None), ignorable=True),
        Field("client_software_version", "string", versions=(3, None), ignorable=True),
    ),
)

RESPONSE = Message(
    "ApiVersionsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("error_code", "int16"),
        Field(
            "api_keys",
            Array(
                Struct(
                    (
                        Field("api_key", "int16"),
                        Field("min_version", "int16"),
                        Field("max_version", "int16"),
                    )
                )
            ),
        ),
        Field("throttle_time_ms", "int32", versions=(1, None), ignorable=True),
        Field(
            "supported_features",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("min_version", "int16"),
                        Field("max_version", "int16"),
                    )
                )
            ),
            versions=(3, None),
            ignorable=True,
            tag=0,
        ),
        Field(
            "finalized_features_epoch",
            "int64",
            versions=(3, None),
            default=-1,
            ignorable=True,
            tag=1,
        ),
        Field(
            "finalized_features",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("max_version_level", "int16"),
                        Field("min_version_level", "int16"),
                    )
                )
            ),
            versions=(3, None),
            ignorable=True,
            tag=2,
        ),
        Field("zk_migration_ready", "bool", versions=(3, None), ignorable=True, tag=3),
    ),
)
