"""Loopback port allocation and a tiny raw ApiVersions probe (no client library needed)."""

from __future__ import annotations

import contextlib
import socket
import struct

LOOPBACK = "127.0.0.1"
_API_VERSIONS_KEY = 18


def free_ports(count: int) -> list[int]:
    """Return ``count`` distinct ports that were free on 127.0.0.1 a moment ago.

    All sockets are held open until every port is chosen so the kernel never hands out the
    same port twice; a port can still be taken by someone else before the broker binds it.
    """
    with contextlib.ExitStack() as stack:
        ports = []
        for _ in range(count):
            sock = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            sock.bind((LOOPBACK, 0))
            ports.append(int(sock.getsockname()[1]))
        return ports


def _api_versions_request(correlation_id: int) -> bytes:
    """Encode ApiVersions v0 with request header v1 (key, version, correlation id, client id)."""
    client_id = b"kca-probe"
    body = struct.pack(">hhih", _API_VERSIONS_KEY, 0, correlation_id, len(client_id)) + client_id
    return struct.pack(">i", len(body)) + body


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    chunks = b""
    while len(chunks) < size:
        chunk = sock.recv(size - len(chunks))
        if not chunk:
            raise ConnectionError("connection closed by broker")
        chunks += chunk
    return chunks


def broker_answers(port: int, *, host: str = LOOPBACK, timeout: float = 2.0) -> bool:
    """Whether a PLAINTEXT listener answers ApiVersions with error code 0.

    A KRaft broker only opens its data-plane listeners once it has caught up with the metadata
    log and been unfenced, so an answer here means the broker is ready to serve clients.
    """
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(_api_versions_request(correlation_id=7))
            (size,) = struct.unpack(">i", _recv_exact(sock, 4))
            payload = _recv_exact(sock, size)
    except OSError:
        return False
    correlation_id, error_code = struct.unpack(">ih", payload[:6])
    return bool(correlation_id == 7 and error_code == 0)


def port_accepts(address: str, *, timeout: float = 1.0) -> bool:
    """Whether something accepts TCP connections at ``host:port``."""
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            return True
    except OSError:
        return False
