"""The transport: aiokafka's connections carrying this library's own codecs.

aiokafka does what it does well here (bootstrap, metadata, one connection per broker, SASL and
SSL, ApiVersions); the config APIs are encoded and decoded by ``_protocol``, and each request
answers through a callback the moment its response is read. ``connections`` holds the
transport's own pool of aiokafka connections, and turns aiokafka's errors into this library's.
"""

from __future__ import annotations

import asyncio
import random
import ssl
import time
import weakref
from collections.abc import Callable, Mapping
from io import BytesIO
from typing import Any, NamedTuple

import anyio
from aiokafka.conn import AIOKafkaConnection, CloseReason

from .._exceptions import (
    AuthenticationError,
    BrokerIdNotRegisteredError,
    InvalidArgumentError,
    KafkaConfigAdminError,
    KafkaConnectionError,
    ProtocolError,
    UnsupportedVersionError,
)
from .._models.validation import check_string, shown
from .._protocol import ApiCodec, Memo, decode_response_header, encode_request_header
from .connections import BrokerAddress, Connection, ConnectionPool, close_all, translate_error
from .gc import gc_paused
from .oauth import TOKEN_REFUSED_HINT, TokenSource, token_refusal
from .security import SecurityOptions
from .tls import probe_tls

__all__ = ["AnswerCallback", "AnswerLostError", "BodyBuilder", "Transport"]

#: The lanes of ``Transport.any_broker``: requests that read, and requests that change.
READS, CHANGES = 0, 1
LANES = 2

#: The least time a change waits for its answer. A broker forwards a change to the active
#: controller and answers only when the controller has, or when its own ``request.timeout.ms``
#: (30 s by default) has passed; meanwhile a new controller may have taken over and applied it.
#: A client that gives up sooner closes the connection the answer would come on, and its
#: change ends with an unknown outcome.
FORWARDED_WAIT = 35.0


BodyBuilder = Callable[[int], Mapping[str, Any]]


class AnswerLostError(KafkaConnectionError):
    """A request was written, then its connection broke or its broker did not answer in time.

    The broker may have received and acted on it: for a change, its outcome is unknown.
    """


class _ResponseHeader(NamedTuple):
    correlation_id: int


class _EncodedHeader(NamedTuple):
    data: bytes

    def encode(self) -> bytes:
        return self.data


#: Called once with a request's decoded body, or with the error that ended it.
AnswerCallback = Callable[[dict[str, Any] | KafkaConfigAdminError], None]


