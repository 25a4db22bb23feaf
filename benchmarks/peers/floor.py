"""The floor: the same requests pre-encoded, sent over a plain socket, responses read, not decoded.

It shows how much of each client's time is the broker's and the network's, and how much its own.
"""

from __future__ import annotations

import socket
import struct
from functools import cache

from kafka_config_admin._client import DESCRIBE_BATCH_SIZE
from kafka_config_admin._protocol import (
    DESCRIBE_CONFIGS,
    INCREMENTAL_ALTER_CONFIGS,
    ApiCodec,
    encode_request_header,
)

from .base import Peer as BasePeer

_SIZE = struct.Struct(">i")
#: W1 sends what our client sends: requests of its default describe_batch_size, pipelined.
W1_BATCH = DESCRIBE_BATCH_SIZE


def _frame(codec: ApiCodec, version: int, body: dict[str, object]) -> bytes:
    message = encode_request_header(codec.api_key, version, 1, "floor", flexible=True)
    message += codec.encode_request(version, body)
    return _SIZE.pack(len(message)) + message


@cache
def _describe(topics: tuple[str, ...]) -> bytes:
    resources = [
        {"resource_type": 2, "resource_name": t, "configuration_keys": None} for t in topics
    ]
    body = {"resources": resources, "include_synonyms": True, "include_documentation": True}
    return _frame(DESCRIBE_CONFIGS, 4, body)


@cache
def _alter(topics: tuple[str, ...], value: str) -> bytes:
    config = [{"name": "retention.ms", "config_operation": 0, "value": value}]
    resources = [{"resource_type": 2, "resource_name": t, "configs": config} for t in topics]
    return _frame(INCREMENTAL_ALTER_CONFIGS, 1, {"resources": resources, "validate_only": False})


class Peer(BasePeer):
    async def open(self, bootstrap: str) -> None:
        host, port = bootstrap.split(",")[0].rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    async def close(self) -> None:
        self.sock.close()

    def _exchange(self, frames: bytes, count: int = 1) -> None:
        self.sock.sendall(frames)
        for _ in range(count):
            (size,) = _SIZE.unpack(self._read(4))
            self._read(size)

    def _read(self, size: int) -> bytearray:
        data = bytearray(size)
        view, got = memoryview(data), 0
        while got < size:
            got += self.sock.recv_into(view[got:])
        return data

    async def w1_describe_all(self, topics: list[str]) -> None:
        batches = [tuple(topics[i : i + W1_BATCH]) for i in range(0, len(topics), W1_BATCH)]
        self._exchange(b"".join(_describe(batch) for batch in batches), len(batches))

    async def w2_describe_one(self, topic: str) -> None:
        self._exchange(_describe((topic,)))

    async def w3_alter_each(self, topics: list[str], value: str) -> None:
        self._exchange(_alter(tuple(topics), value))

    async def w4_concurrent(self, topics: list[str]) -> None:
        # One topic per request, all 50 in flight on one connection (the broker answers in order).
        self._exchange(b"".join(_describe((t,)) for t in topics), len(topics))
