"""TLS, mutual TLS, SASL_SSL and OAUTHBEARER against a real broker, and how each one fails.

The cluster (``kafka_tls_cluster``) is a broker of its own with certificates made for it: a CA,
the broker's PEM key store, a client certificate whose key has a passphrase.
"""

from __future__ import annotations

import asyncio
import gc
import socket
import ssl
import threading
import time
import warnings
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AuthenticationError,
    ConfigResource,
    ConfigSource,
    KafkaConnectionError,
    ResourceType,
    TlsError,
    TokenProvider,
)
from kafka_config_admin.testing import KafkaCluster, TlsFiles, unsecured_jwt

from .helpers import new_topic, settled_entry

pytestmark = pytest.mark.integration

#: A failure must be reported well before the call's deadline, not at it.
DEADLINE = 20.0


class UnsecuredTokens(TokenProvider):
    """Tokens the broker's unsecured validator accepts (or an expired one)."""

    def __init__(self, subject: str, lifetime: int = 3600) -> None:
        self.subject = subject
        self.lifetime = lifetime
        self.calls = 0

    async def token(self) -> str:
        self.calls += 1
        return unsecured_jwt(self.subject, lifetime=self.lifetime)


def files(cluster: KafkaCluster) -> TlsFiles:
    assert cluster.tls_files is not None
    return cluster.tls_files


def trusting(cluster: KafkaCluster) -> ssl.SSLContext:
    """TLS settings that trust the cluster's CA."""
    return ssl.create_default_context(cafile=files(cluster).ca_certificate)


def with_client_certificate(cluster: KafkaCluster) -> ssl.SSLContext:
    context = trusting(cluster)
    tls = files(cluster)
    context.load_cert_chain(
        tls.client_certificate, tls.client_key, password=tls.client_key_passphrase
    )
    return context


def client_for(cluster: KafkaCluster, listener: str, **options: Any) -> AdminClient:
    protocol = "SSL" if listener in ("SSL", "MTLS") else "SASL_SSL"
    return AdminClient(
        cluster.tls_bootstrap_servers(listener),  # type: ignore[arg-type]
        security_protocol=protocol,  # type: ignore[arg-type]
        timeout=DEADLINE,
        **options,
    )


def trusting_client_at(cluster: KafkaCluster, address: str) -> AdminClient:
    """An SSL client trusting the cluster's CA, at an address of the caller's choice."""
    return AdminClient(
        address, security_protocol="SSL", ssl_context=trusting(cluster), timeout=DEADLINE
    )


def sasl_ssl_client(
    cluster: KafkaCluster, mechanism: str, username: str, password: str
) -> AdminClient:
    return client_for(
        cluster,
        "SASL_SSL",
        ssl_context=trusting(cluster),
        sasl_mechanism=mechanism,
        sasl_plain_username=username,
        sasl_plain_password=password,
    )


def oauth_client(cluster: KafkaCluster, tokens: TokenProvider) -> AdminClient:
    return client_for(
        cluster,
        "SASL_SSL",
        ssl_context=trusting(cluster),
        sasl_mechanism="OAUTHBEARER",
        sasl_oauth_token_provider=tokens,
    )


async def alter_and_read_back(cluster: KafkaCluster, admin: AdminClient) -> None:
    async with AdminClient(cluster.bootstrap_servers) as plain:
        topic = ConfigResource(
            ResourceType.TOPIC, await new_topic(plain, cluster.bootstrap_servers)
        )
    await admin.incremental_alter_configs({topic: [AlterConfigOp("retention.ms", "7200000")]}).all()
    entry = await settled_entry(admin, topic, "retention.ms", "7200000")
    assert entry.source is ConfigSource.TOPIC_CONFIG


async def test_ssl_listener_with_the_cluster_ca(kafka_tls_cluster: KafkaCluster) -> None:
    async with client_for(kafka_tls_cluster, "SSL", ssl_context=trusting(kafka_tls_cluster)) as a:
        assert a.broker_ids() == kafka_tls_cluster.broker_ids
        await alter_and_read_back(kafka_tls_cluster, a)


