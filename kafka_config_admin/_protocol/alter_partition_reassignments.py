"""AlterPartitionReassignments (API key 45): move partitions' replicas (KIP-455).

Always flexible. A partition's ``replicas`` null cancels its pending reassignment. v1 adds
``allow_replication_factor_change`` (KIP-860; true, the v0 behaviour, by default).
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 1)
FLEXIBLE_FROM = 0

REQUEST = Message(
    "AlterPartitionReassignmentsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("timeout_ms", "int32", default=60000),
        # Not ignorable: a v0 broker always allows the change, so "refuse it" cannot be sent.
        Field("allow_replication_factor_change", "bool", versions=(1, None), default=True),
        Field(
            "topics",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field(
                            "partitions",
                            Array(
                                Struct(
                                    (
                                        Field("partition_index", "int32"),
                                        Field("replicas", Array("int32"), nullable=(0, None)),
                                    )
                                )
                            ),
                        ),
                    )
                )
            ),
        ),
    ),
)

RESPONSE = Message(
    "AlterPartitionReassignmentsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32", ignorable=True),
        Field(
            "allow_replication_factor_change",
            "bool",
            versions=(1, None),
            default=True,
            ignorable=True,
        ),
        Field("error_code", "int16"),
        Field("error_message", "string", nullable=(0, None)),
        Field(
            "responses",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field(
                            "partitions",
                            Array(
                                Struct(
                                    (
                                        Field("partition_index", "int32"),
                                        Field("error_code", "int16"),
                                        Field("error_message", "string", nullable=(0, None)),
                                    )
                                )
                            ),
                        ),
                    )
                )
            ),
        ),
    ),
)
