"""``export``: a cluster's current overrides as a desired-state file, to adopt the tool."""

from __future__ import annotations

from typing import Any

import click

from .. import Config, ConfigResource, ResourceType
from ..desired import is_override
from ._connect import ConnectionOptions
from ._main import ExitCode, cli, connection_options, open_client, output_option, run
from ._output import OutputFormat, failures_lines, print_document, stderr
from ._progress import settle
from ._quotas import quota_entries


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

    async def work() -> dict[str, Any] | None:
        async with admin:
            topics = await admin.list_topics(match)
            resources = [ConfigResource(ResourceType.TOPIC, topic.name) for topic in topics]
            if not no_brokers:
                resources += [
                    ConfigResource(ResourceType.BROKER, str(b)) for b in admin.broker_ids()
                ]
                resources.append(ConfigResource(ResourceType.BROKER, ""))
            if not no_groups:
                names = group or [g.group_id for g in await admin.list_groups().all()]
                resources += [ConfigResource(ResourceType.GROUP, name) for name in names]
            result = admin.describe_configs(resources)
            await settle(result, "reading configs")
            failed = result.errors()
            if failed:
                for line in failures_lines((r, [], e) for r, e in failed.items()):
                    stderr.print(f"failed: {line}", markup=False)
                stderr.print("nothing exported: the resources above could not be described")
                return None
            configs = {r: f.result() for r, f in result.values.items()}
            shapes = {t.name: (t.num_partitions, t.replication_factor) for t in topics}
            document = desired_document(configs, shapes, keep_empty_groups=bool(group))
            if not no_quotas:
                quotas = await admin.describe_client_quotas().all()
                document["quotas"] = quota_entries(quotas)
            return document

    document = run(work)
    if document is None:
        return ExitCode.FAILED
    print_document(document, output)
    return ExitCode.OK


def desired_document(
    configs: dict[ConfigResource, Config],
    shapes: dict[str, tuple[int, int | None]],
    *,
    keep_empty_groups: bool,
) -> dict[str, Any]:
    """A desired-state file holding every override of ``configs``.

    Every topic is kept (its partitions matter even without overrides); a group without
    overrides only when ``keep_empty_groups`` (the groups were named, not listed).
    """
    document: dict[str, Any] = {"version": 1}
    topics: list[dict[str, Any]] = []
    sections: dict[str, dict[Any, Any]] = {"brokers": {}, "groups": {}}
    for resource, config in configs.items():
        wanted = overrides_of(resource, config)
        if resource.type is ResourceType.TOPIC:
            partitions, replication = shapes[resource.name]
            topic: dict[str, Any] = {"name": resource.name, "partitions": partitions}
            if replication is not None:
                topic["replication_factor"] = replication
            topics.append(topic | {"configs": wanted})
        elif resource.type is ResourceType.BROKER and resource.name == "":
            document["cluster_default"] = {"configs": wanted}
        elif resource.type is ResourceType.BROKER:
            sections["brokers"][int(resource.name)] = {"configs": wanted}
        elif wanted or keep_empty_groups:
            sections["groups"][resource.name] = {"configs": wanted}
    document["topics"] = topics
    document |= {name: section for name, section in sections.items() if section}
    return document


def overrides_of(resource: ConfigResource, config: Config) -> dict[str, str]:
    """The values set on the resource itself; sensitive ones are named on stderr and left out."""
    wanted: dict[str, str] = {}
    for entry in sorted(config.values(), key=lambda entry: entry.name):
        if not is_override(resource, entry):
            continue
        if entry.is_sensitive or entry.value is None:
            stderr.print(f"skipped: {resource}, {entry.name}: sensitive, its value cannot be read")
            continue
        wanted[entry.name] = entry.value
    return wanted
