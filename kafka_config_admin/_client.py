"""The async admin client: its options, its lifetime, and the public calls.

Each call checks its input into an operation (``_ops``, one module per Kafka area) and
hands it to the engine (``_engine``), which owns routing, retries and deadlines.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import ssl
import warnings
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import anyio

from . import __version__  # not importlib.metadata's: that import costs every start
from ._engine.engine import Engine
from ._engine.lifetime import TaskGroupHost
from ._exceptions import (
    ClientClosedError,
    InvalidArgumentError,
    KafkaTimeoutError,
    UnsupportedEndpointTypeError,
    UnsupportedVersionError,
    error_for_code,
)
from ._models.configs import AlterConfigOp, Config, ConfigResource, ResourceType
from ._models.validation import check_seconds
from ._net.addresses import check_bootstrap_server
from ._net.oauth import TokenProvider
from ._net.security import SecurityOptions
from ._net.security_protocols import SaslMechanism, SecurityProtocol
from ._net.transport import Transport
from ._ops.base import Operation
from ._ops.configs import (
    AlterConfigs,
    DescribeConfigs,
    EntryCache,
    IncrementalAlterConfigs,
    ListConfigResources,
    ListedResources,
    Withheld,
)
from ._ops.documentation import Documentation, FollowUp
from ._ops.results import (
    AlterConfigsResult,
    AlterPartitionReassignmentsResult,
    CreatePartitionsResult,
    CreateTopicsResult,
    DescribeConfigsResult,
    DescribeTopicsResult,
    ResourceFuture,
    _Result,
)
from ._protocol import API_VERSIONS, Answerer

# What only some calls need is imported by them, on first use: a program that imports the
# client pays for the areas it calls (``nox -s bench -- cli``: the import against a bare
# ``import aiokafka, pydantic``).
if TYPE_CHECKING:
    from ._models.catalog import CatalogMatch
    from ._models.cluster import ClusterDescription, WireTraffic
    from ._models.listing import ConfigResourceListing
    from ._models.quotas import ClientQuotaAlteration, ClientQuotaEntity, ClientQuotaFilter
    from ._models.scram import UserScramCredentialAlteration
    from ._models.topics import (
        NewPartitions,
        NewTopic,
        PartitionReassignment,
        TopicListing,
        TopicPartition,
    )
    from ._ops.groups import ListGroupsResult
    from ._ops.quotas import AlterClientQuotasResult, DescribeClientQuotasResult
    from ._ops.scram import AlterUserScramCredentialsResult, DescribeUserScramCredentialsResult

__all__ = ["AdminClient"]

log = logging.getLogger("kafka_config_admin")


def _api_versions_request(version: int) -> dict[str, str]:
    """ApiVersions asks nothing; from v3 it names the client, as a broker insists (its
    metrics show it)."""
    return {"client_software_name": "kafka-config-admin", "client_software_version": __version__}


K = TypeVar("K", bound=Hashable)
R = TypeVar("R", bound=_Result[Any, Any])


#: Resources in one describe request (``describe_batch_size``), unless the caller says otherwise.
DESCRIBE_BATCH_SIZE = 25

#: Seconds one call may take in all (``timeout``): a frozen controller holds forwarded
#: changes for 30 s, so a shorter default could not survive one sick node.
DEFAULT_TIMEOUT = 60.0
#: The part of a CreateTopics request's timeout the broker may spend waiting for the topics.
_BROKER_WAIT_SHARE = 0.8


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
        bootstrap_controllers: instead of ``bootstrap_servers``, the listeners of a KRaft
            controller quorum (``controller.listener.names``; Kafka 3.7+, KIP-919), as
            ``kafka-configs.sh --bootstrap-controller``: the client then talks to the
            controllers. They serve the configs and log levels of their own nodes (BROKER and
            BROKER_LOGGER resources named by a controller's id), the cluster-wide default
            (BROKER ``""``) and :meth:`describe_cluster`; a call they do not serve fails with
            :class:`UnsupportedEndpointTypeError`. Give exactly one of the two.
        timeout: seconds one call may take in all, every retry included (default 60, as
            Java's ``default.api.timeout.ms``: a broker holds an alter it forwards to a frozen
            controller for 30 s, so a shorter deadline cannot outlast a controller failure).
        request_timeout: seconds one request may wait for its answer (default 15); a change
            waits at least 35 s, since a broker holds a change it forwards to a frozen
            controller for 30 s before it answers.
        retry_backoff: first pause before a retry, doubled each time up to ``retry_backoff_max``.
        describe_batch_size: a describe of more resources on one broker is split into requests
            of at most this many, sent together on one connection, so that the broker prepares
            one answer while the client decodes the one before (default 25). Alters are never
            split: the controller commits each request on its own, so one request is fastest.
        client_id: the ``client.id`` the brokers see in their logs and quotas.
        retry_backoff_max: the longest pause between two retries (default 2).
        security_protocol: ``PLAINTEXT`` (default), ``SSL``, ``SASL_PLAINTEXT`` or ``SASL_SSL``.
        sasl_mechanism: ``PLAIN`` (default), ``SCRAM-SHA-256``, ``SCRAM-SHA-512`` or
            ``OAUTHBEARER``.
        sasl_plain_username: the SASL user, for PLAIN and SCRAM.
        sasl_plain_password: the SASL password; never shown in a repr or a log line.
        sasl_oauth_token_provider: for ``OAUTHBEARER``: a :class:`TokenProvider` whose
            ``token()`` gives the bearer token at each new connection; the token is never shown.
        ssl_context: the TLS settings for ``SSL`` and ``SASL_SSL`` (trusted CAs, host name
            checking, a client certificate for mutual TLS); by default the system's CAs and
            host name checking, as ``ssl.create_default_context()``.

    The security options are checked at once (:class:`InvalidArgumentError`) and handed to
    aiokafka's connection layer. A failed TLS handshake raises :class:`TlsError`, refused
    credentials :class:`AuthenticationError` (see docs/security.md).
    """

    def __init__(
        self,
        bootstrap_servers: str | Sequence[str] | None = None,
        *,
        bootstrap_controllers: str | Sequence[str] | None = None,
        client_id: str = "kafka-config-admin",
        timeout: float = DEFAULT_TIMEOUT,
        request_timeout: float = 15.0,
        retry_backoff: float = 0.1,
        retry_backoff_max: float = 2.0,
        describe_batch_size: int = DESCRIBE_BATCH_SIZE,
        security_protocol: SecurityProtocol = "PLAINTEXT",
        sasl_mechanism: SaslMechanism = "PLAIN",
        sasl_plain_username: str | None = None,
        sasl_plain_password: str | None = None,
        ssl_context: ssl.SSLContext | None = None,
        sasl_oauth_token_provider: TokenProvider | None = None,
    ) -> None:
        option, given = _bootstrap_option(bootstrap_servers, bootstrap_controllers)
        servers = [
            part.strip()
            for entry in _server_entries(option, given)
            for part in entry.split(",")
            if part.strip()
        ]
        if not servers:
            raise InvalidArgumentError(f"{option} is empty: give at least one host:port")
        for server in servers:
            check_bootstrap_server(server)
        for name, value in (
            ("timeout", timeout),
            ("request_timeout", request_timeout),
            ("retry_backoff", retry_backoff),
            ("retry_backoff_max", retry_backoff_max),
        ):
            check_seconds(name, value)
        if (
            isinstance(describe_batch_size, bool)
            or not isinstance(describe_batch_size, int)
            or describe_batch_size < 1
        ):
            raise InvalidArgumentError(
                f"describe_batch_size must be a positive int, got {describe_batch_size!r}"
            )
        self._timeout = float(timeout)
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
                sasl_oauth_token_provider,
            ),
            controllers=option == "bootstrap_controllers",
        )
        self._engine = Engine(
            self._transport,
            retry_backoff=float(retry_backoff),
            retry_backoff_max=float(retry_backoff_max),
            describe_batch_size=describe_batch_size,
        )
        self._host: TaskGroupHost | None = None
        self._entries = EntryCache()  # identical entries are one model across calls
        self._documentation = Documentation()  # each broker's, asked once (never shared)
        #: Describes asking for documentation now: a describe that needs some waits for them.
        self._learning: list[anyio.Event] = []
        self._catalog: tuple[CatalogMatch | None] | None = None  # read once, when asked

    async def __aenter__(self) -> Self:
        if self._engine.task_group is not None:
            raise ClientClosedError("the client is already open")
        try:
            with anyio.fail_after(self._timeout):
                await self._transport.start()
        except TimeoutError:
            # The deadline may come before the connection's own request timeout: say what
            # the server being tried did, as that timeout would have.
            silence = self._transport.silence(self._timeout)
            await self._transport.close()
            happened = "" if silence is None else f": {silence}"
            raise KafkaTimeoutError(
                f"could not reach the cluster at {self._transport.bootstrap_servers} within "
                f"{self._timeout:g}s{happened}"
            ) from None
        # Held by a task of its own: the client may be closed by any task, in any order.
        self._host = TaskGroupHost()
        self._engine.task_group = await self._host.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._engine.close()
        host, self._host = self._host, None
        try:
            if host is not None:
                await host.close()
        finally:
            await self._transport.close()

    def broker_ids(self) -> list[int]:
        """The node ids of the cluster's brokers, as the client's latest metadata lists them
        (with ``bootstrap_controllers``: the quorum's controllers)."""
        if self._engine.task_group is None:
            raise ClientClosedError(
                "the client is not open: use 'async with AdminClient(...) as admin'"
            )
        return self._transport.broker_ids()

    def broker_racks(self) -> dict[int, str | None]:
        """Each broker's rack (``broker.rack``; None when it reports none), by node id, as the
        client's latest metadata lists them."""
        self.broker_ids()  # the same check that the client is open
        return self._transport.broker_racks()

    def cluster_id(self) -> str | None:
        """The cluster's id, as the client's latest metadata names it (with
        ``bootstrap_controllers``: the quorum's DescribeCluster answer); None when it names
        none (a broker before Kafka 0.10.1). :meth:`describe_cluster` asks the cluster."""
        self.broker_ids()  # the same check that the client is open
        return self._transport.cluster_id()

    def traffic(self) -> WireTraffic:
        """What this client's requests carried so far: requests, responses and their bytes."""
        from ._models.cluster import WireTraffic

        counted = self._transport.traffic
        return WireTraffic(
            counted.requests, counted.bytes_sent, counted.responses, counted.bytes_received
        )

    # --- public calls ---------------------------------------------------------------------

    def describe_cluster(
        self, *, include_fenced: bool = False, timeout: float | None = None
    ) -> ResourceFuture[None, ClusterDescription]:
        """The cluster's id, nodes and controller (DescribeCluster; brokers from Kafka 2.8).

        ``cluster = await admin.describe_cluster()``. With ``bootstrap_controllers`` the nodes
        are the quorum's controllers and ``controller_id`` the active one (Kafka 3.7+, KIP-919).
        ``include_fenced`` lists the brokers registered with the cluster but fenced too (a
        stopped broker, once its session has expired), each ``fenced``, where the broker can
        (DescribeCluster v2, Kafka 4.0+, KIP-1073): ``fenced_listed`` says whether it did.
        """
        from ._models.cluster import ClusterDescription
        from ._ops.cluster import DescribeCluster

        build = partial(
            DescribeCluster.build,
            controllers=self._transport.controllers,
            include_fenced=include_fenced,
        )
        result = self._call(build, _Result[None, ClusterDescription], timeout)
        return result.values[None]

    async def config_catalog(self) -> CatalogMatch | None:
        """The config catalog of the cluster's Kafka release (valid values, defaults, update
        modes from Kafka's own ConfigDefs) with the cluster's finalized features, or None when
        no catalog fits the cluster.

        The release is told by the API versions a broker advertises, and the features by what
        it reports (one ApiVersions request), never guessed; the answer is kept for the
        client's life. With no catalog (a broker older than every catalog), checks fall back
        to the KIP-569 types the broker reports, and a warning says so once.
        """
        if self._catalog is None:
            self.broker_ids()  # refuses a client that is not open
            broker = self._transport.choice.any_broker()
            try:
                with anyio.fail_after(self._timeout):
                    answer = await self._transport.send(
                        broker, API_VERSIONS, _api_versions_request, throttle_from_version=1
                    )
            except TimeoutError:
                raise KafkaTimeoutError(
                    f"broker {broker} did not answer within {self._timeout:g}s"
                ) from None
            if answer["error_code"]:
                raise error_for_code(answer["error_code"], f"ApiVersions from broker {broker}")
            versions = {api["api_key"]: api["max_version"] for api in answer["api_keys"]}
            from ._models.catalog import catalog_releases, match_catalog

            match = match_catalog(versions)
            if match is None:
                log.warning(
                    "no config catalog fits broker %s (older than Kafka %s): values are "
                    "checked by the types the broker reports (KIP-569) only",
                    broker,
                    catalog_releases()[0],
                )
            else:
                features = {
                    feature["name"]: feature["max_version_level"]
                    for feature in answer["finalized_features"]
                }
                match = dataclasses.replace(match, features=features)
            self._catalog = (match,)
        return self._catalog[0]

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
        know are left out of the answer, not reported. Each entry's ``type`` comes from brokers
        that speak DescribeConfigs v3 (Kafka 2.6); ``include_documentation`` also fills in its
        ``documentation``. That text is several times the bytes of the rest of an answer and
        the same for every resource of a type on one broker, so the client asks each broker
        for it once per key and resource type (again after the broker restarts) and fills
        every entry from what it holds: the entries are the ones the broker would send.
        """
        if include_documentation is not True:  # False, or not a flag: ``build`` says so
            return self._call(
                partial(
                    DescribeConfigs.build,
                    resources,
                    include_synonyms=include_synonyms,
                    include_documentation=include_documentation,
                    entries=self._entries,
                ),
                DescribeConfigsResult,
                timeout,
            )
        seconds = self._timeout if timeout is None else check_seconds("timeout", timeout)
        if self._asks_documented(resources):
            return self._describe_learning(resources, include_synonyms, seconds)
        describe = _FilledDescribe(self, seconds)
        build = partial(
            DescribeConfigs.build,
            resources,
            include_synonyms=include_synonyms,
            include_documentation=False,
            entries=self._entries,
            documentation=self._documentation,
            withhold=describe.withhold,
        )
        return self._engine.call(build, describe.result_for, seconds)

    def _asks_documented(
        self, resources: Iterable[ConfigResource] | Mapping[ConfigResource, object]
    ) -> bool:
        """Whether a describe of ``resources`` asks with documentation and learns from it.

        So does a describe of one resource while this client holds nothing of its type and
        asks nobody yet: the documented answer of one resource is what the follow-up would
        receive, one round trip sooner, and describes made meanwhile wait for it instead of
        sending follow-ups of their own.
        """
        if self._learning:
            return False
        if not isinstance(resources, _BUILTIN_COLLECTIONS) and not isinstance(
            resources, Collection
        ):
            return False
        if len(resources) != 1:
            return False
        (resource,) = resources
        return (
            isinstance(resource, ConfigResource) and resource.type not in self._documentation.types
        )

    def _describe_learning(
        self,
        resources: Iterable[ConfigResource] | Mapping[ConfigResource, Collection[str] | None],
        include_synonyms: bool,
        seconds: float,
    ) -> DescribeConfigsResult:
        """Describe with documentation, keeping what the answer says for the next describes."""
        answered: dict[ConfigResource, Answerer] = {}
        documented = self._call(
            partial(
                DescribeConfigs.build,
                resources,
                include_synonyms=include_synonyms,
                include_documentation=True,
                entries=self._entries,
                answerers=answered,
            ),
            DescribeConfigsResult,
            seconds,
        )
        learning = anyio.Event()
        self._learning.append(learning)

        async def learn() -> None:
            try:
                await documented.wait()
                for resource, future in documented.values.items():
                    if future._exception is None and resource in answered:
                        config = future.result()
                        self._documentation.learn(answered[resource], resource.type, config)
            finally:
                self._learning.remove(learning)
                learning.set()

        self._engine.spawn(learn)
        return documented

    async def _document(
        self,
        withheld: Withheld,
        asked: DescribeConfigs,
        result: DescribeConfigsResult,
        expires: float,
    ) -> None:
        """Settle the answers ``asked`` could not fill: each filled with its documentation.

        Keys not held yet are asked of the broker that answered (``Documentation``); an
        answer still not fillable after that (its broker restarted in between, a key gone, no
        word of who answered) is described with documentation, as the broker would answer it.
        """
        futures = result.values
        try:
            answers = {r: (a, config) for r, (a, config) in withheld.items() if a is not None}
            for _ in range(2):  # once more if a broker restarted between the two answers
                answers = self._fill(answers, futures)  # what is held needs no wait
                if not answers:
                    break
                # Calls made at once ask only once: wait for the others' answers, but no
                # longer than this call's deadline (another call's may be later).
                with anyio.move_on_after(expires - anyio.current_time()):
                    for learning in list(self._learning):
                        await learning.wait()
                asks = self._documentation.follow_ups(answers)
                if not asks:
                    continue
                learning = anyio.Event()
                self._learning.append(learning)
                try:
                    await self._learn(asks, expires)
                finally:
                    self._learning.remove(learning)
                    learning.set()
            self._fill(answers, futures)
            left = [resource for resource in withheld if not futures[resource].done()]
            await self._describe_documented(left, asked, result, expires)
        except Exception as error:  # a bug reaches the caller, not the client's task group
            for resource in withheld:
                futures[resource]._set_exception(error)
        except BaseException:
            closed = ClientClosedError("the client was closed before the describe ended")
            for resource in withheld:
                futures[resource]._set_exception(closed)
            raise

    def _fill(
        self,
        answers: dict[ConfigResource, tuple[Answerer, Config]],
        futures: Mapping[ConfigResource, ResourceFuture[ConfigResource, Config]],
    ) -> dict[ConfigResource, tuple[Answerer, Config]]:
        """Settle each answer whose documentation is held; the answers left."""
        left = {}
        for resource, (answerer, config) in answers.items():
            filled = self._documentation.fill(answerer, resource.type, config)
            if filled is None:
                left[resource] = (answerer, config)
            else:
                futures[resource]._set_result(filled)
        return left

    async def _learn(self, asks: dict[ConfigResource, FollowUp], expires: float) -> None:
        """Describe with documentation what ``asks`` names, and keep what the answers say."""
        learned: dict[ConfigResource, Answerer] = {}
        documented = self._engine.call(
            partial(
                DescribeConfigs.build,
                {resource: ask.names for resource, ask in asks.items()},
                include_synonyms=False,
                include_documentation=True,
                answerers=learned,
                pinned={resource: ask.node_id for resource, ask in asks.items()},
            ),
            DescribeConfigsResult,
            max(expires - anyio.current_time(), 0.0),
        )
        await documented.wait()
        for resource, future in documented.values.items():
            if future._exception is None and resource in learned:
                self._documentation.learn(learned[resource], resource.type, future.result())

    async def _describe_documented(
        self,
        resources: list[ConfigResource],
        asked: DescribeConfigs,
        result: DescribeConfigsResult,
        expires: float,
    ) -> None:
        """Settle ``resources`` of ``result`` by describing them with documentation."""
        if not resources:
            return
        described = self._engine.call(
            partial(
                DescribeConfigs.build,
                {resource: asked.keys[resource] for resource in resources},
                include_synonyms=asked.include_synonyms,
                include_documentation=True,
                entries=self._entries,
            ),
            DescribeConfigsResult,
            max(expires - anyio.current_time(), 0.0),
        )
        await described.wait()
        for resource, future in described.values.items():
            if future._exception is not None:
                result.values[resource]._set_exception(future._exception)
            else:
                result.values[resource]._set_result(future.result())

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
        build = partial(
            IncrementalAlterConfigs.build,
            configs,
            validate_only=validate_only,
            to_quorum=self._transport.controllers,
        )
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
        build = partial(
            AlterConfigs.build_legacy,
            configs,
            validate_only=validate_only,
            to_quorum=self._transport.controllers,
        )
        return self._call(build, AlterConfigsResult, timeout)

    def list_topics(
        self,
        pattern: str | re.Pattern[str] | None = None,
        *,
        include_internal: bool = False,
        timeout: float | None = None,
    ) -> ResourceFuture[None, list[TopicListing]]:
        """The cluster's topics, sorted by name; those whose whole name matches ``pattern``.

        Returns at once with a future: ``topics = await admin.list_topics("orders.*")``.

        ``pattern`` is a regular expression matched against the whole name (``re.fullmatch``,
        as Kafka's tools do: ``"orders.*"``, not ``"orders"``, for every name that starts so).
        Kafka's internal topics (``__consumer_offsets``...) are left out unless
        ``include_internal``. One Metadata request to any broker.
        """
        from ._models.topics import TopicListing
        from ._ops.topics import ListTopics

        build = partial(ListTopics.build, pattern, include_internal=include_internal)
        result = self._call(build, _Result[None, list[TopicListing]], timeout)
        return result.values[None]

    def create_topics(
        self,
        new_topics: Iterable[NewTopic],
        *,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> CreateTopicsResult:
        """Create topics, with their configs; returns at once with one future per topic name.

        Each topic is created on its own: one may fail (it exists, a policy refused it...)
        while the others are created. ``validate_only`` asks the broker to check everything and
        create nothing; the futures then say what would be created. Names, counts and
        configs are checked first: a bad topic raises :class:`InvalidArgumentError` and
        nothing is sent. The request goes to the controller the metadata names (a
        ZooKeeper-era broker takes it from no other; in KRaft that broker forwards it).
        """
        from ._ops.topics import CreateTopics

        seconds, broker_wait_ms = self._deadline_and_broker_wait(timeout)
        build = partial(
            CreateTopics.build,
            new_topics,
            validate_only=validate_only,
            timeout_ms=broker_wait_ms,
            controller=self._transport.controller_id,
        )
        return self._call(build, CreateTopicsResult, seconds)

    def describe_topics(
        self, topics: Iterable[str], *, timeout: float | None = None
    ) -> DescribeTopicsResult:
        """The partitions of ``topics``: leader, replicas, in-sync and offline replicas.

        One future per topic name; a topic the cluster lacks fails alone with
        :class:`UnknownTopicOrPartitionError`. One Metadata request to any broker.
        """
        from ._ops.topics import DescribeTopics

        build = partial(DescribeTopics.build, topics)
        return self._call(build, DescribeTopicsResult, timeout)

    async def wait_for_topics(
        self,
        topics: Mapping[str, int] | Iterable[str],
        *,
        timeout: float | None = None,  # noqa: ASYNC109 (every call of the client takes one)
    ) -> None:
        """Wait until every broker's metadata shows ``topics``, each with at least its count of
        partitions (a mapping of name to count; names alone: any count).

        Kafka answers CreateTopics and CreatePartitions once the controller has made the
        change; each broker learns of it a moment later, and until then a listing, a describe
        or a plan that reaches that broker does not see it (UNKNOWN_TOPIC_OR_PARTITION). Call
        this after :meth:`create_topics` or :meth:`create_partitions` so that what follows sees
        everything made. Each broker the metadata lists is asked (one Metadata request per
        broker per round, for the topics it does not show yet) until it shows them all.
        Raises :class:`KafkaTimeoutError` naming the topics and brokers not there yet when
        ``timeout`` (the client's by default) passes first.
        """
        wanted = dict(topics) if isinstance(topics, Mapping) else dict.fromkeys(topics, 1)
        seconds = self._timeout if timeout is None else check_seconds("timeout", timeout)
        pending = {broker: dict(wanted) for broker in self.broker_ids()}
        pause = _SETTLE_PAUSE
        with anyio.move_on_after(seconds):
            while pending:
                for broker in list(pending):
                    if broker not in self.broker_ids():  # gone from the metadata: reads too
                        del pending[broker]
                        continue
                    await self._forget_seen(broker, pending[broker], seconds)
                    if not pending[broker]:
                        del pending[broker]
                if pending:
                    await anyio.sleep(pause)
                    pause = min(pause * 2, _SETTLE_PAUSE_MAX)
        if pending:
            missing = sorted({name for names in pending.values() for name in names})
            raise KafkaTimeoutError(
                f"{len(missing)} topic(s) not yet in the metadata of broker(s) "
                f"{', '.join(map(str, sorted(pending)))} after {seconds:g}s "
                f"(first: {', '.join(repr(name) for name in missing[:3])})"
            )

    async def _forget_seen(self, broker: int, wanted: dict[str, int], seconds: float) -> None:
        """Remove from ``wanted`` the topics ``broker``'s metadata shows with their partitions
        (one that fails or is not there yet stays: it is asked again)."""
        from ._ops.topics import DescribeTopicsOn

        described = self._call(
            partial(DescribeTopicsOn.on, broker, list(wanted)), DescribeTopicsResult, seconds
        )
        await described.wait()
        for name, future in described.values.items():
            if future.exception() is None and len(future.result().partitions) >= wanted[name]:
                del wanted[name]

    def create_partitions(
        self,
        new_partitions: Mapping[str, NewPartitions],
        *,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> CreatePartitionsResult:
        """Raise topics' partition counts: topic name to :class:`NewPartitions` (the new total).

        One future per topic; each topic succeeds or fails on its own (a count not above the
        current one fails with :class:`InvalidPartitionsError`). ``validate_only`` asks the
        controller to check and change nothing.
        """
        from ._ops.topics import CreatePartitions

        seconds, broker_wait_ms = self._deadline_and_broker_wait(timeout)
        build = partial(
            CreatePartitions.build,
            new_partitions,
            validate_only=validate_only,
            timeout_ms=broker_wait_ms,
            controller=self._transport.controller_id,
        )
        return self._call(build, CreatePartitionsResult, seconds)

    def alter_partition_reassignments(
        self,
        reassignments: Mapping[TopicPartition, Sequence[int] | None],
        *,
        timeout: float | None = None,
    ) -> AlterPartitionReassignmentsResult:
        """Start moving partitions to new replica lists (KIP-455); None cancels a partition's
        reassignment in progress.

        ``{TopicPartition("orders", 0): [1, 2, 3]}``: the first broker is the preferred
        leader. One future per partition, done once the controller accepted the move (the
        data moves afterwards: follow it with :meth:`list_partition_reassignments`).
        """
        from ._ops.topics import AlterPartitionReassignments

        seconds, broker_wait_ms = self._deadline_and_broker_wait(timeout)
        build = partial(
            AlterPartitionReassignments.build,
            reassignments,
            timeout_ms=broker_wait_ms,
            controller=self._transport.controller_id,
        )
        return self._call(build, AlterPartitionReassignmentsResult, seconds)

    def list_partition_reassignments(
        self,
        partitions: Iterable[TopicPartition] | None = None,
        *,
        timeout: float | None = None,
    ) -> ResourceFuture[None, dict[TopicPartition, PartitionReassignment]]:
        """The reassignments in progress, of ``partitions`` or (None) of every partition.

        ``moving = await admin.list_partition_reassignments()``; a partition not moving is
        not in the mapping.
        """
        from ._models.topics import PartitionReassignment, TopicPartition
        from ._ops.topics import ListPartitionReassignments

        seconds, broker_wait_ms = self._deadline_and_broker_wait(timeout)
        build = partial(
            ListPartitionReassignments.build,
            partitions,
            timeout_ms=broker_wait_ms,
            controller=self._transport.controller_id,
        )
        result = self._call(
            build, _Result[None, dict[TopicPartition, PartitionReassignment]], seconds
        )
        return result.values[None]

    async def config_types_lacking(self, types: Iterable[ResourceType]) -> dict[ResourceType, str]:
        """Of ``types``, those the cluster's brokers have no configs of, each with why: groups
        before Kafka 4.0, client metrics before 3.7, as the catalog the broker's own API
        versions match says (:meth:`config_catalog`). A broker between two catalogs' releases
        is taken to have them (the broker is the judge). Every reader that describes groups or
        client-metrics resources asks here first: such a broker fails a describe of one.
        """
        from ._models.catalog import config_types_lacking

        return config_types_lacking(await self.config_catalog(), types)

    async def list_config_resources(
        self, types: Iterable[ResourceType] | None = None
    ) -> ConfigResourceListing:
        """The config resources of ``types`` (None: topics, brokers, broker loggers,
        client-metrics resources and groups).

        The broker lists them (ListConfigResources, KIP-1142, Kafka 4.1+), and of groups it
        lists those with a config set, groups that exist only as config (no member, no
        committed offset) included; the groups ListGroups lists (with members or committed
        offsets) are added, so that every group a config can be read for is there.

        On an older broker the client-metrics resources come from ListClientMetricsResources
        (Kafka 3.7-4.0; none exist before), topics from Metadata, brokers from the client's
        metadata, and groups from ListGroups alone, which misses a group that exists only as
        config: the listing's ``unseen`` then says so for GROUP, and ``complete`` is False. A
        broker with no configs of a type (:meth:`config_types_lacking`: groups before Kafka
        4.0) lists none of it, and ``unseen`` says why. A
        broker that does not answer ListGroups fails the listing with its error (a group it
        coordinates would be missing, not gone). Each request has the client's ``timeout``.
        """
        wanted = _listable(types)
        build = partial(ListConfigResources, tuple(wanted))
        try:
            listed = await self._call(build, _Result[None, ListedResources], None).values[None]
        except UnsupportedEndpointTypeError:
            raise  # a controller quorum lists nothing: no fallback would either
        except UnsupportedVersionError:  # before Kafka 3.7: the API did not exist
            listed = ListedResources(-1, [])
        unseen = await self.config_types_lacking(wanted)
        wanted = [kind for kind in wanted if kind not in unseen]
        found = [(kind, name) for kind, name in listed.resources if kind in wanted]
        if listed.version < 1:
            found += await self._listed_otherwise(wanted)
        if ResourceType.GROUP in wanted:
            found += await self._listed_groups(unseen, configs_listed=listed.version >= 1)
        resources = sorted(set(found), key=lambda pair: (pair[0].value, pair[1]))
        from ._models.listing import ConfigResourceListing

        return ConfigResourceListing(
            tuple(ConfigResource(kind, name) for kind, name in resources), unseen
        )

    async def _listed_otherwise(
        self, wanted: Collection[ResourceType]
    ) -> list[tuple[ResourceType, str]]:
        """The topics and brokers a broker before Kafka 4.1 does not list, by the calls that
        list them."""
        found: list[tuple[ResourceType, str]] = []
        if ResourceType.TOPIC in wanted:
            topics = await self.list_topics(include_internal=True)
            found += [(ResourceType.TOPIC, topic.name) for topic in topics]
        for kind in (ResourceType.BROKER, ResourceType.BROKER_LOGGER):
            if kind in wanted:
                found += [(kind, str(node)) for node in self.broker_ids()]
        return found

    async def _listed_groups(
        self, unseen: dict[ResourceType, str], *, configs_listed: bool
    ) -> list[tuple[ResourceType, str]]:
        """The groups ListGroups lists (every broker's, or its error); before Kafka 4.1, in
        ``unseen``, that those that exist only as config cannot be seen."""
        listed = await self.list_groups().all()
        if not configs_listed:
            unseen[ResourceType.GROUP] = (
                "the broker lists no group configs before Kafka 4.1 (KIP-1142): groups that "
                "exist only as config (no member, no committed offset) cannot be seen"
            )
        return [(ResourceType.GROUP, group.group_id) for group in listed]

    def list_groups(
        self,
        *,
        states: Collection[str] | None = None,
        types: Collection[str] | None = None,
        timeout: float | None = None,
    ) -> ListGroupsResult:
        """The cluster's groups: every broker is asked for the groups it coordinates.

        ``groups = await admin.list_groups().all()`` gives a :class:`GroupListing` per group,
        sorted by name. ``states`` (``{"Stable", "Empty"}``; brokers from Kafka 2.6) and
        ``types`` (``{"consumer", "classic", "share"}``; from Kafka 3.8) keep only those
        groups; a broker too old for a filter fails with :class:`UnsupportedVersionError`.
        One broker failing fails only its own future: ``await result.valid()`` lists the
        groups of the brokers that answered.
        """
        from ._ops.groups import ListGroups, ListGroupsResult

        build = partial(ListGroups.build, self.broker_ids(), states=states, types=types)
        return self._call(build, ListGroupsResult, timeout)

    def describe_client_quotas(
        self, quota_filter: ClientQuotaFilter | None = None, *, timeout: float | None = None
    ) -> DescribeClientQuotasResult:
        """The quotas of every entity ``quota_filter`` matches (None: every entity).

        ``await result.all()`` maps each :class:`ClientQuotaEntity` to its quota values.
        """
        from ._ops.quotas import DescribeClientQuotas, DescribeClientQuotasResult

        build = partial(DescribeClientQuotas.build, quota_filter)
        return self._call(build, DescribeClientQuotasResult, timeout)

    def alter_client_quotas(
        self,
        alterations: Iterable[ClientQuotaAlteration]
        | Mapping[ClientQuotaEntity, Mapping[str, float | int | None]],
        *,
        validate_only: bool = False,
        timeout: float | None = None,
    ) -> AlterClientQuotasResult:
        """Set quota values (a number) or remove them (None), one future per entity.

        ``{ClientQuotaEntity({"user": "alice"}): {"producer_byte_rate": 1048576}}``, or a list
        of :class:`ClientQuotaAlteration`. Each entity succeeds or fails on its own;
        ``validate_only`` asks the broker to check the change and apply nothing.
        """
        from ._ops.quotas import AlterClientQuotas, AlterClientQuotasResult

        build = partial(AlterClientQuotas.build, alterations, validate_only=validate_only)
        return self._call(build, AlterClientQuotasResult, timeout)

    def describe_user_scram_credentials(
        self, users: Iterable[str] | None = None, *, timeout: float | None = None
    ) -> DescribeUserScramCredentialsResult:
        """The SCRAM mechanisms and iterations of ``users`` (None: every user who has any).

        Never a secret. A user without credentials fails only its own
        ``await result.description(user)`` (with :class:`ResourceNotFoundError`).
        """
        from ._ops.scram import DescribeUserScramCredentials, DescribeUserScramCredentialsResult

        build = partial(DescribeUserScramCredentials.build, users)
        return self._call(build, DescribeUserScramCredentialsResult, timeout)

    def alter_user_scram_credentials(
        self,
        alterations: Iterable[UserScramCredentialAlteration],
        *,
        timeout: float | None = None,
    ) -> AlterUserScramCredentialsResult:
        """Upsert or delete SCRAM credentials, one change per user, one future per user.

        A :class:`UserScramCredentialUpsertion` carries a salt and the salted password, never
        the password itself (RFC 5802).
        """
        from ._ops.scram import AlterUserScramCredentials, AlterUserScramCredentialsResult

        build = partial(AlterUserScramCredentials.build, alterations)
        return self._call(build, AlterUserScramCredentialsResult, timeout)

    def _deadline_and_broker_wait(self, timeout: float | None) -> tuple[float, int]:
        """A controller call's deadline (seconds), and the milliseconds the broker may wait
        inside it before it answers.

        The broker must answer within the request's own timeout, with room for the answer to
        arrive: a ZooKeeper-era broker waits the whole time for a topic whose leader cannot be
        elected and then answers for every topic, the created ones too.
        """
        seconds = self._timeout if timeout is None else check_seconds("timeout", timeout)
        wait = min(seconds, self._transport.request_timeout) * _BROKER_WAIT_SHARE
        return seconds, int(wait * 1000)

    def _call(
        self,
        build: Callable[[], Operation[K, Any]],
        result_type: Callable[[list[K]], R],
        timeout: float | None,
    ) -> R:
        """Check the deadline and start the call; the result comes back at once."""
        seconds = self._timeout if timeout is None else check_seconds("timeout", timeout)
        return self._engine.call(build, result_type, seconds)

    def __repr__(self) -> str:
        state = "open" if self._engine.task_group is not None else "closed"
        return f"<AdminClient {state}>"


#: The first pause between rounds of :meth:`AdminClient.wait_for_topics`, doubled up to the max.
_SETTLE_PAUSE = 0.05
_SETTLE_PAUSE_MAX = 1.0


def _listable(types: Iterable[ResourceType] | None) -> list[ResourceType]:
    """The resource types asked for, each once, checked: LISTABLE_TYPES when None."""
    from ._models.listing import LISTABLE_TYPES

    if types is None:
        return list(LISTABLE_TYPES)
    if isinstance(types, str | ResourceType) or not isinstance(types, Iterable):
        raise InvalidArgumentError(
            f"types must be a collection of ResourceType, got {type(types).__name__}"
        )
    wanted = list(dict.fromkeys(types))
    for kind in wanted:
        if kind not in LISTABLE_TYPES:
            names = ", ".join(listable.name for listable in LISTABLE_TYPES)
            raise InvalidArgumentError(f"cannot list resources of type {kind!r} (only {names})")
    if not wanted:
        raise InvalidArgumentError("types is empty: name at least one ResourceType (or None)")
    return wanted


def _bootstrap_option(servers: object, controllers: object) -> tuple[str, object]:
    """Which of ``bootstrap_servers`` and ``bootstrap_controllers`` was given, and its value."""
    if servers is not None and controllers is not None:
        raise InvalidArgumentError(
            "give bootstrap_servers (brokers) or bootstrap_controllers (a KRaft controller "
            "quorum), not both"
        )
    if servers is None and controllers is None:
        raise InvalidArgumentError(
            "give bootstrap_servers (brokers) or bootstrap_controllers (a KRaft controller "
            "quorum): 'host:port', comma-separated for several"
        )
    if controllers is not None:
        return "bootstrap_controllers", controllers
    return "bootstrap_servers", servers


def _server_entries(option: str, given: object) -> list[str]:
    if isinstance(given, str):
        return [given]
    if isinstance(given, Sequence) and all(isinstance(entry, str) for entry in given):
        return list(given)
    raise InvalidArgumentError(
        f"{option} must be 'host:port' (comma-separated for several) or a list of "
        f"them, got {given!r}"
    )


#: Asked before the ABC ``Collection``, which costs more than the rest of ``_asks_documented``.
_BUILTIN_COLLECTIONS = (list, tuple, dict, set, frozenset)


class _FilledDescribe:
    """One describe with documentation, sent without it (``DescribeConfigs.documentation``).

    The operation fills each answer from what the client holds as it comes, so a describe
    whose keys are all held settles as any describe does: one result, no task. The answers it
    cannot fill are withheld from the engine and settled by ``AdminClient._document``.
    """

    __slots__ = ("client", "expires", "result", "seconds")

    def __init__(self, client: AdminClient, seconds: float) -> None:
        self.client = client
        self.seconds = seconds

    def result_for(self, resources: list[ConfigResource]) -> DescribeConfigsResult:
        """The call's result (``Engine.call``); its deadline, follow-ups included, starts now."""
        self.expires = anyio.current_time() + self.seconds  # the clock _document reads
        self.result = DescribeConfigsResult(resources)
        return self.result

    def withhold(self, asked: DescribeConfigs, withheld: Withheld) -> None:
        """Answers ``asked`` could not fill: a task settles them, the engine leaves them be."""
        result = self.result
        result._documenting = result._documenting.union(withheld)
        client = self.client
        try:
            client._engine.spawn(client._document, withheld, asked, result, self.expires)
        except ClientClosedError as closed:
            for resource in withheld:
                result.values[resource]._set_exception(closed)
