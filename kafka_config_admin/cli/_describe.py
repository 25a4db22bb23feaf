"""``describe``: the configs of resources as a table, JSON or YAML."""

from __future__ import annotations

from .. import (
    CatalogKey,
    CatalogMatch,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigType,
    DescribeConfigsResult,
    ResourceType,
)
from ..state import (
    documentation_text,
    human_units,
    key_rules,
    nearest_keys,
    upcoming_changes,
    update_mode_words,
)
from ..toolkit import catalog_releases, releases_with_key
from ._exit import ExitCode
from ._options import ConnectionOptions, OutputFormat
from ._output import (
    HIDDEN,
    DescribeView,
    describe_document,
    print_describe_tables,
    print_document,
    resource_title,
    shown_value,
    stderr,
    stdout,
)
from ._progress import settle
from ._quotas import describe_quotas
from ._resources import Selection, UsageError
from ._running import open_client, run
from ._selection import selected_resources


def describe(
    *,
    selection: Selection,
    all_: bool,
    docs: bool,
    synonyms: bool,
    keys: str | None,
    output: OutputFormat,
    connection: ConnectionOptions,
) -> int:
    """The ``describe`` command's work (its options and help: :mod:`._commands`)."""
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
                stderr.print(f"no topic of {label} matches {selection.match!r}", markup=False)
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

#: The resource types ``docs`` looks a key up in, in the order it shows them.
_DOCS_TYPES = (
    ResourceType.TOPIC,
    ResourceType.BROKER,
    ResourceType.GROUP,
    ResourceType.CLIENT_METRICS,
)


def docs(*, key: str, connection: ConnectionOptions) -> int:
    """The ``docs`` command's work (its options and help: :mod:`._commands`)."""
    key = key.strip()
    if not key:
        raise UsageError("KEY is empty: name a config key, such as retention.ms")
    admin, _ = open_client(connection)

    async def work() -> tuple[dict[ResourceType, _Described], CatalogMatch | None]:
        async with admin:
            catalog = await admin.config_catalog()
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
            live = {
                resource.type: (resource, future.result().get(key))
                for resource, future in result.values.items()
                if future.exception() is None
            }
            return live, catalog

    live, match = run(work)
    specs = {
        kind: spec
        for kind in _DOCS_TYPES
        if match is not None and (spec := match.catalog.lookup(kind, key)) is not None
    }
    kinds = [kind for kind in _DOCS_TYPES if live.get(kind, (None, None))[1] or kind in specs]
    if not kinds:
        raise UsageError(_unknown_key(key, match))
    for kind in kinds:
        stdout.print(f"[bold]{key}[/bold] ({_kind_name(kind)} config)")
        for label, text in _docs_lines(key, kind, live.get(kind), specs.get(kind), match):
            stdout.print(f"  {label}: {text}" if label else f"  {text}", markup=False)
    return ExitCode.OK


def _unknown_key(key: str, match: CatalogMatch | None) -> str:
    """The error for a key no kind of resource takes, naming the releases that have it."""
    message = f"{key}: no topic, broker, group or client-metrics config of that name"
    having = {release for kind in _DOCS_TYPES for release in releases_with_key(kind, key)}
    elsewhere = [release for release in catalog_releases() if release in having]
    if elsewhere:
        running = f"Kafka {match.catalog.release}" if match is not None else "this broker"
        message += f" in {running} (Kafka {', '.join(elsewhere)} had it)"
    if match is not None:
        names = [name for kind in _DOCS_TYPES for name in match.catalog.names(kind)]
        near = nearest_keys(names, key)
        if near:
            message += f"; did you mean {', '.join(near)}?"
    return message


#: A resource ``docs`` described, and the key's entry there (None: not among its configs).
_Described = tuple[ConfigResource, ConfigEntry | None]


def _docs_lines(
    key: str,
    kind: ResourceType,
    described: _Described | None,
    spec: CatalogKey | None,
    match: CatalogMatch | None,
) -> list[tuple[str, str]]:
    """The (label, text) lines ``docs`` prints for one kind of resource: what the broker and
    the catalog say, and what a coming Kafka release has announced (``warning``)."""
    lines: list[tuple[str, str]] = []
    resource, entry = described if described is not None else (None, None)
    config_type = entry.type if entry is not None else ConfigType.UNKNOWN
    if config_type is ConfigType.UNKNOWN and spec is not None:
        config_type = spec.type  # a broker before Kafka 2.6 reports no types
    lines.append(("type", config_type.name))
    if (
        resource is not None
        and entry is not None
        and resource.type in (ResourceType.TOPIC, ResourceType.BROKER)
    ):
        shown = resource_title(resource.type.name, resource.name)
        value = shown_value(entry.value, entry.sensitive)
        value = _with_words(key, value, entry.value if not entry.sensitive else None)
        lines.append((f"value on {shown}", f"{value} ({entry.source.name})"))
    if spec is not None:
        assert match is not None
        release = f"Kafka {match.catalog.release}"
        secret = spec.type is ConfigType.PASSWORD
        default = "(none: required)" if spec.required else spec.default
        if default is None:
            lines.append(("default", "null"))
        else:
            lines.append(("default", HIDDEN if secret else _with_words(key, default, default)))
        if spec.valid is not None and spec.valid.describe():
            lines.append(("valid values", spec.valid.describe()))
        lines.append(("importance", spec.importance.lower()))
        mode = update_mode_words(spec, match)
        if mode is not None:
            lines.append(("update mode", mode))
        lines += [("rule", rule) for rule in key_rules(spec, match)]
        lines.append(("from", f"the ConfigDef of {release}"))
    lines += [("warning", change.describe()) for change in upcoming_changes(kind, key)]
    if entry is not None:
        lines.append(("read-only", str(entry.is_read_only).lower()))
        lines.append(
            ("", documentation_text(entry.documentation) or "(no documentation from the broker)")
        )
    elif resource is None:
        lines.append(("", f"(no {_kind_name(kind)} to describe it on: no live documentation)"))
    else:
        lines.append(("", "(the broker does not describe this key)"))
    return lines


def _with_words(key: str, shown: str, value: str | None) -> str:
    """A value with its human units or words, as the web editor shows it too
    (``604800000 = 1 week``, ``9223372036854775807 = never``)."""
    words = human_units(key, value)
    return shown if words is None else f"{shown} = {words}"


def _kind_name(kind: ResourceType) -> str:
    return kind.name.lower().replace("_", "-")
