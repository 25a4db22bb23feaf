"""The ``external`` backend: a cluster someone else runs.

It cannot add brokers, SASL or the test policy on demand, so asking for one of those options
raises :class:`UnsupportedOptionError` naming the option.
"""

from __future__ import annotations

import os

from ._base import KafkaCluster
from ._errors import BackendUnavailableError, UnsupportedOptionError
from ._settings import ENV_EXTERNAL_BOOTSTRAP


def reject_options(
    backend: str, *, brokers: int, sasl: bool, policy: bool, tls: bool = False
) -> None:
    """Raise if a single-broker backend was asked for something it cannot provide."""
    unsupported = [
        name
        for name, wanted in (
            ("brokers>1", brokers > 1),
            ("sasl", sasl),
            ("policy", policy),
            ("tls", tls),
        )
        if wanted
    ]
    if unsupported:
        raise UnsupportedOptionError(
            f"the {backend} backend does not support {', '.join(unsupported)}; "
            "use the jvm or container backend for these options"
        )


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
        self.controller_ids = []
        self.sasl = False
        self.policy = False
        self.kafka_version = None

    def bootstrap_for(self, node_id: int) -> str:
        """The ``node_id``-th address of ``KAFKA_BOOTSTRAP_SERVERS`` (1-based)."""
        return self._addresses[node_id - 1]

    def stop(self) -> None:
        """Nothing to stop: the cluster is not ours."""
