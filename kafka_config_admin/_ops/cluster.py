"""DescribeCluster: a cluster's id, its nodes and its controller (no I/O).

A client bootstrapped from controllers asks for ``EndpointType=2`` (KIP-919) and gets the
quorum's controllers; one bootstrapped from brokers gets the brokers.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._exceptions import BrokerError, error_for_code
from .._models.cluster import ClusterDescription, ClusterNode
from .._protocol import DESCRIBE_CLUSTER
from .._protocol.describe_cluster import BROKERS, CONTROLLERS
from .base import Operation

__all__ = ["DescribeCluster"]

#: The one key of a description: a single outcome, the whole cluster.
_CLUSTER = None


@dataclass
class DescribeCluster(Operation[None, ClusterDescription]):
    """DescribeCluster of the brokers, or of a controller quorum (``controllers``)."""

    controllers: bool

    codec = DESCRIBE_CLUSTER
    throttle_from_version = 0
    hedged = True  # a read: asking a second node is harmless

    @classmethod
    def build(cls, *, controllers: bool) -> DescribeCluster:
        return cls(controllers=controllers)

    @property
    def resources(self) -> list[None]:
        return [_CLUSTER]

    def body(self, resources: Sequence[None], version: int) -> dict[str, Any]:
        return {"endpoint_type": CONTROLLERS if self.controllers else BROKERS}

    def outcomes(
        self, resources: Sequence[None], response: Mapping[str, Any]
    ) -> Iterator[tuple[None, ClusterDescription | BrokerError]]:
        code = response["error_code"]
        if code:
            yield _CLUSTER, error_for_code(code, response["error_message"], resource="the cluster")
            return
        nodes = sorted(
            (
                ClusterNode(node["broker_id"], node["host"], node["port"], node["rack"])
                for node in response["brokers"]
            ),
            key=lambda node: node.node_id,
        )
        controller = response["controller_id"]
        yield (
            _CLUSTER,
            ClusterDescription(
                cluster_id=response["cluster_id"],
                endpoint="controllers" if self.controllers else "brokers",
                controller_id=controller if controller >= 0 else None,
                nodes=tuple(nodes),
            ),
        )

    def subject(self, resource: None) -> object:
        return "the cluster"
