"""``describe``: the configs of resources as a table, JSON or YAML."""

from __future__ import annotations

import click

from .. import Config, ConfigEntry, ConfigResource, DescribeConfigsResult, ResourceType
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
    HIDDEN,
    DescribeView,
    OutputFormat,
    describe_document,
    print_describe_tables,
    print_document,
    resource_title,
    stderr,
    stdout,
)
from ._progress import settle
from ._quotas import describe_quotas
from ._resources import Selection, UsageError
from ._selection import selected_resources


@cli.command()
@selection_options()
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
    """Show the configs of topics, brokers, broker loggers, groups and client-metrics, or
    the quotas of users, client ids and IPs (with users' SCRAM credentials).

    Without --all only the values set on each resource are shown. Resources are TYPE:NAME
    (topic:orders, broker:1, broker: for the cluster default, broker-logger:1, group:g,
    client-metrics:m) or a bare topic name. Quotas: --entity-type users|clients|ips with
    --entity-name NAME or --entity-default, as kafka-configs.sh (without a name: every entity
    of the type). Exit 1 when a resource could not be described.
    """
    if selection.empty:
        raise UsageError("name at least one resource (or --match REGEX)")
    if selection.quota is not None:
        if all_ or docs or synonyms or keys:
            raise UsageError("--all, --docs, --synonyms and --keys are for configs, not quotas")
        admin, label = open_client(connection)
        return describe_quotas(admin, label, selection.quota, output)
    key_names = frozenset(key.strip() for key in keys.split(",") if key.strip()) if keys else None
    view = DescribeView(all=all_, docs=docs, synonyms=synonyms, keys=key_names)
    admin, label = open_client(connection)

    async def work() -> dict[ConfigResource, Config | BaseException]:
        async with admin:
            resources = await selected_resources(admin, selection)
            if not resources:
                stderr.print(f"no topic matches {selection.match!r}")
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


#: Group and client-metrics describes show every key of their type for any name.
_ANY_NAME = "kafka-config-admin-docs"


@cli.command()
@click.argument("key")
@connection_options
def docs(key: str, connection: ConnectionOptions) -> int:
    """Print KEY's type and documentation as the live broker describes them.

    Looked up on a topic, a broker, a group and a client-metrics resource; every kind of
    resource that takes KEY is shown. Exit 2 when none does.
    """
    admin, _ = open_client(connection)

    async def work() -> list[tuple[ConfigResource, ConfigEntry]]:
        async with admin:
            resources = [
                ConfigResource(ResourceType.BROKER, str(min(admin.broker_ids()))),
                ConfigResource(ResourceType.GROUP, _ANY_NAME),
                ConfigResource(ResourceType.CLIENT_METRICS, _ANY_NAME),
            ]
            topics = await admin.list_topics()
            if topics:
                resources.insert(0, ConfigResource(ResourceType.TOPIC, topics[0].name))
            result = admin.describe_configs(
                {resource: [key] for resource in resources}, include_documentation=True
            )
            await result.wait()
            return [
                (resource, future.result()[key])
                for resource, future in result.values.items()
                if future.exception() is None and key in future.result()
            ]

    found = run(work)
    if not found:
        raise UsageError(f"{key}: no topic, broker, group or client-metrics config of that name")
    for resource, entry in found:
        kind = resource.type.name.lower().replace("_", "-")
        stdout.print(f"[bold]{key}[/bold] ({kind} config)")
        stdout.print(f"  type: {entry.type.name}", markup=False)
        if resource.type in (ResourceType.TOPIC, ResourceType.BROKER):
            value = HIDDEN if entry.is_sensitive else entry.value
            shown = resource_title(resource.type.name, resource.name)
            stdout.print(f"  value on {shown}: {value} ({entry.source.name})", markup=False)
        stdout.print(f"  read-only: {str(entry.is_read_only).lower()}", markup=False)
        stdout.print(f"  {entry.documentation or '(no documentation)'}", markup=False)
    return ExitCode.OK