async def test_mutual_tls_with_a_passphrase_protected_key(kafka_tls_cluster: KafkaCluster) -> None:
    context = with_client_certificate(kafka_tls_cluster)
    async with client_for(kafka_tls_cluster, "MTLS", ssl_context=context) as admin:
        # CN=admin is the principal User:admin, a super user: a broker config is readable.
        broker = ConfigResource(ResourceType.BROKER, str(kafka_tls_cluster.broker_ids[0]))
        config = await admin.describe_configs([broker]).values[broker]
        assert config["ssl.keystore.type"].value == "PEM"
        await alter_and_read_back(kafka_tls_cluster, admin)


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
async def test_sasl_ssl_with_passwords(kafka_tls_cluster: KafkaCluster, mechanism: str) -> None:
    user = kafka_tls_cluster.admin_user
    assert user is not None
    async with sasl_ssl_client(kafka_tls_cluster, mechanism, user.username, user.password) as admin:
        await alter_and_read_back(kafka_tls_cluster, admin)


async def test_oauthbearer_over_sasl_ssl(kafka_tls_cluster: KafkaCluster) -> None:
    tokens = UnsecuredTokens("admin")
    async with oauth_client(kafka_tls_cluster, tokens) as admin:
        await alter_and_read_back(kafka_tls_cluster, admin)
    assert tokens.calls >= 1


def assert_fails_fast(started: float, error: BaseException, address: str) -> None:
    assert time.monotonic() - started < DEADLINE / 2, "reported at the deadline, not at once"
    assert address in str(error)
    assert "\n" not in str(error)


async def opening_fails(client: AdminClient) -> tuple[BaseException, float]:
    started = time.monotonic()
    with pytest.raises((KafkaConnectionError, AuthenticationError)) as caught:
        async with client:
            pass
    return caught.value, started


async def test_wrong_password_over_sasl_ssl(kafka_tls_cluster: KafkaCluster) -> None:
    address = kafka_tls_cluster.tls_bootstrap_servers("SASL_SSL")
    error, started = await opening_fails(
        sasl_ssl_client(kafka_tls_cluster, "SCRAM-SHA-512", "admin", "not-the-password")
    )
    assert type(error) is AuthenticationError
    assert "refused the credentials" in str(error)
    assert_fails_fast(started, error, address)


async def test_untrusted_server_certificate(kafka_tls_cluster: KafkaCluster) -> None:
    # The system's CAs (the default) do not know the cluster's own CA.
    address = kafka_tls_cluster.tls_bootstrap_servers("SSL")
    error, started = await opening_fails(client_for(kafka_tls_cluster, "SSL"))
    assert isinstance(error, TlsError) and error.failure == "untrusted-certificate"
    assert error.address == address and not error.retriable
    assert "not trusted" in str(error)
    assert_fails_fast(started, error, address)


async def test_missing_client_certificate_on_the_mtls_listener(
    kafka_tls_cluster: KafkaCluster,
) -> None:
    address = kafka_tls_cluster.tls_bootstrap_servers("MTLS")
    error, started = await opening_fails(
        client_for(kafka_tls_cluster, "MTLS", ssl_context=trusting(kafka_tls_cluster))
    )
    assert isinstance(error, TlsError) and error.failure == "client-certificate-refused"
    assert "requires a client certificate" in str(error)
    assert_fails_fast(started, error, address)


async def test_host_name_mismatch(kafka_tls_cluster: KafkaCluster) -> None:
    # The broker's certificate names 127.0.0.1 only.
    address = kafka_tls_cluster.tls_bootstrap_servers("SSL").replace("127.0.0.1", "localhost")
    error, started = await opening_fails(trusting_client_at(kafka_tls_cluster, address))
    assert isinstance(error, TlsError) and error.failure == "hostname-mismatch"
    assert "'localhost'" in str(error)
    assert_fails_fast(started, error, address)


async def test_expired_token_is_refused(kafka_tls_cluster: KafkaCluster) -> None:
    address = kafka_tls_cluster.tls_bootstrap_servers("SASL_SSL")
    error, started = await opening_fails(
        oauth_client(kafka_tls_cluster, UnsecuredTokens("admin", lifetime=-60))
    )
    assert type(error) is AuthenticationError
    assert "refused the OAUTHBEARER token" in str(error)
    assert_fails_fast(started, error, address)


