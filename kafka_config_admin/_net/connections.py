"""The transport's connections: its own pool of aiokafka connections, their closing, their errors.

aiokafka's ``AIOKafkaConnection`` does the socket work (TLS, SASL, ApiVersions, framing). Which
connections exist is decided here, by a pool each transport owns (``ConnectionPool``): the
bootstrap servers' connections, then one per node for each lane of requests (reads, changes),
opened when first needed; the cluster's nodes as the pool's ``Discovery`` reads them (the
brokers from Metadata, or a controller quorum's nodes from DescribeCluster: ``quorum``).
Nothing of aiokafka's is changed: its module attributes and its loggers stay as they are, for
this library's connections and for every other aiokafka client of the program alike. What
aiokafka logs about our connections goes to its own loggers, where the program's logging
configuration decides what shows.

No secret can reach those records: aiokafka logs every request and response at DEBUG, and the
bytes of a SASL exchange hold the password (PLAIN), a proof derived from it (SCRAM) or the token
(OAUTHBEARER). A ``BrokerConnection`` sends them wrapped, so that they print as ``[hidden]``
whatever the order clients come and go in.

The pool owns every connection it opens, so that closing waits until each socket is closed: a
TLS connection still closing when the event loop ends warns "unclosed transport".

This is also the one place where aiokafka's and the network's errors become this library's
exceptions (``translate_error``).
"""

from __future__ import annotations

import asyncio
import itertools
import random
import ssl
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any, NamedTuple

from aiokafka import errors as aiokafka_errors
from aiokafka.conn import AIOKafkaConnection, CloseReason, collect_hosts
from aiokafka.protocol.admin import SaslAuthenticateRequest
from aiokafka.protocol.metadata import MetadataRequest

from .._exceptions import (
    AuthenticationError,
    InvalidArgumentError,
    KafkaConfigAdminError,
    KafkaConnectionError,
    ListenerMismatchError,
    MismatchedEndpointTypeError,
    ProtocolError,
    UnsupportedVersionError,
)
from .._models.configs import HIDDEN
from .brokers import READS
from .security_protocols import uses_sasl, uses_tls
from .tls import tls_error

__all__ = [
    "CLOSE_WAIT",
    "METADATA_KEY",
    "BrokerAddress",
    "BrokerConnection",
    "ConnectionPool",
    "Discovery",
    "Nodes",
    "close_all",
    "connection_failure",
    "translate_error",
]

#: The API key of Metadata, which every broker serves and no KRaft controller does.
METADATA_KEY = 3

#: How long closing waits for the connections' sockets to close (a TLS close takes a round
#: trip); those still closing then are aborted.
CLOSE_WAIT = 1.0


class BrokerAddress(NamedTuple):
    host: str
    port: int


class Nodes(NamedTuple):
    """A cluster's nodes as one answer lists them."""

    #: Each node's address, by node id.
    addresses: dict[int, BrokerAddress]
    #: Each node's rack (None: it reports none), by node id.
    racks: dict[int, str | None]
    #: The controller it names (a broker that forwards changes, or the quorum's leader), None
    #: when it names none of the nodes.
    controller: int | None
    #: The cluster's id, None when the answer has none (Metadata before version 2).
    cluster_id: str | None = None


#: Reads a cluster's nodes over one open connection (Metadata for brokers: ``metadata_nodes``).
Discovery = Callable[["BrokerConnection"], Awaitable[Nodes]]


class _Hidden:
    """Stands in for a SASL request or response: does all it does, and prints as ``[hidden]``.

    aiokafka asks a request to ``prepare`` its struct for the negotiated version, and the
    struct's ``RESPONSE_TYPE`` to ``decode`` the answer: what they make is hidden in turn.
    """

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._inner, name)
        if name in ("prepare", "decode"):
            return lambda *args, **kwargs: _Hidden(value(*args, **kwargs))
        if name == "RESPONSE_TYPE":
            return _Hidden(value)
        return value

    def __repr__(self) -> str:
        inner = self._inner
        name = inner.__name__ if isinstance(inner, type) else type(inner).__name__
        return f"<{name} {HIDDEN}>"


