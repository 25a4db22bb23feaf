"""A fake transport and a virtual clock that drive the engine without a broker, deterministically.

The engine runs as it does in a client (its task group, its gatherer, its retries, hedges and
deadlines); only the transport is replaced by :class:`FakeTransport`, whose brokers follow a
script: each request written is answered (or refused, lost, left unanswered) as the test says.

Time is virtual: :func:`run` drives the scenario on an event loop whose clock jumps to the next
timer whenever nothing is ready to run, so a 30 s deadline passes at once, and every timing
(backoff, hedge delay, deadline) is exact and the same on every run, however loaded the machine.
A scenario that would wait forever (nothing ready and no timer) fails instead of hanging.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from kafka_config_admin import (
    AlterConfigOp,
    ConfigResource,
    KafkaConfigAdminError,
    OpType,
    ResourceType,
)
from kafka_config_admin._engine.engine import Engine
from kafka_config_admin._engine.lifetime import TaskGroupHost
from kafka_config_admin._net.transport import FORWARDED_WAIT, Transport
from kafka_config_admin._net.wire import AnswerLostError
from kafka_config_admin._ops.configs import DescribeConfigs, IncrementalAlterConfigs
from kafka_config_admin._ops.results import AlterConfigsResult, DescribeConfigsResult
from kafka_config_admin._protocol import ApiCodec, Memo

T = TypeVar("T")


class HangError(AssertionError):
    """The scenario waits for something that can never happen: nothing ready, no timer."""


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0


class _VirtualSelector(selectors.DefaultSelector):
    """Polls real file descriptors without blocking; a wait moves the virtual clock instead."""

    def __init__(self, clock: _Clock) -> None:
        super().__init__()
        self._clock = clock

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(0)
        if ready:
            return ready
        if timeout is None:
            raise HangError("the scenario would wait forever: nothing is ready and no timer is set")
        self._clock.now += timeout
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop whose ``time()`` is virtual: idle waits take no real time."""

    def __init__(self) -> None:
        self._clock = _Clock()
        super().__init__(_VirtualSelector(self._clock))

    def time(self) -> float:
        return self._clock.now


# --- what a broker does with a request ------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """Answer after ``after`` seconds; each resource gets the error code ``codes`` gives it
    (0, success, for one it does not name)."""

    codes: Mapping[str, int] = field(default_factory=dict)
    after: float = 0.01


@dataclass(frozen=True)
class Lose:
    """The request is written, then its connection breaks after ``after`` seconds."""

    after: float = 0.01


@dataclass(frozen=True)
class Silent:
    """The request is written and never answered (a frozen broker): it times out as the real
    transport's does, after ``request_timeout`` (a change: at least ``FORWARDED_WAIT``)."""


@dataclass
class Request:
    """One request written to a broker (or refused before it could be)."""

    at: float
    node: int
    api: str
    resources: list[str]
    written: bool


Script = Callable[[Request], "Answer | Lose | Silent"]


class FakeBrokerChoice:
    """Broker choice as the engine sees it (``transport.choice``), made deterministic: the
    lane's preferred broker, else the first broker (the other lane's first free one for
    changes), and hedges go to the others in id order."""

    def __init__(self, brokers: list[int]) -> None:
        self.brokers = brokers
        self.answered_at: dict[int, float] = {}
        self._preferred: dict[int, int] = {}

    def any_broker(self, lane: int = 0) -> int:
        if lane in self._preferred:
            return self._preferred[lane]
        taken = {node for other, node in self._preferred.items() if other != lane}
        return next((node for node in self.brokers if node not in taken), self.brokers[0])

    def hedge_targets(self, lane: int, first: int) -> list[int]:
        return [node for node in self.brokers if node != first]

    def hedge_won(self, lane: int, node: int) -> None:
        self._preferred[lane] = node

    def answered_within(self, node_id: int, seconds: float) -> bool:
        return _now() - self.answered_at.get(node_id, -1e9) < seconds