class TokensRefusedWhenTold(TokenProvider):
    """Good tokens, or expired ones (which the broker refuses) while ``refused`` is set."""

    def __init__(self) -> None:
        self.refused = False

    async def token(self) -> str:
        return unsecured_jwt("admin", lifetime=-60 if self.refused else 3600)


def assert_token_refused(error: BaseException, started: float, cluster: KafkaCluster) -> None:
    broker = cluster.broker_ids[0]
    address = cluster.tls_bootstrap_servers("SASL_SSL")
    assert type(error) is AuthenticationError
    message = str(error)
    assert message.startswith(f"broker {broker} ({address}) refused the OAUTHBEARER token (")
    assert "invalid_token" in message  # the broker's reason
    assert "check its expiry, subject, scope, issuer and audience" in message
    assert_fails_fast(started, error, address)


def broker_config(cluster: KafkaCluster) -> ConfigResource:
    return ConfigResource(ResourceType.BROKER, str(cluster.broker_ids[0]))


async def describe_broker(admin: AdminClient, cluster: KafkaCluster) -> None:
    resource = broker_config(cluster)
    config = await admin.describe_configs([resource]).values[resource]
    assert config["ssl.keystore.type"].value == "PEM"


async def alter_broker(admin: AdminClient, cluster: KafkaCluster) -> None:
    resource = broker_config(cluster)
    ops = {resource: [AlterConfigOp("log.cleaner.backoff.ms", "15000")]}
    await admin.incremental_alter_configs(ops, validate_only=True).all()


async def list_topics(admin: AdminClient, cluster: KafkaCluster) -> None:
    await admin.list_topics()


CALLS = {"describe": describe_broker, "alter": alter_broker, "list_topics": list_topics}


def refuse_later_connections(admin: AdminClient, tokens: TokensRefusedWhenTold) -> None:
    """The token opened the client (bootstrap, whose connection then serves its broker); the
    broker refuses the tokens of the connections the next calls open."""
    tokens.refused = True
    for conn in admin._transport.connections():
        conn.close()


@pytest.mark.parametrize("call", sorted(CALLS))
async def test_token_refused_on_a_later_connection(
    kafka_tls_cluster: KafkaCluster, call: str
) -> None:
    tokens = TokensRefusedWhenTold()
    async with oauth_client(kafka_tls_cluster, tokens) as admin:
        refuse_later_connections(admin, tokens)
        started = time.monotonic()
        with pytest.raises(AuthenticationError) as caught:
            await CALLS[call](admin, kafka_tls_cluster)
        assert_token_refused(caught.value, started, kafka_tls_cluster)
        # Refused again and again, the next calls fail at once too.
        started = time.monotonic()
        with pytest.raises(AuthenticationError) as caught:
            await CALLS[call](admin, kafka_tls_cluster)
        assert_token_refused(caught.value, started, kafka_tls_cluster)
        # A good token again: the calls work again.
        tokens.refused = False
        await CALLS[call](admin, kafka_tls_cluster)


async def test_token_refused_for_calls_at_once(kafka_tls_cluster: KafkaCluster) -> None:
    tokens = TokensRefusedWhenTold()
    async with oauth_client(kafka_tls_cluster, tokens) as admin:
        refuse_later_connections(admin, tokens)
        started = time.monotonic()
        calls = [call(admin, kafka_tls_cluster) for call in CALLS.values() for _ in range(3)]
        outcomes = await asyncio.gather(*calls, return_exceptions=True)
        for outcome in outcomes:
            assert isinstance(outcome, BaseException)
            assert_token_refused(outcome, started, kafka_tls_cluster)
        tokens.refused = False
        await asyncio.gather(*(call(admin, kafka_tls_cluster) for call in CALLS.values()))


async def test_token_refused_on_reconnecting(kafka_tls_cluster: KafkaCluster) -> None:
    tokens = TokensRefusedWhenTold()
    async with oauth_client(kafka_tls_cluster, tokens) as admin:
        await describe_broker(admin, kafka_tls_cluster)
        # The token expires, and the connection is closed: the next call opens a new one.
        tokens.refused = True
        for conn in admin._transport.connections():
            conn.close()
        started = time.monotonic()
        with pytest.raises(AuthenticationError) as caught:
            await alter_broker(admin, kafka_tls_cluster)
        assert_token_refused(caught.value, started, kafka_tls_cluster)
        tokens.refused = False
        await alter_broker(admin, kafka_tls_cluster)
        await describe_broker(admin, kafka_tls_cluster)


