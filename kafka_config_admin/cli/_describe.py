"""``describe``: the configs of resources as a table, JSON or YAML."""

from __future__ import annotations

import click

from .._models import Config, ConfigResource
from .._results import DescribeConfigsResult
from ._connect import ConnectionOptions
from ._main import (
    ExitCode,
    cli,
    connection_options,
    open_client,
    output_option,
    run,
    selection_options,
)
from ._output import (
    DescribeView,
    OutputFormat,
    describe_document,
    print_describe_tables,
    print_document,
)
from ._progress import settle
from ._resources import Selection, UsageError
from ._topics import selected_resources


@cli.command()
@selection_options(match=False)
@click.option("--all", "all_", is_flag=True, help="Show every config, defaults too.")
@click.option("--docs", is_flag=True, help="Show each key's documentation.")
@click.option("--synonyms", is_flag=True, help="Show where each value could come from.")
@click.option("--keys", metavar="K1,K2", help="Only these keys (defaults included).")
@output_option(OutputFormat.TABLE, OutputFormat.JSON, OutputFormat.YAML)
@connection_options
def describe(
    selection: Selection,
    all_: bool,
    docs: bool,
    synonyms: bool,
    keys: str | None,
    output: OutputFormat,
    connection: ConnectionOptions,
) -> int:
    """Show the configs of topics, brokers, broker loggers, groups and client-metrics.

    Without --all only the values set on each resource are shown. Resources are TYPE:NAME
    (topic:orders, broker:1, broker: for the cluster default, broker-logger:1, group:g,
    client-metrics:m) or a bare topic name. Exit 1 when a resource could not be described.
    """
    if selection.empty:
        raise UsageError("name at least one resource (or --match REGEX)")
    key_names = frozenset(key.strip() for key in keys.split(",") if key.strip()) if keys else None
    view = DescribeView(all=all_, docs=docs, synonyms=synonyms, keys=key_names)
    admin, label = open_client(connection)

    async def work() -> dict[ConfigResource, Config | BaseException]:
        async with admin:
            resources = await selected_resources(admin, selection)
            wanted = {resource: key_names for resource in resources} if key_names else resources
            result = admin.describe_configs(
                wanted, include_synonyms=synonyms, include_documentation=docs
            )
            return await outcomes(result, "describing")

    described = run(work)
    document = describe_document(label, described, view)
    if output is OutputFormat.TABLE:
        print_describe_tables(document, view)
    else:
        print_document(document, output)
    return ExitCode.FAILED if any(item["error"] for item in document["resources"]) else ExitCode.OK


async def outcomes(
    result: DescribeConfigsResult, doing: str
) -> dict[ConfigResource, Config | BaseException]:
    """Each resource's config or error, with a progress bar on a terminal."""
    await settle(result, doing)
    return {
        resource: future.exception() or future.result()
        for resource, future in result.values.items()
    }
