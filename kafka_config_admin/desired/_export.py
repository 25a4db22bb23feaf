"""A cluster's current overrides as a desired-state document, to adopt the tool (the CLI's
``export`` and the web editor's download).

:func:`export_document` is pure; :func:`read_export` reads what it needs from a cluster.
Sensitive values cannot be read (Kafka never returns them): they are left out and named in
:attr:`Export.skipped`, for the face to tell its user.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import (
    AdminClient,
    ClientQuotaEntity,
    Config,
    ConfigEntry,
    ConfigResource,
    DescribeConfigsResult,
    KafkaConfigAdminError,
    ResourceType,
    UnsupportedVersionError,
)
from ..state._patterns import list_matching_topics
from ..state._state import is_override

__all__ = ["Export", "ExportFailedError", "export_document", "quota_entries", "read_export"]


@dataclass(frozen=True)
class Export:
    """A desired-state document of a cluster's overrides.

    Attributes:
        document: the file's content (``version``, ``topics``, ``cluster_default``,
            ``brokers``, ``groups``, ``client_metrics``, ``quotas``), ready for YAML or JSON.
        skipped: the sensitive keys left out, as ``(resource, key)``.
        unseen: the resource types the cluster could not list in full, with why
            (:attr:`ConfigResourceListing.unseen`: groups that exist only as config, before
            Kafka 4.1).
        unread: what was not read at all, with why (client quotas on a broker before Kafka
            2.6, which has no quota API): its section is left out, never written empty, so a
            plan of the file leaves it alone.
    """

    document: dict[str, Any]
    skipped: tuple[tuple[ConfigResource, str], ...]
    unseen: Mapping[ResourceType, str] = field(default_factory=dict)
    unread: tuple[str, ...] = ()

    def to_yaml(self) -> str:
        """The document as a desired-state file, the keys left out and what could not be seen
        named in comments on top."""
        notes = (
            "".join(
                f"# left out: {resource}, {key}: sensitive, its value cannot be read\n"
                for resource, key in self.skipped
            )
            + "".join(
                f"# not listed in full: {kind.name}: {why}\n" for kind, why in self.unseen.items()
            )
            + "".join(f"# not read: {why}\n" for why in self.unread)
        )
        import yaml  # here, not at import: only an export writes YAML

        return notes + yaml.safe_dump(self.document, sort_keys=False, allow_unicode=True)


class ExportFailedError(KafkaConfigAdminError):
    """Some resources could not be described, so nothing was exported (a partial file would
    read as "these resources have no overrides")."""

    def __init__(self, failures: Mapping[ConfigResource, BaseException]) -> None:
        self.failures = dict(failures)
        named = "; ".join(f"{resource}: {error}" for resource, error in self.failures.items())
        super().__init__(f"nothing exported: {len(self.failures)} could not be described: {named}")


def quota_entries(quotas: Mapping[ClientQuotaEntity, Mapping[str, float]]) -> list[dict[str, Any]]:
    """Each entity with its values, as a desired-state file's ``quotas`` section writes them,
    in a stable order."""
    return [
        {"entity": dict(entity), "values": dict(sorted(values.items()))}
        for entity, values in sorted(quotas.items(), key=lambda item: str(item[0]))
    ]


def _overrides(
    resource: ConfigResource,
    entries: Iterable[ConfigEntry],
    skipped: list[tuple[ConfigResource, str]],
) -> dict[str, str]:
    """The values set on the resource itself (sensitive ones left out, added to ``skipped``)."""
    wanted: dict[str, str] = {}
    for entry in sorted(entries, key=lambda entry: entry.name):
        if not is_override(resource, entry):
            continue
        if entry.sensitive or entry.value is None:
            skipped.append((resource, entry.name))
            continue
        wanted[entry.name] = entry.value
    return wanted


def export_document(
    configs: Mapping[ConfigResource, Config],
    shapes: Mapping[str, tuple[int, int | None]],
    quotas: Mapping[ClientQuotaEntity, Mapping[str, float]] | None = None,
    *,
    keep_empty_groups: bool = False,
) -> Export:
    """A desired-state document holding every override of ``configs``.

    Every topic is kept (its partitions and replication factor, from ``shapes``, matter even
    without overrides); a group without overrides only when ``keep_empty_groups`` (the groups
    were named, not listed). ``quotas``, when given, become the ``quotas`` section.
    """
    skipped: list[tuple[ConfigResource, str]] = []
    document: dict[str, Any] = {"version": 1}
    topics: list[dict[str, Any]] = []
    sections: dict[str, dict[Any, Any]] = {"brokers": {}, "groups": {}, "client_metrics": {}}
    for resource, config in configs.items():
        wanted = _overrides(resource, config.values(), skipped)
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
        elif resource.type is ResourceType.CLIENT_METRICS:
            sections["client_metrics"][resource.name] = {"configs": wanted}
        elif wanted or keep_empty_groups:
            sections["groups"][resource.name] = {"configs": wanted}
    document["topics"] = topics
    document |= {name: section for name, section in sections.items() if section}
    if quotas is not None:
        document["quotas"] = quota_entries(quotas)
    return Export(document, tuple(skipped))


async def read_export(
    admin: AdminClient,
    *,
    match: str | None = None,
    groups: Sequence[str] = (),
    include_groups: bool = True,
    include_brokers: bool = True,
    include_quotas: bool = True,
    settle: Callable[[DescribeConfigsResult], Awaitable[None]] | None = None,
) -> Export:
    """Read a cluster's overrides and make their document (:func:`export_document`).

    Topics (those whose whole name matches ``match``, or every one), each broker and the
    cluster default (unless not ``include_brokers``), the groups named in ``groups`` or else
    every group that has overrides and every client-metrics resource (unless not
    ``include_groups``; both listed by ``list_config_resources``, whose ``unseen`` the export
    carries; a type the broker has no configs of, groups before Kafka 4.0, is not described
    and ``unseen`` says why), and every entity's client quotas (unless not ``include_quotas``).
    ``settle`` waits for the describe (a face's progress bar); by default it is simply awaited.

    Raises :class:`ExportFailedError` when a resource cannot be described.
    """
    topics = await list_matching_topics(admin, match, label="match")
    resources = [ConfigResource(ResourceType.TOPIC, topic.name) for topic in topics]
    if include_brokers:
        resources += [ConfigResource(ResourceType.BROKER, str(b)) for b in admin.broker_ids()]
        resources.append(ConfigResource(ResourceType.BROKER, ""))
    unseen: Mapping[ResourceType, str] = {}
    if groups and include_groups:
        unseen = await admin.config_types_lacking([ResourceType.GROUP])
        if not unseen:
            resources += [ConfigResource(ResourceType.GROUP, name) for name in groups]
    elif include_groups:
        listing = await admin.list_config_resources(
            [ResourceType.GROUP, ResourceType.CLIENT_METRICS]
        )
        resources += listing.resources
        unseen = listing.unseen
    result = admin.describe_configs(resources)
    await (settle(result) if settle is not None else result.wait())
    failed = result.errors()
    if failed:
        raise ExportFailedError(failed)
    configs = {resource: future.result() for resource, future in result.values.items()}
    shapes = {topic.name: (topic.num_partitions, topic.replication_factor) for topic in topics}
    quotas, unread = await _quotas(admin) if include_quotas else (None, ())
    exported = export_document(configs, shapes, quotas, keep_empty_groups=bool(groups))
    return dataclasses.replace(exported, unseen=unseen, unread=unread)


async def _quotas(
    admin: AdminClient,
) -> tuple[Mapping[ClientQuotaEntity, Mapping[str, float]] | None, tuple[str, ...]]:
    """Every entity's client quotas, or None and why when the broker has no quota API."""
    try:
        return await admin.describe_client_quotas().all(), ()
    except UnsupportedVersionError:  # DescribeClientQuotas came with Kafka 2.6 (KIP-546)
        return None, ("quotas: the broker has no client quota API (Kafka 2.6 added it)",)
