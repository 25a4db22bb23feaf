"""Exceptions raised by the test-broker harness."""

from __future__ import annotations


class KafkaHarnessError(RuntimeError):
    """Base class for every error raised by :mod:`kafka_config_admin.testing`."""


class BrokerStartupError(KafkaHarnessError):
    """A broker did not come up: it exited early, timed out, or its storage could not be formatted.

    The message ends with the tail of the broker's log so the cause is visible in test output.
    """

    def __init__(self, message: str, *, node_id: int | None = None, log_tail: str = "") -> None:
        text = message if not log_tail else f"{message}\n--- broker log tail ---\n{log_tail}"
        super().__init__(text)
        self.node_id = node_id
        self.log_tail = log_tail


class BackendUnavailableError(KafkaHarnessError):
    """The chosen backend cannot run here (no Docker engine, no Maven, no bootstrap address...)."""


class UnsupportedOptionError(KafkaHarnessError):
    """The chosen backend cannot offer a requested cluster option (sasl, policy, brokers > 1...)."""


class UnsupportedKafkaVersionError(KafkaHarnessError):
    """The harness cannot start the Kafka release asked for (not a release number, too old, or
    a backend that runs only the pinned release)."""