#: Numbers the connections (``BrokerConnection.session``).
_SESSIONS = itertools.count(1)


class BrokerConnection(AIOKafkaConnection):  # type: ignore[misc]  # aiokafka is untyped
    """aiokafka's connection, whose SASL exchange never shows in a log record.

    It also knows how far it got (``stage``), so that a failure can say what the server did:
    nothing at all, closed the connection at the first request, or refused SASL.
    """

    #: "connecting" (TCP and TLS), "versions" (ApiVersions), "sasl", then "ready".
    stage = "connecting"
    #: This connection's number among every connection of the process: a broker that
    #: restarted (perhaps with another release) is only reached again on a new one.
    session: int

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.session = next(_SESSIONS)

    #: Whether ``connect`` has ended (connected or not): until then its socket may be opening.
    settled = False

    async def connect(self) -> Any:
        try:
            return await super().connect()
        finally:
            self.settled = True

    def send(self, request: Any, expect_response: bool = True) -> Any:
        if isinstance(request, SaslAuthenticateRequest):
            request = _Hidden(request)
        return super().send(request, expect_response)

    async def _do_version_lookup(self) -> None:
        self.stage = "versions"
        await super()._do_version_lookup()
        self.stage = "ready"

    async def _do_sasl_handshake(self) -> None:
        self.stage = "sasl"
        await super()._do_sasl_handshake()
        self.stage = "ready"


#: A node's connection for one lane of requests (``READS``, ``CHANGES``): (node id, lane).
ConnectionKey = tuple[int, int]


