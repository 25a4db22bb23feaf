"""Choosing a test-cluster backend, and what the container backend sets up before any container."""

from __future__ import annotations

import pytest

from kafka_config_admin.testing import (
    BackendUnavailableError,
    UnsupportedOptionError,
    _cluster,
    _docker,
    selected_backend,
    start_cluster,
)


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
