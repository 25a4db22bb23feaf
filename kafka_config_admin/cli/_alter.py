"""``alter``: incremental changes, checked by type, shown, confirmed, then sent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

from rich.table import Table
from rich.text import Text

from .. import AlterConfigOp, AlterConfigsResult, ConfigResource, OpType, ResourceType
from ..desired import (
    ClusterState,
    Problem,
    Proposal,
    ask_broker,
    check_ops,
    describe_state,
    is_override,
    unknown_key_warnings,
)
from ._entities import quota_changes
from ._exit import ExitCode
from ._options import ConnectionOptions
from ._output import (
    HIDDEN,
    failures_lines,
    print_refusals,
    print_table,
    print_warnings,
    report_verdict,
    resource_title,
    stderr,
)
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
            problems += deletes_of_keys_not_set(changes, state, problems)
            if problems:
                print_refusals(problems)
                return ExitCode.USAGE
            print_changes(changes, state, label)
            print_warnings(unknown_key_warnings(changes, state))
            if dry_run:
                secrets_marked = {r: _marked(r, ops, state) for r, ops in changes.items()}
                verdict = await ask_broker(admin, Proposal(configs=secrets_marked))
                return report_verdict(verdict, f"{len(changes)} resource(s)")
            if not confirmed(yes, f"Alter {len(changes)} resource(s) on {label}?"):
                return ExitCode.FAILED
            return await report_alter(admin.incremental_alter_configs(changes), changes)

    return run(work)


def deletes_of_keys_not_set(
    changes: Mapping[ConfigResource, Sequence[AlterConfigOp]],
    state: ClusterState,
    known: Sequence[Problem] = (),
) -> list[Problem]:
    """A DELETE of a key not set on the resource itself, refused as kafka-configs.sh refuses
    it ("Invalid config(s)"): the broker would take it and change nothing, and the command
    would say the resource was altered. Keys already refused (``known``) are not said twice."""
    said = {(problem.resource, problem.key) for problem in known}
    problems = []
    for resource, ops in changes.items():
        config = state.configs.get(resource)
        for op in ops:
            if config is None or op.op is not OpType.DELETE or (resource, op.name) in said:
                continue
            entry = config.get(op.name)
            if is_override(resource, entry):
                continue
            source = "" if entry is None else f" (its value comes from {entry.source.name})"
            problems.append(
                Problem(
                    resource=resource,
                    key=op.name,
                    value=None,
                    expected_type=None,
                    message=f"is not set on it, so there is nothing to delete{source}",
                )
            )
    return problems


def print_changes(
    changes: Mapping[ConfigResource, Sequence[AlterConfigOp]], state: ClusterState, label: str
) -> None:
    """The changes to cluster ``label`` as a table: resource, key, operation, current value,
    new value."""
    table = Table(title=f"changes to {label}", title_justify="left")
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
            # Text, not markup: "[hidden]" and list values in brackets are shown as they are
            cells = (title, op.name, op.op.name, current or "", new or "")
            table.add_row(*(Text(cell) for cell in cells))
    print_table(stderr, table)


def _marked(
    resource: ConfigResource, ops: Sequence[AlterConfigOp], state: ClusterState
) -> list[AlterConfigOp]:
    """``ops`` with those of keys the broker calls sensitive marked so: their values are
    hidden from every message (the client guesses from the name alone)."""
    return [
        op.model_copy(update={"sensitive": True})
        if not op.sensitive and state.is_sensitive(resource, op.name)
        else op
        for op in ops
    ]


async def report_alter(
    result: AlterConfigsResult, changes: Mapping[ConfigResource, Sequence[AlterConfigOp]]
) -> int:
    """Each resource's outcome; exit 1 when any failed (each failure printed on one line)."""
    await settle(result, "altering")
    errors = result.errors()
    done = len(changes) - len(errors)
    verb = "altered"
    failures = [
        (resource, [op.name for op in changes[resource]], error)
        for resource, error in errors.items()
    ]
    for line in failures_lines(failures):
        stderr.print(f"[red]failed:[/red] {line}", highlight=False)
    stderr.print(f"{done} resource(s) {verb}, {len(errors)} failed")
    return ExitCode.FAILED if errors else ExitCode.OK
