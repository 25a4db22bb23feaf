"""Real Apache Kafka (KRaft) brokers for tests, started by the project itself.

Typical use::

    from kafka_config_admin.testing import start_cluster

    with start_cluster(brokers=3, sasl=True, policy=True) as cluster:
        print(cluster.bootstrap_servers)

The pytest plugin (:mod:`kafka_config_admin.testing.plugin`) offers the same cluster as the
session fixtures ``kafka_cluster`` and ``kafka_bootstrap``. See ``docs/testing.md``.
"""

from __future__ import annotations

from ._base import KafkaCluster
from ._cluster import BACKENDS, selected_backend, start_cluster
from ._container import ContainerCluster
from ._docker import docker_engine_answers, live_container_ids
from ._errors import (
    BackendUnavailableError,
    BrokerStartupError,
    KafkaHarnessError,
    UnsupportedKafkaVersionError,
    UnsupportedOptionError,
)
from ._image import build_broker_image
from ._jvm import JvmCluster
from ._process import DEFAULT_BROKER_HEAP, live_pids
from ._settings import (
    ADMIN_USER,
    ALICE_USER,
    KAFKA_VERSION,
    POLICY_CLASS,
    POLICY_MIN_RETENTION_MS,
    POLICY_RULE,
    SaslUser,
)
from ._tls import TLS_LISTENERS, TlsFiles, TlsListener, new_broker_keystore, unsecured_jwt

__all__ = [
    "ADMIN_USER",
    "ALICE_USER",
    "BACKENDS",
    "DEFAULT_BROKER_HEAP",
    "KAFKA_VERSION",
    "POLICY_CLASS",
    "POLICY_MIN_RETENTION_MS",
    "POLICY_RULE",
    "TLS_LISTENERS",
    "BackendUnavailableError",
    "BrokerStartupError",
    "ContainerCluster",
    "JvmCluster",
    "KafkaCluster",
    "KafkaHarnessError",
    "SaslUser",
    "TlsFiles",
    "TlsListener",
    "UnsupportedKafkaVersionError",
    "UnsupportedOptionError",
    "build_broker_image",
    "docker_engine_answers",
    "live_container_ids",
    "live_pids",
    "new_broker_keystore",
    "selected_backend",
    "start_cluster",
    "unsecured_jwt",
]
