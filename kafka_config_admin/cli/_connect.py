"""The command line's connection options, resolved by :mod:`kafka_config_admin.connect`."""

from __future__ import annotations

from .. import connect
from ._options import ConnectionOptions


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
        bootstrap_controllers=options.bootstrap_controller,
    )
    return connection, connection.label
