"""IncrementalAlterConfigs (API key 44), KIP-339: SET, DELETE, APPEND, SUBTRACT per config."""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct
from .alter_configs import RESPONSE_FIELDS

VERSIONS = (0, 1)
FLEXIBLE_FROM = 1

REQUEST = Message(
    "IncrementalAlterConfigsRequest",
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
                                        Field("config_operation", "int8"),
                                        Field("value", "string", nullable=(0, None)),
                                    )
                                ),
                                repeats=True,
                            ),
                        ),
                    )
                )
            ),
        ),
        Field("validate_only", "bool"),
    ),
)

RESPONSE = Message("IncrementalAlterConfigsResponse", VERSIONS, FLEXIBLE_FROM, RESPONSE_FIELDS)
