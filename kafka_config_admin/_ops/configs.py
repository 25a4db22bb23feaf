"""What each call sends and how its answers become per-key outcomes (no I/O).

The config calls: DescribeConfigs, AlterConfigs and IncrementalAlterConfigs, keyed by
``ConfigResource``, on the operation base of ``base``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, TypeVar

from .._exceptions import BrokerError, InvalidArgumentError, error_for_code
from .._models.configs import (
    AlterConfigOp,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigSynonym,
    ConfigType,
    OpType,
    ResourceType,
    config_of,
    trusted,
)
from .._models.redaction import redact
from .._models.validation import (
    MAX_BROKER_ID,
    MAX_STRING_BYTES,
    check_flag,
    check_string,
    is_broker_id,
    shorten,
)
from .._protocol import (
    ALTER_CONFIGS,
    ANSWERED_BY,
    DESCRIBE_CONFIGS,
    INCREMENTAL_ALTER_CONFIGS,
    LIST_CONFIG_RESOURCES,
    Answerer,
    Memo,
)
from .base import Operation
from .documentation import Documentation

__all__ = [
    "AlterConfigs",
    "ConfigOperation",
    "DescribeConfigs",
    "EntryCache",
    "IncrementalAlterConfigs",
    "ListConfigResources",
    "ListedResources",
    "SharedConfigOperation",
    "Withheld",
]

T = TypeVar("T")

#: Resources that only the broker named in them can answer.
_PER_BROKER_TYPES = frozenset({ResourceType.BROKER, ResourceType.BROKER_LOGGER})
#: Resource types of the config APIs since they came (Kafka 0.11 and 2.0).
_EVERY_BROKER_KNOWS = frozenset({ResourceType.TOPIC, *_PER_BROKER_TYPES})


def check_resources(resources: Iterable[ConfigResource]) -> list[ConfigResource]:
    """Reject resources that cannot be sent: wrong type, empty topic, bad broker id, repeats."""
    checked = list(resources)
    for resource in checked:
        if not isinstance(resource, ConfigResource):
            raise InvalidArgumentError(
                f"expected a ConfigResource, got {type(resource).__name__}: {resource!r}"
            )
        name = resource.name
        if (  # the common case, a short ASCII name of a named type, is fine as it is
            resource.type not in _NAMED_TYPES
            or not name
            or len(name) > MAX_STRING_BYTES
            or not name.isascii()
        ):
            _check_resource(resource)
    # A mapping's keys cannot repeat; any other collection is checked.
    if not isinstance(resources, Mapping) and len(set(checked)) != len(checked):
        seen: set[ConfigResource] = set()
        for resource in checked:
            if resource in seen:
                raise InvalidArgumentError(f"{resource} appears twice in one call")
            seen.add(resource)
    return checked


#: Types whose resources are valid with any non-empty name.
_NAMED_TYPES = frozenset({ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLIENT_METRICS})


def _check_resource(resource: ConfigResource) -> None:
    check_string(f"the name of {resource.type.name} {shorten(resource.name)}", resource.name)
    if resource.type is ResourceType.UNKNOWN:
        raise InvalidArgumentError(f"{resource!r} has an unknown resource type")
    if resource.type is ResourceType.BROKER_LOGGER and resource.name == "":
        raise InvalidArgumentError("BROKER_LOGGER resources need a broker id")
    if resource.type is not ResourceType.BROKER and resource.name == "":
        raise InvalidArgumentError(
            f"{resource.type.name} resources need a name (only BROKER '' means the "
            "cluster-wide default)"
        )
    if resource.type in _PER_BROKER_TYPES and resource.name and not is_broker_id(resource.name):
        raise InvalidArgumentError(
            f"{resource.type.name} resource name must be a broker id (0 to {MAX_BROKER_ID}), "
            f"got {resource.name!r}"
        )


def _check_names(resource: ConfigResource, names: Iterable[str]) -> None:
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name:
            raise InvalidArgumentError(
                f"config names must be non-empty strings, got {name!r} for {resource}"
            )
        if len(name) > MAX_STRING_BYTES or not name.isascii():
            check_string(f"config name {shorten(name)} of {resource}", name)
        if name in seen:
            raise InvalidArgumentError(f"config {name!r} appears twice for {resource}")
        seen.add(name)


def _key(resource_type: int, resource_name: str) -> tuple[int, str]:
    return resource_type, resource_name


class ConfigOperation(Operation[ConfigResource, T]):
    """A config API call: keyed by ConfigResource, BROKER and BROKER_LOGGER routed to their id."""

    #: Resources to ask of one node only, whichever broker could answer them.
    pinned: Mapping[ConfigResource, int] | None = None

    def destination(self, resource: ConfigResource) -> int | None:
        if self.pinned is not None and resource in self.pinned:
            return self.pinned[resource]
        if resource.type in _PER_BROKER_TYPES and resource.name != "":
            return int(resource.name)
        return None

    def kept_apart(self, resource: ConfigResource) -> object:
        """A newer resource type (GROUP, CLIENT_METRICS) goes in requests of its own.

        A broker that does not know a resource type fails the whole DescribeConfigs or
        AlterConfigs request that holds it (Kafka 2.5 and 3.9 alike: INVALID_REQUEST for every
        resource); apart, only the resources of that type fail.
        """
        return None if resource.type in _EVERY_BROKER_KNOWS else resource.type

    def subject(self, resource: ConfigResource) -> ConfigResource:
        return resource

    def outcomes(
        self, resources: Sequence[ConfigResource], response: Mapping[str, Any]
    ) -> Iterator[tuple[ConfigResource, T | BrokerError]]:
        # The hot path of large describes and alters: matched by position without building a
        # ConfigResource per result.
        results = response[self._results_key]
        if len(results) == len(resources) and all(  # brokers answer in the order asked
            r.name == result["resource_name"] and r.type == result["resource_type"]
            for r, result in zip(resources, results, strict=True)
        ):
            for resource, result in zip(resources, results, strict=True):
                yield resource, self._outcome(resource, result)
            return
        wanted = {_key(r.type, r.name): r for r in resources}
        for result in results:
            asked = wanted.pop(_key(result["resource_type"], result["resource_name"]), None)
            if asked is None and result["resource_type"] == ResourceType.UNKNOWN:
                asked = _unknown_type_echo(wanted, result["resource_name"])
            if asked is not None:  # an answer for something we did not ask: ignore, as Java does
                yield asked, self._outcome(asked, result)
        for resource in wanted.values():
            yield resource, self.unanswered(resource)


def _unknown_type_echo(
    wanted: dict[tuple[int, str], ConfigResource], name: str
) -> ConfigResource | None:
    """The resource a broker answered as type UNKNOWN (0): one of a type it does not know.

    Kafka 2.5 fails such a request and names its resources with the types it knows, so a
    GROUP resource comes back as UNKNOWN. Resources of one newer type share a
    request (``kept_apart``), so the name is enough.
    """
    for key, resource in wanted.items():
        if resource.name == name and resource.type not in _EVERY_BROKER_KNOWS:
            return wanted.pop(key)
    return None


class SharedConfigOperation(ConfigOperation[T]):
    """A config call whose request may carry the resources of other calls too (the coalescing).

    What the request says of one resource is its *part* (a describe's config names, an alter's
    ops); calls with the same :attr:`gathering_flags` to the same broker may share a request
    built by :meth:`body_for` from every call's parts.
    """

    #: Whether two calls naming one resource with equal parts may share a request (a read);
    #: a change never does: two changes to one resource apply one after the other.
    shares_a_resource = False

    @property
    def gathering_flags(self) -> tuple[bool, ...]:
        """The request-wide flags calls must agree on to share a request."""
        raise NotImplementedError

    def parts(self) -> Iterable[tuple[ConfigResource, Any]]:
        """Each resource of the call with its part of the request."""
        raise NotImplementedError

    def body_for(self, parts: Mapping[ConfigResource, Any], version: int) -> dict[str, Any]:
        """The body for ``parts`` (resources, maybe of other calls, with their parts)."""
        raise NotImplementedError

    @property
    def results_key(self) -> str:
        """The response field with one result per resource."""
        return self._results_key


# --- DescribeConfigs ------------------------------------------------------------------------

_V0_SOURCE = {
    ResourceType.BROKER: ConfigSource.STATIC_BROKER_CONFIG,
    ResourceType.TOPIC: ConfigSource.TOPIC_CONFIG,
}


_SOURCES = {source.value: source for source in ConfigSource}
_TYPES = {kind.value: kind for kind in ConfigType}


#: The last Config shaped, with what it was shaped from: nothing yet.
_NO_CONFIG_YET: tuple[ResourceType, object, Config] = (ResourceType.UNKNOWN, None, config_of(()))


class EntryCache:
    """The ConfigEntry models of one client, shared by every describe it makes.

    Most entries repeat: every topic has the same default ``retention.ms``, with the same
    type, documentation and synonyms, in one describe and in the next. The models are frozen,
    so one model serves every identical entry. The decoder hands back one object for entries
    identical on the wire (``Struct(shared=True)``, with ``wire_memo`` kept across responses),
    so most entries are found by that object's identity; the rest by their content. Decoded
    objects are kept with their models so that an identity is never reused while cached. Past
    ``limit`` entries everything is dropped and the cache starts again: memory stays bounded.
    Whole configs are shared the same way when the decoder gives back the list of entries it
    decoded last (byte-identical configs in a row); Config is frozen too.
    """

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self.wire_memo = Memo()
        self._synonyms: dict[tuple[str, str | None, int], ConfigSynonym] = {}
        self._by_identity: dict[tuple[ResourceType, int], tuple[object, ConfigEntry]] = {}
        self._by_content: dict[tuple[Any, ...], ConfigEntry] = {}
        self._last: tuple[ResourceType, object, Config] = _NO_CONFIG_YET

    def config(self, resource_type: ResourceType, raw_entries: list[dict[str, Any]]) -> Config:
        # The decoder hands back the list it decoded last when the configs that follow are
        # byte-identical (topics without overrides, the same topic asked again): one Config.
        last_type, last_entries, last_config = self._last
        if raw_entries is last_entries and resource_type is last_type:
            return last_config
        if len(self._by_identity) > self.limit or len(self.wire_memo) > self.limit:
            self.clear()
        by_identity = self._by_identity
        shaped = []
        for raw in raw_entries:
            known = by_identity.get((resource_type, id(raw)))  # v0 derives the source from it
            if known is None:
                known = by_identity[resource_type, id(raw)] = (raw, self.entry(resource_type, raw))
            shaped.append(known[1])
        config = config_of(tuple(shaped))
        self._last = (resource_type, raw_entries, config)
        return config

    def clear(self) -> None:
        for cache in (self.wire_memo, self._synonyms, self._by_identity, self._by_content):
            cache.clear()
        self._last = _NO_CONFIG_YET

    def entry(self, resource_type: ResourceType, raw: dict[str, Any]) -> ConfigEntry:
        synonyms = tuple(
            [self.synonym(s["name"], s["value"], s["source"]) for s in raw["synonyms"]]
        )
        key = (
            resource_type,  # v0 derives the source from it
            raw["name"],
            raw["value"],
            raw["config_source"],
            raw["is_default"],
            raw["is_sensitive"],
            raw["read_only"],
            raw["config_type"],
            raw["documentation"],
            *map(id, synonyms),  # the synonyms are themselves shared, so identity is enough
        )
        entry = self._by_content.get(key)
        if entry is None:
            entry = self._by_content[key] = _new_entry(resource_type, raw, synonyms)
        return entry

    def synonym(self, name: str, value: str | None, source: int) -> ConfigSynonym:
        key = (name, value, source)
        synonym = self._synonyms.get(key)
        if synonym is None:
            synonym = self._synonyms[key] = trusted(
                ConfigSynonym,
                {
                    "name": name,
                    "value": value,
                    "source": _SOURCES.get(source, ConfigSource.UNKNOWN),
                },
            )
        return synonym


def _new_entry(
    resource_type: ResourceType, raw: dict[str, Any], synonyms: tuple[ConfigSynonym, ...]
) -> ConfigEntry:
    source_id = raw["config_source"]
    if source_id == -1:  # v0 has no source; derive it as the Java client does
        source = (
            ConfigSource.DEFAULT_CONFIG
            if raw["is_default"]
            else _V0_SOURCE.get(resource_type, ConfigSource.UNKNOWN)
        )
    else:
        source = _SOURCES.get(source_id, ConfigSource.UNKNOWN)
    return trusted(
        ConfigEntry,
        {
            "name": raw["name"],
            "value": raw["value"],
            "source": source,
            "is_default": source is ConfigSource.DEFAULT_CONFIG,
            "is_sensitive": raw["is_sensitive"],
            "is_read_only": raw["read_only"],
            "synonyms": synonyms,
            "type": _TYPES.get(raw["config_type"], ConfigType.UNKNOWN),
            "documentation": raw["documentation"],
        },
    )


#: Answers a describe could not fill with documentation: who answered (None: unknown) and what.
Withheld = dict[ConfigResource, tuple[Answerer | None, Config]]


@dataclass
class DescribeConfigs(SharedConfigOperation[Config]):
    """DescribeConfigs (KIP-133), with synonyms (KIP-226) and type and documentation (KIP-569).

    Against a broker older than v3 the type is UNKNOWN and documentation None; before v1 there
    are no synonyms. Both degrade silently, as KIP-569 describes.
    """

    keys: dict[ConfigResource, list[str] | None]
    include_synonyms: bool
    include_documentation: bool
    entries: EntryCache = field(default_factory=EntryCache, repr=False, compare=False)
    #: Where each resource's answer came from is written here (``Answerer``), when given.
    answerers: dict[ConfigResource, Answerer] | None = field(default=None, repr=False)
    pinned: Mapping[ConfigResource, int] | None = None  # see ``ConfigOperation``
    #: With ``withhold``: each answer is filled from the documentation held for the broker
    #: process that sent it; the answers it cannot fill are handed to ``withhold`` (with who
    #: answered) instead of settling their futures, and the caller settles them.
    documentation: Documentation | None = field(default=None, repr=False, compare=False)
    withhold: Callable[[DescribeConfigs, Withheld], None] | None = field(
        default=None, repr=False, compare=False
    )

    codec = DESCRIBE_CONFIGS
    hedged = True
    throttle_from_version = 2
    splittable = True
    _results_key = "results"

    @classmethod
    def build(
        cls,
        resources: Iterable[ConfigResource] | Mapping[ConfigResource, Any],
        *,
        include_synonyms: bool,
        include_documentation: bool,
        entries: EntryCache | None = None,
        answerers: dict[ConfigResource, Answerer] | None = None,
        pinned: Mapping[ConfigResource, int] | None = None,
        documentation: Documentation | None = None,
        withhold: Callable[[DescribeConfigs, Withheld], None] | None = None,
    ) -> DescribeConfigs:
        if isinstance(resources, ConfigResource | str | bytes) or not isinstance(
            resources, Iterable
        ):
            raise InvalidArgumentError(
                f"resources must be a collection of ConfigResource, got {type(resources).__name__}"
            )
        keys: dict[ConfigResource, list[str] | None] = {}
        wanted = resources if isinstance(resources, Mapping) else {}
        for resource in check_resources(list(resources)):
            names = wanted.get(resource)
            if names is not None:
                if isinstance(names, str) or not isinstance(names, Iterable):
                    raise InvalidArgumentError(
                        f"config keys for {resource} must be a collection of names, "
                        f"not {type(names).__name__}"
                    )
                names = list(names)
                _check_names(resource, names)
            keys[resource] = names
        return cls(
            keys=keys,
            include_synonyms=check_flag("include_synonyms", include_synonyms),
            include_documentation=check_flag("include_documentation", include_documentation),
            entries=entries or EntryCache(),
            answerers=answerers,
            pinned=pinned,
            documentation=documentation,
            withhold=withhold,
        )

    shares_a_resource = True

    def outcomes(
        self, resources: Sequence[ConfigResource], response: Mapping[str, Any]
    ) -> Iterator[tuple[ConfigResource, Config | BrokerError]]:
        answerer = response.get(ANSWERED_BY)
        if self.answerers is not None and answerer is not None:
            self.answerers.update(dict.fromkeys(resources, answerer))
        outcomes = super().outcomes(resources, response)
        if self.documentation is None:
            return outcomes
        return self._filled(outcomes, answerer, self.documentation)

    def _filled(
        self,
        outcomes: Iterator[tuple[ConfigResource, Config | BrokerError]],
        answerer: Answerer | None,
        documentation: Documentation,
    ) -> Iterator[tuple[ConfigResource, Config | BrokerError]]:
        """Each answer filled with its documentation; what cannot be is withheld."""
        withheld: Withheld = {}
        for resource, outcome in outcomes:
            if isinstance(outcome, BrokerError):
                yield resource, outcome
                continue
            filled = (
                None if answerer is None else documentation.fill(answerer, resource.type, outcome)
            )
            if filled is None:
                withheld[resource] = (answerer, outcome)
            else:
                yield resource, filled
        if withheld:
            assert self.withhold is not None  # given with ``documentation``
            self.withhold(self, withheld)

    @property
    def resources(self) -> list[ConfigResource]:
        return list(self.keys)

    @property
    def gathering_flags(self) -> tuple[bool, ...]:
        return self.include_synonyms, self.include_documentation

    def parts(self) -> Iterable[tuple[ConfigResource, list[str] | None]]:
        return self.keys.items()

    def body(self, resources: Sequence[ConfigResource], version: int) -> dict[str, Any]:
        return self.body_for({r: self.keys[r] for r in resources}, version)

    def body_for(
        self, keys: Mapping[ConfigResource, list[str] | None], version: int
    ) -> dict[str, Any]:
        """The body asking for ``keys`` (resources, maybe of other calls, with their names)."""
        return {
            "resources": [
                {
                    "resource_type": r.type,  # an IntEnum: packed as it is
                    "resource_name": r.name,
                    "configuration_keys": names,
                }
                for r, names in keys.items()
            ],
            "include_synonyms": self.include_synonyms and version >= 1,
            "include_documentation": self.include_documentation and version >= 3,
        }

    def value(self, resource: ConfigResource, result: Mapping[str, Any]) -> Config:
        return self.entries.config(resource.type, result["configs"])

    @property
    def memo(self) -> Memo:
        return self.entries.wire_memo


# --- AlterConfigs and IncrementalAlterConfigs -------------------------------------------------


@dataclass
class IncrementalAlterConfigs(SharedConfigOperation[None]):
    """IncrementalAlterConfigs (KIP-339): SET, DELETE, APPEND and SUBTRACT per config.

    The resources and their ops are two lists in the caller's order, not a dict: a call of
    thousands of resources then hashes none of them to be built, nor to write its request.
    """

    targets: list[ConfigResource]
    op_lists: list[list[AlterConfigOp]]
    validate_only: bool
    #: Sent to a KRaft controller quorum (KIP-919), not to brokers.
    to_quorum: bool = False

    codec = INCREMENTAL_ALTER_CONFIGS
    throttle_from_version = 0
    mutates = True
    # SET and DELETE leave the same state when repeated, APPEND adds a member only if absent
    # and SUBTRACT removes it only if present; the legacy API replaces the whole set.
    hedged = True

    @classmethod
    def build(
        cls,
        configs: Mapping[ConfigResource, Iterable[AlterConfigOp]],
        *,
        validate_only: bool,
        to_quorum: bool = False,
    ) -> IncrementalAlterConfigs:
        if not isinstance(configs, Mapping):
            raise InvalidArgumentError(
                "configs must map each ConfigResource to a list of AlterConfigOp"
            )
        targets = check_resources(configs)
        # One list of ops given for many resources (dict.fromkeys) is checked once.
        checked: dict[int, list[AlterConfigOp]] = {}
        op_lists = []
        for resource, given in zip(targets, configs.values(), strict=True):
            resource_ops = checked.get(id(given))
            if resource_ops is None:
                resource_ops = checked[id(given)] = _checked_ops(resource, given)
            op_lists.append(resource_ops)
        return cls(
            targets=targets,
            op_lists=op_lists,
            validate_only=check_flag("validate_only", validate_only),
            to_quorum=to_quorum,
        )

    @property
    def resources(self) -> list[ConfigResource]:
        return self.targets

    def destination(self, resource: ConfigResource) -> int | None:
        """On a controller quorum, only a logger change goes to the node it names (each node
        sets its own log levels); the active controller commits every other change, a
        controller's configs included, as the Java client sends them."""
        if self.to_quorum and resource.type is not ResourceType.BROKER_LOGGER:
            return None
        return super().destination(resource)

    @cached_property
    def _ops_by_resource(self) -> dict[ConfigResource, list[AlterConfigOp]]:
        """For a part of the call (routed, or retried) and for errors: made only then."""
        return dict(zip(self.targets, self.op_lists, strict=True))

    @property
    def gathering_flags(self) -> tuple[bool, ...]:
        return (self.validate_only,)

    def parts(self) -> Iterable[tuple[ConfigResource, list[AlterConfigOp]]]:
        return zip(self.targets, self.op_lists, strict=True)

    def body(self, resources: Sequence[ConfigResource], version: int) -> dict[str, Any]:
        # Requests carry parts of the call: as many resources as the call means all of them.
        if len(resources) == len(self.targets):
            return self.body_for(self.parts(), version)
        return self.body_for(((r, self._ops_by_resource[r]) for r in resources), version)

    def body_for(
        self,
        parts: Mapping[ConfigResource, list[AlterConfigOp]]
        | Iterable[tuple[ConfigResource, list[AlterConfigOp]]],
        version: int,
    ) -> dict[str, Any]:
        """The body changing ``parts`` (resources, maybe of other calls, with their ops)."""
        pairs = parts.items() if isinstance(parts, Mapping) else parts
        # One ops list given for many resources becomes one configs list, which the encoder
        # writes once (``Array(repeats=True)``).
        configs_of: dict[int, list[dict[str, Any]]] = {}
        resource_bodies = []
        for r, ops in pairs:
            configs = configs_of.get(id(ops))
            if configs is None:
                configs = configs_of[id(ops)] = [
                    {"name": op.name, "config_operation": op.op, "value": op.value} for op in ops
                ]
            resource_bodies.append(
                {
                    "resource_type": r.type,  # an IntEnum: packed as it is
                    "resource_name": r.name,
                    "configs": configs,
                }
            )
        return {"resources": resource_bodies, "validate_only": self.validate_only}

    def value(self, resource: ConfigResource, result: Mapping[str, Any]) -> None:
        return None

    def redact(self, resource: ConfigResource, message: str | None) -> str | None:
        ops = self._ops_by_resource[resource]
        return redact(message, {op.name: op.value for op in ops if op.sensitive and op.value})