class ConnectionPool:
    """One transport's connections: to the bootstrap servers, then one per node and lane.

    A broker answers one connection's requests one at a time, in order, so each lane of
    requests (reads, changes) has a connection of its own to a node: a describe never waits
    behind a change the broker has forwarded to the controller on the same connection.

    ``brokers`` is the cluster's nodes as the latest answer of ``discover`` lists them
    (``racks`` their racks, ``controller`` the controller it names); ``registered`` every node
    any answer listed since the pool started (a broker restarting leaves the list for a moment).
    """

    def __init__(
        self,
        bootstrap_servers: str,
        options: Mapping[str, Any],
        discover: Discovery | None = None,
    ) -> None:
        self.hosts = [
            BrokerAddress(host, port) for host, port, _ in collect_hosts(bootstrap_servers)
        ]
        self._options = dict(options)
        self._discover = metadata_nodes if discover is None else discover
        self.brokers: dict[int, BrokerAddress] = {}
        self.registered: dict[int, BrokerAddress] = {}
        #: Each listed broker's rack (None: it reports none), by node id.
        self.racks: dict[int, str | None] = {}
        #: The broker the latest Metadata names as controller (KRaft: one that forwards
        #: changes to the quorum's leader), None when it names none.
        self.controller: int | None = None
        #: The cluster's id the latest answer names (None: it names none).
        self.cluster_id: str | None = None
        self._conns: dict[ConnectionKey, BrokerConnection] = {}
        self._opening: dict[ConnectionKey, asyncio.Lock] = {}
        #: Every connection opened whose socket may still be open.
        self._opened: set[BrokerConnection] = set()
        self._refreshing: asyncio.Future[None] | None = None
        #: The bootstrap server's connection being tried, while :meth:`bootstrap` runs.
        self.trying: BrokerConnection | None = None

    def new(self, host: str, port: int) -> BrokerConnection:
        """A connection not yet connected, owned by the pool (closed with it)."""
        try:
            conn = BrokerConnection(host, port, **self._options)
        except ValueError as error:
            raise InvalidArgumentError(f"invalid connection options: {error}") from None
        self._opened.difference_update([old for old in self._opened if _is_done(old)])
        self._opened.add(conn)
        return conn

    async def open(self, host: str, port: int) -> BrokerConnection:
        """A new connection, owned by the pool (closed with it) but kept for no broker."""
        conn = self.new(host, port)
        await conn.connect()
        return conn

    async def bootstrap(self) -> list[tuple[BrokerAddress, KafkaConfigAdminError]]:
        """Read the nodes from the first bootstrap server that answers (``discover``).

        Returns the failures of the servers tried, each said as what the server did: all of
        them when none answered (the brokers are then unknown), else none.
        """
        failures: list[tuple[BrokerAddress, KafkaConfigAdminError]] = []
        for address in self.hosts:
            conn = self.new(*address)
            self.trying = conn
            try:
                await conn.connect()
                await self._read_metadata(conn)
            except Exception as error:
                conn.close(reason=CloseReason.CONNECTION_BROKEN)
                if isinstance(error, AuthenticationError | InvalidArgumentError):
                    raise  # the token provider's: the same on every server
                failures.append(
                    (address, connection_failure(error, conn, f"{address.host}:{address.port}"))
                )
                continue
            self._adopt(conn)
            self.trying = None
            return []
        self.trying = None
        return failures

    def silence(self, seconds: float) -> KafkaConfigAdminError | None:
        """What the bootstrap server being tried did when the caller's deadline of ``seconds``
        ended the bootstrap (it accepted the connection and sent nothing, ...), if one was."""
        conn = self.trying
        if conn is None:
            return None
        return connection_failure(TimeoutError(), conn, f"{conn.host}:{conn.port}", seconds=seconds)

    def _adopt(self, conn: BrokerConnection) -> None:
        """Keep a bootstrap connection as its broker's (for reads), if Metadata lists its
        address."""
        for node_id, address in self.brokers.items():
            key = (node_id, READS)
            if address == (conn.host, conn.port) and key not in self._conns:
                self._conns[key] = conn
                return
        conn.close(reason=CloseReason.SHUTDOWN)

    async def _read_metadata(self, conn: BrokerConnection) -> None:
        nodes = await self._discover(conn)
        brokers = nodes.addresses
        if not brokers:
            raise KafkaConnectionError(f"{conn.host}:{conn.port} answered with no nodes")
        for key, conn_of in list(self._conns.items()):
            if brokers.get(key[0]) != (conn_of.host, conn_of.port):
                del self._conns[key]  # gone, or moved: the next request reconnects
        self.brokers = brokers
        self.registered.update(brokers)
        self.racks = nodes.racks
        self.controller = nodes.controller if nodes.controller in brokers else None
        self.cluster_id = nodes.cluster_id

    async def refresh(self) -> None:
        """Ask the cluster for its brokers again; calls meanwhile share the one answer."""
        if self._refreshing is None:
            self._refreshing = asyncio.ensure_future(self._refresh())
            self._refreshing.add_done_callback(self._refreshed)
        await asyncio.shield(self._refreshing)

    def _refreshed(self, task: asyncio.Future[None]) -> None:
        self._refreshing = None
        if not task.cancelled():
            task.exception()  # each caller has it; none left is no error of the loop's

    async def _refresh(self) -> None:
        """Metadata on an open connection first, then on a new one."""
        open_ones = [conn for conn in self._conns.values() if conn.connected()]
        addresses = list(dict.fromkeys([*self.brokers.values(), *self.hosts]))
        random.shuffle(open_ones)
        random.shuffle(addresses)
        failure: KafkaConfigAdminError | None = None
        candidates: list[BrokerConnection | BrokerAddress] = [*open_ones, *addresses]
        for candidate in candidates:
            conn = (
                candidate
                if isinstance(candidate, BrokerConnection)
                else self.new(candidate.host, candidate.port)
            )
            try:
                if conn is not candidate:
                    await conn.connect()
                await self._read_metadata(conn)
            except Exception as error:  # this broker failed: ask another
                failure = connection_failure(error, conn, f"{conn.host}:{conn.port}")
                if conn is not candidate:
                    conn.close(reason=CloseReason.CONNECTION_BROKEN)
                continue
            if conn is not candidate:
                self._adopt(conn)
            return
        raise failure or KafkaConnectionError("no broker to ask for metadata")

    def open_connection(self, node_id: int, lane: int) -> BrokerConnection | None:
        """The broker's connection for ``lane`` if it is open."""
        conn = self._conns.get((node_id, lane))
        return conn if conn is not None and conn.connected() else None

    async def connection(self, node_id: int, lane: int) -> BrokerConnection:
        """The broker's connection for ``lane``, opened if needed (one opening per broker and
        lane at a time)."""
        key = (node_id, lane)
        async with self._opening.setdefault(key, asyncio.Lock()):
            conn = self.open_connection(node_id, lane)
            if conn is None:
                address = self.brokers[node_id]
                conn = self.new(*address)
                try:
                    await conn.connect()
                except Exception as error:
                    where = f"broker {node_id} ({address.host}:{address.port})"
                    raise connection_failure(error, conn, where) from error
                self._conns[key] = conn
            return conn

    def connections(self) -> list[BrokerConnection]:
        """The brokers' open connections."""
        return [conn for conn in self._conns.values() if conn.connected()]

    async def close(self) -> None:
        """Close every connection the pool opened and wait until their sockets are closed."""
        if self._refreshing is not None:
            self._refreshing.cancel()
        opened, self._opened = self._opened | set(self._conns.values()), set()
        self._conns.clear()
        await close_all(opened)


