"""The optional ``container`` (testcontainers) and ``external`` backends.

Neither can run several brokers, SASL or the test policy on demand, so asking for one of those
options raises :class:`UnsupportedOptionError` naming the option.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from ._base import KafkaCluster
from ._errors import BackendUnavailableError, UnsupportedOptionError
from ._settings import ENV_EXTERNAL_BOOTSTRAP


def reject_options(backend: str, *, brokers: int, sasl: bool, policy: bool) -> None:
    """Raise if a single-broker backend was asked for something it cannot provide."""
    unsupported = [
        name
        for name, wanted in (("brokers>1", brokers > 1), ("sasl", sasl), ("policy", policy))
        if wanted
    ]
    if unsupported:
        raise UnsupportedOptionError(
            f"the {backend} backend does not support {', '.join(unsupported)}; "
            "use the jvm backend (KAFKA_CONFIG_ADMIN_BACKEND=jvm) for these options"
        )


def docker_engine_answers() -> bool:
    """Whether a Docker engine answers a ping (the docker CLI alone is not enough)."""
    try:  # optional and untyped: imported dynamically so it stays Any for mypy
        docker: Any = importlib.import_module("docker")
    except ImportError:
        return False
    try:
        client = docker.from_env(timeout=3)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:  # any failure to reach the engine means "no engine"
        return False


class ContainerCluster(KafkaCluster):
    """One broker in a container started by testcontainers' ``KafkaContainer``."""

    backend = "container"

    def __init__(self) -> None:
        if not docker_engine_answers():
            raise BackendUnavailableError(
                "the container backend needs a running Docker engine, and none answered a ping"
            )
        from testcontainers.kafka import KafkaContainer  # optional: only for this backend

        self.broker_ids = [1]
        self.sasl = False
        self.policy = False
        self._container: Any = KafkaContainer().with_kraft()
        self._container.start()
        self._bootstrap = str(self._container.get_bootstrap_server())
        self._stopped = False

    def bootstrap_for(self, node_id: int) -> str:
        """The container's mapped bootstrap address (there is only broker 1)."""
        return self._bootstrap

    def stop(self) -> None:
        """Stop and remove the container."""
        if not self._stopped:
            self._stopped = True
            self._container.stop()


class ExternalCluster(KafkaCluster):
    """A cluster someone else runs, reached through ``KAFKA_BOOTSTRAP_SERVERS``."""

    backend = "external"

    def __init__(self) -> None:
        bootstrap = os.environ.get(ENV_EXTERNAL_BOOTSTRAP, "").strip()
        if not bootstrap:
            raise BackendUnavailableError(
                f"the external backend needs {ENV_EXTERNAL_BOOTSTRAP}=host:port[,host:port]"
            )
        self._addresses = [address.strip() for address in bootstrap.split(",") if address.strip()]
        # Node ids of an external cluster are unknown here; positions stand in for them.
        self.broker_ids = list(range(1, len(self._addresses) + 1))
        self.sasl = False
        self.policy = False

    def bootstrap_for(self, node_id: int) -> str:
        """The ``node_id``-th address of ``KAFKA_BOOTSTRAP_SERVERS`` (1-based)."""
        return self._addresses[node_id - 1]

    def stop(self) -> None:
        """Nothing to stop: the cluster is not ours."""