def _checked_ops(
    resource: ConfigResource, given: Iterable[AlterConfigOp] | AlterConfigOp
) -> list[AlterConfigOp]:
    if isinstance(given, str) or not isinstance(given, AlterConfigOp | Iterable):
        raise InvalidArgumentError(
            f"ops for {resource} must be a list of AlterConfigOp, got {type(given).__name__}"
        )
    resource_ops = [given] if isinstance(given, AlterConfigOp) else list(given)
    for op in resource_ops:
        _check_op(resource, op)
    _check_names(resource, (op.name for op in resource_ops))
    return resource_ops


def _check_op(resource: ConfigResource, op: object) -> None:
    if not isinstance(op, AlterConfigOp):
        raise InvalidArgumentError(
            f"expected AlterConfigOp for {resource}, got {type(op).__name__}"
        )
    if op.op is not OpType.DELETE and op.value is None:
        raise InvalidArgumentError(
            f"{op.op.name} of {op.name!r} for {resource} needs a value (only DELETE takes none)"
        )
    value = op.value
    if value is not None and (len(value) > MAX_STRING_BYTES or not value.isascii()):
        check_string(f"the value of {shorten(op.name)} for {resource}", value)


@dataclass
class AlterConfigs(IncrementalAlterConfigs):
    """Legacy AlterConfigs (KIP-133): replaces the resource's whole set of dynamic configs.

    Held as SET operations so that body and redaction are shared with the incremental API; the
    AlterConfigs schema has no operation field, so the codec leaves it out.
    """

    codec = ALTER_CONFIGS
    throttle_from_version = 1

    @classmethod
    def build_legacy(
        cls,
        configs: Mapping[ConfigResource, Mapping[str, Any]],
        *,
        validate_only: bool,
        to_quorum: bool = False,
    ) -> AlterConfigs:
        if not isinstance(configs, Mapping):
            raise InvalidArgumentError("configs must map each ConfigResource to {name: value}")
        targets = check_resources(configs)
        op_lists = []
        for resource, entries in zip(targets, configs.values(), strict=True):
            if not isinstance(entries, Mapping):
                raise InvalidArgumentError(
                    f"configs for {resource} must be a mapping of name to value"
                )
            _check_names(resource, entries)
            op_lists.append([_set_op(resource, name, value) for name, value in entries.items()])
        return cls(
            targets=targets,
            op_lists=op_lists,
            validate_only=check_flag("validate_only", validate_only),
            to_quorum=to_quorum,
        )


