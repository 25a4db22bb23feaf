"""The backend-independent face of a running test cluster."""

from __future__ import annotations

import abc
from contextlib import AbstractContextManager
from types import TracebackType

from ._errors import UnsupportedOptionError
from ._settings import ADMIN_USER, ALICE_USER, POLICY_RULE, SaslUser
from ._tls import TLS_LISTENERS, TlsFiles, TlsListener


class KafkaCluster(abc.ABC):
    """A running Kafka cluster for tests; stop it with :meth:`stop` or use it as a context manager.

    Attributes:
        backend: ``"jvm"``, ``"container"`` or ``"external"``.
        broker_ids: node ids of the brokers, ``1..N`` for the jvm and container backends.
        controller_ids: node ids of a separate controller quorum (``controllers=N``, jvm
            backend: ``1001..1000+N``); empty when every node is a combined broker and
            controller.
        sasl: whether the SASL_PLAINTEXT listener (and the authorizer) is enabled.
        policy: whether the test AlterConfigPolicy is installed.
        kafka_version: the Kafka release the brokers run, e.g. ``"4.4.0"``; ``None`` for the
            external backend, which cannot know it.
        tls_files: with ``tls=True``, the CA, client certificate and key the TLS listeners
            need (:class:`TlsFiles`); ``None`` otherwise.
    """

    backend: str
    broker_ids: list[int]
    controller_ids: list[int]
    sasl: bool
    policy: bool
    kafka_version: str | None
    tls_files: TlsFiles | None = None

    # -- addresses ---------------------------------------------------------------------------
    @property
    def bootstrap_servers(self) -> str:
        """Comma-separated ``host:port`` of every PLAINTEXT listener (ANONYMOUS is super user)."""
        return ",".join(self.bootstrap_for(node_id) for node_id in self.broker_ids)

    @property
    def sasl_bootstrap_servers(self) -> str | None:
        """Comma-separated SASL_PLAINTEXT addresses, or ``None`` without ``sasl=True``."""
        if not self.sasl:
            return None
        return ",".join(self.sasl_bootstrap_for(node_id) for node_id in self.broker_ids)

    @abc.abstractmethod
    def bootstrap_for(self, node_id: int) -> str:
        """The PLAINTEXT ``host:port`` of one broker."""

    @property
    def quorum_ids(self) -> list[int]:
        """The node ids of the KRaft controller quorum: the separate controllers, else every
        (combined) node."""
        return self.controller_ids or self.broker_ids

    @property
    def bootstrap_controllers(self) -> str:
        """Comma-separated PLAINTEXT ``host:port`` of every controller's CONTROLLER listener:
        what ``--bootstrap-controller`` and ``AdminClient(bootstrap_controllers=...)`` take."""
        return ",".join(self.controller_bootstrap_for(node_id) for node_id in self.quorum_ids)

    def controller_bootstrap_for(self, node_id: int) -> str:
        """The CONTROLLER ``host:port`` of one quorum node."""
        raise UnsupportedOptionError(f"the {self.backend} backend has no controller listener")

    def sasl_bootstrap_for(self, node_id: int) -> str:
        """The SASL_PLAINTEXT ``host:port`` of one broker."""
        raise UnsupportedOptionError(f"the {self.backend} backend has no SASL listener")

    def tls_bootstrap_servers(self, listener: TlsListener) -> str:
        """Comma-separated addresses of a TLS listener: ``SSL``, ``MTLS`` or ``SASL_SSL``."""
        if listener not in TLS_LISTENERS:
            raise ValueError(f"no TLS listener {listener!r}; they are {', '.join(TLS_LISTENERS)}")
        return ",".join(self.tls_bootstrap_for(node_id, listener) for node_id in self.broker_ids)

    def tls_bootstrap_for(self, node_id: int, listener: TlsListener) -> str:
        """The ``host:port`` of one broker's TLS ``listener`` (a cluster started with TLS)."""
        raise UnsupportedOptionError(f"this {self.backend} cluster has no TLS listeners")

    # -- users and policy --------------------------------------------------------------------
    @property
    def admin_user(self) -> SaslUser | None:
        """The SASL super user, or ``None`` without ``sasl=True``."""
        return ADMIN_USER if self.sasl else None

    @property
    def alice_user(self) -> SaslUser | None:
        """The unprivileged SASL user (no ACLs: refused), or ``None`` without ``sasl=True``."""
        return ALICE_USER if self.sasl else None

    @property
    def users(self) -> dict[str, SaslUser]:
        """SASL users by name (empty without ``sasl=True``)."""
        return {user.username: user for user in (ADMIN_USER, ALICE_USER)} if self.sasl else {}

    @property
    def policy_rule(self) -> str | None:
        """Human-readable rule of the installed AlterConfigPolicy, or ``None`` if none."""
        return POLICY_RULE if self.policy else None

    # -- lifecycle ---------------------------------------------------------------------------
    def log_tail(self, node_id: int, lines: int = 60) -> str:
        """The last ``lines`` lines of a broker's log ('' when the backend has no access)."""
        del node_id, lines
        return ""

    def server_log(self, node_id: int) -> str:
        """Everything one broker has logged since the cluster started, restarts included.

        For what only a broker's log tells, such as which node leads the KRaft quorum.
        """
        raise UnsupportedOptionError(f"the {self.backend} backend cannot read broker logs")

    def stop_broker(self, node_id: int) -> None:
        """Stop one broker (SIGTERM, then SIGKILL after a grace period)."""
        raise UnsupportedOptionError(f"the {self.backend} backend cannot stop single brokers")

    def kill_broker(self, node_id: int) -> None:
        """Kill one broker with SIGKILL: no controlled shutdown, what a crash looks like.

        :meth:`start_broker` brings it back on its old ports and data.
        """
        raise UnsupportedOptionError(f"the {self.backend} backend cannot kill single brokers")

    def start_broker(self, node_id: int) -> None:
        """Start a broker stopped with :meth:`stop_broker` and wait until it answers."""
        raise UnsupportedOptionError(f"the {self.backend} backend cannot start single brokers")

    def paused_broker(self, node_id: int) -> AbstractContextManager[None]:
        """Freeze one broker for a ``with`` block: its connections stay open, nothing answers.

        What a client sees of a broker stuck in a long GC pause or on a hung disk.
        """
        raise UnsupportedOptionError(f"the {self.backend} backend cannot pause brokers")

    @abc.abstractmethod
    def stop(self) -> None:
        """Stop every broker and release resources. Safe to call twice."""

    def __enter__(self) -> KafkaCluster:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} backend={self.backend} brokers={self.broker_ids} "
            f"bootstrap={self.bootstrap_servers!r} sasl={self.sasl} policy={self.policy}>"
        )