async def close_all(conns: Collection[AIOKafkaConnection]) -> None:
    """Close the connections and wait until their sockets are closed, ``CLOSE_WAIT`` at most.

    A socket still closing then (a broker that does not finish the TLS close) is aborted: a
    close never holds up the caller for long, and no socket outlives it.
    """
    conns = [conn for conn in conns if _socket_of(conn) is not None]
    closing = [conn.close(reason=CloseReason.SHUTDOWN) for conn in conns]
    waiting = [future for future in closing if future is not None and not future.done()]
    if waiting:
        await asyncio.wait(waiting, timeout=CLOSE_WAIT)
    stuck = [transport for transport in map(_socket_of, conns) if transport is not None]
    for transport in stuck:
        transport.abort()
    if stuck:
        await asyncio.sleep(0)  # an aborted socket is closed in the loop's next round


async def metadata_nodes(conn: BrokerConnection) -> Nodes:
    """The brokers as a Metadata answer lists them (aiokafka's request).

    A KRaft controller's listener lists no Metadata among its APIs: it is named as what it is.
    """
    if conn._versions and METADATA_KEY not in conn._versions:
        raise MismatchedEndpointTypeError(
            f"{conn.host}:{conn.port} is a KRaft controller's listener, not a broker's (it "
            "serves no Metadata): give it as bootstrap_controllers (--bootstrap-controller), "
            "or a broker's address as bootstrap_servers"
        )
    metadata = await conn.send(MetadataRequest([]))
    addresses = {broker[0]: BrokerAddress(broker[1], broker[2]) for broker in metadata.brokers}
    # Metadata v0 has neither racks nor a controller; -1 says "none".
    racks = {broker[0]: broker[3] if len(broker) > 3 else None for broker in metadata.brokers}
    controller = getattr(metadata, "controller_id", -1)
    cluster_id = getattr(metadata, "cluster_id", None)  # from Metadata v2
    return Nodes(addresses, racks, controller if controller >= 0 else None, cluster_id)


def _is_done(conn: BrokerConnection) -> bool:
    """Whether the connection tried to connect and has no socket now (never had, or closed).

    One still connecting has none yet either, and is kept: it may open one.
    """
    return conn.settled and _socket_of(conn) is None


def _socket_of(conn: AIOKafkaConnection) -> asyncio.Transport | None:
    """The connection's transport until its socket is closed (then None)."""
    protocol = conn._protocol
    transport: asyncio.Transport | None = None if protocol is None else protocol._transport
    return transport