async def test_failing_token_provider(kafka_tls_cluster: KafkaCluster) -> None:
    class Unreachable(TokenProvider):
        async def token(self) -> str:
            raise ConnectionError("identity provider unreachable")

    error, started = await opening_fails(oauth_client(kafka_tls_cluster, Unreachable()))
    assert type(error) is AuthenticationError
    assert str(error) == "the OAUTHBEARER token provider Unreachable failed: ConnectionError"
    assert time.monotonic() - started < DEADLINE / 2


async def test_tls_to_a_listener_without_tls(kafka_tls_cluster: KafkaCluster) -> None:
    address = kafka_tls_cluster.bootstrap_servers  # PLAINTEXT
    error, started = await opening_fails(trusting_client_at(kafka_tls_cluster, address))
    assert isinstance(error, TlsError) and error.failure == "not-tls"
    assert "is it a PLAINTEXT or SASL_PLAINTEXT listener?" in str(error)
    assert_fails_fast(started, error, address)


class SlowRelay:
    """A TCP relay to one address that hands on the broker's bytes, and its close, late.

    As a loaded broker does: a client that does not wait for a connection's close (a TLS close
    takes a round trip) leaves it open when its event loop ends. Threads, not the client's
    event loop, do the relaying, so that it goes on after that loop has ended.
    """

    def __init__(self, target: str, delay: float) -> None:
        host, port = target.rsplit(":", 1)
        self._target = (host, int(port))
        self._delay = delay
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self._listener.getsockname()[1]}"
        self._sockets: list[socket.socket] = [self._listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:  # closed
                return
            broker = socket.create_connection(self._target)
            self._sockets += [client, broker]
            threading.Thread(target=self._pipe, args=(client, broker, 0.0), daemon=True).start()
            threading.Thread(
                target=self._pipe, args=(broker, client, self._delay), daemon=True
            ).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket, delay: float) -> None:
        try:
            while data := source.recv(65536):
                time.sleep(delay)
                sink.sendall(data)
            time.sleep(delay)
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def close(self) -> None:
        for sock in self._sockets:
            sock.close()


@contextmanager
def resource_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Every ResourceWarning of the block, and of the garbage collected at its end."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        found: list[warnings.WarningMessage] = []
        try:
            yield found
        finally:
            gc.collect()
            found += [w for w in seen if issubclass(w.category, ResourceWarning)]


def plain_client(cluster: KafkaCluster, address: str) -> AdminClient:
    return AdminClient(address, timeout=DEADLINE)


def ssl_client(cluster: KafkaCluster, address: str) -> AdminClient:
    return trusting_client_at(cluster, address)


def sasl_ssl_client_at(cluster: KafkaCluster, address: str, **sasl: Any) -> AdminClient:
    """A SASL_SSL client trusting the cluster's CA, with ``sasl`` options."""
    return AdminClient(
        address,
        security_protocol="SASL_SSL",
        ssl_context=trusting(cluster),
        timeout=DEADLINE,
        **sasl,
    )


def scram_client(cluster: KafkaCluster, address: str) -> AdminClient:
    user = cluster.admin_user
    assert user is not None
    return sasl_ssl_client_at(
        cluster,
        address,
        sasl_mechanism="SCRAM-SHA-512",
        sasl_plain_username=user.username,
        sasl_plain_password=user.password,
    )


def oauth_client_at(cluster: KafkaCluster, address: str, lifetime: int = 3600) -> AdminClient:
    tokens = UnsecuredTokens("admin", lifetime=lifetime)
    return sasl_ssl_client_at(
        cluster, address, sasl_mechanism="OAUTHBEARER", sasl_oauth_token_provider=tokens
    )


#: Each kind of client, its listener, and how to make it for an address.
CLIENTS: dict[str, tuple[str | None, Callable[[KafkaCluster, str], AdminClient]]] = {
    "PLAINTEXT": (None, plain_client),
    "SSL": ("SSL", ssl_client),
    "SASL_SSL SCRAM": ("SASL_SSL", scram_client),
    "SASL_SSL OAUTHBEARER": ("SASL_SSL", oauth_client_at),
}


