"""``export``: a cluster's current overrides as a desired-state file, to adopt the tool."""

from __future__ import annotations

from ..desired import Export, ExportFailedError, read_export
from ._exit import ExitCode
from ._options import ConnectionOptions, OutputFormat
from ._output import failures_lines, print_document, stderr
from ._progress import settle
from ._running import open_client, run


def export(
    *,
    match: str | None,
    group: tuple[str, ...],
    no_groups: bool,
    no_brokers: bool,
    no_quotas: bool,
    output: OutputFormat,
    connection: ConnectionOptions,
) -> int:
    """The ``export`` command's work (its options and help: :mod:`._commands`)."""
    admin, label = open_client(connection)

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
                stderr.print(
                    f"nothing exported from {label}: the resources above could not be described",
                    markup=False,
                )
                return None

    exported = run(work)
    if exported is None:
        return ExitCode.FAILED
    stderr.print(f"exported {label}", markup=False)  # stdout is the document alone
    for resource, key in exported.skipped:
        stderr.print(f"skipped: {resource}, {key}: sensitive, its value cannot be read")
    for kind, why in exported.unseen.items():
        stderr.print(f"not listed in full: {kind.name}: {why}", markup=False)
    for why in exported.unread:
        stderr.print(f"not read: {why}", markup=False)
    print_document(exported.document, output)
    return ExitCode.OK
