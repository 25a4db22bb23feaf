"""Metadata (API key 3): the cluster's brokers and topics; topic ids from v10 (KIP-516).

The SDK asks it for the topic list (``topics`` null: every topic). Versions as Kafka 4.x
speaks them: flexible from v9, topic names nullable from v12 (topics asked for by id), a
top-level error code from v13.
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 13)
FLEXIBLE_FROM = 9

#: ``topic_authorized_operations`` and ``cluster_authorized_operations`` when not asked for.
NO_AUTHORIZED_OPERATIONS = -(2**31)

REQUEST = Message(
    "MetadataRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field(
            "topics",
            Array(
                Struct(
                    (
                        Field("topic_id", "uuid", versions=(10, None), ignorable=True),
                        Field("name", "string", nullable=(10, None)),
                    )
                )
            ),
            nullable=(1, None),  # null: every topic (v0: an empty array)
        ),
        Field("allow_auto_topic_creation", "bool", versions=(4, None), default=True),
        Field("include_cluster_authorized_operations", "bool", versions=(8, 10)),
        Field("include_topic_authorized_operations", "bool", versions=(8, None)),
    ),
)

RESPONSE = Message(
    "MetadataResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32", versions=(3, None), ignorable=True),
        Field(
            "brokers",
            Array(
                Struct(
                    (
                        Field("node_id", "int32"),
                        Field("host", "string"),
                        Field("port", "int32"),
                        Field(
                            "rack",
                            "string",
                            versions=(1, None),
                            nullable=(1, None),
                            ignorable=True,
                        ),
                    )
                )
            ),
        ),
        Field("cluster_id", "string", versions=(2, None), nullable=(2, None), ignorable=True),
        Field("controller_id", "int32", versions=(1, None), default=-1, ignorable=True),
        Field(
            "topics",
            Array(
                Struct(
                    (
                        Field("error_code", "int16"),
                        Field("name", "string", nullable=(12, None)),
                        Field("topic_id", "uuid", versions=(10, None), ignorable=True),
                        Field("is_internal", "bool", versions=(1, None), ignorable=True),
                        Field(
                            "partitions",
                            Array(
                                Struct(
                                    (
                                        Field("error_code", "int16"),
                                        Field("partition_index", "int32"),
                                        Field("leader_id", "int32"),
                                        Field(
                                            "leader_epoch",
                                            "int32",
                                            versions=(7, None),
                                            default=-1,
                                            ignorable=True,
                                        ),
                                        Field("replica_nodes", Array("int32")),
                                        Field("isr_nodes", Array("int32")),
                                        Field(
                                            "offline_replicas",
                                            Array("int32"),
                                            versions=(5, None),
                                            ignorable=True,
                                        ),
                                    )
                                )
                            ),
                        ),
                        Field(
                            "topic_authorized_operations",
                            "int32",
                            versions=(8, None),
                            default=NO_AUTHORIZED_OPERATIONS,
                        ),
                    )
                )
            ),
        ),
        Field(
            "cluster_authorized_operations",
            "int32",
            versions=(8, 10),
            default=NO_AUTHORIZED_OPERATIONS,
        ),
        Field("error_code", "int16", versions=(13, None), ignorable=True),
    ),
)