def listener_address(cluster: KafkaCluster, listener: str | None) -> str:
    if listener is None:
        return cluster.bootstrap_servers
    return cluster.tls_bootstrap_servers(listener)  # type: ignore[arg-type]


def warnings_of_a_program(
    cluster: KafkaCluster, listener: str | None, program: Callable[[str], Coroutine[Any, Any, None]]
) -> list[str]:
    """The ResourceWarnings of ``program``, run as a program of its own against ``listener``.

    The program runs in an event loop of its own, which ends with it, as ``asyncio.run``'s
    does, and is given the address of a relay to the listener that hands on the broker's bytes
    late: a TLS close not waited for is still going on when the loop ends.
    """
    relay = SlowRelay(listener_address(cluster, listener), delay=0.3)
    try:
        with resource_warnings() as found:
            # Its own thread: the event loop of the tests stays where it is.
            pool = ThreadPoolExecutor(1)
            pool.submit(asyncio.run, program(relay.address)).result(timeout=DEADLINE * 2)
            pool.shutdown(wait=False)
    finally:
        relay.close()
    return [str(warning.message) for warning in found]


@pytest.mark.parametrize("kind", sorted(CLIENTS))
def test_no_socket_left_open_at_exit(kafka_tls_cluster: KafkaCluster, kind: str) -> None:
    """A program that opens a client, uses it and leaves ends with no socket left open.

    A broker connection is closed under the client on the way, and the client opens another.
    """
    listener, make_client = CLIENTS[kind]

    async def program(address: str) -> None:
        async with make_client(kafka_tls_cluster, address) as admin:
            await describe_broker(admin, kafka_tls_cluster)
            for conn in admin._transport.connections():
                conn.close()
            await describe_broker(admin, kafka_tls_cluster)

    assert warnings_of_a_program(kafka_tls_cluster, listener, program) == []


def wrong_password_client(cluster: KafkaCluster, address: str) -> AdminClient:
    return sasl_ssl_client_at(
        cluster,
        address,
        sasl_mechanism="SCRAM-SHA-512",
        sasl_plain_username="admin",
        sasl_plain_password="not-the-password",
    )


def expired_token_client(cluster: KafkaCluster, address: str) -> AdminClient:
    return oauth_client_at(cluster, address, lifetime=-60)


def untrusting_client(cluster: KafkaCluster, address: str) -> AdminClient:
    return AdminClient(address, security_protocol="SSL", timeout=DEADLINE)


#: Clients that fail to open, their listener, and their error.
FAILING_CLIENTS: dict[
    str, tuple[str, Callable[[KafkaCluster, str], AdminClient], type[Exception]]
] = {
    "wrong password": ("SASL_SSL", wrong_password_client, AuthenticationError),
    "expired token": ("SASL_SSL", expired_token_client, AuthenticationError),
    "untrusted certificate": ("SSL", untrusting_client, TlsError),
}


@pytest.mark.parametrize("kind", sorted(FAILING_CLIENTS))
def test_no_socket_left_open_when_opening_fails(kafka_tls_cluster: KafkaCluster, kind: str) -> None:
    """Neither the failed connections nor those made to find out why outlive the error."""
    listener, make_client, error = FAILING_CLIENTS[kind]

    async def program(address: str) -> None:
        with pytest.raises(error):
            async with make_client(kafka_tls_cluster, address):
                pass

    assert warnings_of_a_program(kafka_tls_cluster, listener, program) == []


async def test_leaving_is_bounded_when_the_broker_does_not_close(
    kafka_tls_cluster: KafkaCluster,
) -> None:
    """A frozen broker never finishes the TLS close; leaving the client does not wait for it."""
    broker = kafka_tls_cluster.broker_ids[0]
    with ExitStack() as frozen:
        async with client_for(
            kafka_tls_cluster, "SSL", ssl_context=trusting(kafka_tls_cluster)
        ) as a:
            await describe_broker(a, kafka_tls_cluster)
            frozen.enter_context(kafka_tls_cluster.paused_broker(broker))
            started = time.monotonic()
        # Python's TLS close alone would wait 30 s for the broker's answer.
        assert time.monotonic() - started < DEADLINE / 2, "leaving waited for the broker"
