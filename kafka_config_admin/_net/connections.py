"""aiokafka's connections on this library's terms: their log records, their closing, their errors.

What aiokafka logs while working for this library (a connection refused, a broker gone) is a
failure the caller gets as a typed error, so those records go to the ``kafka_config_admin.aiokafka``
logger at DEBUG instead of reaching a user's stderr. The same loggers stay untouched for any
other aiokafka client in the program: records are told apart by a context variable set while
aiokafka works for us (``for_us``), which the tasks and callbacks aiokafka starts meanwhile
inherit.

The connections aiokafka opens for a transport are recorded the same way (``recording``), so
that closing the client waits until each one's socket is closed (``close_all``): aiokafka itself
closes its bootstrap connection (and those it replaces) without waiting, and a TLS connection
still closing when the event loop ends warns "unclosed transport".

This is also the one place where aiokafka's and the network's errors become this library's
exceptions (``translate_error``).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import ssl
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any

from aiokafka import client as aiokafka_client
from aiokafka import errors as aiokafka_errors
from aiokafka.conn import AIOKafkaConnection, CloseReason

from .._exceptions import (
    AuthenticationError,
    KafkaConfigAdminError,
    KafkaConnectionError,
    ProtocolError,
    UnsupportedVersionError,
)
from .tls import tls_error

__all__ = [
    "CLOSE_WAIT",
    "close_all",
    "for_us",
    "recorded_create_conn",
    "recording",
    "translate_error",
]

#: How long closing waits for the connections' sockets to close (a TLS close takes a round
#: trip); those still closing then are aborted.
CLOSE_WAIT = 1.0

#: True while aiokafka works for this library (and in the tasks it starts meanwhile).
_FOR_US: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "kafka_config_admin_transport", default=False
)
#: Where the connections aiokafka opens meanwhile are recorded (the transport's own set).
_OPENED: contextvars.ContextVar[set[AIOKafkaConnection] | None] = contextvars.ContextVar(
    "kafka_config_admin_connections", default=None
)
#: Where aiokafka's records about our own connections go, at DEBUG.
_aiokafka_log = logging.getLogger("kafka_config_admin.aiokafka")


@contextmanager
def for_us() -> Iterator[None]:
    token = _FOR_US.set(True)
    try:
        yield
    finally:
        _FOR_US.reset(token)


class _OwnRecords(logging.Filter):
    """Takes aiokafka's records about this library's connections off aiokafka's loggers."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not _FOR_US.get():
            return True
        _aiokafka_log.debug("%s: %s", record.name, record.getMessage())
        return False


# A filter on a logger sees only the records logged to that very logger, so each module of
# aiokafka this library drives gets it.
for _name in ("aiokafka", "aiokafka.client", "aiokafka.conn", "aiokafka.cluster"):
    logging.getLogger(_name).addFilter(_OwnRecords())


async def recorded_create_conn(host: str, port: int, **options: Any) -> AIOKafkaConnection:
    """What aiokafka's ``create_conn`` does, recording the connection opened for a transport.

    Recorded before it connects: aiokafka closes a connection that fails to (a refused
    password) without waiting. Every other aiokafka client of the program opens its
    connections as before.
    """
    conn = AIOKafkaConnection(host, port, **options)
    opened = _OPENED.get()
    if opened is not None:
        opened.difference_update([old for old in opened if _is_closed(old)])
        opened.add(conn)
    await conn.connect()
    return conn


# aiokafka's client opens every connection (bootstrap, brokers, metadata) through this name.
aiokafka_client.create_conn = recorded_create_conn


@contextmanager
def recording(opened: set[AIOKafkaConnection]) -> Iterator[None]:
    """aiokafka works for a transport: its records are ours, its connections go to ``opened``."""
    token = _OPENED.set(opened)
    try:
        with for_us():
            yield
    finally:
        _OPENED.reset(token)


async def close_all(conns: Collection[AIOKafkaConnection]) -> None:
    """Close the connections and wait until their sockets are closed, ``CLOSE_WAIT`` at most.

    A socket still closing then (a broker that does not finish the TLS close) is aborted: a
    close never holds up the caller for long, and no socket outlives it.
    """
    conns = [conn for conn in conns if _socket_of(conn) is not None]  # the set may grow
    with for_us():
        closing = [conn.close(reason=CloseReason.SHUTDOWN) for conn in conns]
    waiting = [future for future in closing if not future.done()]
    if waiting:
        await asyncio.wait(waiting, timeout=CLOSE_WAIT)
    stuck = [transport for transport in map(_socket_of, conns) if transport is not None]
    for transport in stuck:
        transport.abort()
    if stuck:
        await asyncio.sleep(0)  # an aborted socket is closed in the loop's next round


def _is_closed(conn: AIOKafkaConnection) -> bool:
    """Whether the connection connected (or tried to) and its socket is closed now."""
    return conn._closed_fut is not None and _socket_of(conn) is None


def _socket_of(conn: AIOKafkaConnection) -> asyncio.Transport | None:
    """The connection's transport until its socket is closed (then None)."""
    protocol = conn._protocol
    transport: asyncio.Transport | None = None if protocol is None else protocol._transport
    return transport


def translate_error(error: Exception, where: str) -> KafkaConfigAdminError:
    """Turn an aiokafka or network exception into this library's exception."""
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
