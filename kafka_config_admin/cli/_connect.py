"""The command line's connection options, resolved by :mod:`kafka_config_admin.connect`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import connect


@dataclass(frozen=True)
class ConnectionOptions:
    """The connection options of one command line, as given."""

    bootstrap_server: str | None = None
    command_config: Path | None = None
    cluster: str | None = None
    clusters_file: Path | None = None
    #: None: the clusters file's timeout for the cluster, else the SDK's default.
    timeout: float | None = None


def resolve_connection(options: ConnectionOptions) -> tuple[connect.Connection, str]:
    """The connection to use and a label naming the cluster in output.

    The rule (a cluster of the clusters file, else servers and a command config) is
    :func:`kafka_config_admin.connect.resolve_connection`'s.
    """
    connection = connect.resolve_connection(
        cluster=options.cluster,
        bootstrap_servers=options.bootstrap_server,
        command_config=options.command_config,
        clusters_file=options.clusters_file,
        timeout=options.timeout,
    )
    return connection, connection.label
