"""``start_cluster``: the one entry point that picks a backend and starts a cluster."""

from __future__ import annotations

import os
from collections.abc import Mapping

from ._backends import ContainerCluster, ExternalCluster, reject_options
from ._base import KafkaCluster
from ._errors import BrokerStartupError, UnsupportedOptionError
from ._jvm import JvmCluster
from ._settings import ENV_BACKEND

#: The backends a cluster can be started with; ``jvm`` is the default.
BACKENDS = ("jvm", "container", "external")


def selected_backend(backend: str | None = None) -> str:
    """Return ``backend``, else ``$KAFKA_CONFIG_ADMIN_BACKEND``, else ``"jvm"``; validated."""
    chosen = (backend or os.environ.get(ENV_BACKEND) or "jvm").strip().lower()
    if chosen not in BACKENDS:
        raise ValueError(f"unknown backend {chosen!r}; choose one of {', '.join(BACKENDS)}")
    return chosen


def start_cluster(
    *,
    brokers: int = 1,
    sasl: bool = False,
    policy: bool = False,
    backend: str | None = None,
    extra_properties: Mapping[str, str] | None = None,
) -> KafkaCluster:
    """Start a Kafka cluster and return once every broker answers requests.

    Args:
        brokers: number of KRaft nodes (ids ``1..brokers``); jvm backend only when > 1.
        sasl: add a SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256/512) with users ``admin``
            (super user) and ``alice`` (no ACLs), guarded by the StandardAuthorizer.
        policy: install the test AlterConfigPolicy (see :data:`POLICY_RULE`).
        backend: ``"jvm"``, ``"container"`` or ``"external"``; default from
            ``$KAFKA_CONFIG_ADMIN_BACKEND``, else ``"jvm"``.
        extra_properties: jvm backend only: extra ``server.properties`` entries for the running
            brokers (not for storage formatting), e.g. to inject a bad option in a test.

    Raises:
        BrokerStartupError: a broker exited early or did not answer before the deadline.
        BackendUnavailableError: the backend cannot run here (no Maven/Java/Docker engine...).
        UnsupportedOptionError: the backend cannot provide a requested option.

    The result is also a context manager that stops the cluster on exit.
    """
    chosen = selected_backend(backend)
    if chosen != "jvm":
        reject_options(chosen, brokers=brokers, sasl=sasl, policy=policy)
        if extra_properties:
            raise UnsupportedOptionError(f"the {chosen} backend does not support extra_properties")
        return ContainerCluster() if chosen == "container" else ExternalCluster()
    return _start_jvm(brokers=brokers, sasl=sasl, policy=policy, extra=extra_properties)


def _start_jvm(
    *, brokers: int, sasl: bool, policy: bool, extra: Mapping[str, str] | None
) -> JvmCluster:
    """Start a JvmCluster, retrying once if a port chosen for it was taken in the meantime."""
    for attempt in (1, 2):
        cluster = JvmCluster(brokers=brokers, sasl=sasl, policy=policy, extra_properties=extra)
        try:
            cluster.start()
        except BrokerStartupError as error:
            if attempt == 1 and "Address already in use" in error.log_tail:
                continue
            raise
        return cluster
    raise AssertionError("unreachable")
