"""ListPartitionReassignments (API key 46): the reassignments in progress (KIP-455).

Always flexible; ``topics`` null lists every reassignment in progress.
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 0)
FLEXIBLE_FROM = 0

REQUEST = Message(
    "ListPartitionReassignmentsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("timeout_ms", "int32", default=60000),
        Field(
            "topics",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("partition_indexes", Array("int32")),
                    )
                )
            ),
            nullable=(0, None),
        ),
    ),
)

RESPONSE = Message(
    "ListPartitionReassignmentsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32", ignorable=True),
        Field("error_code", "int16"),
        Field("error_message", "string", nullable=(0, None)),
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
                                        Field("replicas", Array("int32")),
                                        Field("adding_replicas", Array("int32")),
                                        Field("removing_replicas", Array("int32")),
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
