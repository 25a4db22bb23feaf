"""The bad-input matrix: every mistake a user can make gives one clear, typed error, in time.

Each case is a call as a hostile or careless user would make it, against the real session
cluster (3 brokers, SASL, the test AlterConfigPolicy). Each must end within its deadline in the
error class given, whose message names what was wrong (the resource, the key, the option), and
reading the configs back afterwards must show nothing changed.
"""

from __future__ import annotations

import asyncio
import socket
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio
import pytest
import pytest_asyncio

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AuthenticationError,
    BrokerIdNotRegisteredError,
    ClientClosedError,
    ClientQuotaEntity,
    ClusterAuthorizationFailedError,
    ConfigResource,
    ConfigSource,
    InvalidArgumentError,
    InvalidConfigError,
    InvalidRequestError,
    InvalidTopicError,
    KafkaConnectionError,
    KafkaTimeoutError,
    OpType,
    PolicyViolationError,
    ResourceType,
    TopicAuthorizationFailedError,
    UnknownTopicOrPartitionError,
)
from kafka_config_admin.testing import KafkaCluster

from .helpers import new_topic

pytestmark = [pytest.mark.integration, pytest.mark.kafka(brokers=3, sasl=True, policy=True)]

#: The most a case may take: each call below has a deadline of its own well within it.
CASE_DEADLINE = 30.0
LONG = "x" * 40_000


@dataclass
class World:
    """What a case acts on: an open client, a topic of its own, and the cluster."""

    admin: AdminClient
    topic: ConfigResource
    cluster: KafkaCluster

    @property
    def broker(self) -> ConfigResource:
        return ConfigResource(ResourceType.BROKER, str(self.cluster.broker_ids[0]))

    def sasl_client(self, user: str, password: str | None = None, **options: Any) -> AdminClient:
        account = self.cluster.users[user]
        assert self.cluster.sasl_bootstrap_servers is not None
        return AdminClient(
            self.cluster.sasl_bootstrap_servers,
            security_protocol="SASL_PLAINTEXT",
            sasl_mechanism="SCRAM-SHA-256",
            sasl_plain_username=account.username,
            sasl_plain_password=password or account.password,
            **options,
        )


Action = Callable[[World], Awaitable[Any]]


@dataclass(frozen=True)
class Case:
    name: str
    action: Action
    error: type[Exception] | tuple[type[Exception], ...]
    #: Substrings the error message must contain; "{topic}" stands for the topic's name.
    mentions: tuple[str, ...] = ()


def describe(resources: Callable[[World], Any], **options: Any) -> Action:
    async def action(world: World) -> Any:
        return await world.admin.describe_configs(resources(world), **options).all()

    return action


def alter(configs: Callable[[World], Any], **options: Any) -> Action:
    async def action(world: World) -> Any:
        return await world.admin.incremental_alter_configs(configs(world), **options).all()

    return action


def legacy_alter(configs: Callable[[World], Any]) -> Action:
    async def action(world: World) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            result = world.admin.alter_configs(configs(world))
        return await result.all()

    return action


def set_topic(*ops: AlterConfigOp, **options: Any) -> Action:
    return alter(lambda w: {w.topic: list(ops)}, **options)


def topic(name: str) -> Callable[[World], list[ConfigResource]]:
    return lambda w: [ConfigResource(ResourceType.TOPIC, name)]


def broker(name: str) -> Callable[[World], list[ConfigResource]]:
    return lambda w: [ConfigResource(ResourceType.BROKER, name)]


def client(servers: Any, **options: Any) -> Action:
    async def action(world: World) -> Any:
        async with AdminClient(servers, **options) as admin:
            return await admin.describe_configs([world.topic]).all()

    return action


def sasl(user: str, password: str | None, call: Callable[[AdminClient, World], Any]) -> Action:
    async def action(world: World) -> Any:
        async with world.sasl_client(user, password, timeout=10) as admin:
            return await call(admin, world).all()

    return action


def quotas(alterations: Callable[[World], Any], **options: Any) -> Action:
    async def action(world: World) -> Any:
        return await world.admin.alter_client_quotas(alterations(world), **options).all()

    return action


