"""DescribeCluster (API key 60): a cluster's id, its nodes and which of them leads.

Brokers answer it from Kafka 2.8 (KIP-700) with the brokers; v1 (Kafka 3.7, KIP-919) asks for an
endpoint type, and a controller answers ``EndpointType=2`` with the quorum's controllers and the
active one as ``ControllerId``: how a client bootstrapped from controllers finds them, since a
controller serves no Metadata. v2 (KIP-1073) may list fenced brokers too. Flexible in every
version.
"""

from __future__ import annotations

from ._schema import Array, Field, Message, Struct

VERSIONS = (0, 2)
FLEXIBLE_FROM = 0

#: ``EndpointType`` values: the brokers, or the controller quorum.
BROKERS, CONTROLLERS = 1, 2

REQUEST = Message(
    "DescribeClusterRequest",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("include_cluster_authorized_operations", "bool"),
        Field("endpoint_type", "int8", versions=(1, None), default=BROKERS),
        Field("include_fenced_brokers", "bool", versions=(2, None)),
    ),
)

RESPONSE = Message(
    "DescribeClusterResponse",
    VERSIONS,
    FLEXIBLE_FROM,
    (
        Field("throttle_time_ms", "int32"),
        Field("error_code", "int16"),
        Field("error_message", "string", nullable=(0, None)),
        Field("endpoint_type", "int8", versions=(1, None), default=BROKERS),
        Field("cluster_id", "string"),
        Field("controller_id", "int32", default=-1),
        Field(
            "brokers",
            Array(
                Struct(
                    (
                        Field("broker_id", "int32"),
                        Field("host", "string"),
                        Field("port", "int32"),
                        Field("rack", "string", nullable=(0, None)),
                        Field("is_fenced", "bool", versions=(2, None)),
                    )
                )
            ),
        ),
        Field("cluster_authorized_operations", "int32", default=-(2**31)),
    ),
)
