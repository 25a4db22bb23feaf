"""DescribeUserScramCredentials (API key 50), KIP-554: mechanisms and iterations per user."""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 0)
FLEXIBLE_FROM = 0

#: A user's outcome; AlterUserScramCredentials answers with the same fields.
USER_OUTCOME = (
    Field("user", "string"),
    Field("error_code", "int16"),
    Field("error_message", "string", nullable=(0, None)),
)

REQUEST = Message(
    "DescribeUserScramCredentialsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    # Null or empty asks for every user that has credentials.
    (Field("users", Array(Struct((Field("name", "string"),))), nullable=(0, None)),),
)

RESPONSE = Message(
    "DescribeUserScramCredentialsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32"),
        Field("error_code", "int16"),
        Field("error_message", "string", nullable=(0, None)),
        Field(
            "results",
            Array(
                Struct(
                    (
                        *USER_OUTCOME,
                        Field(
                            "credential_infos",
                            Array(
                                Struct((Field("mechanism", "int8"), Field("iterations", "int32")))
                            ),
                        ),
                    )
                )
            ),
        ),
    ),
)
