"""Constants and environment variables shared by the harness modules."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: The Apache Kafka release the JVM backend runs. Pinned in this one place.
KAFKA_VERSION = "4.4.0"
#: Scala build of the ``kafka`` artifact on Maven Central.
SCALA_VERSION = "2.13"

#: Chooses the backend: ``jvm`` (default), ``container`` or ``external``.
ENV_BACKEND = "KAFKA_CONFIG_ADMIN_BACKEND"
#: Overrides the cache root (default ``$XDG_CACHE_HOME/kafka-config-admin`` or ``~/.cache/...``).
ENV_CACHE_DIR = "KAFKA_CONFIG_ADMIN_CACHE_DIR"
#: Overrides the pinned Kafka version (for trying another release; not needed normally).
ENV_KAFKA_VERSION = "KAFKA_CONFIG_ADMIN_KAFKA_VERSION"
#: Points at an existing directory of broker jars (e.g. an unpacked distribution's ``libs``).
ENV_KAFKA_LIBS = "KAFKA_CONFIG_ADMIN_KAFKA_LIBS"
#: Overall startup deadline in seconds (default 120).
ENV_STARTUP_TIMEOUT = "KAFKA_CONFIG_ADMIN_STARTUP_TIMEOUT"
#: When set to ``1``, node directories (logs, data) are kept after the cluster stops.
ENV_KEEP_DIRS = "KAFKA_CONFIG_ADMIN_KEEP_DIRS"
#: Bootstrap address used by the ``external`` backend.
ENV_EXTERNAL_BOOTSTRAP = "KAFKA_BOOTSTRAP_SERVERS"

DEFAULT_STARTUP_TIMEOUT = 120.0

#: The rule enforced by the AlterConfigPolicy installed when ``policy=True``.
POLICY_CLASS = "io.kafkaconfigadmin.testing.MinRetentionAlterConfigPolicy"
#: The smallest topic ``retention.ms`` the policy accepts (``-1``, infinite, is accepted too).
POLICY_MIN_RETENTION_MS = 60_000
#: The rule the policy enforces, in words.
POLICY_RULE = (
    "AlterConfigs/IncrementalAlterConfigs on a TOPIC are rejected with POLICY_VIOLATION (44) "
    f"when the resulting retention.ms is below {POLICY_MIN_RETENTION_MS} (60 s); "
    "-1 (infinite) and every other key or resource type are accepted."
)


@dataclass(frozen=True)
class SaslUser:
    """A SASL user known to the cluster (valid for PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512)."""

    username: str
    password: str


#: Super user on the SASL listener.
ADMIN_USER = SaslUser("admin", "admin-secret")
#: Unprivileged user: authenticates, but has no ACLs, so every request is refused.
ALICE_USER = SaslUser("alice", "alice-secret")
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")


def kafka_version() -> str:
    """Return the Kafka version to run: the pinned one unless overridden by the environment."""
    return os.environ.get(ENV_KAFKA_VERSION) or KAFKA_VERSION


def cache_root() -> Path:
    """Return the directory holding resolved jars and compiled policy classes."""
    override = os.environ.get(ENV_CACHE_DIR)
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "kafka-config-admin"


def startup_timeout() -> float:
    """Return the overall startup deadline, in seconds."""
    raw = os.environ.get(ENV_STARTUP_TIMEOUT)
    return float(raw) if raw else DEFAULT_STARTUP_TIMEOUT


def keep_dirs() -> bool:
    """Whether node directories should survive :meth:`KafkaCluster.stop` (for debugging)."""
    return os.environ.get(ENV_KEEP_DIRS, "") in {"1", "true", "yes"}
