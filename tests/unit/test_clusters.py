"""The clusters file and Kafka tools' command configs, parsed into connections."""

from __future__ import annotations

import ssl
import subprocess
from pathlib import Path

import pytest

from kafka_config_admin.connect import (
    ConnectionConfigError,
    load_clusters_file,
    parse_clusters_file,
    parse_command_config,
    parse_properties,
)

CLUSTERS = """
default: dev
clusters:
  dev:
    bootstrap_servers: localhost:9092
  prod:
    bootstrap_servers: [kafka-1:9093, kafka-2:9093]
    security_protocol: SASL_PLAINTEXT
    sasl_mechanism: SCRAM-SHA-512
    username: admin
    password_env: PROD_PASSWORD
"""


def clusters(text: str, base: Path = Path("/etc/kafka")) -> dict[str, object]:
    return parse_clusters_file(text, source="clusters.yaml", base_dir=base).model_dump()


def command_config(text: str, base: Path = Path("/etc/kafka")) -> dict[str, object]:
    connection = parse_command_config(text, source="admin.properties", base_dir=base)
    return connection.admin_client_kwargs() if connection.bootstrap_servers else {}


def test_clusters_file_gives_admin_client_kwargs(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = parse_clusters_file(CLUSTERS, source="c.yaml", base_dir=Path("."))
    assert parsed.connection().admin_client_kwargs() == {
        "bootstrap_servers": "localhost:9092",
        "security_protocol": "PLAINTEXT",
    }
    monkeypatch.setenv("PROD_PASSWORD", "s3cret")
    assert parsed.connection("prod").admin_client_kwargs() == {
        "bootstrap_servers": "kafka-1:9093,kafka-2:9093",
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_plain_username": "admin",
        "sasl_plain_password": "s3cret",
    }


def test_password_env_not_set_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROD_PASSWORD", raising=False)
    parsed = parse_clusters_file(CLUSTERS, source="c.yaml", base_dir=Path("."))
    with pytest.raises(ConnectionConfigError, match="PROD_PASSWORD, which is not set"):
        parsed.connection("prod").admin_client_kwargs()


def test_unknown_cluster_lists_the_known_ones() -> None:
    parsed = parse_clusters_file(CLUSTERS, source="c.yaml", base_dir=Path("."))
    with pytest.raises(
        ConnectionConfigError, match=r"no cluster named 'stage' \(known: dev, prod\)"
    ):
        parsed.connection("stage")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("clusters: [a]", "expected a mapping with a 'clusters' mapping"),
        ("clusters: {a: {bootstrap_servers: x:1, colour: red}}", "a.colour: Extra inputs"),
        ("clusters: {a: {}}", "cluster 'a' has no bootstrap_servers"),
        ("default: b\nclusters: {a: {bootstrap_servers: x:1}}", "default names 'b'"),
        (
            "clusters: {a: {bootstrap_servers: x:1, security_protocol: SASL_SSL}}",
            "needs username and password",
        ),
        (
            "clusters: {a: {bootstrap_servers: x:1, username: u, password: p}}",
            "username needs security_protocol SASL_PLAINTEXT or SASL_SSL, not PLAINTEXT",
        ),
        ("clusters: {a: {bootstrap_servers: x:1, security_protocol: TLS}}", "security_protocol"),
        (
            "clusters: {a: {bootstrap_servers: x:1, security_protocol: SASL_SSL, "
            "sasl_jaas_config: x, password: p}}",
            "password needs username",
        ),
        (
            "clusters: {a: {bootstrap_servers: x:1, ssl_key_password: k}}",
            "ssl_key_password needs security_protocol SSL or SASL_SSL, not PLAINTEXT",
        ),
        ("clusters: {a: [", "not valid YAML"),
    ],
)
def test_bad_clusters_file_is_one_clear_error(text: str, problem: str) -> None:
    with pytest.raises(ConnectionConfigError, match=problem) as caught:
        clusters(text)
    assert str(caught.value).startswith("clusters.yaml: ")
    assert "\n" not in str(caught.value)


def test_missing_clusters_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConnectionConfigError, match=r"cannot read clusters file .*nope\.yaml"):
        load_clusters_file(tmp_path / "nope.yaml")


def test_properties_syntax() -> None:
    text = "# comment\n! also\na=1\nb : two words \nc\\\n  .d=x\\\n    y\n\ne\n"
    assert parse_properties(text, source="p") == {"a": "1", "b": "two words", "c.d": "xy", "e": ""}