async def long_scram_user(world: World) -> Any:
    return await world.admin.describe_user_scram_credentials([LONG]).all()


async def closed_client(world: World) -> Any:
    async with AdminClient(world.cluster.bootstrap_servers) as admin:
        pass
    return await admin.describe_configs([world.topic]).all()


async def nothing_listening(world: World) -> Any:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    async with AdminClient(f"127.0.0.1:{port}", timeout=5):
        pass


async def silent_server(world: World, **options: Any) -> Any:
    """A server that accepts connections and never answers a byte."""
    options = options or {"timeout": 3, "request_timeout": 1}
    held: list[asyncio.StreamWriter] = []

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with AdminClient(f"127.0.0.1:{port}", **options):
            pass
    finally:
        for writer in held:
            writer.close()
        server.close()
        await server.wait_closed()


async def twenty_thousand_missing_topics(world: World) -> Any:
    missing = [ConfigResource(ResourceType.TOPIC, f"missing-{i}") for i in range(20_000)]
    result = world.admin.describe_configs(missing, timeout=25)
    await result.wait()
    errors = [result.values[resource].exception() for resource in missing]
    assert all(isinstance(error, UnknownTopicOrPartitionError) for error in errors), {
        type(error).__name__ for error in errors
    }
    assert all(resource.name in str(error) for resource, error in zip(missing, errors, strict=True))
    raise errors[-1]  # type: ignore[misc]


async def bad_call_among_good_ones(world: World) -> Any:
    good = [world.admin.describe_configs([world.topic]) for _ in range(5)]
    try:
        world.admin.describe_configs([ConfigResource(ResourceType.TOPIC, "bad\ud800")])
    finally:
        for result in good:  # made in the same moment, they still succeed
            assert "retention.ms" in await result.values[world.topic]


R = ConfigResource
T = ResourceType

