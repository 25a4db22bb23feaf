"""Rotating a TLS listener's key store on a running broker, without a restart, through the
command line: one incremental alter of ``listener.name.ssl.ssl.keystore.*`` and
``ssl.key.password`` on one broker id, twice (nothing locks after the first), and a new TLS
connection then shows the new certificate. No password reaches stdout or stderr."""

from __future__ import annotations

import pytest

from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import Ran, run_process
from .rotation import rotation, served_serial, wait_for_serial

pytestmark = pytest.mark.integration


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
