"""What :meth:`AdminClient.describe_cluster` says of a cluster: its id, its nodes, its leader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ClusterDescription", "ClusterNode", "EndpointType", "WireTraffic"]

#: Which nodes a description lists: the brokers, or a KRaft controller quorum (KIP-919).
EndpointType = Literal["brokers", "controllers"]


@dataclass(frozen=True, slots=True)
class ClusterNode:
    """One node of a cluster description.

    Attributes:
        node_id: its ``node.id``.
        host: the host it is reached at, on the listener the client came through.
        port: the port.
        rack: its ``broker.rack``, None when it has none.
        fenced: the broker is registered with the cluster but fenced (stopped, or not caught
            up): listed only by ``describe_cluster(include_fenced=True)`` on Kafka 4.0+.
    """

    node_id: int
    host: str
    port: int
    rack: str | None
    fenced: bool = False


@dataclass(frozen=True, slots=True)
class ClusterDescription:
    """A cluster as one node describes it (DescribeCluster).

    Attributes:
        cluster_id: the cluster's id, as ``kafka-storage.sh`` formatted it.
        endpoint: ``"brokers"``, or ``"controllers"`` for a client made with
            ``bootstrap_controllers``: then ``nodes`` are the quorum's controllers.
        controller_id: the active controller of a quorum; of brokers, the broker the cluster
            names as controller (KRaft: one that forwards changes to the quorum's leader).
            None when it names none.
        nodes: the nodes, sorted by id.
        fenced_listed: whether ``nodes`` include the fenced brokers (asked for, and the broker
            can list them: DescribeCluster v2, Kafka 4.0+); else they are the live ones.
    """

    cluster_id: str
    endpoint: EndpointType
    controller_id: int | None
    nodes: tuple[ClusterNode, ...]
    fenced_listed: bool = False


@dataclass(frozen=True, slots=True)
class WireTraffic:
    """What a client's own requests carried since it was made (``AdminClient.traffic``).

    Bytes are whole frames (length prefix and header included) as written and read, before
    TLS; what each connection exchanges by itself (ApiVersions, SASL, metadata) is not counted.

    Attributes:
        requests: requests written.
        bytes_sent: their bytes.
        responses: responses read.
        bytes_received: their bytes.
    """

    requests: int
    bytes_sent: int
    responses: int
    bytes_received: int