CASES = [
    # --- wrong argument types ----------------------------------------------------------------
    Case("describe None", describe(lambda w: None), InvalidArgumentError, ("NoneType",)),
    Case("describe a str", describe(lambda w: "orders"), InvalidArgumentError, ("str",)),
    Case(
        "describe a list of str",
        describe(lambda w: ["orders"]),
        InvalidArgumentError,
        ("expected a ConfigResource", "orders"),
    ),
    Case(
        "describe keys as a str",
        describe(lambda w: {w.topic: "retention.ms"}),
        InvalidArgumentError,
        ("{topic}", "not str"),
    ),
    Case("alter a list", alter(lambda w: [w.topic]), InvalidArgumentError, ("configs must map",)),
    Case(
        "alter ops as a str",
        alter(lambda w: {w.topic: "retention.ms=1"}),
        InvalidArgumentError,
        ("{topic}", "got str"),
    ),
    Case(
        "alter ops of str",
        alter(lambda w: {w.topic: ["retention.ms=1"]}),
        InvalidArgumentError,
        ("{topic}", "expected AlterConfigOp"),
    ),
    Case(
        "legacy alter a list of names",
        legacy_alter(lambda w: {w.topic: ["retention.ms"]}),
        InvalidArgumentError,
        ("{topic}", "mapping of name to value"),
    ),
    Case(
        "legacy alter an object value",
        legacy_alter(lambda w: {w.topic: {"retention.ms": object()}}),
        InvalidArgumentError,
        ("{topic}", "retention.ms", "got object"),
    ),
    Case(
        "timeout a str",
        describe(lambda w: [w.topic], timeout="5"),
        InvalidArgumentError,
        ("timeout", "'5'"),
    ),
    # --- flags must be booleans ----------------------------------------------------------
    Case(
        "validate_only 'no'",
        set_topic(AlterConfigOp("retention.ms", "86400001"), validate_only="no"),
        InvalidArgumentError,
        ("validate_only", "'no'"),
    ),
    Case(
        "include_synonyms 'no'",
        describe(lambda w: [w.topic], include_synonyms="no"),
        InvalidArgumentError,
        ("include_synonyms", "'no'"),
    ),
    Case(
        "include_documentation 1",
        describe(lambda w: [w.topic], include_documentation=1),
        InvalidArgumentError,
        ("include_documentation",),
    ),
    # --- unknown enum ids and names ----------------------------------------------------------
    Case(
        "resource type id 99",
        describe(lambda w: [R(99, "x")]),
        InvalidArgumentError,
        ("unknown resource type",),
    ),
    Case(
        "resource type name",
        describe(lambda w: [R("TOPICS", "x")]),
        InvalidArgumentError,
        ("'TOPICS' is not a ResourceType", "TOPIC"),
    ),
    Case(
        "op id 7",
        alter(lambda w: {w.topic: [AlterConfigOp("retention.ms", "1", 7)]}),  # type: ignore[arg-type]
        InvalidArgumentError,
        ("7 is not a OpType", "SET"),
    ),
    Case(
        "op name MERGE",
        alter(lambda w: {w.topic: [AlterConfigOp("retention.ms", "1", "MERGE")]}),
        InvalidArgumentError,
        ("'MERGE' is not a OpType",),
    ),
    # --- empty -------------------------------------------------------------------------------
    Case("empty topic name", describe(topic("")), InvalidArgumentError, ("TOPIC", "need a name")),
    Case(
        "empty config name",
        describe(lambda w: {w.topic: [""]}),
        InvalidArgumentError,
        ("{topic}", "non-empty"),
    ),
    Case(
        "empty op name",
        set_topic(AlterConfigOp("", "1")),
        InvalidArgumentError,
        ("{topic}", "non-empty"),
    ),
    Case("empty bootstrap", client(""), InvalidArgumentError, ("bootstrap_servers is empty",)),
    Case(
        "BROKER_LOGGER without id",
        describe(lambda w: [R(T.BROKER_LOGGER, "")]),
        InvalidArgumentError,
        ("BROKER_LOGGER", "broker id"),
    ),
    # --- oversized ---------------------------------------------------------------------------
    Case(
        "40,000-char topic",
        describe(topic(LONG)),
        InvalidArgumentError,
        ("TOPIC", "40000 bytes", "32767"),
    ),
    Case(
        "40,000-char value",
        set_topic(AlterConfigOp("retention.ms", LONG)),
        InvalidArgumentError,
        ("{topic}", "retention.ms", "40000 bytes"),
    ),
    Case(
        "40,000-char key",
        describe(lambda w: {w.topic: [LONG]}),
        InvalidArgumentError,
        ("{topic}", "40000 bytes"),
    ),
    Case(
        "40,000-char client_id",
        client("127.0.0.1:9092", client_id=LONG),
        InvalidArgumentError,
        ("client_id", "40000 bytes"),
    ),
    Case(
        "20,000 missing topics in one call",
        twenty_thousand_missing_topics,
        UnknownTopicOrPartitionError,
        ("missing-19999",),
    ),
    # --- unicode and invalid names -----------------------------------------------------------
    Case(
        "lone surrogate topic",
        describe(topic("t\ud800")),
        InvalidArgumentError,
        ("TOPIC", "cannot be encoded as UTF-8"),
    ),
    Case(
        "lone surrogate, gathered with good describes",
        bad_call_among_good_ones,
        InvalidArgumentError,
        ("cannot be encoded",),
    ),
    Case(
        "lone surrogate value",
        set_topic(AlterConfigOp("retention.ms", "1\udfff")),
        InvalidArgumentError,
        ("{topic}", "retention.ms", "cannot be encoded"),
    ),
    Case(
        "invalid topic name",
        describe(topic("no/such topic")),
        InvalidTopicError,
        ("no/such topic",),
    ),
    Case("emoji topic name", describe(topic("t\U0001f600")), InvalidTopicError, ("t\U0001f600",)),
    Case(
        "broker '\u00b2'",
        describe(broker("\u00b2")),
        InvalidArgumentError,
        ("BROKER", "broker id", "\u00b2"),
    ),
    Case(
        "broker '\u0661'", describe(broker("\u0661")), InvalidArgumentError, ("BROKER", "broker id")
    ),
    Case("broker '-1'", describe(broker("-1")), InvalidArgumentError, ("broker id", "'-1'")),
    # --- duplicates --------------------------------------------------------------------------
    Case(
        "resource twice",
        describe(lambda w: [w.topic, w.topic]),
        InvalidArgumentError,
        ("{topic}", "twice"),
    ),
    Case(
        "key twice",
        set_topic(
            AlterConfigOp("retention.ms", "86400001"), AlterConfigOp("retention.ms", "86400002")
        ),
        InvalidArgumentError,
        ("{topic}", "retention.ms", "twice"),
    ),
    Case(
        "describe key twice",
        describe(lambda w: {w.topic: ["retention.ms", "retention.ms"]}),
        InvalidArgumentError,
        ("{topic}", "retention.ms", "twice"),
    ),
    # --- what the broker refuses -------------------------------------------------------------
    Case(
        "SET without a value",
        set_topic(AlterConfigOp("retention.ms", op=OpType.SET)),
        InvalidArgumentError,
        ("{topic}", "retention.ms", "needs a value"),
    ),
    Case(
        "APPEND on a non-list key",
        set_topic(AlterConfigOp("retention.ms", "1", OpType.APPEND)),
        InvalidConfigError,
        ("{topic}", "retention.ms"),
    ),
    Case(
        "read-only key",
        alter(lambda w: {w.broker: [AlterConfigOp("node.id", "7")]}),
        InvalidRequestError,
        ("node.id",),
    ),
    Case(
        "unknown key",
        set_topic(AlterConfigOp("no.such.config", "1")),
        InvalidConfigError,
        ("{topic}", "no.such.config"),
    ),
    Case(
        "wrongly typed value",
        set_topic(AlterConfigOp("retention.ms", "soon")),
        InvalidConfigError,
        ("{topic}", "retention.ms", "soon"),
    ),
    Case(
        "policy violation",
        set_topic(AlterConfigOp("retention.ms", "1000")),
        PolicyViolationError,
        ("{topic}", "retention.ms"),
    ),
    Case(
        "missing topic (describe)",
        describe(topic("no-such-topic-x")),
        UnknownTopicOrPartitionError,
        ("no-such-topic-x",),
    ),
    Case(
        "missing topic (alter)",
        alter(
            lambda w: {R(T.TOPIC, "no-such-topic-y"): [AlterConfigOp("retention.ms", "86400000")]}
        ),
        UnknownTopicOrPartitionError,
        ("no-such-topic-y",),
    ),
    Case(
        "unknown broker id",
        describe(broker("999"), timeout=5),
        BrokerIdNotRegisteredError,
        ("broker 999", "not in the cluster"),
    ),
    Case(
        "unauthorized user (topic)",
        sasl("alice", None, lambda a, w: a.describe_configs([w.topic])),
        TopicAuthorizationFailedError,
        ("{topic}",),
    ),
    Case(
        "unauthorized user (broker alter)",
        sasl(
            "alice",
            None,
            lambda a, w: a.incremental_alter_configs(
                {w.broker: [AlterConfigOp("log.cleaner.threads", "2")]}
            ),
        ),
        ClusterAuthorizationFailedError,
        ("broker",),
    ),
    Case(
        "wrong password",
        sasl("admin", "wrong-password", lambda a, w: a.describe_configs([w.topic])),
        AuthenticationError,
        ("credentials",),
    ),
    # --- the client's own options ------------------------------------------------------------
    Case(
        "bootstrap not host:port",
        client("localhost:notaport"),
        InvalidArgumentError,
        ("localhost:notaport", "host:port"),
    ),
    Case(
        "bootstrap port too big",
        client("localhost:99999"),
        InvalidArgumentError,
        ("localhost:99999",),
    ),
    Case("bootstrap an int", client(12345), InvalidArgumentError, ("bootstrap_servers", "12345")),
    Case(
        "sasl_mechanism GSSAPI",
        client(
            "127.0.0.1:9092",
            security_protocol="SASL_PLAINTEXT",
            sasl_mechanism="GSSAPI",
            sasl_plain_username="u",
            sasl_plain_password="p",
        ),
        InvalidArgumentError,
        ("GSSAPI", "SCRAM-SHA-256"),
    ),
    Case(
        "SASL without a password",
        client("127.0.0.1:9092", security_protocol="SASL_PLAINTEXT", sasl_plain_username="u"),
        InvalidArgumentError,
        ("sasl_plain_password",),
    ),
    Case("a port with nothing on it", nothing_listening, KafkaConnectionError, ("127.0.0.1",)),
    Case(
        "a server that never answers",
        silent_server,
        (KafkaTimeoutError, KafkaConnectionError),  # the connect or the first answer times out
        ("127.0.0.1",),
    ),
    Case(
        "a server that never answers, the call timeout (3 s) below the request timeout (15 s)",
        partial(silent_server, timeout=3),
        KafkaTimeoutError,
        ("within 3s", "accepted the connection and sent nothing in 3s"),
    ),
    Case(
        "a host label over 63 characters, 5 MB long",
        client("k" * 5_000_000 + ".example:9092"),
        InvalidArgumentError,
        ("(5000013 characters) is not host:port", "longer than 63 characters"),
    ),
    Case(
        "a host name with an empty label",
        client("kafka..example:9092"),
        InvalidArgumentError,
        ("an empty label",),
    ),
    Case("a call after close", closed_client, ClientClosedError, ("not open",)),
    # --- quotas and SCRAM credentials --------------------------------------------------------
    Case(
        "quota validate_only 'no'",
        quotas(
            lambda w: {ClientQuotaEntity({"user": "q"}): {"producer_byte_rate": 1}},
            validate_only="no",
        ),
        InvalidArgumentError,
        ("validate_only", "'no'"),
    ),
    Case(
        "40,000-char quota user",
        quotas(lambda w: {ClientQuotaEntity({"user": LONG}): {"producer_byte_rate": 1}}),
        InvalidArgumentError,
        ("user name", "40000 bytes"),
    ),
    Case(
        "unknown quota entity type",
        quotas(lambda w: {ClientQuotaEntity({"users": "q"}): {"producer_byte_rate": 1}}),
        InvalidArgumentError,
        ("unknown entity type", "'users'"),
    ),
    Case("40,000-char SCRAM user", long_scram_user, InvalidArgumentError, ("40000 bytes",)),
]


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world_topic(kafka_bootstrap: str) -> AsyncIterator[ConfigResource]:
    async with AdminClient(kafka_bootstrap) as admin:
        name = await new_topic(admin, kafka_bootstrap, {"retention.ms": "86400000"})
    yield ConfigResource(ResourceType.TOPIC, name)


