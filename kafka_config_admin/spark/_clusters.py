"""The clusters a pipeline job talks to, in a form that pickles to Spark's executors.

An ``AdminClient`` cannot travel to an executor (it holds sockets and an event loop), so a
job carries :class:`ClusterTarget` values and each executor opens its own client from one.
An SSL context does not pickle either: a target keeps the PEM file paths and builds the
context where the client is opened.
"""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from .._client import AdminClient, SaslMechanism, SecurityProtocol
from .._exceptions import InvalidArgumentError

__all__ = ["ClusterTarget"]

_PROTOCOLS: tuple[str, ...] = get_args(SecurityProtocol)
_MECHANISMS: tuple[str, ...] = get_args(SaslMechanism)


@dataclass(frozen=True)
class ClusterTarget:
    """One cluster of a fleet: its name in the rows, where it is, and how to log in."""

    name: str
    bootstrap_servers: str
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str = "PLAIN"
    sasl_username: str | None = None
    sasl_password: str | None = field(default=None, repr=False)
    ssl_cafile: str | None = None
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None
    timeout: float = 30.0

    def __post_init__(self) -> None:
        if not self.name:
            raise InvalidArgumentError("a cluster needs a non-empty name")
        if not self.bootstrap_servers.strip():
            raise InvalidArgumentError(f"cluster {self.name!r} has no bootstrap servers")
        if self.security_protocol not in _PROTOCOLS:
            raise InvalidArgumentError(
                f"cluster {self.name!r}: security protocol {self.security_protocol!r} is not "
                f"one of {', '.join(_PROTOCOLS)}"
            )
        if self.sasl_mechanism not in _MECHANISMS:
            raise InvalidArgumentError(
                f"cluster {self.name!r}: SASL mechanism {self.sasl_mechanism!r} is not one of "
                f"{', '.join(_MECHANISMS)}"
            )

    @classmethod
    def from_options(cls, options: Mapping[str, str], *, name: str | None = None) -> ClusterTarget:
        """A target from data source options in Kafka's own property names."""
        servers = options.get("bootstrap.servers")
        if not servers:
            raise InvalidArgumentError(
                "kafka-configs needs the option bootstrap.servers (one cluster) or "
                "clusters.file (a fleet)"
            )
        return cls(
            name=name or options.get("cluster") or servers,
            bootstrap_servers=servers,
            security_protocol=options.get("security.protocol", "PLAINTEXT").upper(),
            sasl_mechanism=options.get("sasl.mechanism", "PLAIN").upper(),
            sasl_username=options.get("sasl.username"),
            sasl_password=options.get("sasl.password"),
            ssl_cafile=options.get("ssl.cafile"),
            ssl_certfile=options.get("ssl.certfile"),
            ssl_keyfile=options.get("ssl.keyfile"),
            timeout=_seconds(options.get("timeout", "30")),
        )

    def as_options(self) -> dict[str, str]:
        """This target in the data source's option names (see :meth:`from_options`)."""
        options = {
            "name": self.name,
            "bootstrap.servers": self.bootstrap_servers,
            "security.protocol": self.security_protocol,
            "sasl.mechanism": self.sasl_mechanism,
            "sasl.username": self.sasl_username,
            "sasl.password": self.sasl_password,
            "ssl.cafile": self.ssl_cafile,
            "ssl.certfile": self.ssl_certfile,
            "ssl.keyfile": self.ssl_keyfile,
            "timeout": repr(self.timeout),
        }
        return {key: value for key, value in options.items() if value is not None}

    def connection_options(self) -> dict[str, Any]:
        """Keyword arguments of :class:`AdminClient` (and aiokafka's clients) for this target."""
        return {
            "security_protocol": self.security_protocol,
            "sasl_mechanism": self.sasl_mechanism,
            "sasl_plain_username": self.sasl_username,
            "sasl_plain_password": self.sasl_password,
            "ssl_context": self._ssl_context(),
        }

    def admin_client(self) -> AdminClient:
        """A new, unopened client for this cluster (open it with ``async with``)."""
        return AdminClient(
            self.bootstrap_servers, timeout=self.timeout, **self.connection_options()
        )

    def _ssl_context(self) -> ssl.SSLContext | None:
        if not self.security_protocol.endswith("SSL"):
            return None
        context = ssl.create_default_context(cafile=self.ssl_cafile)
        if self.ssl_certfile:
            context.load_cert_chain(self.ssl_certfile, self.ssl_keyfile)
        return context


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if seconds <= 0:
        raise InvalidArgumentError(f"timeout must be a positive number of seconds, got {text!r}")
    return seconds
