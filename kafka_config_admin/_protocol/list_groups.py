"""ListGroups (API key 16): the groups one broker coordinates.

Each broker answers only for the groups whose coordinator it is, so a full list asks every
broker. Flexible from v3; v4 adds the states filter and each group's state (KIP-518), v5 the
types filter and each group's type (KIP-848).
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 5)
FLEXIBLE_FROM = 3

REQUEST = Message(
    "ListGroupsRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("states_filter", Array("string"), versions=(4, None)),
        Field("types_filter", Array("string"), versions=(5, None)),
    ),
)

RESPONSE = Message(
    "ListGroupsResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32", versions=(1, None), ignorable=True),
        Field("error_code", "int16"),
        Field(
            "groups",
            Array(
                Struct(
                    (
                        Field("group_id", "string"),
                        Field("protocol_type", "string"),
                        Field("group_state", "string", versions=(4, None), ignorable=True),
                        Field("group_type", "string", versions=(5, None), ignorable=True),
                    )
                )
            ),
        ),
    ),
)
