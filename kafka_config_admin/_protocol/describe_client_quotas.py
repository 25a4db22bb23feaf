"""DescribeClientQuotas (API key 48), KIP-546: the quotas of entities matching a filter."""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 1)
FLEXIBLE_FROM = 1

#: A quota entity as the wire carries it: (type, name) pairs, a null name for the default.
ENTITY = Field(
    "entity",
    Array(
        Struct(
            (
                Field("entity_type", "string"),
                Field("entity_name", "string", nullable=(0, None)),
            )
        )
    ),
)

REQUEST = Message(
    "DescribeClientQuotasRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field(
            "components",
            Array(
                Struct(
                    (
                        Field("entity_type", "string"),
                        Field("match_type", "int8"),  # 0 exact name, 1 default, 2 any
                        Field("match", "string", nullable=(0, None)),
                    )
                )
            ),
        ),
        Field("strict", "bool"),
    ),
)

RESPONSE = Message(
    "DescribeClientQuotasResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32"),
        Field("error_code", "int16"),
        Field("error_message", "string", nullable=(0, None)),
        Field(
            "entries",
            Array(
                Struct(
                    (
                        ENTITY,
                        Field(
                            "values",
                            Array(Struct((Field("key", "string"), Field("value", "float64")))),
                        ),
                    )
                )
            ),
            nullable=(0, None),
        ),
    ),
)
