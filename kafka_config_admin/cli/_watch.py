"""``watch``: print config changes as they happen, on one cluster or a whole clusters file.

The same poll and diff as the Spark ``kafka-config-changes`` stream
(:func:`~kafka_config_admin.feed.observe_once`, :func:`~kafka_config_admin.feed.next_state`,
:func:`~kafka_config_admin.feed.diff_states`), with the states kept in memory.

Every cluster is checked before the first poll (a bad address or setting is one line and exit
code 2), then followed in a loop of its own: a cluster that hangs delays no other cluster's
lines. Changes go to stdout, errors to stderr. A single cluster that cannot be read at its
first poll ends the command at once (exit code 1), and one that stops answering ends it after
:data:`FAILED_POLLS` failed polls in a row, unless ``--keep-going``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import anyio
import click
from rich.text import Text

from .. import AdminClient, InvalidArgumentError
from ..connect import Connection, clusters_file_path, load_clusters_file
from ..feed import (
    ChangeKind,
    ObservedState,
    PollCost,
    ReadRotation,
    StateChange,
    diff_states,
    next_state,
    observe_once,
)
from ..state import PatternTimeoutError, ResourceKind, ResourceScope, UserPattern
from ..toolkit import error_line
from ._connect import resolve_connection
from ._options import ConnectionOptions, OutputFormat
from ._output import stderr, stdout
from ._resources import UsageError
from ._running import run

_CLIENT_ID = "kafka-config-admin-watch"
#: Failed polls in a row after which ``watch`` of a single cluster gives up (no --keep-going).
FAILED_POLLS = 5
_STYLES = {
    ChangeKind.ADDED: "green",
    ChangeKind.REMOVED: "red",
    ChangeKind.CHANGED: "yellow",
    ChangeKind.ERROR: "bold red",
}


@dataclass(frozen=True)
class _Target:
    """A cluster to follow: its name in the lines, and how to make a client for one poll."""

    label: str
    client: Callable[[], AdminClient]


@dataclass(frozen=True)
class _Plan:
    """What every cluster's loop shares: what to read, how often, how to print, when to stop."""

    scope: ResourceScope
    interval: float
    output: OutputFormat
    give_up: bool
    broker_gone_after: float
    stats: bool = False
    max_per_poll: int | None = None


def _client(connection: Connection) -> AdminClient:
    return AdminClient(
        timeout=connection.timeout, client_id=_CLIENT_ID, **connection.admin_client_kwargs()
    )


def _checked(connection: Connection) -> _Target:
    """The cluster to follow, its address and settings checked now (exit code 2 if wrong)."""
    try:
        _client(connection)
    except InvalidArgumentError as error:
        raise UsageError(f"cluster {connection.label}: {error_line(error)}") from None
    return _Target(connection.label, partial(_client, connection))


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
    keep_going: bool,
    broker_gone_after: float,
    max_per_poll: int | None,
    stats: bool,
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
    watched = [_checked(target) for target in _watched(connection, all_clusters)]
    names = ", ".join(target.label for target in watched)
    what = ", ".join(kind.value for kind in scope.kinds)
    stderr.print(f"watching {what} on {names} every {interval:g}s; Ctrl-C to stop", markup=False)
    plan = _Plan(
        scope,
        interval,
        output,
        len(watched) == 1 and not keep_going,
        broker_gone_after,
        stats,
        max_per_poll,
    )
    return run(lambda: _watch(watched, plan))


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


async def _watch(watched: Sequence[_Target], plan: _Plan) -> int:
    """Follow every cluster in a loop of its own until Ctrl-C, or until one gives up."""
    ended: list[BaseException] = []
    async with anyio.create_task_group() as group:

        def end(error: BaseException) -> None:
            ended.append(error)
            group.cancel_scope.cancel()

        for target in watched:
            group.start_soon(_follow, target, plan, end)
    raise ended[0]  # the loops end only so


async def _follow(target: _Target, plan: _Plan, end: Callable[[BaseException], None]) -> None:
    """Poll one cluster every interval and print what changed; ``end`` the watch when its
    ``--match`` is at fault, or (``plan.give_up``) when the cluster cannot be read."""
    state: ObservedState | None = None
    failed = 0
    rotation = None if plan.max_per_poll is None else ReadRotation(plan.max_per_poll)
    while True:
        started = anyio.current_time()
        clients: list[AdminClient] = []  # the poll's client, for --stats
        try:
            observed = await observe_once(
                partial(_kept, target.client, clients),
                plan.scope,
                target.label,
                rotation=rotation,
                before=state,
            )
        except PatternTimeoutError as error:  # --match is at fault: no poll could succeed
            end(error)
            return
        if plan.stats:
            seconds = anyio.current_time() - started
            _print_cost(target.label, PollCost.measure(observed, rotation, clients, seconds))
        after = next_state(state, observed, broker_gone_after=plan.broker_gone_after)
        failed = 0 if observed.error is None else failed + 1
        if (
            plan.give_up
            and observed.error is not None
            and (not after.known or failed >= FAILED_POLLS)
        ):
            end(_gave_up(target.label, observed.error, failed, after.known))
            return
        for change in diff_states(state, after):
            _print(change, plan.output)
        if (state is None or not state.known) and after.error is None:
            count = len(after.resources)
            stderr.print(f"{target.label}: baseline of {count} resources", markup=False)
        state = after
        await anyio.sleep(max(0.0, plan.interval - (anyio.current_time() - started)))


def _kept(make: Callable[[], AdminClient], clients: list[AdminClient]) -> AdminClient:
    """A client from ``make``, kept in ``clients`` so that its traffic can be read after."""
    clients.append(make())
    return clients[-1]


def _print_cost(label: str, cost: PollCost) -> None:
    """``--stats``: what one poll cost, on stderr (the changes stay a clean stream)."""
    stderr.print(
        f"{label}: poll {cost.seconds:.2f}s, {cost.requests} requests, "
        f"{cost.bytes_received:,} bytes received, {cost.resources_read} resources read",
        markup=False,
    )


def _gave_up(label: str, error: tuple[str, str], failed: int, known: bool) -> click.ClickException:
    """Why ``watch`` of a single cluster ends (exit code 1)."""
    kind, message = error
    when = f"{failed} polls in a row" if known else "its first poll"
    return click.ClickException(
        f"cluster {label} could not be read at {when}: {kind}: {message} "
        "(--keep-going waits for it)"
    )


def _print(change: StateChange, output: OutputFormat) -> None:
    """A change on stdout; an error on stderr, so that the changes stay a clean stream."""
    failed = change.change is ChangeKind.ERROR
    if output is OutputFormat.JSON:
        click.echo(json.dumps(change.to_dict()), err=failed)
        return
    (stderr if failed else stdout).print(_line(change), soft_wrap=True)


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
