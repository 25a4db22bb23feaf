"""``export``: a cluster's current overrides as a desired-state file, to adopt the tool."""

from __future__ import annotations

import click

from ..desired import Export, ExportFailedError, read_export
from ._connect import ConnectionOptions
from ._main import ExitCode, cli
from ._options import connection_options, open_client, output_option, run
from ._output import OutputFormat, failures_lines, print_document, stderr
from ._progress import settle


@cli.command()
@click.option("--match", metavar="REGEX", help="Only topics whose whole name matches REGEX.")
@click.option(
    "--group",
    multiple=True,
    metavar="NAME",
    help="Export this group's configs (repeatable); without it, every group with overrides.",
)
@click.option("--no-groups", is_flag=True, help="Leave out the groups.")
@click.option("--no-brokers", is_flag=True, help="Leave out the brokers and the cluster default.")
@click.option("--no-quotas", is_flag=True, help="Leave out the client quotas.")
@output_option(OutputFormat.YAML, OutputFormat.JSON)
@connection_options
def export(
    match: str | None,
    group: tuple[str, ...],
    no_groups: bool,
    no_brokers: bool,
    no_quotas: bool,
    output: OutputFormat,
    connection: ConnectionOptions,
) -> int:
    """Write the cluster's current overrides as a desired-state file (to stdout).

    Topics, each broker, the cluster default, the groups (those named with --group, or else
    every group of the cluster that has overrides) and every entity's client quotas. Sensitive
    values and SCRAM passwords cannot be read and are left out (each named on stderr).
    """
    admin, _ = open_client(connection)

    async def work() -> Export | None:
        async with admin:
            try:
                return await read_export(
                    admin,
                    match=match,
                    groups=group,
                    include_groups=not no_groups,
                    include_brokers=not no_brokers,
                    include_quotas=not no_quotas,
                    settle=lambda result: settle(result, "reading configs"),
                )
            except ExportFailedError as error:
                for line in failures_lines((r, [], e) for r, e in error.failures.items()):
                    stderr.print(f"failed: {line}", markup=False)
                stderr.print("nothing exported: the resources above could not be described")
                return None

    exported = run(work)
    if exported is None:
        return ExitCode.FAILED
    for resource, key in exported.skipped:
        stderr.print(f"skipped: {resource}, {key}: sensitive, its value cannot be read")
    print_document(exported.document, output)
    return ExitCode.OK
