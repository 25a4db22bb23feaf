"""TLS, mutual TLS, SASL_SSL and OAUTHBEARER against a real broker, and how each one fails.

The cluster (``kafka_tls_cluster``) is a broker of its own with certificates made for it: a CA,
the broker's PEM key store, a client certificate whose key has a passphrase.
"""

from __future__ import annotations

import ssl
import time
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
