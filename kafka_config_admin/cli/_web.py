"""``web``: start the web config editor (needs the ``web`` extra)."""

from __future__ import annotations

from pathlib import Path

import click

from ..connect import Connection, clusters_file_path, load_clusters_file
from ._connect import ConnectionOptions, resolve_connection
from ._main import ExitCode, cli
from ._options import connection_options
from ._resources import UsageError


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8080, show_default=True)
@click.option("--allow-writes", is_flag=True, help="Allow changes (read-only without it).")
@click.option(
    "--password-hash-env",
    metavar="VAR",
    help="Log in with the 'user:$argon2id$...' entry in this environment variable.",
)
@click.option(
    "--password-hash-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Log in with the 'user:$argon2id$...' entries of this file (one a line).",
)
@click.option(
    "--trust-proxy-user-header",
    metavar="HEADER",
    help="A reverse proxy authenticates users and names them in this header.",
)
@click.option(
    "--changelog",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The change log's SQLite file [default: ~/.local/share/kafka-config-admin/"
    "changes.sqlite3].",
)
@click.option(
    "--session-minutes",
    type=click.FloatRange(min=1),
    default=30.0,
    show_default=True,
    help="A session ends after this long without a request.",
)
@click.option(
    "--hash-password",
    is_flag=True,
    help="Read a password on standard input, print its argon2 hash for a password entry, exit.",
)
@connection_options
def web(
    host: str,
    port: int,
    allow_writes: bool,
    password_hash_env: str | None,
    password_hash_file: Path | None,
    trust_proxy_user_header: str | None,
    changelog: Path | None,
    session_minutes: float,
    hash_password: bool,
    connection: ConnectionOptions,
) -> int:
    """Start the web config editor at http://HOST:PORT (until Ctrl-C).

    It shows the clusters of the clusters file (or the one --bootstrap-server names). It is
    read-only unless --allow-writes. Bound to an address other than 127.0.0.1 it needs
    authentication: password entries (--password-hash-env/--password-hash-file) or a trusted
    reverse proxy's user header.
    """
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
        auth=auth,
        changelog=changelog or editor.DEFAULT_CHANGELOG.expanduser(),
        session_minutes=session_minutes,
        timeout=connection.timeout,
    )
    problem = settings.problem()
    if problem is not None:
        raise UsageError(problem)
    editor.serve(settings)
    return ExitCode.OK


def _clusters(options: ConnectionOptions) -> dict[str, Connection]:
    """Every cluster of the clusters file, or the one cluster the options name."""
    if options.bootstrap_server is None and options.cluster is None:
        path = clusters_file_path(options.clusters_file)
        if options.command_config is None and path.exists():
            return dict(load_clusters_file(path).clusters)
    connection, label = resolve_connection(options)
    return {label: connection}
