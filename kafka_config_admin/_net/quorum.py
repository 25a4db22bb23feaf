"""A KRaft controller quorum's nodes, for a client bootstrapped from controllers (KIP-919).

A controller serves no Metadata: its quorum's nodes, their addresses on the listener the client
came through and the active controller come from DescribeCluster with ``EndpointType=2``
(v1, Kafka 3.7). This is the pool's ``Discovery`` for ``bootstrap_controllers``; a server that
is a broker, or a controller too old to answer, is said to be what it is.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .._exceptions import KafkaConfigAdminError, MismatchedEndpointTypeError, error_for_code
from .._protocol import DESCRIBE_CLUSTER
from .._protocol.describe_cluster import CONTROLLERS
from .connections import (
    METADATA_KEY,
    BrokerAddress,
    BrokerConnection,
    Discovery,
    Nodes,
    translate_error,
)
from .wire import Traffic, WireRequest

__all__ = ["quorum_discovery"]


def quorum_discovery(wait: float) -> Discovery:
    """The ``Discovery`` of a controller quorum, each DescribeCluster waiting ``wait`` seconds."""

    async def quorum_nodes(conn: BrokerConnection) -> Nodes:
        return await _describe_quorum(conn, wait)

    return quorum_nodes


async def _describe_quorum(conn: BrokerConnection, wait: float) -> Nodes:
    where = f"{conn.host}:{conn.port}"
    versions: dict[int, tuple[int, int]] = conn._versions
    served = versions.get(DESCRIBE_CLUSTER.api_key)
    if served is None or served[1] < 1:
        kind = "a broker" if METADATA_KEY in versions else "not a controller of Kafka 3.7+"
        raise MismatchedEndpointTypeError(
            f"{where} is {kind}: bootstrap_controllers takes the controllers' listeners "
            "(controller.listener.names, KIP-919, Kafka 3.7+); give a broker's address as "
            "bootstrap_servers"
        )
    answer: asyncio.Future[dict[str, Any] | KafkaConfigAdminError]
    answer = asyncio.get_running_loop().create_future()
    request = WireRequest(
        -1,
        DESCRIBE_CLUSTER,
        lambda version: {"endpoint_type": CONTROLLERS},
        None,
        wait=wait,
        on_answer=lambda outcome: None if answer.done() else answer.set_result(outcome),
        answered_at={},
        throttle_from_version=0,
        throttled=lambda node, ms: None,
        traffic=Traffic(),  # the connection's discovery, not one of the client's requests
        controller=True,
    )
    try:
        request.send_on(conn)
    except KafkaConfigAdminError:
        raise
    except Exception as error:
        raise translate_error(error, where) from error
    outcome = await answer
    if isinstance(outcome, KafkaConfigAdminError):
        raise outcome
    if outcome["error_code"]:
        refusal = error_for_code(outcome["error_code"], outcome["error_message"])
        if isinstance(refusal, MismatchedEndpointTypeError):
            raise MismatchedEndpointTypeError(
                f"{where} is a broker's listener, not a controller's: give it as "
                "bootstrap_servers, or the controllers' listeners as bootstrap_controllers"
            )
        raise type(refusal)(f"{where} refused DescribeCluster: {refusal}", code=refusal.code)
    addresses = {
        node["broker_id"]: BrokerAddress(node["host"], node["port"]) for node in outcome["brokers"]
    }
    racks = {node["broker_id"]: node["rack"] for node in outcome["brokers"]}
    leader = outcome["controller_id"]
    return Nodes(addresses, racks, leader if leader >= 0 else None, outcome["cluster_id"])
