"""Which Kafka releases the harness starts, how each generation's files differ, and the errors
for a release it cannot start (all before any JVM)."""

from __future__ import annotations

import pytest

from kafka_config_admin.testing import (
    UnsupportedKafkaVersionError,
    UnsupportedOptionError,
    start_cluster,
)
from kafka_config_admin.testing._generations import (
    generation_of,
    log4j1_properties,
    logging_flag,
    scram_user_commands,
    zookeeper_broker_properties,
)
from kafka_config_admin.testing._layout import NodePorts, server_properties


@pytest.mark.parametrize(
    ("version", "name"),
    [
        ("4.3.0", "kraft-4"),
        ("4.0.0", "kraft-4"),
        ("3.9.1", "kraft-3"),
        ("3.5.0", "kraft-3"),
        ("3.4.1", "zookeeper"),
        ("2.5.1", "zookeeper"),
        ("2.4.0", "zookeeper"),
    ],
)
def test_each_release_belongs_to_one_generation(version: str, name: str) -> None:
    assert generation_of(version).name == name


@pytest.mark.parametrize(
    ("version", "message"),
    [
        ("2.3.1", r"cannot start Kafka 2\.3\.1.*zookeeper: 2\.4 up to"),
        ("0.11.0", r"cannot start Kafka 0\.11\.0"),
        ("latest", r"'latest' is not a release number such as '4\.4\.0'"),
        ("3.9", r"not a release number"),
    ],
)
def test_a_release_it_cannot_start_is_named(version: str, message: str) -> None:
    with pytest.raises(UnsupportedKafkaVersionError, match=message):
        generation_of(version)


def test_start_cluster_refuses_an_unsupported_release_before_starting_anything() -> None:
    with pytest.raises(UnsupportedKafkaVersionError, match=r"2\.0\.0"):
        start_cluster(backend="jvm", version="2.0.0")
    with pytest.raises(UnsupportedKafkaVersionError, match="must be a str"):
        start_cluster(backend="jvm", version=3.9)  # type: ignore[arg-type]


def test_the_external_backend_cannot_choose_a_release(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    with pytest.raises(UnsupportedOptionError, match="version"):
        start_cluster(backend="external", version="3.9.1")


def test_brokers_before_kafka_4_log_through_log4j_1() -> None:
    assert logging_flag(generation_of("4.3.0"), "/x/log4j2.properties") == (
        "-Dlog4j2.configurationFile=/x/log4j2.properties"
    )
    assert logging_flag(generation_of("3.9.1"), "/x/log4j.properties") == (
        "-Dlog4j.configuration=file:/x/log4j.properties"
    )
    to_file = log4j1_properties("/x/server.log")
    assert "log4j.appender.OUT.File=/x/server.log" in to_file
    assert "ConsoleAppender" in log4j1_properties(None)


def test_a_zookeeper_era_broker_keeps_its_listeners_and_drops_the_quorum() -> None:
    node = NodePorts(2, 9092, 9093, 9094)
    kraft = server_properties(node, [node], sasl=True, policy=True, log_dirs="/data")
    props = zookeeper_broker_properties(kraft, node_id=2, zookeeper_connect="127.0.0.1:2181")
    assert props["broker.id"] == "2" and props["zookeeper.connect"] == "127.0.0.1:2181"
    for key in ("process.roles", "node.id", "controller.quorum.voters"):
        assert key not in props
    assert props["listeners"] == ("PLAINTEXT://127.0.0.1:9092,SASL_PLAINTEXT://127.0.0.1:9094")
    assert props["authorizer.class.name"] == "kafka.security.authorizer.AclAuthorizer"
    assert props["alter.config.policy.class.name"] == kraft["alter.config.policy.class.name"]


def test_scram_users_are_written_into_zookeeper_one_command_each() -> None:
    commands = scram_user_commands("127.0.0.1:2181")
    assert [command[-1] for command in commands] == ["admin", "alice"]
    assert (
        "SCRAM-SHA-256=[password=admin-secret],SCRAM-SHA-512=[password=admin-secret]"
        in (commands[0])
    )


def test_the_container_backend_runs_only_its_images_release() -> None:
    with pytest.raises(UnsupportedKafkaVersionError, match=r"container backend runs only .*jvm"):
        start_cluster(backend="container", version="3.9.1")
