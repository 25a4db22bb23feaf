"""AlterUserScramCredentials (API key 51), KIP-554: upsert or delete SCRAM credentials.

The client sends a salt and the salted password (RFC 5802), never the password itself.
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct
from .describe_user_scram_credentials import USER_OUTCOME

VERSIONS = (0, 0)
FLEXIBLE_FROM = 0

REQUEST = Message(
    "AlterUserScramCredentialsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field(
            "deletions",
            Array(Struct((Field("name", "string"), Field("mechanism", "int8")))),
        ),
        Field(
            "upsertions",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("mechanism", "int8"),
                        Field("iterations", "int32"),
                        Field("salt", "bytes"),
                        Field("salted_password", "bytes"),
                    )
                )
            ),
        ),
    ),
)

RESPONSE = Message(
    "AlterUserScramCredentialsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32"),
        Field("results", Array(Struct(USER_OUTCOME))),
    ),
)
