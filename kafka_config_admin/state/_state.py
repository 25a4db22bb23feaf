"""What a cluster has now, as the pure core of ``desired`` sees it (read by ``read_state``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .. import (
    CatalogKey,
    CatalogMatch,
    ClientQuotaEntity,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigType,
    PartitionReassignment,
    ResourceType,
    TopicDescription,
    TopicPartition,
    is_sensitive,
)
from ..toolkit import MAX_BROKER_ID, is_broker_id

__all__ = [
    "ClusterState",
    "is_override",
    "known_type",
    "override_source",
    "schema_resources",
    "sensitive_key",
]

_CLUSTER_DEFAULT = ConfigResource(ResourceType.BROKER, "")
#: Where a broker's value of a key the cluster default does not set comes from.
_DEFAULT_SOURCES = (ConfigSource.STATIC_BROKER_CONFIG, ConfigSource.DEFAULT_CONFIG)

_OVERRIDE_SOURCE = {
    ResourceType.TOPIC: ConfigSource.TOPIC_CONFIG,
    ResourceType.BROKER_LOGGER: ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG,
    ResourceType.GROUP: ConfigSource.GROUP_CONFIG,
    ResourceType.CLIENT_METRICS: ConfigSource.CLIENT_METRICS_CONFIG,
}


def override_source(resource: ConfigResource) -> ConfigSource:
    """The source of a value set on this very resource (what DELETE removes).

    A broker's own dynamic config for a broker id, the dynamic default for the cluster default
    (``BROKER ""``), and the resource type's own source for the others.
    """
    if resource.type is ResourceType.BROKER:
        if resource.name == "":
            return ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
        return ConfigSource.DYNAMIC_BROKER_CONFIG
    return _OVERRIDE_SOURCE.get(resource.type, ConfigSource.UNKNOWN)


def is_override(resource: ConfigResource, entry: ConfigEntry | None) -> bool:
    """Whether ``entry`` is set on ``resource`` itself, not inherited or a default."""
    return entry is not None and entry.source is override_source(resource)


@dataclass(frozen=True)
class ClusterState:
    """The current configs of the resources a desired state is about, and the cluster's topics.

    Attributes:
        configs: each described resource's :class:`Config`; its entries carry their KIP-569
            types (from Kafka 2.6; a catalog fills them in before).
        topics: the names of the cluster's topics; None when not listed (then a named topic
            counts as existing when ``configs`` holds it).
        schemas: per resource type, a described resource whose entries tell the keys, types
            and read-only flags that resources of that type take. Needed where a resource's
            own describe cannot tell: the cluster default (``BROKER ""`` lists only what is
            set) and topics still to be created; chosen by :func:`schema_resources`.
        errors: resources whose describe failed, with the error.
        quotas: the quota values of every entity that has any (when the file has quotas).
        scram: the SCRAM credentials of the file's users: mechanism name to iterations.
        quotas_complete: whether ``quotas`` holds every entity the cluster has quotas on
            (what rules about quotas need).
        scram_complete: whether ``scram`` holds every user the cluster has credentials for,
            besides the file's users (what rules about SCRAM users need).
        undeletable: per resource, overrides the broker refused to remove when asked with
            ``validate_only`` (key to the broker's reason): a plan keeps them, never loops on
            deleting them.
        broker_overrides: per broker id, the values each broker sets for itself
            (DYNAMIC_BROKER_CONFIG) among the keys the file's cluster default names.
        topic_descriptions: the partitions of the existing topics whose entries name
            ``partitions`` or ``replication_factor``.
        reassignments: the partition reassignments in progress (of those topics).
        racks: every broker's rack (None: it reports none), by broker id, when the file
            names partitions or replication factors of existing topics.
        catalog: the config catalog of the cluster's Kafka release
            (``AdminClient.config_catalog()``): valid values, ranges and update modes for the
            checks, and the types a broker before Kafka 2.6 does not report; None: no catalog
            (checks use the broker's KIP-569 types only).
    """

    configs: Mapping[ConfigResource, Config] = field(default_factory=dict)
    topics: frozenset[str] | None = None
    schemas: Mapping[ResourceType, Config] = field(default_factory=dict)
    errors: Mapping[ConfigResource, BaseException] = field(default_factory=dict)
    quotas: Mapping[ClientQuotaEntity, Mapping[str, float]] = field(default_factory=dict)
    scram: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    quotas_complete: bool = False
    scram_complete: bool = False
    undeletable: Mapping[ConfigResource, Mapping[str, str]] = field(default_factory=dict)
    broker_overrides: Mapping[int, Config] = field(default_factory=dict)
    topic_descriptions: Mapping[str, TopicDescription] = field(default_factory=dict)
    reassignments: Mapping[TopicPartition, PartitionReassignment] = field(default_factory=dict)
    racks: Mapping[int, str | None] = field(default_factory=dict)
    catalog: CatalogMatch | None = None

    def topic_exists(self, name: str) -> bool:
        """Whether the cluster has this topic."""
        if self.topics is not None:
            return name in self.topics
        return ConfigResource(ResourceType.TOPIC, name) in self.configs

    def existing_topics(self) -> frozenset[str]:
        """The topics known to exist: the listed ones, or else the described ones."""
        if self.topics is not None:
            return self.topics
        return frozenset(
            resource.name for resource in self.configs if resource.type is ResourceType.TOPIC
        )

    def key_info(self, resource: ConfigResource, key: str) -> ConfigEntry | None:
        """What the cluster says of ``key`` on ``resource``: its entry, else the schema's entry
        for the resource type, else None (a key the broker does not know)."""
        config = self.configs.get(resource)
        if config is not None:
            found = config.get(key)  # one lookup: a plan asks this for every key it wants
            if found is not None:
                return found
        schema = self.schemas.get(resource.type)
        if schema is not None:
            return schema.get(key)
        return None

    def effective_entry(self, resource: ConfigResource, key: str) -> ConfigEntry | None:
        """``key``'s entry on ``resource`` as described (None: not set there, or the resource
        not described). The cluster default lists only what it sets, so there a key it does
        not set takes the static value or the default a broker reports: the value a change
        of the cluster default replaces, which plans and change sets compare with."""
        config = self.configs.get(resource)
        entry = config.get(key) if config is not None else None
        if entry is not None or resource != _CLUSTER_DEFAULT:
            return entry
        schema_entry = self.key_info(resource, key)
        if schema_entry is not None and schema_entry.source in _DEFAULT_SOURCES:
            return schema_entry
        return None

    def knows_keys(self, resource: ConfigResource) -> bool:
        """Whether the state can tell the keys ``resource`` takes (else none is called unknown).

        The cluster default's own describe lists only what is set, so it needs a broker's
        describe as its schema; a topic to be created needs any topic's.
        """
        if resource.type in self.schemas:
            return True
        described = resource in self.configs
        return described and not (resource.type is ResourceType.BROKER and resource.name == "")

    def undeletable_reason(self, resource: ConfigResource, key: str) -> str | None:
        """Why the broker will not remove ``key`` from ``resource`` (None: it will, or unknown)."""
        return self.undeletable.get(resource, {}).get(key)

    def catalog_key(self, resource: ConfigResource, key: str) -> CatalogKey | None:
        """What the catalog of the cluster's release says of ``key`` on ``resource``."""
        if self.catalog is None:
            return None
        return self.catalog.catalog.lookup(resource.type, key)

    def known_keys(self, resource_type: ResourceType) -> set[str]:
        """The keys resources of ``resource_type`` take, as far as the state can tell: the
        catalog's and those the broker describes (its schema and described resources)."""
        keys = set() if self.catalog is None else set(self.catalog.catalog.names(resource_type))
        schema = self.schemas.get(resource_type)
        if schema is not None:
            keys.update(schema)
        for resource, config in self.configs.items():
            if resource.type is resource_type:
                keys.update(config)
        return keys

    def is_sensitive(self, resource: ConfigResource, key: str) -> bool:
        """Whether ``key``'s value on ``resource`` must never be shown: the SDK's rule
        (:func:`kafka_config_admin.is_sensitive`) on what the cluster says of the key, or the
        catalog's PASSWORD type where the broker reports none."""
        return self.key_facts(resource, key)[1]

    def key_facts(self, resource: ConfigResource, key: str) -> tuple[ConfigType, bool]:
        """``key``'s type on ``resource`` (:meth:`entry_type`) and whether it is sensitive
        (:meth:`is_sensitive`), read from the state once: a plan asks both of every key."""
        info = self.key_info(resource, key)
        kind = known_type(info, self.catalog_key(resource, key))
        return kind, sensitive_key(key, info, kind)

    def entry_type(self, resource: ConfigResource, key: str) -> ConfigType:
        """The type of ``key`` on ``resource``: the broker's (KIP-569), else the catalog's (a
        broker before Kafka 2.6 reports none), else UNKNOWN."""
        return known_type(self.key_info(resource, key), self.catalog_key(resource, key))


def schema_resources(
    kinds: Iterable[ResourceType],
    described: Iterable[ConfigResource],
    *,
    broker_ids: Iterable[int] = (),
    topics: Iterable[str] = (),
) -> dict[ResourceType, ConfigResource]:
    """The resource whose describe serves as the schema of each of ``kinds`` (the keys, types
    and read-only flags its resources take; see :attr:`ClusterState.schemas`).

    One rule for every reader of cluster state: the first resource of the kind among
    ``described`` (brokers by id, others by name), never the cluster default (``BROKER ""``
    lists only what it sets); when none is, the first of the cluster's own ``broker_ids`` or
    ``topics``, to describe as well. A kind with neither gets no schema.
    """
    wanted = set(kinds)
    candidates: dict[ResourceType, list[ConfigResource]] = {kind: [] for kind in wanted}
    for resource in described:
        if resource.type in wanted and resource.name:
            candidates[resource.type].append(resource)
    if ResourceType.BROKER in wanted and not candidates[ResourceType.BROKER]:
        candidates[ResourceType.BROKER] = [
            ConfigResource(ResourceType.BROKER, str(broker)) for broker in broker_ids
        ]
    if ResourceType.TOPIC in wanted and not candidates[ResourceType.TOPIC]:
        candidates[ResourceType.TOPIC] = [ConfigResource(ResourceType.TOPIC, t) for t in topics]
    return {kind: min(found, key=_schema_order) for kind, found in candidates.items() if found}


def _schema_order(resource: ConfigResource) -> tuple[int, str]:
    """Names that are broker ids by number (2 before 10), then the others by name."""
    if is_broker_id(resource.name):
        return int(resource.name), ""
    return MAX_BROKER_ID + 1, resource.name


def sensitive_key(key: str, info: ConfigEntry | None, kind: ConfigType) -> bool:
    """Whether a key's value must never be shown, by what the cluster says of it (``info``)
    and its type (:func:`known_type`): see :meth:`ClusterState.is_sensitive`."""
    return is_sensitive(key, info) or kind is ConfigType.PASSWORD


def known_type(info: ConfigEntry | None, spec: CatalogKey | None) -> ConfigType:
    """A key's type from the broker's entry (KIP-569), else from the catalog, else UNKNOWN."""
    if info is not None and info.type is not ConfigType.UNKNOWN:
        return info.type
    return ConfigType.UNKNOWN if spec is None else spec.type
