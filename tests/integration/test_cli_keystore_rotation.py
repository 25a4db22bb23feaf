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
        env={"COLUMNS": "400"},  # a table wide enough to hold each value on one line
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
        assert "1 resource(s) applied, 0 failed" in ran.err and "[hidden]" in ran.err
        now = wait_for_serial(kafka_tls_cluster, serial)
        assert now == serial and now != before, (round_, before, now, serial)
        before = now


def test_a_keystore_the_broker_cannot_load_is_refused_by_the_dry_run(
    kafka_tls_cluster: KafkaCluster,
) -> None:
    settings, serial, password = rotation(kafka_tls_cluster, "rotated-cli-refused.p12")
    wrong = f"{password}-wrong"
    settings = {key: wrong if "password" in key else value for key, value in settings.items()}
    ran = alter(kafka_tls_cluster, settings, "--dry-run")
    assert ran.code == 2, ran.err
    assert "refused by the broker: broker '1', listener.name.ssl.ssl.keystore" in ran.err
    assert wrong not in ran.out + ran.err and password not in ran.out + ran.err
    assert served_serial(kafka_tls_cluster) != serial


def test_the_cluster_default_refuses_a_listeners_keystore(kafka_tls_cluster: KafkaCluster) -> None:
    settings, _, password = rotation(kafka_tls_cluster, "rotated-cli-default.p12")
    add = ",".join(f"{key}={value}" for key, value in settings.items())
    ran = run_process(
        "alter", "-b", kafka_tls_cluster.bootstrap_servers, "--entity-default",
        "--add-config", add, "--yes",
    )  # fmt: skip
    assert ran.code == 2, ran.err
    assert "per-broker only" in ran.err
    assert password not in ran.out + ran.err
