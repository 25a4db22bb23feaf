"""The async admin client: routing, versions, retries and deadlines over the transport."""

from __future__ import annotations

import asyncio
import logging
import random
import ssl
import warnings
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from functools import partial
from types import TracebackType
from typing import Any, Literal, NamedTuple, Self, TypeVar

import anyio
from anyio.abc import TaskGroup

from ._coalesce import GatheredCall, Gathering, GatheringKey
from ._exceptions import (
    BrokerError,
    ClientClosedError,
    InvalidArgumentError,
    KafkaConfigAdminError,
    KafkaConnectionError,
    KafkaTimeoutError,
    NetworkError,
    NotControllerError,
    RequestTimedOutError,
    ThrottlingQuotaExceededError,
)
from ._gc import gc_paused
from ._models import AlterConfigOp, ConfigResource
from ._operations import (
    AlterConfigs,
    DescribeConfigs,
    EntryCache,
    IncrementalAlterConfigs,
    Operation,
    route,
)
from ._results import AlterConfigsResult, DescribeConfigsResult, _Result
from ._transport import BodyBuilder, SecurityOptions, Transport

__all__ = ["AdminClient"]

log = logging.getLogger("kafka_config_admin")

T = TypeVar("T")
R = TypeVar("R", bound=_Result[Any])

SecurityProtocol = Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"]
SaslMechanism = Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]

#: Errors after which the same request is sent again (until the call's deadline).
_RETRIED: tuple[type[KafkaConfigAdminError], ...] = (
    NotControllerError,
    RequestTimedOutError,
    ThrottlingQuotaExceededError,
    NetworkError,
    KafkaConnectionError,
)


#: Resources in one describe request (``describe_batch_size``), unless the caller says otherwise.
DESCRIBE_BATCH_SIZE = 25

#: Requests of one call in flight at once. More than one lets the broker prepare the next answer
#: while the client decodes one; a bound keeps each request's timeout about its own wait.
_REQUESTS_IN_FLIGHT = 4