def _set_op(resource: ConfigResource, name: str, value: Any) -> AlterConfigOp:
    try:
        return AlterConfigOp(name=name, value=value)
    except InvalidArgumentError:  # the value itself stays out of the message: it may be a secret
        raise InvalidArgumentError(
            f"value of {name!r} for {resource} must be a str, int, float, bool or list, "
            f"got {type(value).__name__}"
        ) from None


# --- ListConfigResources ----------------------------------------------------------------------


class ListedResources(NamedTuple):
    """One ListConfigResources answer: the version it was asked at, (type, name) of each."""

    version: int
    resources: list[tuple[ResourceType, str]]


#: The one key of a listing: a single outcome, the whole list.
_LISTING = None


@dataclass
class ListConfigResources(Operation[None, ListedResources]):
    """ListConfigResources (KIP-1142), or ListClientMetricsResources (v0) on Kafka 3.7-4.0.

    A v0 request asks for nothing and is answered with the client-metrics resources alone:
    the answer says the version, so that the caller lists the other types another way.
    """

    types: tuple[ResourceType, ...]
    #: The version of the last request built (the broker's, negotiated on its connection).
    version: int = -1

    codec = LIST_CONFIG_RESOURCES
    throttle_from_version = 0
    hedged = True  # a read

    @property
    def resources(self) -> list[None]:
        return [_LISTING]

    def body(self, resources: Sequence[None], version: int) -> dict[str, Any]:
        self.version = version
        return {"resource_types": [int(kind) for kind in self.types]} if version >= 1 else {}

    def outcomes(
        self, resources: Sequence[None], response: Mapping[str, Any]
    ) -> Iterator[tuple[None, ListedResources | BrokerError]]:
        code = response["error_code"]
        if code:
            yield _LISTING, error_for_code(code, None, resource="the config resource list")
            return
        known = {kind.value: kind for kind in ResourceType}
        listed = [
            (known.get(item["resource_type"], ResourceType.UNKNOWN), item["resource_name"])
            for item in response["config_resources"]
        ]
        yield _LISTING, ListedResources(self.version, listed)

    def subject(self, resource: None) -> object:
        return "the config resource list"
