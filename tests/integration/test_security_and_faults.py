"""Authentication, authorization, unreachable brokers, deadlines and closing, for real."""

from __future__ import annotations

import socket
from contextlib import ExitStack

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AuthenticationError,
    BrokerIdNotRegisteredError,
    ClientClosedError,
    ClusterAuthorizationFailedError,
    ConfigResource,
    ConfigSource,
    KafkaConnectionError,
    KafkaTimeoutError,
    ListenerMismatchError,
    ResourceType,
    TopicAuthorizationFailedError,
)
from kafka_config_admin.testing import KafkaCluster, SaslUser, start_cluster

from .helpers import new_topic, settled_entry

pytestmark = pytest.mark.integration


def sasl_client(
    cluster: KafkaCluster,
    user: SaslUser | None,
    mechanism: str,
    password: str | None = None,
    timeout: float = 30,
) -> AdminClient:
    assert cluster.sasl_bootstrap_servers is not None and user is not None
    return AdminClient(
        cluster.sasl_bootstrap_servers,
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanism=mechanism,  # type: ignore[arg-type]
        sasl_plain_username=user.username,
        sasl_plain_password=password or user.password,
        timeout=timeout,
    )


@pytest.mark.kafka(sasl=True)
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
async def test_admin_user_over_sasl_describes_and_alters(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str, mechanism: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    async with sasl_client(kafka_cluster, kafka_cluster.admin_user, mechanism) as admin:
        await admin.incremental_alter_configs(
            {topic: [AlterConfigOp("retention.ms", "3600000")]}
        ).all()
        entry = await settled_entry(admin, topic, "retention.ms", "3600000")
        assert entry.source is ConfigSource.TOPIC_CONFIG


@pytest.mark.kafka(sasl=True)
async def test_unprivileged_user_is_refused_per_resource(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    broker = ConfigResource(ResourceType.BROKER, str(kafka_cluster.broker_ids[0]))
    async with sasl_client(kafka_cluster, kafka_cluster.alice_user, "SCRAM-SHA-256") as admin:
        described = admin.describe_configs([topic, broker])
        await described.wait()
        assert isinstance(described.values[topic].exception(), TopicAuthorizationFailedError)
        assert isinstance(described.values[broker].exception(), ClusterAuthorizationFailedError)
        altered = admin.incremental_alter_configs(
            {topic: [AlterConfigOp("retention.ms", "3600000")]}
        )
        with pytest.raises(TopicAuthorizationFailedError) as caught:
            await altered.all()
        assert caught.value.resource == topic and caught.value.code == 29


@pytest.mark.kafka(sasl=True)
async def test_wrong_password_is_an_authentication_error(kafka_cluster: KafkaCluster) -> None:
    admin = kafka_cluster.admin_user
    with pytest.raises(AuthenticationError, match="credentials"):
        async with sasl_client(kafka_cluster, admin, "SCRAM-SHA-256", "wrong-password", 10):
            pass


async def test_nothing_listening_is_a_connection_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with anyio.fail_after(10), pytest.raises(KafkaConnectionError, match=str(port)):
        async with AdminClient(f"127.0.0.1:{port}", timeout=5):
            pass


async def test_a_silent_server_ends_in_a_timeout() -> None:
    with socket.socket() as silent:  # accepts connections and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        with anyio.fail_after(10), pytest.raises(KafkaConnectionError) as caught:
            async with AdminClient(f"127.0.0.1:{port}", timeout=5, request_timeout=1):
                pass
    assert f"127.0.0.1:{port} accepted the connection and sent nothing in 1s" in str(caught.value)


@pytest.mark.kafka(sasl=True)
async def test_a_plaintext_client_at_a_sasl_listener_is_told_it_expects_sasl(
    kafka_cluster: KafkaCluster,
) -> None:
    assert kafka_cluster.sasl_bootstrap_servers is not None
    with anyio.fail_after(20), pytest.raises(ListenerMismatchError) as caught:
        async with AdminClient(kafka_cluster.sasl_bootstrap_servers, timeout=10):
            pass
    message = str(caught.value)
    # The bootstrap servers are tried in a random order: the message names the one it tells of.
    assert any(server in message for server in kafka_cluster.sasl_bootstrap_servers.split(","))
    assert "expects SASL" in message and "PLAINTEXT" in message


@pytest.mark.kafka(sasl=True)
async def test_a_sasl_client_at_a_plaintext_listener_is_told_it_does_not_speak_sasl(
    kafka_cluster: KafkaCluster, kafka_bootstrap: str
) -> None:
    admin = kafka_cluster.admin_user
    assert admin is not None
    with anyio.fail_after(20), pytest.raises(ListenerMismatchError) as caught:
        async with AdminClient(
            kafka_bootstrap,
            security_protocol="SASL_PLAINTEXT",
            sasl_plain_username=admin.username,
            sasl_plain_password=admin.password,
            timeout=10,
        ):
            pass
    message = str(caught.value)
    assert any(server in message for server in kafka_bootstrap.split(","))
    assert "does not speak SASL" in message
    assert admin.password not in message


@pytest.mark.kafka(brokers=3)
async def test_a_stopped_broker_fails_only_its_resources(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    """Its resources fail at their deadline with a typed error that names it and says it was
    registered and is not answering (or was removed): not that it never existed."""
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    victim = kafka_cluster.broker_ids[-1]
    stopped = ConfigResource(ResourceType.BROKER, str(victim))
    alive = ConfigResource(ResourceType.BROKER, str(kafka_cluster.broker_ids[0]))
    await admin_client.describe_configs([stopped]).all()  # the client knows it
    kafka_cluster.stop_broker(victim)
    try:
        result = admin_client.describe_configs([stopped, alive, topic], timeout=4)
        with anyio.fail_after(15):
            await result.wait()
        error = result.values[stopped].exception()
        assert type(error) is KafkaTimeoutError, error
        assert f"broker {victim}" in str(error)
        assert "was registered and is not in the cluster now" in str(error) or (
            "could not talk to" in str(error)  # the metadata still listed it
        )
        assert "node.id" in result.values[alive].result()
        assert "retention.ms" in result.values[topic].result()
    finally:
        kafka_cluster.start_broker(victim)


@pytest.mark.kafka(brokers=3)
async def test_a_restarting_broker_is_waited_for_within_the_deadline(
    kafka_cluster: KafkaCluster, admin_client: AdminClient
) -> None:
    victim = kafka_cluster.broker_ids[-1]
    resource = ConfigResource(ResourceType.BROKER, str(victim))
    await admin_client.describe_configs([resource]).all()  # the client knows it
    ops = {resource: [AlterConfigOp("log.cleaner.backoff.ms", "15003")]}
    kafka_cluster.stop_broker(victim)
    try:
        described = admin_client.describe_configs([resource], timeout=120)
        altered = admin_client.incremental_alter_configs(ops, timeout=120)
        await anyio.sleep(2)
        assert not described.values[resource].done() and not altered.values[resource].done()
    finally:
        await anyio.to_thread.run_sync(kafka_cluster.start_broker, victim)
    with anyio.fail_after(120):
        assert "node.id" in await described.values[resource]
        await altered.all()
    # An id the cluster never had still fails at once.
    never = ConfigResource(ResourceType.BROKER, str(max(kafka_cluster.broker_ids) + 100))
    with anyio.fail_after(10), pytest.raises(BrokerIdNotRegisteredError, match="never was"):
        await admin_client.describe_configs([never], timeout=60).all()


async def test_closing_the_client_fails_what_is_still_running(kafka_bootstrap: str) -> None:
    topic = ConfigResource(ResourceType.TOPIC, "does-not-matter")
    async with AdminClient(kafka_bootstrap) as admin:
        result = admin.describe_configs([topic])
    assert isinstance(result.values[topic].exception(), ClientClosedError)
    with pytest.raises(ClientClosedError, match="not open"):
        admin.describe_configs([topic])


async def test_a_broker_that_stops_answering_times_out_and_is_reconnected() -> None:
    with start_cluster(brokers=1) as cluster:  # the session's backend: a JVM or a container
        [broker] = cluster.broker_ids
        topic = ConfigResource(ResourceType.BROKER, str(broker))
        async with AdminClient(cluster.bootstrap_servers, timeout=3, request_timeout=1) as admin:
            await admin.describe_configs([topic]).all()  # the connection is open
            with cluster.paused_broker(broker):
                result = admin.describe_configs([topic])
                with anyio.fail_after(10):
                    await result.wait()
            error = result.values[topic].exception()
            assert isinstance(error, KafkaTimeoutError), error
            assert "did not answer within 1s" in str(error)
            # The timed-out connection was closed; the next call opens a new one.
            assert "node.id" in await admin.describe_configs([topic]).values[topic]
        # A describe written on an open connection and unanswered when the client closes: no
        # task waits for it, and closing must still fail it, without waiting for its timeout.
        with ExitStack() as paused, anyio.fail_after(5):  # the request timeout is 15 s
            async with AdminClient(cluster.bootstrap_servers) as admin:
                await admin.describe_configs([topic]).all()  # the connection is open
                paused.enter_context(cluster.paused_broker(broker))
                in_flight = admin.describe_configs([topic])
                await anyio.sleep(0.1)
        closed = in_flight.values[topic].exception()
        assert isinstance(closed, ClientClosedError), closed
        # A change written and unanswered when the client closes may have been applied: its
        # outcome is unknown. One waiting behind it (the same config) was never sent.
        with ExitStack() as paused, anyio.fail_after(5):
            async with AdminClient(cluster.bootstrap_servers) as admin:
                # the changes' own connection (their lane) is open
                default = [AlterConfigOp("log.cleaner.backoff.ms", "15000")]
                await admin.incremental_alter_configs({topic: default}).all()
                paused.enter_context(cluster.paused_broker(broker))
                sent = admin.incremental_alter_configs(
                    {topic: [AlterConfigOp("log.cleaner.backoff.ms", "15001")]}
                )
                waiting = admin.incremental_alter_configs(
                    {topic: [AlterConfigOp("log.cleaner.backoff.ms", "15002")]}
                )
                await anyio.sleep(0.1)
        unknown = sent.values[topic].exception()
        assert isinstance(unknown, ClientClosedError), unknown
        assert str(unknown).startswith("outcome unknown: the change may have been applied")
        assert "read it back with describe_configs" in str(unknown)
        not_sent = waiting.values[topic].exception()
        assert isinstance(not_sent, ClientClosedError), not_sent
        assert str(not_sent).startswith(f"not applied: {topic} was not changed")
