"""``start_cluster``: the one entry point that picks a backend and starts a cluster."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from ._backends import ExternalCluster, reject_options
from ._base import KafkaCluster
from ._container import ContainerCluster
from ._docker import docker_engine_answers
from ._errors import BrokerStartupError, UnsupportedOptionError
from ._jvm import JvmCluster
from ._settings import ENV_BACKEND

#: Backends that start clusters, plus ``auto`` (see :func:`selected_backend`).
BACKENDS = ("jvm", "container", "external", "auto")


def selected_backend(backend: str | None = None) -> str:
    """Return the backend to use: ``backend``, else ``$KAFKA_CONFIG_ADMIN_BACKEND``, else ``jvm``.

    ``auto`` becomes ``container`` when a local Docker engine answers and ``jvm`` otherwise: a
    user who runs an engine and asks for ``auto`` may have no Java or Maven at all. The default
    stays ``jvm``, because an engine running on a machine is no sign that its tests may use it.
    """
    chosen = (backend or os.environ.get(ENV_BACKEND) or "jvm").strip().lower()
    if chosen not in BACKENDS:
        raise ValueError(f"unknown backend {chosen!r}; choose one of {', '.join(BACKENDS)}")
    if chosen == "auto":
        return "container" if docker_engine_answers() else "jvm"
    return chosen


def start_cluster(
    *,
    brokers: int = 1,
    sasl: bool = False,
    policy: bool = False,
    backend: str | None = None,
    extra_properties: Mapping[str, str] | None = None,
    version: str | None = None,
    tls: bool = False,
    controllers: int = 0,
    broker_heap: str | None = None,
) -> KafkaCluster:
    """Start a Kafka cluster and return once every broker answers requests.

    Args:
        brokers: number of KRaft nodes (ids ``1..brokers``); not for the external backend.
        sasl: add a SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256/512) with users ``admin``
            (super user) and ``alice`` (no ACLs), guarded by the StandardAuthorizer.
        policy: install the test AlterConfigPolicy (see :data:`POLICY_RULE`).
        backend: ``"jvm"``, ``"container"``, ``"external"`` or ``"auto"``; default from
            ``$KAFKA_CONFIG_ADMIN_BACKEND``, else ``"jvm"``.
        extra_properties: jvm and container backends: extra ``server.properties`` entries for
            the running brokers (not for storage formatting), e.g. to inject a bad option.
        version: the Kafka release to run, e.g. ``"3.9.1"`` or ``"2.5.1"`` (jvm backend; see
            ``docs/testing.md`` for the generations it starts); default
            ``$KAFKA_CONFIG_ADMIN_KAFKA_VERSION``, else the pinned :data:`KAFKA_VERSION`.
        tls: jvm and container backends, with ``sasl``: add the SSL, MTLS (client certificate
            required) and SASL_SSL (PLAIN, SCRAM, OAUTHBEARER) listeners, with certificates
            made for this cluster (``cluster.tls_files``; see ``docs/security.md``).
        controllers: jvm backend, KRaft releases: 0 (default) runs combined
            ``broker,controller`` nodes; N runs the brokers and a separate quorum of N
            controllers (ids ``1001..1000+N``, ``cluster.bootstrap_controllers``).
        broker_heap: jvm and container backends: each broker's maximum heap as the JVM's
            ``-Xmx`` takes it, e.g. ``"2g"``; default :data:`DEFAULT_BROKER_HEAP` (512m).
            For answers larger than a test broker can build (all configs of 20,000 topics in
            one request need more than 512m). Separate controllers keep their own 256m.

    Raises:
        ValueError: ``broker_heap`` is not a JVM memory size of at least 64m.
        BrokerStartupError: a broker exited early or did not answer before the deadline.
        BackendUnavailableError: the backend cannot run here (no Maven/Java/Docker engine...).
        UnsupportedOptionError: the backend cannot provide a requested option.
        UnsupportedKafkaVersionError: ``version`` is not a release the backend can start.

    The result is also a context manager that stops the cluster on exit.
    """
    chosen = selected_backend(backend)
    if chosen == "external":
        reject_options(chosen, brokers=brokers, sasl=sasl, policy=policy, tls=tls)
        asked = {
            "extra_properties": extra_properties,
            "version": version,
            "controllers": controllers,
            "broker_heap": broker_heap,
        }
        option = next((name for name, value in asked.items() if value), None)
        if option is not None:
            raise UnsupportedOptionError(f"the {chosen} backend does not support {option}")
        return ExternalCluster()
    kind: type[JvmCluster | ContainerCluster] = JvmCluster if chosen == "jvm" else ContainerCluster
    return _start_retrying_taken_port(
        lambda: kind(
            brokers=brokers,
            sasl=sasl,
            policy=policy,
            tls=tls,
            extra_properties=extra_properties,
            version=version,
            controllers=controllers,
            broker_heap=broker_heap,
        )
    )


def _start_retrying_taken_port(
    new_cluster: Callable[[], JvmCluster | ContainerCluster],
) -> JvmCluster | ContainerCluster:
    """Start a cluster, retrying once if a port chosen for it was taken in the meantime."""
    for attempt in (1, 2):
        cluster = new_cluster()
        try:
            cluster.start()
        except BrokerStartupError as error:
            if attempt == 1 and "Address already in use" in error.log_tail:
                continue
            raise
        return cluster
    raise AssertionError("unreachable")
