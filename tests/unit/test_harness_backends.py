"""Choosing a test-cluster backend, and what the container backend sets up before any container."""

from __future__ import annotations

from typing import cast

import pytest

from kafka_config_admin.testing import (
    DEFAULT_BROKER_HEAP,
    BackendUnavailableError,
    UnsupportedOptionError,
    _cluster,
    _docker,
    plugin,
    selected_backend,
    start_cluster,
)
from kafka_config_admin.testing._layout import broker_heap_size, java_command


@pytest.mark.parametrize(("engine", "expected"), [(True, "container"), (False, "jvm")])
def test_auto_prefers_a_running_docker_engine(
    monkeypatch: pytest.MonkeyPatch, engine: bool, expected: str
) -> None:
    monkeypatch.setattr(_cluster, "docker_engine_answers", lambda: engine)
    assert selected_backend("auto") == expected
    monkeypatch.setenv("KAFKA_CONFIG_ADMIN_BACKEND", "AUTO")
    assert selected_backend() == expected


def test_the_default_is_jvm_even_with_an_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAFKA_CONFIG_ADMIN_BACKEND", raising=False)
    monkeypatch.setattr(_cluster, "docker_engine_answers", lambda: True)
    assert selected_backend() == "jvm"


def test_an_unknown_backend_is_named() -> None:
    with pytest.raises(ValueError, match=r"unknown backend 'podman'.*auto"):
        selected_backend("podman")


def test_no_engine_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(BackendUnavailableError, match=r"Docker engine.*nonexistent"):
        start_cluster(backend="container")


def test_a_remote_engine_is_refused_before_any_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "tcp://192.0.2.7:2375")  # TEST-NET-1: never answers
    with pytest.raises(BackendUnavailableError, match=r"must run on this machine.*192\.0\.2\.7"):
        _docker.docker_client()


def test_testcontainers_is_set_up_for_a_machine_without_registry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from testcontainers.core.config import ConnectionMode, testcontainers_config

    monkeypatch.setattr(testcontainers_config, "_ryuk_disabled", False)
    monkeypatch.setattr(testcontainers_config, "connection_mode_override", None)
    monkeypatch.setattr(testcontainers_config, "tc_host_override", None)
    _docker.configure_testcontainers()
    assert testcontainers_config.ryuk_disabled
    assert testcontainers_config.connection_mode_override is ConnectionMode.docker_host
    assert testcontainers_config.tc_host_override == "127.0.0.1"


def test_a_users_testcontainers_host_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from testcontainers.core.config import ConnectionMode, testcontainers_config

    monkeypatch.setattr(testcontainers_config, "connection_mode_override", ConnectionMode.bridge_ip)
    monkeypatch.setattr(testcontainers_config, "tc_host_override", "10.1.2.3")
    _docker.configure_testcontainers()
    assert testcontainers_config.connection_mode_override is ConnectionMode.bridge_ip
    assert testcontainers_config.tc_host_override == "10.1.2.3"


@pytest.mark.parametrize(
    ("method", "what"),
    [
        ("server_log", "cannot read broker logs"),
        ("stop_broker", "cannot stop single brokers"),
        ("kill_broker", "cannot kill single brokers"),
        ("start_broker", "cannot start single brokers"),
        ("paused_broker", "cannot pause brokers"),
    ],
)
def test_a_cluster_someone_else_runs_refuses_node_faults_by_name(
    monkeypatch: pytest.MonkeyPatch, method: str, what: str
) -> None:
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    cluster = start_cluster(backend="external")
    with pytest.raises(UnsupportedOptionError, match=f"the external backend {what}"):
        getattr(cluster, method)(1)


@pytest.mark.parametrize(
    ("asked", "flag"), [("2g", "-Xmx2g"), ("768M", "-Xmx768m"), (" 65536k ", "-Xmx65536k")]
)
def test_a_broker_heap_becomes_the_brokers_one_xmx(asked: str, flag: str) -> None:
    command = java_command(
        "java",
        log4j_config="log4j2.properties",
        logs_dir="logs",
        classpath="libs/*",
        main="kafka.Kafka",
        args=["server.properties"],
        max_heap=broker_heap_size(asked),
    )
    assert [part for part in command if part.startswith("-Xm")] == ["-Xms64m", flag]
    assert command[-2:] == ["kafka.Kafka", "server.properties"]


def test_without_a_broker_heap_a_broker_gets_the_default() -> None:
    command = java_command(
        "java", log4j_config="l", logs_dir="d", classpath="c", main="kafka.Kafka", args=[]
    )
    assert f"-Xmx{DEFAULT_BROKER_HEAP}" in command


@pytest.mark.parametrize("backend", ["jvm", "container"])
@pytest.mark.parametrize("asked", ["2gb", "2 g", "1.5g", "-1g", "", "g", "two gigabytes"])
def test_a_broker_heap_that_is_no_jvm_size_is_refused_before_any_start(
    backend: str, asked: str
) -> None:
    # Checked as the cluster is made: before Java, Docker or a port is looked for.
    with pytest.raises(ValueError, match=r"is not a JVM memory size.*'512m' or '2g'"):
        start_cluster(backend=backend, broker_heap=asked)


@pytest.mark.parametrize("asked", ["32m", "1k", "1048575"])
def test_a_broker_heap_below_the_starting_heap_is_refused(asked: str) -> None:
    with pytest.raises(ValueError, match=r"below 64m.*-Xms64m"):
        broker_heap_size(asked)


def test_the_smallest_broker_heap_is_the_starting_heap() -> None:
    assert broker_heap_size("64m") == "64m"
    assert broker_heap_size(str(64 * 2**20)) == str(64 * 2**20)


def test_a_cluster_someone_else_runs_refuses_a_broker_heap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    with pytest.raises(
        UnsupportedOptionError, match="external backend does not support broker_heap"
    ):
        start_cluster(backend="external", broker_heap="2g")


class _Options:
    """What ``pytest.Config.getoption`` answers for the plugin's ``--kafka-*`` options."""

    def __init__(self, **given: object) -> None:
        self._given = given

    def getoption(self, name: str) -> object:
        return self._given.get(name.removeprefix("--").replace("-", "_"))


@pytest.mark.parametrize("heap", [None, "2g"])
def test_the_plugins_broker_heap_option_shapes_the_session_cluster(heap: str | None) -> None:
    config = _Options(kafka_backend="jvm", kafka_broker_heap=heap)
    assert plugin.cluster_options(cast(pytest.Config, config)).broker_heap == heap
