"""``web``: start the web config editor (needs the ``web`` extra)."""

from __future__ import annotations

from pathlib import Path

import click

from ..connect import Connection, clusters_file_in_use, load_clusters_file
from ._connect import resolve_connection
from ._exit import ExitCode
from ._options import ConnectionOptions
from ._resources import UsageError


def web(
    *,
    host: str,
    port: int,
    allow_writes: bool,
    allowed_hosts: tuple[str, ...],
    password_hash_env: str | None,
    password_hash_file: Path | None,
    trust_proxy_user_header: str | None,
    journal: Path | None,
    live_interval: float,
    live_max_per_poll: int | None,
    session_minutes: float,
    hash_password: bool,
    connection: ConnectionOptions,
) -> int:
    """The ``web`` command's work (its options and help: :mod:`._commands`)."""
    try:
        from .. import web as editor
    except ModuleNotFoundError as missing:
        raise click.ClickException(
            f"{missing.name} is missing: pip install 'kafka-config-admin[web]'"
        ) from None
    if hash_password:
        password = click.prompt("password", hide_input=True, err=True)
        click.echo(editor.hash_password(password))
        return ExitCode.OK
    if trust_proxy_user_header and (password_hash_env or password_hash_file):
        raise UsageError("give passwords or --trust-proxy-user-header, not both")
    auth: editor.Authenticator | None = None
    if trust_proxy_user_header:
        auth = editor.ProxyUserHeader(trust_proxy_user_header)
    elif password_hash_env or password_hash_file:
        auth = editor.load_password_entries(env=password_hash_env, file=password_hash_file)
    settings = editor.WebSettings(
        clusters=_clusters(connection),
        allow_writes=allow_writes,
        host=host,
        port=port,
        allowed_hosts=allowed_hosts,
        auth=auth,
        journal=journal,
        live_interval=live_interval,
        live_max_per_poll=live_max_per_poll,
        session_minutes=session_minutes,
        timeout=connection.timeout,
    )
    problem = settings.problem()
    if problem is not None:
        raise UsageError(problem)
    editor.serve(settings)
    return ExitCode.OK


def _clusters(options: ConnectionOptions) -> dict[str, Connection]:
    """Every cluster of the clusters file, or the one cluster the options name: the order of
    :func:`~kafka_config_admin.connect.resolve_connection`, with the whole file in its place."""
    if (
        options.bootstrap_server is None
        and options.bootstrap_controller is None
        and options.cluster is None
    ):
        path = (
            None
            if options.command_config is not None
            else clusters_file_in_use(options.clusters_file)
        )
        if path is not None:
            return dict(load_clusters_file(path).clusters)
    connection, label = resolve_connection(options)
    return {label: connection}
