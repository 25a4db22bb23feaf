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
    #: Ask for the fenced brokers too (v2, Kafka 4.0+, KIP-1073; brokers only).
    include_fenced: bool = False
    #: The version of the last request built (the broker's, negotiated on its connection).
    version: int = -1

    codec = DESCRIBE_CLUSTER
    throttle_from_version = 0
    hedged = True  # a read: asking a second node is harmless

    @classmethod
    def build(cls, *, controllers: bool, include_fenced: bool = False) -> DescribeCluster:
        return cls(controllers=controllers, include_fenced=include_fenced)

    @property
    def resources(self) -> list[None]:
        return [_CLUSTER]

    def body(self, resources: Sequence[None], version: int) -> dict[str, Any]:
        self.version = version
        return {
            "endpoint_type": CONTROLLERS if self.controllers else BROKERS,
            "include_fenced_brokers": self.fenced_asked,
        }

    @property
    def fenced_asked(self) -> bool:
        """Whether the request built asks for fenced brokers (a broker from Kafka 4.0)."""
        return self.include_fenced and not self.controllers and self.version >= 2

    def outcomes(
        self, resources: Sequence[None], response: Mapping[str, Any]
    ) -> Iterator[tuple[None, ClusterDescription | BrokerError]]:
        code = response["error_code"]
        if code:
            yield _CLUSTER, error_for_code(code, response["error_message"], resource="the cluster")
            return
        nodes = sorted(
            (
                ClusterNode(
                    node["broker_id"],
                    node["host"],
                    node["port"],
                    node["rack"],
                    fenced=bool(node.get("is_fenced", False)),
                )
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
                fenced_listed=self.fenced_asked,
            ),
        )

    def subject(self, resource: None) -> object:
        return "the cluster"
