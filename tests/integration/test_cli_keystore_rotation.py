"""Rotating a TLS listener's key store on a running broker, without a restart, through the
command line: one incremental alter of ``listener.name.ssl.ssl.keystore.*`` and
``ssl.key.password`` on one broker id, twice (nothing locks after the first), and a new TLS
connection then shows the new certificate. No password reaches stdout or stderr."""

from __future__ import annotations

import secrets
import ssl
import time

import pytest
from cryptography import x509

from kafka_config_admin.testing import KafkaCluster, TlsFiles, new_broker_keystore

from .cli_helpers import Ran, run_process

pytestmark = pytest.mark.integration

PREFIX = "listener.name.ssl."


def files(cluster: KafkaCluster) -> TlsFiles:
    assert cluster.tls_files is not None
    return cluster.tls_files


def served_serial(cluster: KafkaCluster) -> int:
    """The serial number of the certificate the SSL listener shows a new connection."""
    host, port = cluster.tls_bootstrap_servers("SSL").split(",")[0].rsplit(":", 1)
    pem = ssl.get_server_certificate((host, int(port)), ca_certs=str(files(cluster).ca_certificate))
    return int(x509.load_pem_x509_certificate(pem.encode()).serial_number)


def wait_for_serial(cluster: KafkaCluster, serial: int) -> int:
    """The served certificate's serial once it is ``serial``: a broker applies a change of
    its dynamic config when the change reaches it through the metadata log, a moment after
    the alter returns. After 30 s, the serial served then."""
    deadline = time.monotonic() + 30
    while (served := served_serial(cluster)) != serial and time.monotonic() < deadline:
        time.sleep(0.2)
    return served


def rotation(cluster: KafkaCluster, name: str) -> tuple[dict[str, str], int, str]:
    """A new key store's settings for the SSL listener, its serial and its password."""
    password = f"rot-{secrets.token_urlsafe(12)}"
    path, serial = new_broker_keystore(files(cluster), name, password)
    settings = {
        f"{PREFIX}ssl.keystore.location": str(path),
        f"{PREFIX}ssl.keystore.type": "PKCS12",
        f"{PREFIX}ssl.keystore.password": password,
        f"{PREFIX}ssl.key.password": password,
    }
    return settings, serial, password


def alter(cluster: KafkaCluster, settings: dict[str, str], *options: str) -> Ran:
    add = ",".join(f"{key}={value}" for key, value in settings.items())
    broker = str(cluster.broker_ids[0])
    return run_process(
        "alter",
        "-b",
        cluster.bootstrap_servers,
        "--entity-type",
        "brokers",
        "--entity-name",
        broker,
        "--add-config",
        add,
        *options,
    )


def test_rotate_a_listener_keystore_twice_with_alter(kafka_tls_cluster: KafkaCluster) -> None:
    before = served_serial(kafka_tls_cluster)
    for round_ in (1, 2):
        settings, serial, password = rotation(kafka_tls_cluster, f"rotated-cli-{round_}.p12")
        checked = alter(kafka_tls_cluster, settings, "--dry-run")
        assert checked.code == 0, checked.err
        assert served_serial(kafka_tls_cluster) != serial  # a dry run changes nothing
        ran = alter(kafka_tls_cluster, settings, "--yes")
        assert ran.code == 0, ran.err
        for shown in (checked, ran):
            assert password not in shown.out + shown.err
        assert "1 resource(s) altered, 0 failed" in ran.err
        now = wait_for_serial(kafka_tls_cluster, serial)
        assert now == serial and now != before, (round_, before, now, serial)
        before = now
