"""CreateTopics (API key 19): v2-v7, the versions Kafka 4.x speaks (KIP-896 removed v0-v1).

Flexible from v5; from v5 the response also carries each new topic's partitions, replication
factor and configs (KIP-525), or a tagged ``topic_config_error_code`` when the configs cannot
be shown; from v7 its topic id.
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (2, 7)
FLEXIBLE_FROM = 5

REQUEST = Message(
    "CreateTopicsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field(
            "topics",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("num_partitions", "int32"),  # -1: the broker's default
                        Field("replication_factor", "int16"),  # -1: the broker's default
                        Field(
                            "assignments",
                            Array(
                                Struct(
                                    (
                                        Field("partition_index", "int32"),
                                        Field("broker_ids", Array("int32")),
                                    )
                                )
                            ),
                        ),
                        Field(
                            "configs",
                            Array(
                                Struct(
                                    (
                                        Field("name", "string"),
                                        Field("value", "string", nullable=(0, None)),
                                    )
                                )
                            ),
                        ),
                    )
                )
            ),
        ),
        Field("timeout_ms", "int32", default=60000),
        Field("validate_only", "bool", versions=(1, None)),
    ),
)

RESPONSE = Message(
    "CreateTopicsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32", versions=(2, None), ignorable=True),
        Field(
            "topics",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("topic_id", "uuid", versions=(7, None), ignorable=True),
                        Field("error_code", "int16"),
                        Field(
                            "error_message",
                            "string",
                            versions=(1, None),
                            nullable=(0, None),
                            ignorable=True,
                        ),
                        Field(
                            "topic_config_error_code",
                            "int16",
                            versions=(5, None),
                            tag=0,
                            ignorable=True,
                        ),
                        Field(
                            "num_partitions",
                            "int32",
                            versions=(5, None),
                            default=-1,
                            ignorable=True,
                        ),
                        Field(
                            "replication_factor",
                            "int16",
                            versions=(5, None),
                            default=-1,
                            ignorable=True,
                        ),
                        Field(
                            "configs",
                            Array(
                                Struct(
                                    (
                                        Field("name", "string"),
                                        Field("value", "string", nullable=(0, None)),
                                        Field("read_only", "bool"),
                                        Field(
                                            "config_source",
                                            "int8",
                                            default=-1,
                                            ignorable=True,
                                        ),
                                        Field("is_sensitive", "bool"),
                                    )
                                )
                            ),
                            versions=(5, None),
                            nullable=(5, None),
                            ignorable=True,
                        ),
                    )
                )
            ),
        ),
    ),
)
