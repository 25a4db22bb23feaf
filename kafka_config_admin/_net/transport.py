"""The transport: aiokafka's connections carrying this library's own codecs.

aiokafka does what it does well here (framing, SASL and SSL, ApiVersions);
the config APIs are encoded and decoded by ``_protocol``, and each request answers through a
callback the moment its response is read. The transport composes the parts of ``_net`` that
each do one job: ``bootstrap`` (reaching the cluster, or saying why not), ``connections`` (the
pool of aiokafka connections, aiokafka's errors translated), ``brokers`` (which broker a
request goes to, and its hedges), ``oauth`` (each connection's token accepted before a request
of ours), ``throttle`` (holding back from a broker that throttles us) and ``wire`` (one request
on a connection); what is left here is sending.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable
from typing import Any

import anyio

from .._exceptions import (
    BrokerIdNotRegisteredError,
    InvalidArgumentError,
    KafkaConfigAdminError,
    KafkaConnectionError,
)
from .._models.validation import check_string, shorten
from .._protocol import ApiCodec, Memo
from .bootstrap import bootstrap
from .brokers import BrokerChoice, lane_of
from .connections import BrokerConnection, ConnectionPool, translate_error
from .oauth import TokenChecks, TokenSource
from .quorum import quorum_discovery
from .security import SecurityOptions
from .security_protocols import uses_tls
from .throttle import Throttles
from .wire import AnswerCallback, BodyBuilder, Traffic, WireRequest

__all__ = ["FORWARDED_WAIT", "Transport"]

#: The least time a change waits for its answer. A broker forwards a change to the active
#: controller and answers only when the controller has, or when its own ``request.timeout.ms``
#: (30 s by default) has passed; meanwhile a new controller may have taken over and applied it.
#: A client that gives up sooner closes the connection the answer would come on, and its
#: change ends with an unknown outcome.
FORWARDED_WAIT = 35.0


class Transport:
    """Connections to one cluster: bootstrap, the brokers, and sending to a broker.

    ``choice`` chooses the broker of a request any broker can answer, and its hedges. With
    ``controllers`` the nodes are a KRaft controller quorum's (KIP-919), found through
    DescribeCluster; a change any node may take goes to the active controller.
    """

    def __init__(
        self,
        bootstrap_servers: str,
        *,
        client_id: str,
        request_timeout: float,
        security: SecurityOptions,
        controllers: bool = False,
    ) -> None:
        if not isinstance(client_id, str):
            raise InvalidArgumentError(f"client_id must be a str, got {client_id!r}")
        check_string(f"client_id {shorten(client_id)}", client_id)
        #: The ``host:port`` list the client was given, comma-separated.
        self.bootstrap_servers = bootstrap_servers
        #: Whether the nodes are a controller quorum's, not brokers.
        self.controllers = controllers
        self._client_id = client_id
        self._security = security
        provider = security.sasl_oauth_token_provider
        self._tokens = None if provider is None else TokenSource(provider)
        #: With OAUTHBEARER: the connections whose token the broker accepted.
        self._token_checks = None if provider is None else TokenChecks()
        # As Kafka's clients do: without settings of its own, TLS trusts the system's CAs and
        # checks the broker's host name.
        self._ssl_context = security.ssl_context
        if self._ssl_context is None and uses_tls(security.security_protocol):
            self._ssl_context = ssl.create_default_context()
        self.request_timeout = request_timeout
        self._pool: ConnectionPool | None = None
        #: The pool :meth:`start` made last (what :meth:`silence` reads once a deadline ended it).
        self._starting: ConnectionPool | None = None
        self._throttles = Throttles()
        #: What this client's requests carried (counted by each ``WireRequest``).
        self.traffic = Traffic()
        self.choice = BrokerChoice(
            self.broker_ids, self._is_open, self.controller_id if controllers else None
        )

    async def start(self) -> None:
        """Connect to a bootstrap server and read the cluster's brokers."""
        discover = quorum_discovery(self.request_timeout) if self.controllers else None
        self._starting = ConnectionPool(
            self.bootstrap_servers, self._connection_options(), discover
        )
        self._pool = await bootstrap(
            self._starting,
            self.bootstrap_servers,
            ssl_context=self._ssl_context,
            oauth=self._tokens is not None,
            probe_timeout=self.request_timeout,
        )

    def silence(self, seconds: float) -> KafkaConfigAdminError | None:
        """What the bootstrap server being tried did when a deadline of ``seconds`` ended
        :meth:`start` (it accepted the connection and sent nothing, ...), if one was."""
        return None if self._starting is None else self._starting.silence(seconds)

    def _connection_options(self) -> dict[str, Any]:
        security = self._security
        return {
            "client_id": self._client_id,
            "request_timeout_ms": int(self.request_timeout * 1000),
            "security_protocol": security.security_protocol,
            "sasl_mechanism": security.sasl_mechanism,
            "sasl_plain_username": security.sasl_plain_username,
            "sasl_plain_password": security.sasl_plain_password,
            "ssl_context": self._ssl_context,
            "sasl_oauth_token_provider": self._tokens,
        }

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            with anyio.CancelScope(shield=True):
                await pool.close()

    # --- the cluster's brokers, as the latest metadata lists them ---------------------------

    def connections(self) -> list[BrokerConnection]:
        """The brokers' open connections (for tests that look at what a broker said)."""
        return self._require_pool().connections()

    def broker_ids(self) -> list[int]:
        """The ids of the brokers in the latest metadata."""
        return sorted(self._require_pool().brokers)

    def broker_racks(self) -> dict[int, str | None]:
        """Each broker's rack in the latest metadata, by node id."""
        return dict(sorted(self._require_pool().racks.items()))

    def cluster_id(self) -> str | None:
        """The cluster's id the latest metadata names, None when it names none."""
        return self._require_pool().cluster_id

    def controller_id(self) -> int | None:
        """The broker the latest metadata names as controller (KRaft: a broker that forwards
        to the quorum's leader; the active controller of a quorum), None when it names none."""
        return self._require_pool().controller

    def _node_name(self, node_id: int) -> str:
        return f"{'controller' if self.controllers else 'broker'} {node_id}"

    async def refresh_metadata(self) -> None:
        """Ask the cluster for its brokers again (after a connection failure)."""
        pool = self._require_pool()
        try:
            await pool.refresh()
        except Exception as error:
            raise translate_error(error, "the cluster") from error

    # --- sending ----------------------------------------------------------------------------

    def submit(
        self,
        node_id: int,
        codec: ApiCodec,
        build_body: BodyBuilder,
        *,
        throttle_from_version: int,
        memo: Memo | None = None,
        on_answer: AnswerCallback,
        forwarded: bool = False,
    ) -> bool:
        """Write one request now, if the broker's connection is open and has not throttled us.

        Returns False, having written nothing, when the request must wait for a connection or
        a throttle (:meth:`send` waits for both). Otherwise ``on_answer`` is later called
        exactly once with the decoded body or the error that ended the request (a broken
        connection, or no answer within ``request_timeout``), right where it happens: the
        caller needs no task of its own to wait. A ``forwarded`` request (a change, which
        the broker forwards to the controller) waits at least ``FORWARDED_WAIT``, and goes on
        the broker's connection for changes: reads have their own, and never queue behind it.
        """
        if self._throttles.holds(node_id):
            return False
        conn = self._open_connection(node_id, lane_of(forwarded))
        if conn is None:
            return False
        request = WireRequest(
            node_id,
            codec,
            build_body,
            memo,
            wait=max(self.request_timeout, FORWARDED_WAIT) if forwarded else self.request_timeout,
            on_answer=on_answer,
            answered_at=self.choice.answered_at,
            throttle_from_version=throttle_from_version,
            throttled=self._throttles.hold,
            traffic=self.traffic,
            controller=self.controllers,
        )
        try:
            request.send_on(conn)
        except KafkaConfigAdminError:
            raise
        except Exception as error:
            raise translate_error(error, self._node_name(node_id)) from error
        return True

    async def send(
        self,
        node_id: int,
        codec: ApiCodec,
        build_body: BodyBuilder,
        *,
        throttle_from_version: int,
        memo: Memo | None = None,
        on_written: Callable[[], None] | None = None,
        forwarded: bool = False,
    ) -> dict[str, Any]:
        """Send one request to one broker and return its decoded response body.

        ``memo`` lets the response share decoded items with earlier ones (``Struct(shared=True)``).
        ``on_written`` is called once the request is on the connection: from then on the broker
        may act on it even if no answer comes.
        """
        answer: asyncio.Future[dict[str, Any] | KafkaConfigAdminError]
        answer = asyncio.get_running_loop().create_future()

        def on_answer(outcome: dict[str, Any] | KafkaConfigAdminError) -> None:
            if not answer.done():  # the caller may have been cancelled
                answer.set_result(outcome)

        while True:
            await self._throttles.wait(node_id)
            await self._connect(node_id, lane_of(forwarded))
            if self.submit(
                node_id,
                codec,
                build_body,
                throttle_from_version=throttle_from_version,
                memo=memo,
                on_answer=on_answer,
                forwarded=forwarded,
            ):
                break
        if on_written is not None:
            on_written()
        outcome = await answer
        if isinstance(outcome, KafkaConfigAdminError):
            raise outcome
        return outcome

    async def _connect(self, node_id: int, lane: int) -> None:
        """Open the broker's connection for ``lane``, with its token accepted (OAUTHBEARER)."""
        pool = self._require_pool()
        if node_id not in pool.brokers:
            await self._require_broker(node_id)
        if pool.open_connection(node_id, lane) is None:
            await pool.connection(node_id, lane)
        if self._token_checks is not None:
            await self._token_checks.check(pool, node_id, lane)

    async def _require_broker(self, node_id: int) -> None:
        """Fail at once for a broker id the cluster never had, after one refresh.

        A broker that has just joined shows up in the refreshed metadata; waiting the whole
        deadline for an id nobody registered (a typo, a wrong cluster) helps nobody. One the
        cluster had and lists no more (restarting, or being removed) is waited for like any
        broker that does not answer: the error is retried until the call's deadline.
        """
        await self.refresh_metadata()
        pool = self._require_pool()
        if node_id in pool.brokers:
            return
        known = ", ".join(map(str, self.broker_ids()))
        nodes = "its controllers" if self.controllers else "its brokers"
        address = pool.registered.get(node_id)
        if address is not None:
            raise KafkaConnectionError(
                f"{self._node_name(node_id)} ({address.host}:{address.port}) was registered and "
                f"is not in the cluster now ({nodes}: {known}): it is not answering "
                f"(restarting?) or was removed"
            )
        where = "the controller quorum" if self.controllers else "the cluster"
        raise BrokerIdNotRegisteredError(
            f"{self._node_name(node_id)} is not in {where} and never was since this client "
            f"connected ({nodes}: {known})"
        )

    def _require_pool(self) -> ConnectionPool:
        if self._pool is None:
            raise KafkaConnectionError("the client is not connected")
        return self._pool

    def _open_connection(self, node_id: int, lane: int) -> BrokerConnection | None:
        """The broker's connection for ``lane``, if it is open and ready for our requests
        (with OAUTHBEARER: once its token is known to be accepted)."""
        conn = self._require_pool().open_connection(node_id, lane)
        if conn is None:
            return None
        if self._token_checks is not None and not self._token_checks.accepted(conn):
            return None
        return conn

    def _is_open(self, node_id: int, lane: int) -> bool:
        return self._open_connection(node_id, lane) is not None
