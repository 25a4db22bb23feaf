"""AlterConfigs (API key 33), KIP-133: replaces a resource's whole set of dynamic configs."""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 2)
FLEXIBLE_FROM = 2

REQUEST = Message(
    "AlterConfigsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field(
            "resources",
            Array(
                Struct(
                    (
                        Field("resource_type", "int8"),
                        Field("resource_name", "string"),
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
        Field("validate_only", "bool"),
    ),
)

#: Per-resource outcomes; IncrementalAlterConfigs answers with the same shape.
RESPONSE_FIELDS = (
    Field("throttle_time_ms", "int32"),
    Field(
        "responses",
        Array(
            Struct(
                (
                    Field("error_code", "int16"),
                    Field("error_message", "string", nullable=(0, None)),
                    Field("resource_type", "int8"),
                    Field("resource_name", "string"),
                )
            )
        ),
    ),
)

RESPONSE = Message("AlterConfigsResponse", VERSIONS, FLEXIBLE_FROM, RESPONSE_FIELDS)