def connection_failure(
    error: Exception, conn: BrokerConnection, where: str, *, seconds: float | None = None
) -> KafkaConfigAdminError:
    """Why opening ``conn`` (or its first request) failed, said as what the server did.

    A server that takes the connection and never answers, a listener that expects SASL or
    TLS, or one that does not speak SASL: each fails in aiokafka with a bare timeout, a closed
    connection or a SASL state error; the stage the connection reached tells them apart.
    ``seconds``: how long the server was given (the connection's request timeout unless the
    call's deadline came first).
    """
    protocol: str = conn._security_protocol
    seconds = conn._request_timeout if seconds is None else seconds
    sasl, tls = uses_sasl(protocol), uses_tls(protocol)
    closed = isinstance(error, aiokafka_errors.KafkaConnectionError) and not isinstance(
        error, aiokafka_errors.IllegalSaslStateError
    )
    if isinstance(error, asyncio.TimeoutError):
        if conn.stage == "connecting":
            if tls:
                return KafkaConnectionError(
                    f"no TLS connection to {where} within {seconds:g}s: it did not accept the "
                    "connection, or accepted it and never answered the TLS handshake"
                )
            return KafkaConnectionError(f"{where} did not accept a connection within {seconds:g}s")
        what = {"versions": "ApiVersions", "sasl": "the SASL exchange"}.get(conn.stage, "Metadata")
        nothing = " and sent nothing" if conn.stage == "versions" else ""
        return KafkaConnectionError(
            f"{where} accepted the connection{nothing} in {seconds:g}s (no answer to {what}): "
            "a broker that is frozen or overloaded, or a server that is not a Kafka listener"
        )
    if isinstance(error, aiokafka_errors.IllegalSaslStateError) and conn.stage == "sasl":
        plain = "SSL" if tls else "PLAINTEXT"
        return ListenerMismatchError(
            f"the listener at {where} does not speak SASL (it refused the SASL handshake): "
            f"security_protocol is {protocol}; use {plain} for this listener, or the address "
            "of the cluster's SASL listener"
        )
    if closed and conn.stage == "versions" and not tls:
        return ListenerMismatchError(
            f"{where} closed the connection at the first request (ApiVersions): the listener "
            f"likely expects TLS (security_protocol is {protocol}; use SSL or SASL_SSL)"
        )
    if closed and conn.stage == "ready" and not sasl:
        return ListenerMismatchError(
            f"{where} closed the connection at the first request after ApiVersions: the "
            f"listener likely expects SASL (security_protocol is {protocol}; use "
            f"{'SASL_SSL' if tls else 'SASL_PLAINTEXT'} with credentials)"
        )
    return translate_error(error, where)


def translate_error(error: Exception, where: str) -> KafkaConfigAdminError:
    """This library's exception for any exception met talking to ``where`` (as ``"cluster
    'prod'"``): itself when it is one already, else the typed error for what aiokafka, TLS or
    the network raised (:class:`KafkaConnectionError`, :class:`AuthenticationError`,
    :class:`TlsError`, ...; :class:`ProtocolError` for anything unexpected).

    The client raises only its own errors; this is for code that catches around it, as the
    Spark source does, to report any failure of a cluster by one rule.
    """
    if isinstance(error, KafkaConfigAdminError):
        return error
    if isinstance(
        error,
        aiokafka_errors.AuthenticationFailedError
        | aiokafka_errors.SaslAuthenticationFailed
        | aiokafka_errors.UnsupportedSaslMechanismError
        | aiokafka_errors.AuthenticationMethodNotSupported,
    ):
        return AuthenticationError(f"{where} refused the credentials: {error}")
    if isinstance(
        error, aiokafka_errors.UnsupportedVersionError | aiokafka_errors.IncompatibleBrokerVersion
    ):
        return UnsupportedVersionError(f"{where}: {error}")
    if isinstance(error, ssl.SSLError):
        return tls_error(error, where)
    if isinstance(error, aiokafka_errors.KafkaError | OSError | asyncio.TimeoutError):
        detail = str(error) or type(error).__name__
        return KafkaConnectionError(f"could not talk to {where}: {detail}")
    return ProtocolError(f"unexpected failure talking to {where}: {error!r}")
