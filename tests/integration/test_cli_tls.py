"""The command line over TLS: Kafka client properties and a clusters file, and their failures.

Each command runs as a real subprocess against the TLS cluster (``kafka_tls_cluster``); a
failure must be one line on stderr and exit code 1, well before the deadline.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kafka_config_admin.testing import KafkaCluster, TlsFiles, unsecured_jwt

from .cli_helpers import Ran, run_process

pytestmark = pytest.mark.integration

TIMEOUT = "20"
EVERY_CONFIG = ("--all", "-o", "json")
SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule"


def files(cluster: KafkaCluster) -> TlsFiles:
    assert cluster.tls_files is not None
    return cluster.tls_files


def properties(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "client.properties"
    path.write_text("\n".join(lines) + "\n")
    return path


def trust(cluster: KafkaCluster) -> list[str]:
    return [
        "ssl.truststore.type=PEM",
        f"ssl.truststore.location={files(cluster).ca_certificate}",
    ]


def describe_broker(cluster: KafkaCluster, servers: str, *options: str) -> Ran:
    broker = f"broker:{cluster.broker_ids[0]}"
    return run_process(
        "describe", broker, *EVERY_CONFIG, "-b", servers, "--timeout", TIMEOUT, *options
    )


def assert_described(ran: Ran) -> None:
    assert ran.code == 0, ran.err
    [resource] = ran.json()["resources"]
    assert resource["configs"]["ssl.keystore.type"]["value"] == "PEM"


def assert_one_line_error(ran: Ran, started: float, *words: str) -> str:
    assert time.monotonic() - started < float(TIMEOUT), "reported at the deadline, not at once"
    assert ran.code == 1, (ran.code, ran.err)
    [line] = ran.err.strip().splitlines()
    assert line.startswith("error: ")
    for word in words:
        assert word in line, line
    return line


def test_ssl_with_a_pem_trust_store(kafka_tls_cluster: KafkaCluster, tmp_path: Path) -> None:
    config = properties(tmp_path, "security.protocol=SSL", *trust(kafka_tls_cluster))
    ran = describe_broker(
        kafka_tls_cluster,
        kafka_tls_cluster.tls_bootstrap_servers("SSL"),
        "--command-config",
        str(config),
    )
    assert_described(ran)


def test_mutual_tls_with_a_pem_key_store_and_key_password(
    kafka_tls_cluster: KafkaCluster, tmp_path: Path
) -> None:
    tls = files(kafka_tls_cluster)
    config = properties(
        tmp_path,
        "security.protocol=SSL",
        *trust(kafka_tls_cluster),
        "ssl.keystore.type=PEM",
        f"ssl.keystore.location={tls.client_keystore}",
        f"ssl.key.password={tls.client_key_passphrase}",
    )
    servers = kafka_tls_cluster.tls_bootstrap_servers("MTLS")
    ran = describe_broker(kafka_tls_cluster, servers, "--command-config", str(config))
    assert_described(ran)
    assert tls.client_key_passphrase not in ran.out + ran.err


def test_sasl_ssl_scram_in_a_clusters_file(kafka_tls_cluster: KafkaCluster, tmp_path: Path) -> None:
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        "clusters:\n"
        "  secure:\n"
        f"    bootstrap_servers: {kafka_tls_cluster.tls_bootstrap_servers('SASL_SSL')}\n"
        "    security_protocol: SASL_SSL\n"
        "    sasl_mechanism: SCRAM-SHA-512\n"
        "    username: admin\n"
        "    password_env: TEST_KAFKA_PASSWORD\n"
        f"    ssl_ca_location: {files(kafka_tls_cluster).ca_certificate}\n"
    )
    ran = run_process(
        "describe",
        f"broker:{kafka_tls_cluster.broker_ids[0]}",
        *EVERY_CONFIG,
        "--clusters-file",
        str(clusters),
        "--cluster",
        "secure",
        env={"TEST_KAFKA_PASSWORD": "admin-secret"},
    )
    assert_described(ran)


def test_oauthbearer_token_from_the_environment(
    kafka_tls_cluster: KafkaCluster, tmp_path: Path
) -> None:
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        "clusters:\n"
        "  cloud:\n"
        f"    bootstrap_servers: {kafka_tls_cluster.tls_bootstrap_servers('SASL_SSL')}\n"
        "    security_protocol: SASL_SSL\n"
        "    sasl_mechanism: OAUTHBEARER\n"
        "    oauth_token_env: TEST_KAFKA_TOKEN\n"
        f"    ssl_ca_location: {files(kafka_tls_cluster).ca_certificate}\n"
    )
    token = unsecured_jwt("admin")
    args = (
        "describe",
        "broker:1",
        *EVERY_CONFIG,
        "--clusters-file",
        str(clusters),
        "--timeout",
        TIMEOUT,
    )
    ran = run_process(*args, env={"TEST_KAFKA_TOKEN": token})
    assert_described(ran)
    started = time.monotonic()
    expired = run_process(*args, env={"TEST_KAFKA_TOKEN": unsecured_jwt("admin", lifetime=-60)})
    assert_one_line_error(expired, started, "refused the OAUTHBEARER token")
    missing = run_process(*args, env={"TEST_KAFKA_TOKEN": ""})
    assert missing.code == 2
    assert missing.err.strip() == (
        "error: oauth_token_env names TEST_KAFKA_TOKEN, which is not set or empty"
    )


def test_wrong_password_over_sasl_ssl(kafka_tls_cluster: KafkaCluster, tmp_path: Path) -> None:
    config = properties(
        tmp_path,
        "security.protocol=SASL_SSL",
        "sasl.mechanism=SCRAM-SHA-256",
        f'sasl.jaas.config={SCRAM} required username="admin" password="Not-The-Pw-3c1";',
        *trust(kafka_tls_cluster),
    )
    servers = kafka_tls_cluster.tls_bootstrap_servers("SASL_SSL")
    started = time.monotonic()
    ran = describe_broker(kafka_tls_cluster, servers, "--command-config", str(config))
    line = assert_one_line_error(ran, started, servers, "refused the credentials")
    assert "Not-The-Pw-3c1" not in line


def test_untrusted_server_certificate(kafka_tls_cluster: KafkaCluster, tmp_path: Path) -> None:
    config = properties(tmp_path, "security.protocol=SSL")  # the system's CAs only
    servers = kafka_tls_cluster.tls_bootstrap_servers("SSL")
    started = time.monotonic()
    ran = describe_broker(kafka_tls_cluster, servers, "--command-config", str(config))
    assert_one_line_error(ran, started, f"TLS with {servers} failed", "not trusted")


def test_missing_client_certificate(kafka_tls_cluster: KafkaCluster, tmp_path: Path) -> None:
    config = properties(tmp_path, "security.protocol=SSL", *trust(kafka_tls_cluster))
    servers = kafka_tls_cluster.tls_bootstrap_servers("MTLS")
    started = time.monotonic()
    ran = describe_broker(kafka_tls_cluster, servers, "--command-config", str(config))
    assert_one_line_error(ran, started, f"TLS with {servers} failed", "client certificate")


def test_host_name_mismatch_unless_checking_is_off(
    kafka_tls_cluster: KafkaCluster, tmp_path: Path
) -> None:
    servers = kafka_tls_cluster.tls_bootstrap_servers("SSL").replace("127.0.0.1", "localhost")
    checked = properties(tmp_path, "security.protocol=SSL", *trust(kafka_tls_cluster))
    started = time.monotonic()
    ran = describe_broker(kafka_tls_cluster, servers, "--command-config", str(checked))
    assert_one_line_error(ran, started, f"TLS with {servers} failed", "'localhost'")
    unchecked = properties(
        tmp_path,
        "security.protocol=SSL",
        *trust(kafka_tls_cluster),
        "ssl.endpoint.identification.algorithm=",
    )
    assert_described(
        describe_broker(kafka_tls_cluster, servers, "--command-config", str(unchecked))
    )


def test_oauthbearer_in_a_command_config_is_refused_clearly(tmp_path: Path) -> None:
    config = properties(tmp_path, "security.protocol=SASL_SSL", "sasl.mechanism=OAUTHBEARER")
    ran = run_process("describe", "broker:1", "-b", "127.0.0.1:9", "--command-config", str(config))
    assert ran.code == 2
    [line] = ran.err.strip().splitlines()
    assert "OAUTHBEARER is not supported in a command config" in line and "oauth_token_env" in line
