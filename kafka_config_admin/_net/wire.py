"""One request on aiokafka's connection: our codecs' header and body, its version, its answer.

aiokafka's connection frames, writes and reads; what is written and how the answer is read is
this library's (``_protocol``). The body is built when the connection knows the broker's
versions, and the answer goes to its caller the moment it is read, from aiokafka's reader, with
no task in between.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from io import BytesIO
from typing import Any, NamedTuple

from aiokafka.conn import AIOKafkaConnection, CloseReason

from .._exceptions import (
    KafkaConfigAdminError,
    KafkaConnectionError,
    ProtocolError,
    UnsupportedEndpointTypeError,
    UnsupportedVersionError,
)
from .._protocol import (
    ANSWERED_BY,
    Answerer,
    ApiCodec,
    Memo,
    decode_response_header,
    encode_request_header,
)
from .connections import translate_error
from .gc import gc_paused

__all__ = [
    "AnswerCallback",
    "AnswerLostError",
    "BodyBuilder",
    "Traffic",
    "WireRequest",
    "negotiate_version",
]

#: Builds a request's body for the version the connection negotiated.
BodyBuilder = Callable[[int], Mapping[str, Any]]

#: Called once with a request's decoded body, or with the error that ended it.
AnswerCallback = Callable[[dict[str, Any] | KafkaConfigAdminError], None]


class AnswerLostError(KafkaConnectionError):
    """A request was written, then its connection broke or its broker did not answer in time.

    The broker may have received and acted on it: for a change, its outcome is unknown.
    """


@dataclass
class Traffic:
    """What one client's own requests carried, counted where each of them passes.

    Bytes are the frames as written and read, with their 4-byte length prefix, headers
    included (TLS adds its own on top). What the connections exchange by themselves
    (ApiVersions, SASL, aiokafka's Metadata) is not counted.
    """

    requests: int = 0
    bytes_sent: int = 0
    responses: int = 0
    bytes_received: int = 0


#: The length prefix aiokafka writes before, and reads before, every frame.
_FRAME_PREFIX = 4


class _ResponseHeader(NamedTuple):
    correlation_id: int


class _EncodedHeader(NamedTuple):
    data: bytes

    def encode(self) -> bytes:
        return self.data


class WireRequest:
    """One request as aiokafka's connection sends it: header and body from our codecs.

    aiokafka calls ``prepare`` with the broker's ApiVersions; the body is built only then, so
    that fields a lower version lacks are left out (KIP-569 compatibility). The answer goes to
    ``on_answer`` exactly once: from ``decode``, which aiokafka's reader calls as soon as the
    response is read (no task in between), from a connection failure, or from the request
    timeout. ``answered_at`` records when the broker answered (broker choice reads it), and a
    response that says the broker throttled us, from ``throttle_from_version`` on, goes to
    ``throttled``.
    """

    def __init__(
        self,
        node_id: int,
        codec: ApiCodec,
        build_body: BodyBuilder,
        memo: Memo | None,
        *,
        wait: float,
        on_answer: AnswerCallback,
        answered_at: dict[int, float],
        throttle_from_version: int,
        throttled: Callable[[int, int], None],
        traffic: Traffic,
        controller: bool = False,
    ) -> None:
        self.API_KEY = codec.api_key
        self.API_VERSION = -1
        self.RESPONSE_TYPE = self
        self._node_id = node_id
        self._controller = controller
        #: The node as messages name it.
        self._where = f"{'controller' if controller else 'broker'} {node_id}"
        self._codec = codec
        self._build_body = build_body
        self._memo = memo
        self._wait = wait
        self._on_answer: AnswerCallback | None = on_answer
        self._answered_at = answered_at
        self._throttle_from_version = throttle_from_version
        self._throttled = throttled
        self._timer: asyncio.TimerHandle | None = None
        self._traffic = traffic
        #: Set when written: the connection's ``session`` (see ``Answerer``).
        self._session = 0
        self._header_size = 0

    def prepare(self, versions: Mapping[int, tuple[int, int]]) -> WireRequest:
        self.API_VERSION = negotiate_version(
            self._codec,
            versions.get(self._codec.api_key),
            self._where,
            controller=self._controller,
        )
        return self

    @property
    def _flexible(self) -> bool:
        return self._codec.is_flexible(self.API_VERSION)

    def build_request_header(self, correlation_id: int, client_id: str) -> _EncodedHeader:
        header = encode_request_header(
            self.API_KEY, self.API_VERSION, correlation_id, client_id, flexible=self._flexible
        )
        self._header_size = len(header)
        return _EncodedHeader(header)

    def encode(self) -> bytes:
        with gc_paused():  # a body of thousands of resources is made of short-lived containers
            body = self._codec.encode_request(self.API_VERSION, self._build_body(self.API_VERSION))
        traffic = self._traffic
        traffic.requests += 1
        # aiokafka writes the header (its correlation id and our client id) before the body.
        traffic.bytes_sent += _FRAME_PREFIX + self._header_size + len(body)
        return body

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
        self._answered_at[self._node_id] = time.monotonic()
        traffic = self._traffic
        traffic.responses += 1
        traffic.bytes_received += _FRAME_PREFIX + len(buffer.getbuffer())
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
            self._throttled(self._node_id, throttle_ms)
        # Decoded bodies are never mutated (their items may be shared): a new top level.
        return {**body, ANSWERED_BY: Answerer(self._node_id, self._session)}

    def send_on(self, conn: AIOKafkaConnection) -> None:
        """Write the request on ``conn`` now; its answer comes to ``on_answer``."""
        self._session = getattr(conn, "session", 0)  # a BrokerConnection's number
        waiter = conn.send(self)
        # aiokafka's waiter would need a task to await it; the request answers by itself.
        waiter.close()
        _, _, sent = conn._requests[-1]
        self.written(conn, sent)

    def written(self, conn: AIOKafkaConnection, sent: asyncio.Future[Any]) -> None:
        """Watch the written request: its connection failing, and its timeout."""
        sent.add_done_callback(self._connection_failed)
        self._timer = asyncio.get_running_loop().call_later(self._wait, self._timed_out, conn)

    def _connection_failed(self, sent: asyncio.Future[Any]) -> None:
        error = None if sent.cancelled() else sent.exception()
        if isinstance(error, Exception):
            lost = translate_error(error, self._where)
            self._answer(AnswerLostError(str(lost)) if type(lost) is KafkaConnectionError else lost)

    def _timed_out(self, conn: AIOKafkaConnection) -> None:
        self._answer(AnswerLostError(f"{self._where} did not answer within {self._wait:g}s"))
        # Whatever else waits on this connection fails too, and is sent again on a new one.
        conn.close(reason=CloseReason.CONNECTION_TIMEOUT)

    def _answer(self, outcome: dict[str, Any] | KafkaConfigAdminError) -> None:
        on_answer, self._on_answer = self._on_answer, None
        if on_answer is not None:
            if self._timer is not None:
                self._timer.cancel()
            on_answer(outcome)


def negotiate_version(
    codec: ApiCodec,
    broker_range: tuple[int, int] | None,
    broker: str = "the broker",
    *,
    controller: bool = False,
) -> int:
    """The highest version both this client and ``broker`` speak.

    A broker that does not list the API at all runs a release older than the one that brought
    it (``codec.since``): the error says so, since that is what the user has to change. A
    ``controller`` lists only the APIs a controller serves (KIP-919): one it does not list is
    an :class:`UnsupportedEndpointTypeError`, whatever its release.
    """
    if broker_range is None and controller:
        raise UnsupportedEndpointTypeError(
            f"{broker} does not serve {codec.name} (API key {codec.api_key}): a KRaft "
            "controller serves only some calls (configs, loggers, the quorum's nodes); make "
            "this call through the brokers (bootstrap_servers)"
        )
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
