"""The Docker engine as the container backend uses it: a client, testcontainers' settings, cleanup.

testcontainers normally relies on its reaper container (``testcontainers/ryuk``) to remove
what a test session leaves behind, but that image cannot be pulled without a registry. This
module does the reaper's job itself: every broker container carries labels naming the process
that started it; an ``atexit`` hook removes the containers of this process, and each new
cluster first removes those left by processes on this host that no longer exist (killed with
SIGKILL, say).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import os
import socket
import threading
import urllib.parse
from typing import Any

from ._errors import BackendUnavailableError

#: Label on every container the harness starts (value: ``"1"``).
HARNESS_LABEL = "io.kafka-config-admin.harness"
#: Label naming the process that started a container: ``"<hostname>:<pid>"``.
OWNER_LABEL = "io.kafka-config-admin.owner"

_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
_DEFAULT_SOCKET = "/var/run/docker.sock"
_live: dict[str, Any] = {}  # container id -> docker.models.containers.Container
_live_lock = threading.Lock()


def docker_module() -> Any:
    """The docker SDK (a dependency of testcontainers), or a clear error when it is missing."""
    try:  # optional and untyped: imported dynamically so it stays Any for mypy
        return importlib.import_module("docker")
    except ImportError:
        raise BackendUnavailableError(
            "the container backend needs the 'docker' and 'testcontainers' packages: "
            "pip install 'kafka-config-admin[test]'"
        ) from None


def docker_client() -> Any:
    """A connected client of the local Docker engine, or :class:`BackendUnavailableError`."""
    docker = docker_module()
    address = os.environ.get("DOCKER_HOST", "")
    host = urllib.parse.urlparse(address).hostname if "://" in address else None
    if host is not None and host not in _LOCAL_HOSTS:
        raise BackendUnavailableError(
            f"the container backend runs brokers with host networking, so the Docker engine "
            f"must run on this machine; DOCKER_HOST points at {host}"
        )
    if address.startswith("unix://") or not address:
        _require_listening(address.removeprefix("unix://") or _DEFAULT_SOCKET)
    try:
        client = docker.from_env(timeout=30)  # asks the engine for its API version
    except Exception as error:  # every way of failing to reach the engine means "no engine"
        raise BackendUnavailableError(
            f"the container backend needs a running Docker engine, and none answered: {error}"
        ) from None
    return client


def _require_listening(path: str) -> None:
    """Fail unless something accepts connections on the engine's socket.

    Checked here because the docker SDK leaves the socket of a refused connection open.
    """
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(5)
        try:
            probe.connect(path)
        except OSError as error:
            raise BackendUnavailableError(
                f"the container backend needs a running Docker engine, and none listens on "
                f"{path}: {error.strerror or error}"
            ) from None


@functools.cache
def docker_engine_answers() -> bool:
    """Whether a local Docker engine answers a ping (asked once per process)."""
    try:
        docker_client().close()
    except BackendUnavailableError:
        return False
    return True


def configure_testcontainers() -> None:
    """Settings testcontainers needs here, unless the user chose them.

    Without a registry the reaper image cannot be pulled, so it is disabled (this module
    cleans up instead). On a machine that looks like a container (``/.dockerenv``)
    testcontainers would otherwise take the default gateway for the Docker host; the brokers
    use host networking on this machine, so the host is 127.0.0.1.
    """
    config_module = importlib.import_module("testcontainers.core.config")
    config: Any = config_module.testcontainers_config
    config.ryuk_disabled = True
    if config.connection_mode_override is None:
        config.connection_mode_override = config_module.ConnectionMode.docker_host
    if not config.tc_host_override:
        config.tc_host_override = "127.0.0.1"


def owner_labels() -> dict[str, str]:
    """Labels that mark a container as started by this process."""
    return {HARNESS_LABEL: "1", OWNER_LABEL: f"{socket.gethostname()}:{os.getpid()}"}


def track(container: Any) -> None:
    """Remember a started container so that it is removed at exit at the latest."""
    with _live_lock:
        _live[str(container.id)] = container


def remove(container: Any) -> None:
    """Remove a container (running or not) and forget it; gone already is fine."""
    with contextlib.suppress(Exception):  # NotFound, or a removal already in progress
        container.remove(force=True, v=True)
    with _live_lock:
        _live.pop(str(container.id), None)


def live_container_ids() -> list[str]:
    """Ids of the containers this process started and has not removed yet."""
    with _live_lock:
        return list(_live)


def remove_orphans(client: Any) -> list[str]:
    """Remove harness containers whose owning process on this host no longer exists."""
    removed = []
    host = socket.gethostname()
    for container in client.containers.list(all=True, filters={"label": HARNESS_LABEL}):
        owner_host, _, pid = str(container.labels.get(OWNER_LABEL, "")).rpartition(":")
        if owner_host == host and pid.isdigit() and not _process_exists(int(pid)):
            remove(container)
            removed.append(str(container.id))
    return removed


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


@atexit.register
def _remove_leftovers() -> None:
    with _live_lock:
        leftovers = list(_live.values())
    for container in leftovers:
        remove(container)