class _WireRequest:
    """One request as aiokafka's connection sends it: header and body from our codecs.

    aiokafka calls ``prepare`` with the broker's ApiVersions; the body is built only then, so
    that fields a lower version lacks are left out (KIP-569 compatibility). The answer goes to
    ``on_answer`` exactly once: from ``decode``, which aiokafka's reader calls as soon as the
    response is read (no task in between), from a connection failure, or from the request
    timeout.
    """

    def __init__(
        self,
        transport: Transport,
        node_id: int,
        codec: ApiCodec,
        build_body: BodyBuilder,
        memo: Memo | None,
        throttle_from_version: int,
        on_answer: AnswerCallback,
        wait: float,
    ) -> None:
        self.API_KEY = codec.api_key
        self.API_VERSION = -1
        self.RESPONSE_TYPE = self
        self._transport = transport
        self._node_id = node_id
        self._codec = codec
        self._build_body = build_body
        self._memo = memo
        self._throttle_from_version = throttle_from_version
        self._on_answer: AnswerCallback | None = on_answer
        self._wait = wait
        self._timer: asyncio.TimerHandle | None = None

    def prepare(self, versions: Mapping[int, tuple[int, int]]) -> _WireRequest:
        self.API_VERSION = negotiate_version(
            self._codec, versions.get(self._codec.api_key), f"broker {self._node_id}"
        )
        return self

    @property
    def _flexible(self) -> bool:
        return self._codec.is_flexible(self.API_VERSION)

    def build_request_header(self, correlation_id: int, client_id: str) -> _EncodedHeader:
        return _EncodedHeader(
            encode_request_header(
                self.API_KEY, self.API_VERSION, correlation_id, client_id, flexible=self._flexible
            )
        )

    def encode(self) -> bytes:
        with gc_paused():  # a body of thousands of resources is made of short-lived containers
            return self._codec.encode_request(self.API_VERSION, self._build_body(self.API_VERSION))

    def parse_response_header(self, buffer: BytesIO) -> _ResponseHeader:
        flexible = self._codec.is_response_header_flexible(self.API_VERSION)
        correlation_id, offset = decode_response_header(
            buffer.getvalue(), buffer.tell(), flexible=flexible
        )
        buffer.seek(offset)
        return _ResponseHeader(correlation_id)

    def decode(self, buffer: BytesIO) -> None:
        """Decode the response and answer; runs inside aiokafka's reader task.

        An exception here would tear the connection down and lose the reason, so a failure to
        decode is the answer instead. aiokafka's own future gets None, and nobody reads it.
        """
        self._transport.answered_at[self._node_id] = time.monotonic()
        with gc_paused():  # decoding and shaping make many objects, but no cycles
            self._answer(self._decoded(buffer))

    def _decoded(self, buffer: BytesIO) -> dict[str, Any] | KafkaConfigAdminError:
        try:
            body = self._codec.decode_response(
                self.API_VERSION, buffer.getvalue(), buffer.tell(), self._memo
            )
        except ProtocolError as error:
            return error
        except Exception as error:  # a codec bug must reach the caller, not kill the reader
            return ProtocolError(
                f"could not decode {self._codec.name} v{self.API_VERSION} response: {error!r}"
            )
        throttle_ms: int = body["throttle_time_ms"]
        if throttle_ms > 0 and self._throttle_from_version <= self.API_VERSION:
            self._transport._throttle(self._node_id, throttle_ms)
        return body

    def written(self, conn: AIOKafkaConnection, sent: asyncio.Future[Any]) -> None:
        """Watch the written request: its connection failing, and its timeout."""
        sent.add_done_callback(self._connection_failed)
        self._timer = asyncio.get_running_loop().call_later(self._wait, self._timed_out, conn)

    def _connection_failed(self, sent: asyncio.Future[Any]) -> None:
        error = None if sent.cancelled() else sent.exception()
        if isinstance(error, Exception):
            lost = translate_error(error, f"broker {self._node_id}")
            self._answer(AnswerLostError(str(lost)) if type(lost) is KafkaConnectionError else lost)

    def _timed_out(self, conn: AIOKafkaConnection) -> None:
        self._answer(
            AnswerLostError(f"broker {self._node_id} did not answer within {self._wait:g}s")
        )
        # Whatever else waits on this connection fails too, and is sent again on a new one.
        conn.close(reason=CloseReason.CONNECTION_TIMEOUT)

    def _answer(self, outcome: dict[str, Any] | KafkaConfigAdminError) -> None:
        on_answer, self._on_answer = self._on_answer, None
        if on_answer is not None:
            if self._timer is not None:
                self._timer.cancel()
            on_answer(outcome)


def negotiate_version(
    codec: ApiCodec, broker_range: tuple[int, int] | None, broker: str = "the broker"
) -> int:
    """The highest version both this client and ``broker`` speak.

    A broker that does not list the API at all runs a release older than the one that brought
    it (``codec.since``): the error says so, since that is what the user has to change.
    """
    if broker_range is None:
        raise UnsupportedVersionError(
            f"{broker} does not support {codec.name} (API key {codec.api_key}): it runs a Kafka "
            f"release before {codec.since}, which brought {codec.name}"
        )
    low = max(broker_range[0], codec.min_version)
    high = min(broker_range[1], codec.max_version)
    if low > high:
        raise UnsupportedVersionError(
            f"no common {codec.name} version: {broker} speaks v{broker_range[0]}-"
            f"v{broker_range[1]}, this client v{codec.min_version}-v{codec.max_version}"
        )
    return high