class AdminClient:
    """An asyncio admin client for Kafka configs.

    Use it as an async context manager; every call made through it is owned by its task group,
    so leaving the ``async with`` block cancels what is still running (those futures fail with
    :class:`ClientClosedError`)::

        async with AdminClient("127.0.0.1:9092") as admin:
            result = admin.describe_configs([ConfigResource(ResourceType.TOPIC, "orders")])
            configs = await result.all()

    Args:
        bootstrap_servers: ``"host:port"``, comma-separated or as a list.
        timeout: seconds one call may take in all, every retry included (default 30).
        request_timeout: seconds one request may wait for its answer (default 15).
        retry_backoff: first pause before a retry, doubled each time up to ``retry_backoff_max``.
        describe_batch_size: a describe of more resources on one broker is split into requests
            of at most this many, sent together on one connection, so that the broker prepares
            one answer while the client decodes the one before (default 25). Alters are never
            split: the controller commits each request on its own, so one request is fastest.
        client_id: the ``client.id`` the brokers see in their logs and quotas.
        retry_backoff_max: the longest pause between two retries (default 2).
        security_protocol: ``PLAINTEXT`` (default), ``SSL``, ``SASL_PLAINTEXT`` or ``SASL_SSL``.
        sasl_mechanism: ``PLAIN`` (default), ``SCRAM-SHA-256`` or ``SCRAM-SHA-512``.
        sasl_plain_username: the SASL user, for every mechanism.
        sasl_plain_password: the SASL password; never shown in a repr or a log line.
        ssl_context: the TLS settings for ``SSL`` and ``SASL_SSL``.

    The security options are handed to aiokafka's connection layer.
    """

    def __init__(
        self,
        bootstrap_servers: str | Sequence[str],
        *,
        client_id: str = "kafka-config-admin",
        timeout: float = 30.0,
        request_timeout: float = 15.0,
        retry_backoff: float = 0.1,
        retry_backoff_max: float = 2.0,
        describe_batch_size: int = DESCRIBE_BATCH_SIZE,
        security_protocol: SecurityProtocol = "PLAINTEXT",
        sasl_mechanism: SaslMechanism = "PLAIN",
        sasl_plain_username: str | None = None,
        sasl_plain_password: str | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        servers = (
            [bootstrap_servers] if isinstance(bootstrap_servers, str) else list(bootstrap_servers)
        )
        servers = [
            part.strip() for entry in servers for part in str(entry).split(",") if part.strip()
        ]
        if not servers:
            raise InvalidArgumentError("bootstrap_servers is empty: give at least one host:port")
        for server in servers:
            _check_server(server)
        for name, value in (
            ("timeout", timeout),
            ("request_timeout", request_timeout),
            ("retry_backoff", retry_backoff),
            ("retry_backoff_max", retry_backoff_max),
        ):
            _check_seconds(name, value)
        if (
            isinstance(describe_batch_size, bool)
            or not isinstance(describe_batch_size, int)
            or describe_batch_size < 1
        ):
            raise InvalidArgumentError(
                f"describe_batch_size must be a positive int, got {describe_batch_size!r}"
            )
        self._describe_batch_size = describe_batch_size
        self._timeout = float(timeout)
        self._retry_backoff = float(retry_backoff)
        self._retry_backoff_max = float(retry_backoff_max)
        self._transport = Transport(
            ",".join(servers),
            client_id=client_id,
            request_timeout=float(request_timeout),
            security=SecurityOptions(
                security_protocol,
                sasl_mechanism,
                sasl_plain_username,
                sasl_plain_password,
                ssl_context,
            ),
        )
        self._task_group: TaskGroup | None = None
        self._entries = EntryCache()  # identical entries are one model across calls
        self._gatherings: dict[GatheringKey, Gathering] = {}
        #: Gatherings written and not yet answered: no task owns them, so closing fails them.
        self._in_flight: set[Gathering] = set()
        #: How many of them each gathering key has.
        self._busy: dict[GatheringKey, int] = {}

    async def __aenter__(self) -> Self:
        if self._task_group is not None:
            raise ClientClosedError("the client is already open")
        try:
            with anyio.fail_after(self._timeout):
                await self._transport.start()
        except TimeoutError:
            await self._transport.close()
            raise KafkaTimeoutError(
                f"could not reach the cluster within {self._timeout:g}s"
            ) from None
        task_group = anyio.create_task_group()
        await task_group.__aenter__()
        self._task_group = task_group
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        task_group, self._task_group = self._task_group, None
        # In the same step: no answer may find the client closed and its gathering in flight.
        in_flight, self._in_flight = self._in_flight, set()
        self._busy.clear()
        for gathering in in_flight:
            if gathering.timer is not None:
                gathering.timer.cancel()
            _fail_closed(gathering.calls, "had an answer")
        try:
            if task_group is not None:
                task_group.cancel_scope.cancel()
                # The body's own exception propagates as it is, not wrapped in a group.
                await task_group.__aexit__(None, None, None)
        finally:
            await self._transport.close()

    # --- public calls ---------------------------------------------------------------------

    def describe_configs(
        self,
        resources: Iterable[ConfigResource] | Mapping[ConfigResource, Collection[str] | None],
        *,
        include_synonyms: bool = False,
        include_documentation: bool = False,
        timeout: float | None = None,
    ) -> DescribeConfigsResult:
        """Describe the configs of resources; returns at once with one future per resource.

        ``resources`` is a collection of :class:`ConfigResource` (every config of each), or a
        mapping of resource to the config names wanted (None: all). Names the broker does not
        know are left out of the answer, not reported. ``include_documentation`` also fills in
        each entry's ``type`` and ``documentation`` (brokers that speak DescribeConfigs v3).
        """
        build = partial(
            DescribeConfigs.build,
            resources,
            include_synonyms=include_synonyms,
            include_documentation=include_documentation,
            entries=self._entries,
        )
        return self._call(build, DescribeConfigsResult, timeout)

    def incremental_alter_configs(
        self,
        configs: Mapping[ConfigResource, Iterable[AlterConfigOp]],
        *,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> AlterConfigsResult:
        """Change configs one by one (KIP-339): SET, DELETE, APPEND or SUBTRACT each.

        Each resource is altered atomically and on its own: one may fail while others
        succeed. ``validate_only`` asks the broker to check the change and apply nothing.
        """
        build = partial(IncrementalAlterConfigs.build, configs, validate_only=validate_only)
        return self._call(build, AlterConfigsResult, timeout)

    def alter_configs(
        self,
        configs: Mapping[ConfigResource, Mapping[str, Any]],
        *,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> AlterConfigsResult:
        """Replace the whole set of dynamic configs of each resource (legacy AlterConfigs).

        .. deprecated:: Kafka deprecated this API; use :meth:`incremental_alter_configs`.
           Every dynamic config of the resource that is **not** in ``configs[resource]`` is
           deleted, which silently loses settings made by others.
        """
        warnings.warn(
            "alter_configs replaces every dynamic config of a resource and deletes the ones "
            "left out; use incremental_alter_configs",
            DeprecationWarning,
            stacklevel=2,
        )
        build = partial(AlterConfigs.build_legacy, configs, validate_only=validate_only)
        return self._call(build, AlterConfigsResult, timeout)

    # --- the engine behind every call -----------------------------------------------------

    def _call(
        self,
        build: Callable[[], Operation[Any]],
        result_type: Callable[[list[ConfigResource]], R],
        timeout: float | None,
    ) -> R:
        """Check the input and start the call; the result comes back at once."""
        if self._task_group is None:
            raise ClientClosedError(
                "the client is not open: use 'async with AdminClient(...) as admin'"
            )
        seconds = self._timeout if timeout is None else _check_seconds("timeout", timeout)
        with gc_paused():  # checking thousands of resources allocates much, but makes no cycles
            operation = build()
            result = result_type(operation.resources)
        expires = asyncio.get_running_loop().time() + seconds
        if not isinstance(operation, DescribeConfigs) or not self._gather(
            GatheredCall(operation, result, seconds, expires)
        ):
            self._task_group.start_soon(self._run, operation, result, seconds, expires)
        return result

    # --- describes that fit in one request: gathered, and no task per call ----------------
    #
    # A gathering's request answers through a callback, run where the answer is decoded, which
    # settles every call in it at once. A call needs a task (``_run``) only to retry.

    def _gather(self, call: GatheredCall) -> bool:
        """Write a describe that fits in one request, or gather it with others; or say no.

        A describe is written at once when nothing for the same broker and flags is in flight.
        Otherwise it joins the calls of the same moment (before the event loop turns), and
        their shared request is written when the loop turns.
        """
        operation = call.operation
        if len(operation.resources) > self._describe_batch_size:
            return False  # split into several requests: routed once, by _send_all
        requests = route(operation.resources, self._describe_batch_size)
        if len(requests) != 1:
            return False
        [(node, resources)] = requests
        key = (node, operation.include_synonyms, operation.include_documentation)
        gathering = self._gatherings.get(key)
        if gathering is None or not gathering.join(operation, resources):
            gathering = Gathering(key, node, operation, resources, self._describe_batch_size)
            if key in self._busy:
                self._gatherings[key] = gathering
                asyncio.get_running_loop().call_soon(self._flush, gathering)
            else:
                gathering.calls.append(call)
                self._write(gathering)
                return True
        gathering.calls.append(call)
        return True

    def _flush(self, gathering: Gathering) -> None:
        """The loop has turned: write the gathering; calls may join it no more."""
        if self._gatherings.get(gathering.key) is gathering:
            del self._gatherings[gathering.key]
        self._write(gathering)

    def _write(self, gathering: Gathering) -> None:
        task_group = self._task_group
        if task_group is None:
            _fail_closed(gathering.calls, "was asked for")
            return
        self._in_flight.add(gathering)
        self._busy[gathering.key] = self._busy.get(gathering.key, 0) + 1
        loop = asyncio.get_running_loop()
        earliest = min(call.expires for call in gathering.calls)
        gathering.timer = loop.call_at(earliest, self._deadline_passed, gathering)
        transport = self._transport
        try:
            node = gathering.node if gathering.node is not None else transport.any_broker()
            if not transport.submit(
                node,
                gathering.leader.codec,
                gathering.body,
                throttle_from_version=gathering.leader.throttle_from_version,
                memo=gathering.leader.memo,
                on_answer=partial(self._answered, gathering),
            ):  # no open connection, or throttled: a task waits for it
                task_group.start_soon(self._send_gathering, node, gathering)
        except Exception as error:  # reaches the calls (a bug too), not the loop's handler
            self._answered(gathering, error)

    async def _send_gathering(self, node: int, gathering: Gathering) -> None:
        try:
            response = await self._request(gathering.leader, node, gathering.body)
        except Exception as error:
            self._answered(gathering, error)
        else:
            self._answered(gathering, response)

    def _answered(self, gathering: Gathering, outcome: dict[str, Any] | Exception) -> None:
        """A gathering's request has its answer, or failed: settle every call in it."""
        if gathering not in self._in_flight:
            return  # the client was closed first
        self._in_flight.discard(gathering)
        if self._busy[gathering.key] == 1:
            del self._busy[gathering.key]
        else:
            self._busy[gathering.key] -= 1
        if gathering.timer is not None:
            gathering.timer.cancel()
        for call in gathering.calls:
            operation, result = call.operation, call.result
            retry: list[ConfigResource] = []
            last_errors: dict[ConfigResource, KafkaConfigAdminError] = {}
            try:
                failed = self._settle(
                    operation, result, operation.resources, outcome, retry, last_errors
                )
            except Exception as error:  # a bug fails this call, not the others
                log.exception("%s failed unexpectedly", operation.codec.name)
                _fail(result, error)
                continue
            if retry:
                assert self._task_group is not None  # closing empties _in_flight at once
                self._task_group.start_soon(
                    self._run,
                    operation,
                    result,
                    call.timeout,
                    call.expires,
                    _Retry(retry, last_errors, refresh=failed),
                )

    def _deadline_passed(self, gathering: Gathering) -> None:
        """Time out the calls of the gathering whose deadline passed; wait for the rest."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        waiting = gathering.waiting()
        for call in waiting:
            if call.expires <= now:
                call.result._fail_pending(partial(_timeout_error, call.timeout, {}))
        earliest = min((call.expires for call in waiting if call.expires > now), default=None)
        gathering.timer = (
            None if earliest is None else loop.call_at(earliest, self._deadline_passed, gathering)
        )

    # --- every other call, and retries: a task each ----------------------------------------

    async def _run(
        self,
        operation: Operation[T],
        result: _Result[T],
        seconds: float,
        expires: float,
        retry: _Retry | None = None,
    ) -> None:
        last_errors = {} if retry is None else retry.last_errors
        try:
            with anyio.CancelScope(deadline=expires):
                await self._execute(operation, result, last_errors, retry)
            result._fail_pending(partial(_timeout_error, seconds, last_errors))
        except Exception as error:
            # A bug here must fail this call's futures, not the client's other calls.
            log.exception("%s failed unexpectedly", operation.codec.name)
            _fail(result, error)
        finally:
            result._fail_pending(
                lambda resource: ClientClosedError(
                    f"the client was closed before {resource} had an answer"
                )
            )

    async def _execute(
        self,
        operation: Operation[T],
        result: _Result[T],
        last_errors: dict[ConfigResource, KafkaConfigAdminError],
        retry: _Retry | None,
    ) -> None:
        pending, attempt = operation.resources, 0
        if retry is not None:  # the first attempt was a gathering's request
            pending, attempt = retry.resources, 1
            if retry.refresh:
                await self._refresh_metadata_quietly()
        while pending:
            if attempt:
                await anyio.sleep(self._backoff(attempt))
            failed: list[ConfigResource] = []
            await self._send_all(operation, result, pending, failed, last_errors)
            pending, attempt = failed, attempt + 1

    async def _send_all(
        self,
        operation: Operation[T],
        result: _Result[T],
        pending: list[ConfigResource],
        retry: list[ConfigResource],
        last_errors: dict[ConfigResource, KafkaConfigAdminError],
    ) -> None:
        """Route the resources, send each broker's requests, and read their outcomes."""
        per_request = self._describe_batch_size if operation.splittable else len(pending)
        requests = route(pending, per_request)
        sends = [
            partial(self._send_group, operation, result, node, resources, retry, last_errors)
            for node, resources in requests
        ]
        if len(sends) == 1:  # the common case needs no task of its own
            await sends[0]()
            return
        in_flight = anyio.Semaphore(_REQUESTS_IN_FLIGHT)
        async with anyio.create_task_group() as group:
            for send in sends:
                group.start_soon(_in_turn, in_flight, send)

    async def _send_group(
        self,
        operation: Operation[T],
        result: _Result[T],
        node: int | None,
        resources: list[ConfigResource],
        retry: list[ConfigResource],
        last_errors: dict[ConfigResource, KafkaConfigAdminError],
    ) -> None:
        """One request for resources bound to one broker (or to any broker), and its outcomes."""
        outcome: dict[str, Any] | KafkaConfigAdminError
        try:
            outcome = await self._request(operation, node, partial(operation.body, resources))
        except KafkaConfigAdminError as error:
            outcome = error
        if self._settle(operation, result, resources, outcome, retry, last_errors):
            await self._refresh_metadata_quietly()

    def _settle(
        self,
        operation: Operation[T],
        result: _Result[T],
        resources: list[ConfigResource],
        outcome: dict[str, Any] | Exception,
        retry: list[ConfigResource],
        last_errors: dict[ConfigResource, KafkaConfigAdminError],
    ) -> bool:
        """Set the futures of one request's resources; what may be retried goes to ``retry``.

        Returns whether the whole request failed in a way worth retrying (the cluster's
        brokers are then worth asking for again).
        """
        if isinstance(outcome, _RETRIED):
            log.debug("%s failed, will retry: %s", operation.codec.name, outcome)
            last_errors.update(dict.fromkeys(resources, outcome))
            retry.extend(resources)
            return True
        if isinstance(outcome, Exception):
            for resource in resources:
                result.values[resource]._set_exception(outcome)
            return False
        with gc_paused():
            outcomes = list(operation.outcomes(resources, outcome))
        futures = result.values
        for resource, value in outcomes:
            if not isinstance(value, BrokerError):
                futures[resource]._set_result(value)
            elif isinstance(value, _RETRIED):
                last_errors[resource] = value
                retry.append(resource)
            else:
                futures[resource]._set_exception(value)
        return False

    async def _request(
        self, operation: Operation[Any], node: int | None, build_body: BodyBuilder
    ) -> dict[str, Any]:
        transport = self._transport
        return await transport.send(
            node if node is not None else transport.any_broker(),
            operation.codec,
            build_body,
            throttle_from_version=operation.throttle_from_version,
            memo=operation.memo,
        )

    async def _refresh_metadata_quietly(self) -> None:
        # A failed refresh is not the call's error: the retry will report what went wrong.
        try:
            await self._transport.refresh_metadata()
        except KafkaConfigAdminError as error:
            log.debug("metadata refresh failed: %s", error)

    def _backoff(self, attempt: int) -> float:
        pause = min(self._retry_backoff * 2.0 ** (attempt - 1), self._retry_backoff_max)
        return pause * random.uniform(0.8, 1.2)  # jitter keeps many clients from syncing up

    def __repr__(self) -> str:
        state = "open" if self._task_group is not None else "closed"
        return f"<AdminClient {state}>"


class _Retry(NamedTuple):
    """What a call's first attempt, a gathering's request, left to retry."""

    resources: list[ConfigResource]
    last_errors: dict[ConfigResource, KafkaConfigAdminError]
    refresh: bool  # the whole request failed: ask for the cluster's brokers again first


def _fail(result: _Result[Any], error: Exception) -> None:
    result._fail_pending(lambda resource: error)


def _fail_closed(calls: Iterable[GatheredCall], when: str) -> None:
    for call in calls:
        call.result._fail_pending(
            lambda resource: ClientClosedError(f"the client was closed before {resource} {when}")
        )


async def _in_turn(limit: anyio.Semaphore, send: Callable[[], Awaitable[None]]) -> None:
    async with limit:
        await send()


def _check_server(server: str) -> None:
    """``host:port`` (``[v6]:port`` too); a missing port means Kafka's default 9092."""
    host, colon, port = server.rpartition(":")
    if not colon or (":" in host and not host.endswith("]")):
        return  # "host" alone, or a bare IPv6 address: aiokafka adds the default port
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InvalidArgumentError(f"bootstrap server {server!r} is not host:port")


def _check_seconds(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise InvalidArgumentError(f"{name} must be a positive number of seconds, got {value!r}")
    return float(value)


def _timeout_error(
    timeout: float, last_errors: Mapping[ConfigResource, Exception], resource: ConfigResource
) -> KafkaTimeoutError:
    last = last_errors.get(resource)
    reason = f"; last error: {last}" if last is not None else ""
    return KafkaTimeoutError(f"no answer for {resource} within {timeout:g}s{reason}")
