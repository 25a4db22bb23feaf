"""Which cluster a command talks to: options, environment and the clusters file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .._client import DEFAULT_TIMEOUT
from ..connect import (
    Connection,
    ConnectionConfigError,
    load_clusters_file,
    load_command_config,
)

#: Where the clusters file is looked for when ``--clusters-file`` is not given.
CLUSTERS_FILE_ENV = "KAFKA_CONFIG_ADMIN_CLUSTERS"
DEFAULT_CLUSTERS_FILE = Path("~/.config/kafka-config-admin/clusters.yaml")


@dataclass(frozen=True)
class ConnectionOptions:
    """The connection options of one command line, as given."""

    bootstrap_server: str | None = None
    command_config: Path | None = None
    cluster: str | None = None
    clusters_file: Path | None = None
    timeout: float = DEFAULT_TIMEOUT


def clusters_file_path(given: Path | None) -> Path:
    """The clusters file: the option, else ``$KAFKA_CONFIG_ADMIN_CLUSTERS``, else the default."""
    if given is not None:
        return given
    from_env = os.environ.get(CLUSTERS_FILE_ENV)
    return Path(from_env) if from_env else DEFAULT_CLUSTERS_FILE.expanduser()


def resolve_connection(options: ConnectionOptions) -> tuple[Connection, str]:
    """The connection to use and a label naming the cluster in output.

    ``--cluster NAME`` picks a cluster from the clusters file; ``--bootstrap-server`` (or
    ``KAFKA_BOOTSTRAP_SERVERS``) and ``--command-config`` give one directly. Without either,
    the clusters file's default cluster is used when the file exists.
    """
    if options.cluster is not None and options.command_config is not None:
        raise ConnectionConfigError("give --cluster or --command-config, not both")
    if options.cluster is None and options.bootstrap_server is None:
        path = clusters_file_path(options.clusters_file)
        if options.command_config is None and path.exists():
            return _from_clusters_file(path, None, options.bootstrap_server)
    if options.cluster is not None:
        path = clusters_file_path(options.clusters_file)
        return _from_clusters_file(path, options.cluster, options.bootstrap_server)
    connection = (
        load_command_config(options.command_config)
        if options.command_config is not None
        else Connection()
    )
    servers = options.bootstrap_server or connection.bootstrap_servers
    if not servers:
        raise ConnectionConfigError(
            "no cluster given: use --bootstrap-server HOST:PORT (or KAFKA_BOOTSTRAP_SERVERS), "
            "or --cluster NAME with a clusters file"
        )
    return connection.with_servers(servers), servers


def _from_clusters_file(
    path: Path, name: str | None, servers: str | None
) -> tuple[Connection, str]:
    clusters = load_clusters_file(path)
    connection = clusters.connection(name)
    label = name or clusters.default or next(iter(clusters.clusters))
    if servers is not None:
        connection = connection.with_servers(servers)
    return connection, label