class Transport:
    """Connections to one cluster: bootstrap, broker list, and sending to a broker."""

    def __init__(
        self,
        bootstrap_servers: str,
        *,
        client_id: str,
        request_timeout: float,
        security: SecurityOptions,
    ) -> None:
        if not isinstance(client_id, str):
            raise InvalidArgumentError(f"client_id must be a str, got {client_id!r}")
        check_string(f"client_id {shown(client_id)}", client_id)
        #: The ``host:port`` list the client was given, comma-separated.
        self.bootstrap_servers = bootstrap_servers
        self._client_id = client_id
        self._security = security
        provider = security.sasl_oauth_token_provider
        self._tokens = None if provider is None else TokenSource(provider)
        # As Kafka's clients do: without settings of its own, TLS trusts the system's CAs and
        # checks the broker's host name.
        self._ssl_context = security.ssl_context
        if self._ssl_context is None and security.security_protocol in ("SSL", "SASL_SSL"):
            self._ssl_context = ssl.create_default_context()
        self.request_timeout = request_timeout
        self._pool: ConnectionPool | None = None
        self._throttled_until: dict[int, float] = {}
        #: When each broker last answered a request (time.monotonic()).
        self.answered_at: dict[int, float] = {}
        #: The broker chosen for "any broker" requests, per lane (see ``any_broker``).
        self._any_broker: list[int | None] = [None] * LANES
        #: With OAUTHBEARER: the connections whose token the broker is known to have accepted.
        self._token_accepted: weakref.WeakSet[AIOKafkaConnection] = weakref.WeakSet()
        #: One token check at a time per broker (see ``_check_token``).
        self._token_checks: dict[int, asyncio.Lock] = {}

    async def start(self) -> None:
        """Connect to a bootstrap server and read the cluster's brokers."""
        pool = ConnectionPool(self.bootstrap_servers, self._connection_options())
        try:
            failures = await pool.bootstrap()
            if failures:
                # Each server's own failure, said as what the server did; the first clear one.
                raise await self._diagnose(pool, failures)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await pool.close()
            raise
        self._pool = pool

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

    async def _diagnose(
        self, pool: ConnectionPool, failures: list[tuple[BrokerAddress, KafkaConfigAdminError]]
    ) -> KafkaConfigAdminError:
        """The clearest of the bootstrap servers' failures."""
        unclear = []
        for (host, port), failure in failures:
            where = f"{host}:{port}"
            if type(failure) is KafkaConnectionError and self._ssl_context is not None:
                # With TLS 1.3 a broker refuses a client certificate after the handshake:
                # aiokafka sees a closed connection; a request of our own sees the alert.
                failure = (
                    await probe_tls(host, port, self._ssl_context, self.request_timeout) or failure
                )
            if type(failure) is KafkaConnectionError and self._tokens is not None:
                # A broker refuses a token with an error challenge that aiokafka takes for
                # success; the first request then fails on a closed connection.
                refusal = await self._token_refusal_alone(pool, host, port, where)
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
            f"could not bootstrap from {self.bootstrap_servers}: "
            + "; ".join(str(error) for error in unclear)
        )

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            with anyio.CancelScope(shield=True):
                await pool.close()

    def connections(self) -> list[Connection]:
        """The brokers' open connections (for tests that look at what a broker said)."""
        return self._require_pool().connections()

    def broker_ids(self) -> list[int]:
        """The ids of the brokers in the latest metadata."""
        return sorted(self._require_pool().brokers)

    def broker_racks(self) -> dict[int, str | None]:
        """Each broker's rack in the latest metadata, by node id."""
        return dict(sorted(self._require_pool().racks.items()))

    def controller_id(self) -> int | None:
        """The broker the latest metadata names as controller (KRaft: a broker that forwards
        to the quorum's leader), None when it names none."""
        return self._require_pool().controller

    def any_broker(self, lane: int = READS) -> int:
        """A broker for requests any broker can answer; one we are connected to if possible.

        The broker chosen last is kept while its connection is open: one call after another
        then costs a dict lookup, not a walk over the cluster. Reads and changes keep apart
        (each ``lane`` prefers a broker the other does not use): a broker answers one
        connection's requests one at a time, and a describe must not wait behind hundreds of
        alters that the controller handles slowly.
        """
        last = self._any_broker[lane]
        if last is not None and self._is_open(last):
            return last
        ids = self.broker_ids()
        if not ids:
            raise KafkaConnectionError("the cluster metadata lists no brokers")
        connected = [node for node in ids if self._is_open(node)]
        candidates = connected or ids
        taken = self.taken_by_other_lanes(lane)
        chosen = random.choice([node for node in candidates if node not in taken] or candidates)
        self._any_broker[lane] = chosen
        return chosen

    def taken_by_other_lanes(self, lane: int) -> set[int]:
        """The brokers the other lanes send to now."""
        return {
            node
            for other, node in enumerate(self._any_broker)
            if other != lane and node is not None
        }

    def hedge_targets(self, lane: int, first: int) -> list[int]:
        """Where a request of ``lane`` sent to ``first`` is hedged to, in turn (shuffled).

        Not the other lanes' brokers while there is another: a change forwarded to a frozen
        controller holds its connection until the broker gives up on it (30 s), and the
        describes that go there would wait behind it.
        """
        others = [node for node in self.broker_ids() if node != first]
        random.shuffle(others)
        taken = self.taken_by_other_lanes(lane)
        return [node for node in others if node not in taken] or others

    def hedge_won(self, lane: int, node: int) -> None:
        """A hedge to ``node`` had the answer: the lane's next requests go there.

        Not when another lane uses it: the lanes stay apart.
        """
        if node not in self.taken_by_other_lanes(lane):
            self.prefer(lane, node)

    def answered_within(self, node_id: int, seconds: float) -> bool:
        """Whether the broker answered any request of ours in the last ``seconds``."""
        return time.monotonic() - self.answered_at.get(node_id, -1e9) < seconds

    def prefer(self, lane: int, node_id: int) -> None:
        """Send the lane's next requests to ``node_id`` while its connection stays open."""
        self._any_broker[lane] = node_id

    async def refresh_metadata(self) -> None:
        """Ask the cluster for its brokers again (after a connection failure)."""
        pool = self._require_pool()
        try:
            await pool.refresh()
        except Exception as error:
            raise translate_error(error, "the cluster") from error

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
        the broker forwards to the controller) waits at least ``FORWARDED_WAIT``.
        """
        if self._throttled_until.get(node_id, 0.0) > time.monotonic():
            return False
        conn = self._open_connection(node_id)
        if conn is None:
            return False
        wait = max(self.request_timeout, FORWARDED_WAIT) if forwarded else self.request_timeout
        request = _WireRequest(
            self, node_id, codec, build_body, memo, throttle_from_version, on_answer, wait
        )
        try:
            waiter = conn.send(request)
        except KafkaConfigAdminError:
            raise
        except Exception as error:
            raise translate_error(error, f"broker {node_id}") from error
        # aiokafka's waiter would need a task to await it; the request answers by itself.
        waiter.close()
        _, _, sent = conn._requests[-1]
        request.written(conn, sent)
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
            await self._wait_for_throttle(node_id)
            await self._connect(node_id)
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

    async def _connect(self, node_id: int) -> None:
        pool = self._require_pool()
        if node_id not in pool.brokers:
            await self._require_broker(node_id)
        if pool.open_connection(node_id) is None:
            await pool.connection(node_id)
        if self._tokens is not None:
            await self._check_token(node_id)

    async def _check_token(self, node_id: int) -> None:
        """Fail at once if the broker refused the token of its new connection.

        A broker refuses a token with an error challenge, which aiokafka takes for success:
        the connection then fails the first request written to it, and a call would retry
        until its deadline. So each new connection answers the challenge as RFC 7628 says,
        before any request of ours (see ``token_refusal``). aiokafka may have written a
        metadata request first, which a refusing broker fails by closing the connection:
        the check is then made again on a connection of its own.
        """
        # One check per connection, however many calls wait for it; a broker that does not
        # answer holds up the calls to it only.
        async with self._token_checks.setdefault(node_id, asyncio.Lock()):
            conn = self._require_pool().open_connection(node_id)
            if conn is None or conn in self._token_accepted:
                return
            where = f"broker {node_id} ({conn.host}:{conn.port})"
            try:
                refusal = await token_refusal(conn, where)
            except KafkaConnectionError:
                pool = self._require_pool()
                refusal = await self._token_refusal_alone(pool, conn.host, conn.port, where)
                if refusal is None:
                    raise
            if refusal is None:
                self._token_accepted.add(conn)
                return
            conn.close(reason=CloseReason.AUTH_FAILURE)
            raise AuthenticationError(
                f"{where} refused the OAUTHBEARER token ({refusal}): {TOKEN_REFUSED_HINT}"
            )

    async def _token_refusal_alone(
        self, pool: ConnectionPool, host: str, port: int, where: str
    ) -> str | None:
        """``token_refusal`` on a connection of its own (None: it could not tell)."""
        try:
            conn = await pool.open(host, port)
        except Exception:
            return None
        try:
            return await token_refusal(conn, where)
        except KafkaConnectionError:
            return None
        finally:
            await close_all([conn])

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
        address = pool.registered.get(node_id)
        if address is not None:
            raise KafkaConnectionError(
                f"broker {node_id} ({address.host}:{address.port}) was registered and is not "
                f"in the cluster now (its brokers: {known}): it is not answering (restarting?) "
                f"or was removed"
            )
        raise BrokerIdNotRegisteredError(
            f"broker {node_id} is not in the cluster and never was since this client "
            f"connected (its brokers: {known})"
        )

    def _throttle(self, node_id: int, throttle_ms: int) -> None:
        # From the request's version on, the broker no longer delays us itself: we hold back.
        self._throttled_until[node_id] = time.monotonic() + throttle_ms / 1000

    async def _wait_for_throttle(self, node_id: int) -> None:
        delay = self._throttled_until.get(node_id, 0.0) - time.monotonic()
        if delay > 0:
            await anyio.sleep(delay)

    def _require_pool(self) -> ConnectionPool:
        if self._pool is None:
            raise KafkaConnectionError("the client is not connected")
        return self._pool

    def _open_connection(self, node_id: int) -> AIOKafkaConnection | None:
        """The broker's connection, if it is open and ready for our requests.

        With OAUTHBEARER only once its token is known to be accepted (``_check_token``):
        aiokafka opens connections of its own too, for metadata.
        """
        conn = self._require_pool().open_connection(node_id)
        if conn is None:
            return None
        if self._tokens is not None and conn not in self._token_accepted:
            return None
        return conn

    def _is_open(self, node_id: int) -> bool:
        return self._open_connection(node_id) is not None
