"""Rotating a TLS listener's key store on a running broker (``kafka_tls_cluster``): a new key
store from the cluster's CA, its settings for the SSL listener, and the certificate a new
TLS connection is shown."""

from __future__ import annotations

import secrets
import ssl
import time

import pytest
from cryptography import x509

from kafka_config_admin.testing import JvmCluster, KafkaCluster, TlsFiles, new_broker_keystore

#: The SSL listener's prefix: its keys are set per broker, for that listener alone.
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
    if not isinstance(cluster, JvmCluster):
        pytest.skip(
            "only JVM brokers read their TLS directory in place (a container has a copy of it)"
        )
    password = f"rot-{secrets.token_urlsafe(12)}"
    path, serial = new_broker_keystore(files(cluster), name, password)
    settings = {
        f"{PREFIX}ssl.keystore.location": str(path),
        f"{PREFIX}ssl.keystore.type": "PKCS12",
        f"{PREFIX}ssl.keystore.password": password,
        f"{PREFIX}ssl.key.password": password,
    }
    return settings, serial, password
