"""CreatePartitions (API key 37): more partitions for existing topics (KIP-195).

Flexible from v2; v3 is v2 as Kafka 3.x+ speaks it (it may answer THROTTLING_QUOTA_EXCEEDED,
KIP-599). ``assignments`` null lets the controller place the new partitions.
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 3)
FLEXIBLE_FROM = 2

REQUEST = Message(
    "CreatePartitionsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field(
            "topics",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("count", "int32"),  # the new total partition count
                        Field(
                            "assignments",
                            Array(Struct((Field("broker_ids", Array("int32")),))),
                            nullable=(0, None),
                        ),
                    )
                )
            ),
        ),
        Field("timeout_ms", "int32"),
        Field("validate_only", "bool"),
    ),
)

RESPONSE = Message(
    "CreatePartitionsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32", ignorable=True),
        Field(
            "results",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("error_code", "int16"),
                        Field("error_message", "string", nullable=(0, None)),
                    )
                )
            ),
        ),
    ),
)