class FakeTransport:
    """The transport's face to the engine, over scripted brokers.

    ``script(request)`` says what each request written meets; a broker in ``down`` cannot be
    connected to (a request for it is never written, and fails with the error given); a broker
    in ``opens_at`` has its connection open only from that (virtual) time on (a request for it
    waits until then); ``requests`` records every request, written or refused, in order.
    """

    def __init__(
        self, brokers: list[int], script: Script, *, request_timeout: float = 10.0
    ) -> None:
        self.brokers = brokers
        self.script = script
        self.request_timeout = request_timeout
        self.requests: list[Request] = []
        self.metadata_refreshes = 0
        self.down: dict[int, KafkaConfigAdminError] = {}
        self.opens_at: dict[int, float] = {}
        self.choice = FakeBrokerChoice(brokers)

    async def refresh_metadata(self) -> None:
        self.metadata_refreshes += 1

    # --- sending ---------------------------------------------------------------------------

    def submit(
        self,
        node_id: int,
        codec: ApiCodec,
        build_body: Callable[[int], Mapping[str, Any]],
        *,
        throttle_from_version: int,
        memo: Memo | None = None,
        on_answer: Callable[[dict[str, Any] | KafkaConfigAdminError], None],
        forwarded: bool = False,
    ) -> bool:
        if node_id in self.down or _now() < self.opens_at.get(node_id, 0.0):
            return False  # no connection: the caller's task waits for one (``send``)
        body = build_body(codec.max_version)
        request = Request(_now(), node_id, codec.name, _names(body), written=True)
        reply = self.script(request)
        self.requests.append(request)
        loop = asyncio.get_running_loop()
        answered = False

        def answer(outcome: dict[str, Any] | KafkaConfigAdminError) -> None:
            nonlocal answered
            if not answered:
                answered = True
                if isinstance(outcome, dict):
                    self.choice.answered_at[node_id] = _now()
                on_answer(outcome)

        wait = max(self.request_timeout, FORWARDED_WAIT) if forwarded else self.request_timeout
        if isinstance(reply, Answer):
            loop.call_later(reply.after, answer, _response(codec, body, reply.codes))
        elif isinstance(reply, Lose):
            loop.call_later(reply.after, answer, AnswerLostError(f"broker {node_id}: lost"))
        loop.call_later(
            wait, answer, AnswerLostError(f"broker {node_id} did not answer within {wait:g}s")
        )
        return True

    async def send(
        self,
        node_id: int,
        codec: ApiCodec,
        build_body: Callable[[int], Mapping[str, Any]],
        *,
        throttle_from_version: int,
        memo: Memo | None = None,
        on_written: Callable[[], None] | None = None,
        forwarded: bool = False,
    ) -> dict[str, Any]:
        answer: asyncio.Future[dict[str, Any] | KafkaConfigAdminError]
        answer = asyncio.get_running_loop().create_future()

        def on_answer(outcome: dict[str, Any] | KafkaConfigAdminError) -> None:
            if not answer.done():
                answer.set_result(outcome)

        while not self.submit(
            node_id,
            codec,
            build_body,
            throttle_from_version=throttle_from_version,
            memo=memo,
            on_answer=on_answer,
            forwarded=forwarded,
        ):
            names = _names(build_body(codec.max_version))
            self.requests.append(Request(_now(), node_id, codec.name, names, written=False))
            if node_id in self.down:
                await asyncio.sleep(0.01)  # trying to connect takes a moment
                raise self.down[node_id]
            await asyncio.sleep(self.opens_at[node_id] - _now())
        if on_written is not None:
            on_written()
        outcome = await answer
        if isinstance(outcome, KafkaConfigAdminError):
            raise outcome
        return outcome

    def written_to(self, node: int) -> list[Request]:
        return [r for r in self.requests if r.node == node and r.written]


def _now() -> float:
    return asyncio.get_running_loop().time()


def _names(body: Mapping[str, Any]) -> list[str]:
    return [resource["resource_name"] for resource in body["resources"]]


def _response(codec: ApiCodec, body: Mapping[str, Any], codes: Mapping[str, int]) -> dict[str, Any]:
    """The decoded response a broker sends for a config request: one result per resource."""
    results = [
        {
            "error_code": codes.get(resource["resource_name"], 0),
            "error_message": None,
            "resource_type": resource["resource_type"],
            "resource_name": resource["resource_name"],
            "configs": [],
        }
        for resource in body["resources"]
    ]
    key = "results" if codec.name == "DescribeConfigs" else "responses"
    return {"throttle_time_ms": 0, key: results}


# --- running a scenario -------------------------------------------------------------------


@dataclass
class Harness:
    """An open engine over a fake transport; ``close()`` closes it as the client does."""

    engine: Engine
    transport: FakeTransport
    host: TaskGroupHost

    @property
    def now(self) -> float:
        return _now()

    def describe(self, *names: str | ConfigResource, timeout: float = 30.0) -> Any:
        """Start a describe of topics (by name) or of any resources."""
        resources = [resource(name) for name in names]
        return self.engine.call(
            lambda: DescribeConfigs.build(
                resources, include_synonyms=False, include_documentation=False
            ),
            DescribeConfigsResult,
            timeout,
        )

    def alter(self, *names: str | ConfigResource, timeout: float = 30.0) -> Any:
        """Start an incremental alter (one SET) of topics (by name) or of any resources."""
        ops = {
            resource(name): [AlterConfigOp("log.retention.ms", "1000", OpType.SET)]
            for name in names
        }
        return self.engine.call(
            lambda: IncrementalAlterConfigs.build(ops, validate_only=False),
            AlterConfigsResult,
            timeout,
        )

    async def close(self) -> None:
        self.engine.close()
        await self.host.close()


def resource(name: str | ConfigResource) -> ConfigResource:
    return name if isinstance(name, ConfigResource) else ConfigResource(ResourceType.TOPIC, name)


def run(
    scenario: Callable[[Harness], Awaitable[T]],
    *,
    brokers: list[int] | None = None,
    script: Script | None = None,
    request_timeout: float = 10.0,
    retry_backoff: float = 0.1,
    retry_backoff_max: float = 1.0,
    describe_batch_size: int = 1000,
) -> T:
    """Run ``scenario`` on an open engine over a fake transport, in virtual time."""
    transport = FakeTransport(
        brokers or [1, 2, 3], script or (lambda request: Answer()), request_timeout=request_timeout
    )
    engine = Engine(
        cast(Transport, transport),
        retry_backoff=retry_backoff,
        retry_backoff_max=retry_backoff_max,
        describe_batch_size=describe_batch_size,
    )

    async def main() -> T:
        host = TaskGroupHost()
        engine.task_group = await host.open()
        harness = Harness(engine, transport, host)
        try:
            return await scenario(harness)
        finally:
            await harness.close()

    loop = VirtualTimeLoop()
    try:
        return loop.run_until_complete(main())
    finally:
        loop.close()
