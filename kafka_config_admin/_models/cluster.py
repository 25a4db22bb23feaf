"""What :meth:`AdminClient.describe_cluster` says of a cluster: its id, its nodes, its leader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ClusterDescription", "ClusterNode", "EndpointType"]

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
    """

    node_id: int
    host: str
    port: int
    rack: str | None


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
    """

    cluster_id: str
    endpoint: EndpointType
    controller_id: int | None
    nodes: tuple[ClusterNode, ...]
