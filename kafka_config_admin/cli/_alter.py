"""``alter``: incremental changes, checked by type, shown, confirmed, then sent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import click
from rich.table import Table

from .. import AdminClient, AlterConfigOp, AlterConfigsResult, ConfigResource, OpType, ResourceType
from ..desired import ClusterState, check_ops, is_sensitive
from ._connect import ConnectionOptions
from ._entities import quota_changes
from ._main import ExitCode, cli
from ._options import (
    change_options,
    confirmed,
    connection_options,
    open_client,
    run,
    selection_options,
)
from ._output import HIDDEN, failures_lines, print_refusals, resource_title, stderr
from ._progress import settle
from ._quotas import alter_quotas
from ._resources import Selection, UsageError
from ._selection import selected_resources


@cli.command()
@selection_options()
@change_options
@click.option("--dry-run", is_flag=True, help="Let the brokers validate the change; apply nothing.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@connection_options
def alter(
    selection: Selection,
    ops: list[AlterConfigOp],
    dry_run: bool,
    yes: bool,
    connection: ConnectionOptions,
) -> int:
    """Change configs incrementally on one or many resources, or a quota entity's quotas or
    SCRAM credentials (--entity-type users|clients|ips, as kafka-configs.sh).

    Each change is checked against the types the broker reports before anything is sent
    (unknown keys, read-only keys, values that do not parse, APPEND/SUBTRACT on non-LIST keys).
    The plan is shown and confirmed unless --yes; without a terminal, --yes is required.
    """
    if selection.empty:
        raise UsageError("name at least one resource to alter (or --match REGEX)")
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
            state = await state_for_checks(admin, resources)
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


async def state_for_checks(admin: AdminClient, resources: Sequence[ConfigResource]) -> ClusterState:
    """What the cluster says of the resources' keys and types, for the checks of ``desired``.

    The cluster default lists only the keys set on it, so a broker's describe tells its keys.
    """
    wanted = list(resources)
    schema_source: ConfigResource | None = None
    if ConfigResource(ResourceType.BROKER, "") in wanted:
        schema_source = await any_broker_resource(admin, wanted)
        if schema_source not in wanted:
            wanted.append(schema_source)
    described = admin.describe_configs(wanted)
    await settle(described, "reading current configs")
    configs = {r: f.result() for r, f in described.values.items() if f.exception() is None}
    errors = {r: e for r, f in described.values.items() if (e := f.exception()) is not None}
    schemas = {ResourceType.BROKER: configs[schema_source]} if schema_source in configs else {}
    return ClusterState(
        configs={r: c for r, c in configs.items() if r in resources},
        schemas=schemas,
        errors=errors,
        catalog=await admin.config_catalog(),
    )


async def any_broker_resource(
    admin: AdminClient, among: Sequence[ConfigResource]
) -> ConfigResource:
    """A broker resource with an id: one of those named, else the first of the cluster's."""
    for resource in among:
        if resource.type is ResourceType.BROKER and resource.name:
            return resource
    return ConfigResource(ResourceType.BROKER, str(min(admin.broker_ids())))


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
            hidden = is_sensitive(op.name, entry) or op.sensitive
            current = HIDDEN if hidden else (entry.value if entry is not None else None)
            new = "" if op.op is OpType.DELETE else (HIDDEN if hidden else op.value)
            title = resource_title(resource.type.name, resource.name)
            table.add_row(title, op.name, op.op.name, current or "", new or "")
    stderr.print(table)


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
