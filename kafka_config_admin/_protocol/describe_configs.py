"""DescribeConfigs (API key 32): KIP-133, synonyms from v1 (KIP-226), type and docs from v3."""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 4)
FLEXIBLE_FROM = 4

REQUEST = Message(
    "DescribeConfigsRequest",
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
                        Field("configuration_keys", Array("string"), nullable=(0, None)),
                    )
                )
            ),
        ),
        Field("include_synonyms", "bool", versions=(1, None)),
        Field("include_documentation", "bool", versions=(3, None)),
    ),
)

RESPONSE = Message(
    "DescribeConfigsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32"),
        Field(
            "results",
            Array(
                Struct(
                    (
                        Field("error_code", "int16"),
                        Field("error_message", "string", nullable=(0, None)),
                        Field("resource_type", "int8"),
                        Field("resource_name", "string"),
                        Field(
                            "configs",
                            Array(
                                Struct(
                                    (
                                        Field("name", "string"),
                                        Field("value", "string", nullable=(0, None)),
                                        Field("read_only", "bool"),
                                        Field("is_default", "bool", versions=(0, 0)),
                                        Field(
                                            "config_source",
                                            "int8",
                                            versions=(1, None),
                                            default=-1,
                                            ignorable=True,
                                        ),
                                        Field("is_sensitive", "bool"),
                                        Field(
                                            "synonyms",
                                            Array(
                                                Struct(
                                                    (
                                                        Field("name", "string"),
                                                        Field(
                                                            "value", "string", nullable=(0, None)
                                                        ),
                                                        Field("source", "int8"),
                                                    )
                                                )
                                            ),
                                            versions=(1, None),
                                            ignorable=True,
                                        ),
                                        Field(
                                            "config_type",
                                            "int8",
                                            versions=(3, None),
                                            ignorable=True,
                                        ),
                                        Field(
                                            "documentation",
                                            "string",
                                            versions=(3, None),
                                            nullable=(0, None),
                                            ignorable=True,
                                        ),
                                    ),
                                    shared=True,  # most entries repeat across resources
                                )
                            ),
                        ),
                    )
                )
            ),
        ),
    ),
)
