"""ListConfigResources (API key 74): the config resources a broker can list, of given types.

Kafka 3.7 brought the key as ListClientMetricsResources (v0, KIP-714: the client-metrics
resources, no types asked); Kafka 4.1 renamed it (KIP-1142) and v1 asks for resource types and
names each resource's type, groups that exist only as config included. A v0 answer's resources
are client-metrics ones (the schema's default type, 16). Flexible in every version.
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 1)
FLEXIBLE_FROM = 0

#: The type of a v0 answer's resources: CLIENT_METRICS.
CLIENT_METRICS_TYPE = 16

REQUEST = Message(
    "ListConfigResourcesRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (Field("resource_types", Array("int8"), versions=(1, None)),),
)

RESPONSE = Message(
    "ListConfigResourcesResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32"),
        Field("error_code", "int16"),
        Field(
            "config_resources",
            Array(
                Struct(
                    (
                        Field("resource_name", "string"),
                        Field(
                            "resource_type",
                            "int8",
                            versions=(1, None),
                            ignorable=True,
                            default=CLIENT_METRICS_TYPE,
                        ),
                    )
                )
            ),
        ),
    ),
)