@pytest.mark.parametrize(
    ("jaas", "mechanism", "expected"),
    [
        (
            'org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
            'password="admin-secret";',
            None,
            ("admin", "admin-secret", "PLAIN"),
        ),
        (
            "org.apache.kafka.common.security.scram.ScramLoginModule required "
            'username="svc" password="p a\\"ss";',
            "SCRAM-SHA-256",
            ("svc", 'p a"ss', "SCRAM-SHA-256"),
        ),
    ],
)
def test_command_config_with_jaas(
    jaas: str, mechanism: str | None, expected: tuple[str, str, str]
) -> None:
    lines = [
        "bootstrap.servers=h:9092",
        "security.protocol=SASL_PLAINTEXT",
        f"sasl.jaas.config={jaas}",
    ]
    if mechanism:
        lines.append(f"sasl.mechanism={mechanism}")
    kwargs = command_config("\n".join(lines))
    username, password, wanted_mechanism = expected
    assert kwargs["sasl_plain_username"] == username
    assert kwargs["sasl_plain_password"] == password
    assert kwargs["sasl_mechanism"] == wanted_mechanism


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "security.protocol=SSL\nssl.truststore.type=JKS\nssl.truststore.location=t.jks",
            "ssl.truststore.type=JKS is not supported: convert the store to PEM",
        ),
        (
            "security.protocol=SASL_PLAINTEXT\nsasl.jaas.config="
            'org.apache.kafka.common.security.scram.ScramLoginModule required username="a" '
            'password="b";',
            "set sasl.mechanism to SCRAM-SHA-256 or SCRAM-SHA-512",
        ),
        (
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=GSSAPI\nsasl.jaas.config=x required;",
            "sasl_mechanism",
        ),
        (
            "security.protocol=SASL_PLAINTEXT\nsasl.jaas.config="
            "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;",
            "only PlainLoginModule and ScramLoginModule",
        ),
        ("security.protocol=SASL_PLAINTEXT", "needs username and password"),
    ],
)
def test_unusable_command_config_is_one_clear_error(text: str, problem: str) -> None:
    with pytest.raises(ConnectionConfigError, match=problem):
        parse_command_config(text, source="admin.properties", base_dir=Path("."))


def test_jks_store_without_a_type_is_refused_when_read(tmp_path: Path) -> None:
    store = tmp_path / "truststore.jks"
    store.write_bytes(b"\xfe\xed\xfe\xed\x00\x00\x00\x02binary")
    text = f"bootstrap.servers=h:9093\nsecurity.protocol=SSL\nssl.truststore.location={store.name}"
    with pytest.raises(ConnectionConfigError, match=r"is not a PEM file .*JKS"):
        command_config(text, base=tmp_path)


def test_pem_stores_make_an_ssl_context(tmp_path: Path) -> None:
    key, cert = tmp_path / "client.key", tmp_path / "client.crt"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=test",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
        ],
        check=True,
        capture_output=True,
    )
    (tmp_path / "client.pem").write_text(key.read_text() + cert.read_text())
    text = (
        "bootstrap.servers=h:9093\nsecurity.protocol=SSL\nssl.truststore.type=PEM\n"
        "ssl.truststore.location=client.crt\nssl.keystore.type=PEM\n"
        "ssl.keystore.location=client.pem\nssl.endpoint.identification.algorithm=\n"
    )
    kwargs = command_config(text, base=tmp_path)
    context = kwargs["ssl_context"]
    assert isinstance(context, ssl.SSLContext)
    assert context.check_hostname is False
    assert len(context.get_ca_certs()) == 1


OAUTH_CLUSTER = """
clusters:
  cloud:
    bootstrap_servers: kafka:9093
    security_protocol: SASL_SSL
    sasl_mechanism: OAUTHBEARER
"""


async def test_oauthbearer_token_from_an_environment_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = OAUTH_CLUSTER + "    oauth_token_env: KAFKA_TOKEN\n"
    connection = parse_clusters_file(text, source="c.yaml", base_dir=Path(".")).connection()
    monkeypatch.delenv("KAFKA_TOKEN", raising=False)
    with pytest.raises(ConnectionConfigError, match="names KAFKA_TOKEN, which is not set"):
        connection.admin_client_kwargs()
    monkeypatch.setenv("KAFKA_TOKEN", "first")
    kwargs = connection.admin_client_kwargs()
    assert kwargs["sasl_mechanism"] == "OAUTHBEARER"
    provider = kwargs["sasl_oauth_token_provider"]
    monkeypatch.setenv("KAFKA_TOKEN", "refreshed")
    assert await provider.token() == "refreshed"  # read at each new connection


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("", "OAUTHBEARER needs oauth_token_env"),
        (
            "    oauth_token_env: T\n    username: u\n    password: p\n",
            "username is not used with OAUTHBEARER: it takes oauth_token_env",
        ),
    ],
)
def test_oauthbearer_settings_are_checked(extra: str, problem: str) -> None:
    with pytest.raises(ConnectionConfigError, match=problem):
        clusters(OAUTH_CLUSTER + extra)


def test_oauth_token_env_needs_oauthbearer() -> None:
    text = OAUTH_CLUSTER.replace("OAUTHBEARER", "PLAIN") + "    oauth_token_env: T\n"
    with pytest.raises(ConnectionConfigError, match="oauth_token_env needs sasl_mechanism"):
        clusters(text)
