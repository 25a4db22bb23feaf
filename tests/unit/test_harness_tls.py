"""The TLS listeners of a ``tls=True`` test cluster, as the broker configuration states them."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_config_admin.testing import TLS_LISTENERS, start_cluster
from kafka_config_admin.testing._layout import plan_ports, server_properties
from kafka_config_admin.testing._tls import make_tls_files


def test_tls_ports_and_listeners() -> None:
    ports = plan_ports([1, 2], sasl=True, tls=True)
    node = ports[1]
    assert node.tls is not None
    tls = [node.tls.ssl, node.tls.mtls, node.tls.sasl_ssl]
    assert len({node.plaintext_port, node.controller_port, node.sasl_port, *tls}) == 6
    props = server_properties(
        node, list(ports.values()), sasl=True, policy=False, log_dirs="/d", tls_files_dir="/t"
    )
    for name in TLS_LISTENERS:
        address = f"{name}://127.0.0.1:{node.tls.port(name)}"
        assert address in props["listeners"].split(",")
        assert address in props["advertised.listeners"].split(",")
    assert "MTLS:SSL" in props["listener.security.protocol.map"]
    assert props["listener.name.mtls.ssl.client.auth"] == "required"
    assert props["ssl.keystore.location"] == "/t/broker-keystore.pem"
    assert props["ssl.keystore.type"] == props["ssl.truststore.type"] == "PEM"
    assert "OAUTHBEARER" in props["listener.name.sasl_ssl.sasl.enabled.mechanisms"]


def test_without_tls_nothing_changes() -> None:
    ports = plan_ports([1], sasl=True)
    assert ports[1].tls is None
    props = server_properties(
        ports[1], list(ports.values()), sasl=True, policy=False, log_dirs="/d"
    )
    assert not any(key.startswith("ssl.") for key in props)


def test_tls_files(tmp_path: Path) -> None:
    files = make_tls_files(tmp_path)
    key = files.client_key.read_text()
    assert key.startswith("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert files.client_key_passphrase not in key
    keystore = files.broker_keystore.read_text()
    assert keystore.startswith("-----BEGIN PRIVATE KEY-----")
    assert keystore.count("BEGIN CERTIFICATE") == 2  # the broker's, then the CA's
    assert set(files.broker_files()) == {"broker-keystore.pem", "ca.pem"}


def test_tls_needs_sasl() -> None:
    with pytest.raises(ValueError, match="tls=True needs sasl=True"):
        start_cluster(tls=True, backend="jvm")
