"""AlterClientQuotas (API key 49), KIP-546: set or remove quota keys, per entity."""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct
from .describe_client_quotas import ENTITY

VERSIONS = (0, 1)
FLEXIBLE_FROM = 1

REQUEST = Message(
    "AlterClientQuotasRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field(
            "entries",
            Array(
                Struct(
                    (
                        ENTITY,
                        Field(
                            "ops",
                            Array(
                                Struct(
                                    (
                                        Field("key", "string"),
                                        Field("value", "float64"),  # ignored when removing
                                        Field("remove", "bool"),
                                    )
                                )
                            ),
                        ),
                    )
                )
            ),
        ),
        Field("validate_only", "bool"),
    ),
)

RESPONSE = Message(
    "AlterClientQuotasResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32"),
        Field(
            "entries",
            Array(
                Struct(
                    (
                        Field("error_code", "int16"),
                        Field("error_message", "string", nullable=(0, None)),
                        ENTITY,
                    )
                )
            ),
        ),
    ),
)
