"""``alter``: incremental changes, checked by type, shown, confirmed, then sent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

from rich.table import Table

from .. import AlterConfigOp, AlterConfigsResult, ConfigResource, OpType, ResourceType
from ..desired import ClusterState, check_ops, describe_state
from ._entities import quota_changes
from ._main import ExitCode
from ._options import ConnectionOptions
from ._output import HIDDEN, failures_lines, print_refusals, print_table, resource_title, stderr
from ._progress import settle
from ._quotas import alter_quotas
from ._resources import Selection, UsageError
from ._running import confirmed, open_client, run
from ._selection import selected_resources

#: The cluster default lists only the keys set on it: a broker's describe tells its keys.
_CLUSTER_DEFAULT = ConfigResource(ResourceType.BROKER, "")


def alter(
    *,
    selection: Selection,
    ops: list[AlterConfigOp],
    dry_run: bool,
    yes: bool,
    connection: ConnectionOptions,
) -> int:
    """The ``alter`` command's work (its options and help: :mod:`._commands`)."""
    if selection.empty:
        raise UsageError("name at least one resource to alter (or --match REGEX)")
    if selection.every_node:
        raise UsageError(
            "name the broker to alter (--entity-name ID), or --entity-default for the cluster "
            "default: an alter never applies to every node at once"
        )
    if not ops:
        raise UsageError("nothing to change: give --set, --delete, --append or --subtract")
    if selection.quota is not None:
        changes = quota_changes(selection.quota, ops)
        admin, label = open_client(connection)
        return alter_quotas(admin, label, selection.quota, changes, dry_run=dry_run, yes=yes)
    admin, label = open_client(connection)

    async def work() -> int:
        async with admin:
            resources = await selected_resources(admin, selection)
            if not resources:
                stderr.print("no resources match: nothing to do")
                return ExitCode.OK
            changes = {resource: ops for resource in resources}
            state = await describe_state(
                admin,
                resources,
                schema_for=[ResourceType.BROKER] if _CLUSTER_DEFAULT in resources else [],
                settle=partial(settle, doing="reading current configs"),
            )
            problems = check_ops(changes, state)
            if problems:
                print_refusals(problems)
                return ExitCode.USAGE
            print_changes(changes, state)
            if not dry_run and not confirmed(yes, f"Alter {len(changes)} resource(s) on {label}?"):
                return ExitCode.FAILED
            result = admin.incremental_alter_configs(changes, validate_only=dry_run)
            return await report_alter(result, changes, dry_run)

    return run(work)


def print_changes(
    changes: Mapping[ConfigResource, Sequence[AlterConfigOp]], state: ClusterState
) -> None:
    """The changes as a table: resource, key, operation, current value, new value."""
    table = Table(title="changes", title_justify="left")
    for column in ("resource", "key", "op", "current", "new"):
        table.add_column(column, overflow="fold")
    for resource, ops in changes.items():
        config = state.configs.get(resource)
        for op in ops:
            entry = config.get(op.name) if config is not None else None
            hidden = state.is_sensitive(resource, op.name) or op.sensitive
            current = HIDDEN if hidden else (entry.value if entry is not None else None)
            new = "" if op.op is OpType.DELETE else (HIDDEN if hidden else op.value)
            title = resource_title(resource.type.name, resource.name)
            table.add_row(title, op.name, op.op.name, current or "", new or "")
    print_table(stderr, table)


async def report_alter(
    result: AlterConfigsResult,
    changes: Mapping[ConfigResource, Sequence[AlterConfigOp]],
    dry_run: bool,
) -> int:
    """Each resource's outcome; exit 1 when any failed (each failure printed on one line)."""
    await settle(result, "validating" if dry_run else "altering")
    errors = result.errors()
    done = len(changes) - len(errors)
    verb = "validated (dry run, nothing changed)" if dry_run else "altered"
    failures = [
        (resource, [op.name for op in changes[resource]], error)
        for resource, error in errors.items()
    ]
    for line in failures_lines(failures):
        stderr.print(f"[red]failed:[/red] {line}", highlight=False)
    stderr.print(f"{done} resource(s) {verb}, {len(errors)} failed")
    return ExitCode.FAILED if errors else ExitCode.OK
