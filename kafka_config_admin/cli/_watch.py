"""``watch``: print config changes as they happen, on one cluster or a whole clusters file.

The same poll and diff as the Spark ``kafka-config-changes`` stream
(:func:`~kafka_config_admin.desired.observe_once`, :func:`~kafka_config_admin.desired.next_state`,
:func:`~kafka_config_admin.desired.diff_states`), with the states kept in memory.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

import anyio
import click
from rich.text import Text

from .. import AdminClient
from ..connect import Connection, clusters_file_path, load_clusters_file
from ..desired import (
    ChangeKind,
    ObservedState,
    PatternTimeoutError,
    ResourceKind,
    ResourceScope,
    StateChange,
    UserPattern,
    diff_states,
    next_state,
    observe_once,
)
from ._connect import resolve_connection
from ._options import ConnectionOptions, OutputFormat
from ._output import stderr, stdout
from ._resources import UsageError
from ._running import run

_CLIENT_ID = "kafka-config-admin-watch"
_STYLES = {
    ChangeKind.ADDED: "green",
    ChangeKind.REMOVED: "red",
    ChangeKind.CHANGED: "yellow",
    ChangeKind.ERROR: "bold red",
}


def _client(connection: Connection) -> AdminClient:
    return AdminClient(
        timeout=connection.timeout, client_id=_CLIENT_ID, **connection.admin_client_kwargs()
    )


def watch(
    *,
    kinds: tuple[str, ...],
    topics: tuple[str, ...],
    match: str | None,
    include_internal: bool,
    brokers: tuple[str, ...],
    client_metrics: tuple[str, ...],
    all_clusters: bool,
    interval: float,
    output: OutputFormat,
    connection: ConnectionOptions,
) -> int:
    """The ``watch`` command's work (its options and help: :mod:`._commands`)."""
    if topics and match is not None:
        raise UsageError("give --topic or --match, not both")
    scope = ResourceScope(
        kinds=tuple(dict.fromkeys(ResourceKind.parse(kind, where="--type ") for kind in kinds))
        or (ResourceKind.TOPIC,),
        topics=topics or None,
        topic_pattern=None if match is None else UserPattern(match, "--match"),
        include_internal=include_internal,
        brokers=brokers or None,
        client_metrics=client_metrics or None,
    )
    watched = _watched(connection, all_clusters)
    names = ", ".join(target.label for target in watched)
    what = ", ".join(kind.value for kind in scope.kinds)
    stderr.print(f"watching {what} on {names} every {interval:g}s; Ctrl-C to stop", markup=False)
    return run(lambda: _watch(watched, scope, interval, output))


def _watched(options: ConnectionOptions, all_clusters: bool) -> tuple[Connection, ...]:
    if not all_clusters:
        connection, _ = resolve_connection(options)
        return (connection,)
    if options.cluster is not None or options.bootstrap_server is not None:
        raise UsageError("--all-clusters watches the clusters file: leave out --cluster and -b")
    fleet = load_clusters_file(clusters_file_path(options.clusters_file)).fleet()
    if options.timeout is None:
        return fleet
    return tuple(cluster.model_copy(update={"timeout": options.timeout}) for cluster in fleet)


async def _watch(
    watched: Sequence[Connection], scope: ResourceScope, interval: float, output: OutputFormat
) -> int:
    states: dict[str, ObservedState | None] = {target.label: None for target in watched}
    while True:
        started = anyio.current_time()
        observed = await _poll(watched, scope)
        for target in watched:
            before = states[target.label]
            after = next_state(before, observed[target.label])
            for change in diff_states(before, after):
                _print(change, output)
            if before is None and after.error is None:
                count = len(after.resources)
                stderr.print(f"{target.label}: baseline of {count} resources", markup=False)
            states[target.label] = after
        await anyio.sleep(max(0.0, interval - (anyio.current_time() - started)))


async def _poll(watched: Sequence[Connection], scope: ResourceScope) -> dict[str, ObservedState]:
    """Read every cluster at once, with one time for the whole poll."""
    time = datetime.now(UTC)
    observed: dict[str, ObservedState] = {}
    refused: list[PatternTimeoutError] = []

    async def poll(target: Connection) -> None:
        try:
            state = await observe_once(_client(target), scope, target.label, time=time)
        except PatternTimeoutError as error:  # --match is at fault: no poll could succeed
            refused.append(error)
        else:
            observed[target.label] = state

    async with anyio.create_task_group() as group:
        for target in watched:
            group.start_soon(poll, target)
    if refused:
        raise refused[0]
    return observed


def _print(change: StateChange, output: OutputFormat) -> None:
    if output is OutputFormat.JSON:
        click.echo(json.dumps(change.to_dict()))
        return
    stdout.print(_line(change), soft_wrap=True)


def _line(change: StateChange) -> Text:
    """``18:40:02 main topic 'orders' retention.ms added 604800000 -> 3600000 (TOPIC_CONFIG)``."""
    line = Text(f"{change.detected_time.astimezone():%H:%M:%S} {change.cluster} ")
    if change.resource_type is not None:
        name = "" if change.resource_name is None else f" {change.resource_name!r}"
        line.append(f"{change.resource_type.lower()}{name} ")
    if change.key is not None:
        line.append(f"{change.key} ", style="bold")
    line.append(change.change.value, style=_STYLES[change.change])
    if change.change is ChangeKind.ERROR:
        line.append(f" {change.error}: {change.error_message}")
        return line
    if change.key is None:
        return line
    before = _shown(change.before_value, change.before_source)
    after = _shown(change.after_value, change.after_source)
    line.append(f" {before} -> {after}")
    return line


def _shown(value: str | None, source: str | None) -> str:
    if source is None:
        return "(absent)"
    return f"{'-' if value is None else value} ({source})"
