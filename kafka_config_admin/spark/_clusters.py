"""The clusters a pipeline job talks to, in a form that pickles to Spark's executors.

An ``AdminClient`` cannot travel to an executor (it holds sockets and an event loop), so a
job carries :class:`ClusterTarget` values: a name and the clusters file's
:class:`~kafka_config_admin.desired.Connection`, from which each executor opens its own
client (the SSL context and a ``password_env`` password are made there, on the executor).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import ValidationError

from .. import AdminClient, InvalidArgumentError
from .._client import DEFAULT_TIMEOUT
from ..desired import ClustersFile, Connection, load_clusters_file

__all__ = ["ClusterTarget", "targets_from_options"]


@dataclass(frozen=True)
class ClusterTarget:
    """One cluster of a fleet: its name in the rows, and how to reach it."""

    name: str
    connection: Connection
    #: Seconds one call may take, every retry included.
    timeout: float = DEFAULT_TIMEOUT

    def admin_client(self) -> AdminClient:
        """A new, unopened client for this cluster (open it with ``async with``)."""
        return AdminClient(timeout=self.timeout, **self.connection.admin_client_kwargs())


def fleet(
    clusters: ClustersFile, names: tuple[str, ...] | None = None
) -> tuple[ClusterTarget, ...]:
    """The targets of a clusters file: all its clusters, or the ones named."""
    chosen = names if names is not None else tuple(clusters.clusters)
    unknown = [name for name in chosen if name not in clusters.clusters]
    if unknown:
        raise InvalidArgumentError(
            f"no cluster named {', '.join(unknown)} in the clusters file (known: "
            f"{', '.join(sorted(clusters.clusters))})"
        )
    return tuple(ClusterTarget(name, clusters.clusters[name]) for name in chosen)


def targets_from_options(options: Mapping[str, str]) -> tuple[ClusterTarget, ...]:
    """The clusters named by the options: ``bootstrap.servers`` (one) or ``clusters.file``.

    With ``clusters.file``, ``clusters`` may name some of its clusters (comma-separated).
    One cluster's security settings use Kafka's property names: ``security.protocol``,
    ``sasl.mechanism``, ``sasl.username``, ``sasl.password``, ``ssl.truststore.location``
    (PEM), ``ssl.keystore.location`` (PEM, key and certificate chain).
    """
    timeout = _seconds(options.get("timeout", str(DEFAULT_TIMEOUT)))
    path = options.get("clusters.file")
    if path is not None:
        if options.get("bootstrap.servers"):
            raise InvalidArgumentError("give either bootstrap.servers or clusters.file, not both")
        names = options.get("clusters")
        chosen = None if names is None else tuple(n.strip() for n in names.split(",") if n.strip())
        return tuple(
            ClusterTarget(target.name, target.connection, timeout)
            for target in fleet(load_clusters_file(path), chosen)
        )
    servers = options.get("bootstrap.servers")
    if not servers:
        raise InvalidArgumentError(
            "kafka-configs needs the option bootstrap.servers (one cluster) or clusters.file "
            "(a fleet)"
        )
    settings = {
        "bootstrap_servers": servers,
        "security_protocol": options.get("security.protocol", "PLAINTEXT").upper(),
        "sasl_mechanism": options.get("sasl.mechanism"),
        "username": options.get("sasl.username"),
        "password": options.get("sasl.password"),
        "ssl_ca_location": options.get("ssl.truststore.location"),
        "ssl_certificate_location": options.get("ssl.keystore.location"),
        "ssl_key_location": options.get("ssl.keystore.location"),
    }
    try:
        connection = Connection.model_validate(
            {key: value for key, value in settings.items() if value is not None}
        )
    except ValidationError as error:
        problem = error.errors()[0]
        raise InvalidArgumentError(
            f"kafka-configs connection options: {str(problem['msg']).removeprefix('Value error, ')}"
        ) from None
    return (ClusterTarget(options.get("cluster") or servers, connection, timeout),)


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if seconds <= 0:
        raise InvalidArgumentError(f"timeout must be a positive number of seconds, got {text!r}")
    return seconds
