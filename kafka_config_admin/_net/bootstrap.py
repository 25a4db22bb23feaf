"""Bootstrap: reach a cluster through the first bootstrap server that answers, or say why none did.

A server that fails is said as what it did (``connections.connection_failure``). Two failures
look alike to aiokafka, a connection closed at the first request, and are told apart here by
asking again on a connection of our own: a TLS 1.3 broker that refuses the client's
certificate after the handshake (a request of ours sees the alert), and a broker that refuses
an OAUTHBEARER token with an error challenge aiokafka takes for success.
"""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from typing import Any

import anyio

from .._exceptions import AuthenticationError, KafkaConfigAdminError, KafkaConnectionError
from .connections import BrokerAddress, ConnectionPool, Discovery
from .oauth import TOKEN_REFUSED_HINT, token_refusal_alone
from .tls import probe_tls

__all__ = ["bootstrap", "clearest_failure"]


async def bootstrap(
    bootstrap_servers: str,
    options: Mapping[str, Any],
    *,
    ssl_context: ssl.SSLContext | None,
    oauth: bool,
    probe_timeout: float,
    discover: Discovery | None = None,
) -> ConnectionPool:
    """A pool of connections to the cluster, its nodes read from a bootstrap server.

    ``options`` are aiokafka's connection options; ``oauth``: whether they authenticate with
    OAUTHBEARER; ``probe_timeout``: how long a TLS probe of a failed server waits;
    ``discover``: how the nodes are read (default: the brokers, from Metadata). Raises the
    clearest of the servers' failures when none answered.
    """
    pool = ConnectionPool(bootstrap_servers, options, discover)
    try:
        failures = await pool.bootstrap()
        if failures:
            raise await clearest_failure(
                pool,
                failures,
                bootstrap_servers,
                ssl_context=ssl_context,
                oauth=oauth,
                probe_timeout=probe_timeout,
            )
    except BaseException:
        with anyio.CancelScope(shield=True):
            await pool.close()
        raise
    return pool


async def clearest_failure(
    pool: ConnectionPool,
    failures: list[tuple[BrokerAddress, KafkaConfigAdminError]],
    bootstrap_servers: str,
    *,
    ssl_context: ssl.SSLContext | None,
    oauth: bool,
    probe_timeout: float,
) -> KafkaConfigAdminError:
    """The first clear failure of the bootstrap servers, else all of them in one error."""
    unclear = []
    for (host, port), failure in failures:
        where = f"{host}:{port}"
        if type(failure) is KafkaConnectionError and ssl_context is not None:
            failure = await probe_tls(host, port, ssl_context, probe_timeout) or failure
        if type(failure) is KafkaConnectionError and oauth:
            refusal = await token_refusal_alone(pool, host, port, where)
            if refusal is not None:
                failure = AuthenticationError(
                    f"bootstrap server {where} refused the OAUTHBEARER token ({refusal}): "
                    f"{TOKEN_REFUSED_HINT}"
                )
        if type(failure) is not KafkaConnectionError:
            return failure
        unclear.append(failure)
    if len(unclear) == 1:
        return unclear[0]
    return KafkaConnectionError(
        f"could not bootstrap from {bootstrap_servers}: "
        + "; ".join(str(error) for error in unclear)
    )