async def snapshot(admin: AdminClient, world: World) -> dict[str, Any]:
    """What a case must not change: the topic's configs and the brokers' dynamic ones."""
    brokers = [R(T.BROKER, ""), *(R(T.BROKER, str(node)) for node in world.cluster.broker_ids)]
    configs = await admin.describe_configs([world.topic, *brokers]).all()
    dynamic = (
        ConfigSource.TOPIC_CONFIG,
        ConfigSource.DYNAMIC_BROKER_CONFIG,
        ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
    )
    return {
        str(resource): {name: e.value for name, e in config.items() if e.source in dynamic}
        for resource, config in configs.items()
    }


def test_the_matrix_has_at_least_forty_cases() -> None:
    assert len(CASES) >= 40
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
async def test_bad_input(
    case: Case, admin_client: AdminClient, world_topic: ConfigResource, kafka_cluster: KafkaCluster
) -> None:
    world = World(admin_client, world_topic, kafka_cluster)
    before = await snapshot(admin_client, world)
    with anyio.fail_after(CASE_DEADLINE), pytest.raises(case.error) as caught:
        await case.action(world)
    message = str(caught.value)
    for mention in case.mentions:
        assert mention.replace("{topic}", world_topic.name) in message, message
    assert await snapshot(admin_client, world) == before
