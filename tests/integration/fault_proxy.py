"""A fault-injecting Kafka proxy for tests: loopback only, one listener per broker.

Each proxy sits between the client and one broker and speaks Kafka's framing (a 4-byte length,
then the message). It rewrites Metadata and DescribeCluster responses so that every broker
address points at its proxy (the client never talks to a broker directly), and applies the
faults a test injects to the responses of one API: a delay, a connection cut after N bytes, an
answer dropped (blackholed), an error code or ThrottleTimeMs rewritten (decoded and encoded
again with the library's own codecs).
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from collections.abc import Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from kafka_config_admin._protocol import (
    ALTER_CLIENT_QUOTAS,
    ALTER_CONFIGS,
    DESCRIBE_CLIENT_QUOTAS,
    DESCRIBE_CONFIGS,
    INCREMENTAL_ALTER_CONFIGS,
    ApiCodec,
)
from kafka_config_admin.testing import KafkaCluster

__all__ = ["Fault", "FaultProxy", "proxied"]

LOOPBACK = "127.0.0.1"
_CODECS = {
    codec.api_key: codec
    for codec in (
        DESCRIBE_CONFIGS,
        ALTER_CONFIGS,
        INCREMENTAL_ALTER_CONFIGS,
        DESCRIBE_CLIENT_QUOTAS,
        ALTER_CLIENT_QUOTAS,
    )
}
_METADATA, _DESCRIBE_CLUSTER = 3, 60


@dataclass
class Fault:
    """What to do to the next ``times`` responses of ``api_key`` (None: every one)."""

    api_key: int
    times: int | None = 1
    error_code: int | None = None
    throttle_ms: int | None = None
    delay: float = 0.0
    cut_after: int | None = None
    blackhole: bool = False


@dataclass
class FaultProxy:
    """One broker behind a loopback listener; ``requests`` counts what passed, per API key."""

    upstream_port: int
    port: int = 0
    faults: list[Fault] = field(default_factory=list)
    #: (api_key, loop time) of every request that passed.
    requests: list[tuple[int, float]] = field(default_factory=list)
    #: Every broker port -> its proxy's port (shared by the proxies of one cluster).
    ports: dict[int, int] = field(default_factory=dict)
    _server: asyncio.Server | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _writers: set[asyncio.StreamWriter] = field(default_factory=set)

    def inject(self, fault: Fault) -> None:
        self.faults.append(fault)

    def sent(self, api_key: int) -> list[float]:
        """When each request of ``api_key`` passed."""
        return [when for key, when in self.requests if key == api_key]

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._connected, LOOPBACK, 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in self._writers:  # each connection's reader then ends, and its task
            writer.close()
        await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), 10)

    def _fault_for(self, api_key: int) -> Fault | None:
        for fault in self.faults:
            if fault.api_key == api_key:
                if fault.times is not None:
                    fault.times -= 1
                    if fault.times == 0:
                        self.faults.remove(fault)
                return fault
        return None

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        up_reader, up_writer = await asyncio.open_connection(LOOPBACK, self.upstream_port)
        self._writers.update((writer, up_writer))
        asked: deque[tuple[int, int]] = deque()
        try:
            forward = asyncio.ensure_future(self._requests(reader, up_writer, asked))
            try:
                await self._responses(up_reader, writer, asked)
            finally:
                forward.cancel()
        except (OSError, asyncio.IncompleteReadError):
            pass  # either side closed
        finally:
            for stream in (writer, up_writer):
                stream.close()
                self._writers.discard(stream)
            self._tasks.discard(task)

    async def _requests(
        self, reader: asyncio.StreamReader, up: asyncio.StreamWriter, asked: deque[tuple[int, int]]
    ) -> None:
        loop = asyncio.get_running_loop()
        while True:
            frame = await _read_frame(reader)
            api_key, version = struct.unpack_from(">hh", frame, 4)
            asked.append((api_key, version))
            self.requests.append((api_key, loop.time()))
            up.write(frame)

    async def _responses(
        self, up: asyncio.StreamReader, writer: asyncio.StreamWriter, asked: deque[tuple[int, int]]
    ) -> None:
        while True:
            frame = await _read_frame(up)
            api_key, version = asked.popleft()
            if api_key in (_METADATA, _DESCRIBE_CLUSTER):
                frame = self._pointed_at_proxies(frame)
            fault = self._fault_for(api_key)
            if fault is not None:
                if fault.blackhole:
                    continue
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault.error_code is not None or fault.throttle_ms is not None:
                    frame = _rewritten(frame, _CODECS[api_key], version, fault)
                if fault.cut_after is not None:
                    writer.write(frame[: fault.cut_after])
                    await writer.drain()
                    return  # the connection closes mid-response
            writer.write(frame)
            await writer.drain()

    def _pointed_at_proxies(self, frame: bytes) -> bytes:
        host = LOOPBACK.encode()
        for broker_port, proxy_port in self.ports.items():
            frame = frame.replace(
                host + struct.pack(">i", broker_port), host + struct.pack(">i", proxy_port)
            )
        return frame


async def _read_frame(reader: asyncio.StreamReader) -> bytes:
    size = await reader.readexactly(4)
    return size + await reader.readexactly(struct.unpack(">i", size)[0])


def _rewritten(frame: bytes, codec: ApiCodec, version: int, fault: Fault) -> bytes:
    # Response header: correlation id, and a tagged-fields byte (empty) for flexible versions.
    header_end = 8 + (1 if codec.is_flexible(version) else 0)
    body = codec.decode_response(version, frame, header_end)
    if fault.throttle_ms is not None:
        body["throttle_time_ms"] = fault.throttle_ms
    if fault.error_code is not None:
        for item in _results(body):
            item["error_code"] = fault.error_code
            item["error_message"] = "injected by the fault proxy"
    message = frame[4:header_end] + codec.encode_response(version, body)
    return struct.pack(">i", len(message)) + message


def _results(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if "error_code" in body:
        yield body
    for value in body.values():
        if isinstance(value, list):
            yield from (item for item in value if isinstance(item, dict) and "error_code" in item)


@asynccontextmanager
async def proxied(cluster: KafkaCluster) -> Any:
    """One proxy per broker of the cluster; yields {node id: proxy}, each already listening."""
    proxies: dict[int, FaultProxy] = {}
    ports: dict[int, int] = {}
    try:
        for node_id in cluster.broker_ids:
            broker_port = int(cluster.bootstrap_for(node_id).rsplit(":", 1)[1])
            proxy = proxies[node_id] = FaultProxy(broker_port, ports=ports)
            await proxy.start()
            ports[broker_port] = proxy.port
        yield proxies
    finally:
        for proxy in proxies.values():
            await proxy.stop()
