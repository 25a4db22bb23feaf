"""The config catalog: what Kafka's own ConfigDefs say of each key, per Kafka release.

One JSON file per release (``catalogs/<release>.json``, written by ``tools/config_catalog.py``
from the release's jars) gives, for topic, broker, group and client-metrics configs, each key's
type, default, importance, valid values (enum members, numeric range, list members, whether an
empty list is allowed) and, for broker keys, the dynamic update mode. A file is read the first
time it is asked for, never at import, and once per process.

A broker says which release it is only through what it supports: :func:`match_catalog` picks
the catalog whose API versions are closest to the ones the broker advertises, never newer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any

from .._exceptions import InvalidArgumentError
from .configs import ConfigType, ResourceType, unknown_member

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = [
    "CatalogKey",
    "CatalogMatch",
    "ConfigCatalog",
    "UpdateMode",
    "ValidValues",
    "ValueRule",
    "catalog_releases",
    "config_types_lacking",
    "load_catalog",
    "match_catalog",
    "releases_with_key",
]

_KINDS = {
    "topic": ResourceType.TOPIC,
    "broker": ResourceType.BROKER,
    "group": ResourceType.GROUP,
    "client_metrics": ResourceType.CLIENT_METRICS,
}


class UpdateMode(StrEnum):
    """How a broker key may be changed while the broker runs (Kafka's dynamic update mode)."""

    #: Only in the broker's properties file, with a restart.
    READ_ONLY = "read-only"
    #: Per broker only: never on the cluster default (the broker refuses it there).
    PER_BROKER = "per-broker"
    #: On the cluster default, and also per broker (Kafka allows it, "for testing").
    CLUSTER_WIDE = "cluster-wide"

    @classmethod
    def _missing_(cls, value: object) -> UpdateMode | None:
        raise unknown_member(cls, value)


@dataclass(frozen=True)
class ValidValues:
    """What Kafka's validator of a key allows.

    Attributes:
        members: the allowed strings (an enum), or for a list the allowed members; None: any.
        case_insensitive: whether ``members`` are matched in any case (Kafka's
            CaseInsensitiveValidString); otherwise exactly.
        is_list: members apply to each member of a LIST value.
        empty_allowed: for a list, whether the empty list is allowed.
        distinct_members: for a list, whether an empty member is refused (KIP-1161's
            ValidList, Kafka 4.2 on; a member given twice is dropped before it is checked);
            before, only members outside ``members`` were.
        non_empty: a string that must not be empty.
        minimum, maximum: the inclusive numeric range; None where open.
        also: numbers allowed outside the range (``compression.gzip.level``'s validator,
            ``[1,...,9] or -1``).
        text: the validator in Kafka's own words (its toString), as the docs show it.
    """

    members: tuple[str, ...] | None = None
    case_insensitive: bool = False
    is_list: bool = False
    empty_allowed: bool = True
    distinct_members: bool = False
    non_empty: bool = False
    minimum: int | float | None = None
    maximum: int | float | None = None
    also: tuple[int | float, ...] = ()
    text: str | None = None

    def describe(self) -> str:
        """What is allowed, in words: ``one of: delete, compact``, ``at least 1048576``."""
        parts: list[str] = []
        if self.members is not None:
            which = "each member one of" if self.is_list else "one of"
            case = " (any case)" if self.case_insensitive else ""
            parts.append(f"{which}: {', '.join(self.members)}{case}")
        if self.is_list and not self.empty_allowed:
            parts.append("not empty")
        if self.distinct_members:
            parts.append("no empty member")
        if self.non_empty:
            parts.append("a non-empty string")
        if self.minimum is not None and self.maximum is not None:
            parts.append(f"{self.minimum} to {self.maximum}")
        elif self.minimum is not None:
            parts.append(f"at least {self.minimum}")
        elif self.maximum is not None:
            parts.append(f"at most {self.maximum}")
        if self.also and parts:
            parts[-1] += f", or {', '.join(str(number) for number in self.also)}"
        if not parts and self.text:
            parts.append(self.text)
        return "; ".join(parts)


@dataclass(frozen=True)
class CatalogKey:
    """One key as a release's ConfigDef defines it.

    ``default`` is the value as the broker shows it (None: no default, or null);
    ``required`` is true for a key with no default at all; ``update_mode`` is set for broker
    keys only; ``valid`` is None when the key has no validator. A per-listener key
    (:meth:`ConfigCatalog.listener_key`) names its ``listener``; ``value_unchecked`` says that
    Kafka's dynamic-key ConfigDef does not check its value (the prefixed form of a read-only
    key): only the listener's own channel does, where the broker serves the listener.
    """

    name: str
    resource_type: ResourceType
    type: ConfigType
    importance: str
    default: str | None = None
    required: bool = False
    update_mode: UpdateMode | None = None
    valid: ValidValues | None = None
    listener: str | None = None
    value_unchecked: bool = False


#: A per-listener broker key: ``listener.name.<listener>.<key>`` (Kafka's ListenerConfigRegex).
_LISTENER_KEY = re.compile(r"listener\.name\.(?P<listener>[^.]*)\.(?P<key>.+)")

#: The keys a listener may set on the cluster default (Kafka's ClusterLevelListenerConfigs:
#: max.connections from 2.x, the others added later; a release that refuses one of them there
#: is left to say so itself). Every other per-listener key is taken per broker only.
_CLUSTER_LEVEL_LISTENER_KEYS = frozenset(
    {"max.connections", "max.connection.creation.rate", "num.network.threads"}
)

#: Connection limits each listener refuses below 1 (its validateReconfiguration: "Invalid
#: max.connections 0"), set for the broker or for one listener.
_AT_LEAST_ONE = frozenset({"max.connections", "max.connection.creation.rate"})

_LONG_MIN = -(2**63)

#: Integers a broker refuses for a key beyond the key's validator: (low, high, reason).
_REFUSED_RANGES: Mapping[str, tuple[int, int, str]] = {
    **{
        key: (_LONG_MIN, 0, "a listener's connection limit must be at least 1")
        for key in _AT_LEAST_ONE
    },
    "log.roll.ms": (_LONG_MIN, 0, "log.roll.ms must be at least 1"),
    "log.roll.jitter.ms": (_LONG_MIN, -1, "log.roll.jitter.ms must be at least 0"),
    "log.retention.ms": (0, 0, "log.retention.ms must be -1 (unlimited) or at least 1"),
    "log.cleaner.threads": (_LONG_MIN, 0, "the log cleaner needs at least 1 thread"),
}

#: Integers Kafka allows for a key of another resource type beyond the key's validator, where
#: it checks them whatever the other keys are: (resource type, key) -> (low, high, reason).
_ALLOWED_RANGES: Mapping[tuple[ResourceType, str], tuple[int, int, str]] = {
    # ClientMetricsConfigs.validateConfigs, from client metrics' start (Kafka 3.7).
    (ResourceType.CLIENT_METRICS, "interval.ms"): (
        100,
        3_600_000,
        "a push interval must be between 100 and 3600000 ms (1 hour)",
    ),
}

#: The SASL keys a listener sets per mechanism, ``listener.name.<l>.<mechanism>.<key>``
#: (Kafka's DynamicBrokerConfig.ListenerMechanismConfigs).
_LISTENER_MECHANISM_KEYS = frozenset(
    {
        "sasl.jaas.config",
        "sasl.login.callback.handler.class",
        "sasl.login.class",
        "sasl.server.callback.handler.class",
        "connections.max.reauth.ms",
    }
)


#: The SSL keys a broker takes only per listener (Kafka's SslConfigs.RECONFIGURABLE_CONFIGS;
#: a release without one of them simply does not have the key).
_PER_LISTENER_ONLY = frozenset(
    {
        "ssl.keystore.type",
        "ssl.keystore.location",
        "ssl.keystore.password",
        "ssl.key.password",
        "ssl.truststore.type",
        "ssl.truststore.location",
        "ssl.truststore.password",
        "ssl.keystore.certificate.chain",
        "ssl.keystore.key",
        "ssl.truststore.certificates",
    }
)


class ValueRule(StrEnum):
    """How a release's broker parses a value beyond the key's validator (where the catalog
    keeps only the validator's words, or the key has none), refusing what does not parse."""

    #: ``compression.type`` of a broker: one of BrokerCompressionCodec's names, in any case.
    BROKER_COMPRESSION = "broker-compression"
    #: ``message.format.version``: a version ApiVersion knows, or its short form (``2.5``).
    API_VERSION = "api-version"
    #: ``listeners``, ``advertised.listeners``: at least one ``NAME://host:port`` endpoint.
    ENDPOINTS = "endpoints"
    #: ``max.connections.per.ip.overrides``: ``host:count`` entries, each with a colon.
    CSV_MAP = "csv-map"
    #: ``listener.security.protocol.map``: at least one ``NAME:PROTOCOL`` entry, each
    #: protocol one Kafka has.
    PROTOCOL_MAP = "protocol-map"
    #: ``leader/follower.replication.throttled.replicas``: ``*``, or ``partition:broker``s.
    THROTTLED_REPLICAS = "throttled-replicas"


#: The value rules read from a release's own sources (KafkaConfig's construction and
#: ``validateValues``, CoreUtils' maps and lists, EndPoint, ApiVersion, ConfigHandler's
#: throttled-replica validator), per release: a release not listed has none until its sources
#: are read. A broker key's rule holds for one broker id (its own values stand last); on the
#: cluster default a broker's own value may stand instead, so the broker judges there.
_VALUE_RULES: Mapping[str, Mapping[tuple[ResourceType, str], ValueRule]] = {
    "2.5.1": {
        (ResourceType.BROKER, "compression.type"): ValueRule.BROKER_COMPRESSION,
        (ResourceType.BROKER, "listeners"): ValueRule.ENDPOINTS,
        (ResourceType.BROKER, "advertised.listeners"): ValueRule.ENDPOINTS,
        (ResourceType.BROKER, "max.connections.per.ip.overrides"): ValueRule.CSV_MAP,
        (ResourceType.BROKER, "listener.security.protocol.map"): ValueRule.PROTOCOL_MAP,
        (ResourceType.TOPIC, "message.format.version"): ValueRule.API_VERSION,
        (ResourceType.TOPIC, "leader.replication.throttled.replicas"): (
            ValueRule.THROTTLED_REPLICAS
        ),
        (ResourceType.TOPIC, "follower.replication.throttled.replicas"): (
            ValueRule.THROTTLED_REPLICAS
        ),
    },
}

#: Thread pools Kafka resizes at run time only within half and double the current size.
_RESIZE_LIMITED = frozenset(
    {
        "num.io.threads",
        "num.replica.fetchers",
        "num.recovery.threads.per.data.dir",
        "background.threads",
        "num.network.threads",
        "remote.log.manager.copier.thread.pool.size",
        "remote.log.manager.expiration.thread.pool.size",
        "remote.log.manager.follower.thread.pool.size",
        "remote.log.reader.threads",
        "log.cleaner.threads",
    }
)


class ConfigCatalog:
    """The keys of one Kafka release, per resource type (see :func:`load_catalog`)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.release: str = data["release"]
        #: The highest version of each API key that the release's brokers advertise.
        self.api_versions: Mapping[int, int] = {
            int(api): int(version) for api, version in data["api_versions"].items()
        }
        self._raw: dict[ResourceType, Mapping[str, Any]] = {
            _KINDS[kind]: keys for kind, keys in data["kinds"].items() if kind in _KINDS
        }
        self._keys: dict[tuple[ResourceType, str], CatalogKey] = {}

    @property
    def resource_types(self) -> frozenset[ResourceType]:
        """The resource types this release has configs for (groups from 4.0, client metrics
        from 3.7)."""
        return frozenset(self._raw)

    def covers(self, resource_type: ResourceType) -> bool:
        """Whether this release defines the configs of ``resource_type``."""
        return resource_type in self._raw

    def names(self, resource_type: ResourceType) -> list[str]:
        """The keys of ``resource_type``, sorted."""
        return sorted(self._raw.get(resource_type, {}))

    def get(self, resource_type: ResourceType, name: str) -> CatalogKey | None:
        """The key ``name`` of ``resource_type``; None when this release does not have it."""
        cached = self._keys.get((resource_type, name))
        if cached is not None:
            return cached
        raw = self._raw.get(resource_type, {}).get(name)
        if raw is None:
            return None
        key = _key(name, resource_type, raw)
        self._keys[(resource_type, name)] = key
        return key

    @staticmethod
    def is_listener_key(name: str) -> bool:
        """Whether ``name`` is a per-listener broker key, ``listener.name.<listener>.<key>``."""
        return _LISTENER_KEY.fullmatch(name) is not None

    def lookup(self, resource_type: ResourceType, name: str) -> CatalogKey | None:
        """Key ``name`` of ``resource_type`` (:meth:`get`), or for a broker the key a
        per-listener key prefixes (:meth:`listener_key`); None when this release has neither."""
        found = self.get(resource_type, name)
        if found is None and resource_type is ResourceType.BROKER:
            return self.listener_key(name)
        return found

    def listener_key(self, name: str) -> CatalogKey | None:
        """The broker key a per-listener key sets for one listener, or None.

        Kafka takes ``listener.name.<listener>.<key>`` (the listener's name has no dot) for a
        broker key, and ``listener.name.<listener>.<mechanism>.<key>`` for the SASL keys a
        mechanism has its own of (``sasl.jaas.config`` and the like): the key it prefixes,
        with that key's type, valid values and update mode, named as given.
        """
        match = _LISTENER_KEY.fullmatch(name)
        if match is None:
            return None
        base = self.get(ResourceType.BROKER, match["key"])
        if base is None:
            mechanism_key = match["key"].partition(".")[2]
            if mechanism_key not in _LISTENER_MECHANISM_KEYS:
                return None
            base = self.get(ResourceType.BROKER, mechanism_key)
            if base is None:
                return None
        # Kafka validates a listener's key with the ConfigDef of its dynamic keys: the value of
        # a key whose base is read-only goes unchecked there (only the listener's own channel
        # checks it, on a broker that serves the listener).
        unchecked = base.update_mode is UpdateMode.READ_ONLY
        # Kafka checks a prefixed name against its non-dynamic keys as it is (a listener's key
        # of a read-only base is not refused as read-only), and takes it per broker only,
        # but for the few keys a listener may set cluster-wide.
        mode = (
            UpdateMode.CLUSTER_WIDE
            if base.name in _CLUSTER_LEVEL_LISTENER_KEYS
            else UpdateMode.PER_BROKER
        )
        return replace(
            base,
            name=name,
            update_mode=mode,
            listener=match["listener"],
            value_unchecked=unchecked,
        )

    def per_broker_listener_key(self, name: str) -> bool:
        """Whether ``name`` is a per-listener key Kafka refuses on the cluster default: every
        ``listener.name.<listener>.<key>`` but those of the few keys a listener may set
        cluster-wide (Kafka decides by the name alone, whatever the key)."""
        match = _LISTENER_KEY.fullmatch(name)
        return match is not None and match["key"] not in _CLUSTER_LEVEL_LISTENER_KEYS

    def refused_range(self, name: str) -> tuple[int, int, str] | None:
        """The integers Kafka refuses for broker key ``name`` (or the key a per-listener key
        prefixes) beyond its validator, inclusive, with Kafka's reason; None: no such rule.

        These are the broker's own requirements of a new configuration (KafkaConfig's and
        each listener's checks), which hold whatever the other keys are."""
        match = _LISTENER_KEY.fullmatch(name)
        key = name if match is None else match["key"]
        rule = _REFUSED_RANGES.get(key)
        if rule is None or self.get(ResourceType.BROKER, key) is None:
            return None
        if match is not None and key not in _AT_LEAST_ONE:
            return None  # a listener checks only its connection limits
        return rule

    def allowed_range(self, resource_type: ResourceType, name: str) -> tuple[int, int, str] | None:
        """The integers Kafka allows for key ``name`` of a resource type other than brokers
        beyond its validator, inclusive, with Kafka's reason; None: no such rule (or a release
        without the key)."""
        rule = _ALLOWED_RANGES.get((resource_type, name))
        if rule is None or self.get(resource_type, name) is None:
            return None
        return rule

    def value_rule(self, resource_type: ResourceType, name: str) -> ValueRule | None:
        """How this release's broker parses a value of key ``name`` beyond its validator
        (:class:`ValueRule`), or None: no rule read from this release's sources."""
        return _VALUE_RULES.get(self.release, {}).get((resource_type, name))

    @property
    def broker_refuses_a_member_twice(self) -> bool:
        """Whether one broker id refuses a list (KIP-1161's, the catalog's ``distinct_members``)
        with a member given twice: Kafka 4.4 on (the differential test sees 4.4.0 refuse it and
        4.3.1 take it)."""
        return _release_order(self.release) >= (4, 4)

    def per_listener_only(self, name: str) -> bool:
        """Whether Kafka takes broker key ``name`` only per listener: the SSL keys a broker
        reloads at run time (Kafka's SslConfigs.RECONFIGURABLE_CONFIGS), refused without the
        ``listener.name.<listener>.`` prefix on a broker and on the cluster default."""
        return name in _PER_LISTENER_ONLY and self.get(ResourceType.BROKER, name) is not None

    def resize_limited(self, name: str) -> bool:
        """Whether broker key ``name`` sizes a thread pool that Kafka resizes at run time only
        to between half and double its current size (DynamicThreadPool and the remote log
        manager's pools)."""
        return name in _RESIZE_LIMITED and self.get(ResourceType.BROKER, name) is not None

    def __iter__(self) -> Iterator[CatalogKey]:
        for resource_type in sorted(self._raw):
            for name in self.names(resource_type):
                key = self.get(resource_type, name)
                assert key is not None
                yield key

    def __repr__(self) -> str:
        return f"ConfigCatalog({self.release!r})"


def _key(name: str, resource_type: ResourceType, raw: Mapping[str, Any]) -> CatalogKey:
    valid = raw.get("valid")
    mode = raw.get("update_mode")
    return CatalogKey(
        name=name,
        resource_type=resource_type,
        type=ConfigType[raw["type"]],
        importance=raw["importance"],
        default=raw.get("default"),
        required=bool(raw.get("required", False)),
        update_mode=None if mode is None else UpdateMode(mode),
        valid=None if valid is None else _valid(valid),
    )


def _valid(raw: Mapping[str, Any]) -> ValidValues:
    members = raw.get("members")
    return ValidValues(
        members=None if members is None else tuple(members),
        case_insensitive=bool(raw.get("case_insensitive", False)),
        is_list=bool(raw.get("list", False)),
        empty_allowed=bool(raw.get("empty_allowed", True)),
        distinct_members=bool(raw.get("distinct_members", False)),
        non_empty=bool(raw.get("non_empty", False)),
        minimum=raw.get("min"),
        maximum=raw.get("max"),
        also=tuple(raw.get("also", ())),
        text=raw.get("text"),
    )


#: Broker keys Kafka takes only on the cluster default while a feature is finalized at a level
#: or above: key -> (feature, level, what the feature is).
_CLUSTER_DEFAULT_ONLY: Mapping[str, tuple[str, int, str]] = {
    # KIP-966: with ELR on, the controller refuses a per-broker min.insync.replicas.
    "min.insync.replicas": (
        "eligible.leader.replicas.version",
        1,
        "Eligible Leader Replicas (KIP-966)",
    ),
}


@dataclass(frozen=True)
class CatalogMatch:
    """The catalog chosen for a broker, how sure the choice is, and the cluster's features.

    ``exact`` is true when the broker advertises exactly the release's API versions: its keys
    are then the broker's keys, so a key the catalog lacks is one this release does not have.
    Otherwise the broker is a later release than any catalog closer to it, and the catalog
    only tells valid values of the keys it has. ``features`` are the cluster's finalized
    feature levels as the broker reports them (ApiVersions v3 on; empty before Kafka 2.8).
    """

    catalog: ConfigCatalog
    exact: bool
    features: Mapping[str, int] = field(default_factory=dict)

    def lacks(self, resource_type: ResourceType) -> bool:
        """Whether the broker surely has no configs of ``resource_type``: it is exactly a
        release whose catalog has none (a broker between two catalogs may have them)."""
        return self.exact and not self.catalog.covers(resource_type)

    def cluster_default_only(self, key: str) -> str | None:
        """Why broker key ``key`` is taken only on the cluster default on this cluster (a
        feature it has finalized), or None when it may be set for one broker."""
        rule = _CLUSTER_DEFAULT_ONLY.get(key)
        if rule is None:
            return None
        feature, level, what = rule
        have = self.features.get(feature, 0)
        if have < level:
            return None
        return f"{what} is on ({feature}={have})"


def _release_order(release: str) -> tuple[int, ...]:
    """A release as a sort key: ``"3.10.0"`` after ``"3.9.1"``."""
    return tuple(int(part) for part in release.split("."))


def _files() -> Traversable:
    """The catalog files' folder in the installed package."""
    from importlib import resources  # here, not at import: it costs every start of the SDK

    return resources.files(__package__).joinpath("catalogs")


@cache
def catalog_releases() -> tuple[str, ...]:
    """The releases the package has a catalog for, oldest first."""
    found = [
        entry.name.removesuffix(".json")
        for entry in _files().iterdir()
        if entry.name.endswith(".json")
    ]
    return tuple(sorted(found, key=_release_order))


@cache
def load_catalog(release: str) -> ConfigCatalog:
    """The catalog of ``release`` (``"4.4.0"``), read from the package once.

    Raises :class:`InvalidArgumentError` for a release without a catalog, naming those that
    have one.
    """
    if release not in catalog_releases():
        raise InvalidArgumentError(
            f"no config catalog for Kafka {release!r}: the package has "
            f"{', '.join(catalog_releases())}"
        )
    import json  # here, not at import: only a catalog's first use needs it

    text = _files().joinpath(f"{release}.json").read_text()
    return ConfigCatalog(json.loads(text))


def match_catalog(api_versions: Mapping[int, int | tuple[int, int]]) -> CatalogMatch | None:
    """The catalog for a broker that advertises ``api_versions`` (API key -> max version, or
    (min, max)), or None when the broker is older than every catalog.

    Candidates are the releases no newer than the broker on any API both know (a release
    whose API is newer than the broker's cannot be it); among them the closest one wins (the
    least sum of version differences), the newer one on a tie. Newest first, so that a broker
    of the newest release loads one catalog, not all.
    """
    advertised = {
        int(api): int(version[1] if isinstance(version, tuple) else version)
        for api, version in api_versions.items()
    }
    best: tuple[int, ConfigCatalog] | None = None
    for release in reversed(catalog_releases()):
        catalog = load_catalog(release)
        shared = advertised.keys() & catalog.api_versions.keys()
        if not shared or any(catalog.api_versions[api] > advertised[api] for api in shared):
            continue
        distance = sum(advertised[api] - catalog.api_versions[api] for api in shared)
        if best is None or distance < best[0]:
            best = (distance, catalog)
        if distance == 0:
            break  # exactly this release: no older one comes closer
    if best is None:
        return None
    return CatalogMatch(catalog=best[1], exact=best[0] == 0)


def releases_with_key(resource_type: ResourceType, name: str) -> list[str]:
    """The releases whose catalog has the key (to say when a key came or went)."""
    return [
        release
        for release in catalog_releases()
        if load_catalog(release).get(resource_type, name) is not None
    ]


#: The resource types that came after the oldest catalog, so a broker may lack them.
_NEWER_CONFIG_TYPES = (ResourceType.GROUP, ResourceType.CLIENT_METRICS)

_TYPE_WORDS = {ResourceType.GROUP: "group configs", ResourceType.CLIENT_METRICS: "client metrics"}


def config_types_lacking(
    match: CatalogMatch | None, types: Iterable[ResourceType]
) -> dict[ResourceType, str]:
    """Of ``types``, those a broker matched to ``match`` (None: older than every catalog) has
    no configs of, each with why. A describe of one fails the whole request on such a broker
    (Kafka 3.9 answers INVALID_REQUEST, "Unknown resource type 32", for a GROUP)."""
    lacking: dict[ResourceType, str] = {}
    for resource_type in types:
        if resource_type not in _NEWER_CONFIG_TYPES:
            continue
        if match is not None and not match.lacks(resource_type):
            continue
        first = next((r for r in catalog_releases() if load_catalog(r).covers(resource_type)), None)
        release = (
            f"Kafka {match.catalog.release}"
            if match
            else f"older than Kafka {catalog_releases()[0]}"
        )
        lacking[resource_type] = (
            f"the broker ({release}) has no {_TYPE_WORDS[resource_type]}"
            + (f" (Kafka {first} has them)" if first else "")
            + ": none are read"
        )
    return lacking
