"""``diff``: the overrides of two clusters, or of a cluster and a saved ``describe`` snapshot."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from rich.table import Table

from .. import (
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigType,
    KafkaConfigAdminError,
    ResourceType,
)
from ..state import (
    RESOURCE_COLUMNS,
    KeyMatch,
    Overrides,
    compare_overrides,
    overrides_of,
    overrides_read,
    resource_row,
)
from ._exit import ExitCode
from ._options import ConnectionOptions, OutputFormat
from ._output import (
    DESCRIBE_FORMAT_VERSION,
    failures_lines,
    print_document,
    print_table,
    resource_title,
    stderr,
    stdout,
)
from ._progress import settle
from ._resources import Selection, UsageError, resource
from ._running import open_client, run
from ._selection import selected_resources

#: 2: a difference's ``resource`` has the row columns ``resource_type`` and ``resource_name``.
DIFF_FORMAT_VERSION = 2
#: The ``describe`` documents a snapshot may be.
_SNAPSHOT_VERSIONS = (1, DESCRIBE_FORMAT_VERSION)

_ABSENT = "(absent)"
_NOT_SET = "(not set)"


@dataclass(frozen=True)
class Side:
    """One side of a diff: a label and its overrides."""

    label: str
    overrides: Overrides


def diff(
    *,
    selection: Selection,
    snapshot: Path | None,
    against_cluster: str | None,
    against_bootstrap_server: str | None,
    output: OutputFormat,
    connection: ConnectionOptions,
) -> int:
    """The ``diff`` command's work (its options and help: :mod:`._commands`)."""
    given = [
        snapshot is not None,
        against_cluster is not None,
        against_bootstrap_server is not None,
    ]
    if sum(given) != 1:
        raise UsageError(
            "compare with one of --against SNAPSHOT, --against-cluster NAME, "
            "--against-bootstrap-server HOST:PORT"
        )
    if selection.quota is not None:
        raise UsageError("diff compares configs; describe the quotas of each cluster instead")
    right: Side | None = load_snapshot(snapshot) if snapshot is not None else None
    if right is not None and selection.empty:
        selection = Selection(tuple(right.overrides))
    left = read_side(connection, selection)
    if right is None:
        other = ConnectionOptions(
            bootstrap_server=against_bootstrap_server,
            cluster=against_cluster,
            clusters_file=connection.clusters_file,
            timeout=connection.timeout,
        )
        right = read_side(other, Selection(tuple(left.overrides)))
    differences = compare(left, right)
    if output is OutputFormat.JSON:
        print_document(
            {
                "kind": "diff",
                "version": DIFF_FORMAT_VERSION,
                "left": left.label,
                "right": right.label,
                "differences": differences,
            },
            output,
        )
    else:
        print_differences(left, right, differences)
    return ExitCode.CHANGES if differences else ExitCode.OK


def read_side(options: ConnectionOptions, selection: Selection) -> Side:
    """The overrides of the selected resources on one cluster (a resource it lacks is absent).

    An empty selection stands for every topic and the cluster default.
    """
    admin, label = open_client(options)

    async def work() -> Side:
        async with admin:
            if selection.empty:
                topics = await admin.list_topics()
                resources = [ConfigResource(ResourceType.TOPIC, topic.name) for topic in topics]
                resources.append(ConfigResource(ResourceType.BROKER, ""))
            else:
                resources = await selected_resources(admin, selection)
            result = admin.describe_configs(resources)
            await settle(result, f"reading {label}")
            overrides, failed = overrides_read(result)
            failures: list[tuple[ConfigResource, list[str], BaseException]] = [
                (resource, [], error) for resource, error in failed
            ]
            if failures:
                raise SideUnreadableError(label, failures_lines(failures))
            return Side(label, overrides)

    return run(work)


class SideUnreadableError(KafkaConfigAdminError):
    """A resource of one side could not be described (not because it does not exist)."""

    def __init__(self, label: str, lines: list[str]) -> None:
        super().__init__(f"{label}: could not describe {'; '.join(lines)}")


def load_snapshot(path: Path) -> Side:
    """A ``describe --output json|yaml`` document as one side."""
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))  # JSON is YAML too
        if document.get("kind") != "describe":
            raise ValueError("not a describe snapshot (kind is not 'describe')")
        version = document.get("version")
        if version not in _SNAPSHOT_VERSIONS:
            raise ValueError(f"describe snapshot version {version!r}: this release reads 1 and 2")
        # Version 1 named a resource's columns "type" and "name", an entry's type "type".
        type_column, name_column, config_type_column = (
            ("type", "name", "type") if version == 1 else (*RESOURCE_COLUMNS, "config_type")
        )
        overrides: Overrides = {}
        for item in document["resources"]:
            if item.get("error"):
                continue
            found = resource(ResourceType[item[type_column]], item[name_column])
            entries = [
                ConfigEntry(
                    name=name,
                    value=shown["value"],
                    source=ConfigSource[shown["source"]],
                    type=ConfigType[shown[config_type_column]],
                )
                for name, shown in item["configs"].items()
            ]
            overrides[found] = overrides_of(found, entries)
    except (OSError, yaml.YAMLError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise UsageError(f"{path}: cannot read the snapshot: {error!r}") from None
    return Side(f"{path.name} ({document.get('cluster', '?')})", overrides)


def compare(left: Side, right: Side) -> list[dict[str, Any]]:
    """Every key whose value differs by type, and every resource only one side has (the
    comparison is the state layer's :func:`~kafka_config_admin.state.compare_overrides`)."""
    differences: list[dict[str, Any]] = []
    for compared in compare_overrides(left.overrides, right.overrides):
        row = resource_row(compared.resource)
        if not (compared.on_left and compared.on_right):
            differences.append(
                {
                    "resource": row,
                    "key": None,
                    "left": "(present)" if compared.on_left else _ABSENT,
                    "right": "(present)" if compared.on_right else _ABSENT,
                }
            )
        for key in compared.differences:
            differences.append(
                {
                    "resource": row,
                    "key": key.key,
                    "left": _NOT_SET if key.match is KeyMatch.RIGHT_ONLY else key.left,
                    "right": _NOT_SET if key.match is KeyMatch.LEFT_ONLY else key.right,
                }
            )
    return differences


def print_differences(left: Side, right: Side, differences: list[dict[str, Any]]) -> None:
    if not differences:
        stderr.print(f"no differences between {left.label} and {right.label}")
        return
    table = Table(title=f"{left.label} vs {right.label}", title_justify="left")
    for column in ("resource", "key", left.label, right.label):
        table.add_column(column, overflow="fold")
    for item in differences:
        title = resource_title(*(item["resource"][column] for column in RESOURCE_COLUMNS))
        table.add_row(title, item["key"] or "", str(item["left"]), str(item["right"]))
    print_table(stdout, table)
    stderr.print(f"{len(differences)} difference(s)")
