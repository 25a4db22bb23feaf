"""Type checks of wanted values and alter operations, before anything is sent.

Every check returns all the problems it finds, never only the first, so one run shows a user
everything to fix; callers send nothing while any problem is left.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from .. import (
    HIDDEN,
    AlterConfigOp,
    CatalogKey,
    CatalogMatch,
    ConfigCatalog,
    ConfigEntry,
    ConfigResource,
    ConfigType,
    OpType,
    ResourceType,
    UpdateMode,
    ValidValues,
    ValueRule,
)
from ..toolkit import cut_short, releases_with_key, shorten
from ._model import DesiredState, ResourceSpec
from ._nearest import nearest_keys
from ._references import has_reference, is_reference
from ._state import ClusterState, known_type, sensitive_key
from ._types import TypedValue, expected_type, java_trim, parse_typed
from ._warning import ConfigWarning

__all__ = [
    "LOG_LEVELS",
    "Problem",
    "check_desired",
    "check_ops",
    "check_value",
    "is_locked",
    "key_hint",
    "unknown_key_warnings",
]

#: The levels a broker logger takes (Kafka's LogLevelConfig), in upper case as the broker wants.
LOG_LEVELS = frozenset({"OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "ALL"})


class Problem(BaseModel):
    """Why a wanted value or an operation cannot be sent: resource, key, value and expected type.

    ``value`` is None for sensitive keys (never shown) and for problems about no value;
    ``key`` is None for problems about a whole resource (one that could not be described).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    resource: ConfigResource
    key: str | None
    value: str | None
    expected_type: ConfigType | None
    message: str

    def __str__(self) -> str:
        where = str(self.resource) if self.key is None else f"{self.resource}, {self.key}"
        shown = "" if self.value is None else f" = {self.value!r}"
        return f"{where}{shown}: {self.message}"


def check_value(
    state: ClusterState,
    resource: ConfigResource,
    key: str,
    value: str | None,
    op: OpType = OpType.SET,
) -> Problem | None:
    """The problem with ``op`` of ``key`` to ``value`` on ``resource``, or None if it may be sent.

    A refusal is given only where it is certain for the broker's release; anything else is
    left to the broker. Refused: topic, group and client-metrics keys the broker does not know
    (when the state can tell; the message names the nearest keys of the resource's kind, and
    the kind a key belongs to when it is another's; a broker takes any key), read-only keys,
    APPEND and SUBTRACT on keys that are not LIST, values that do not parse as the key's type
    (by Java's rules: :func:`parse_typed`), and broker logger levels that are not log4j
    levels. With the catalog of the cluster's release (``state.catalog``) also: values outside
    the key's valid values (enum members, in the case Kafka compares them; list members, and
    for Kafka's KIP-1161 lists an empty member; an empty list where Kafka wants one; numeric
    ranges, compared as Java compares them), per-broker keys on the cluster default, SSL keys
    Kafka takes only per listener, and for one broker id the broker's own requirements (a
    thread pool resized within half and double of its current size, connection limits, the
    log roll and retention times, the dedupe buffer per cleaner thread). Per-listener keys
    (``listener.name.<listener>.<key>``) are checked as the key they prefix, where Kafka
    checks them. A value holding a config provider reference (``${provider:path:key}``) is
    neither parsed nor held to valid values.
    """
    return _ValueChecks(state).check(resource, key, value, op)


#: What a check found: the key's type, the value as a problem shows it, and the message.
_Finding = tuple[ConfigType, str | None, str]


class _ValueChecks:
    """:func:`check_value` over the many keys of one state, each finding made once.

    Of a resource other than a broker, a check reads the resource's type and nothing else
    of it, and of the key's entry its type and its sensitive and read-only marks; so the
    same key and value with the same marks is the same finding on every such resource (a
    file's 2,000 topics setting one value: one check, not 2,000). A broker's checks read
    its id and its other keys, and an unknown key's what the resource's describe lists:
    those are checked each time.
    """

    def __init__(self, state: ClusterState) -> None:
        self.state = state
        self._found: dict[tuple[object, ...], _Finding | None] = {}

    def check(
        self, resource: ConfigResource, key: str, value: str | None, op: OpType
    ) -> Problem | None:
        state = self.state
        info = state.key_info(resource, key)
        spec = state.catalog_key(resource, key)
        if resource.type is ResourceType.BROKER or (info is None and spec is None):
            found = _finding(state, resource, key, value, op, info, spec)
        else:
            marks = None if info is None else (info.type, info.is_sensitive, info.is_read_only)
            facts = (resource.type, key, value, op, marks)
            if facts in self._found:
                found = self._found[facts]
            else:
                found = self._found[facts] = _finding(state, resource, key, value, op, info, spec)
        if found is None:
            return None
        kind, shown, message = found
        return Problem(resource=resource, key=key, value=shown, expected_type=kind, message=message)


def _finding(
    state: ClusterState,
    resource: ConfigResource,
    key: str,
    value: str | None,
    op: OpType,
    info: ConfigEntry | None,
    spec: CatalogKey | None,
) -> _Finding | None:
    """:func:`check_value`'s finding, given what the state says of the key (``info``, the
    broker's entry; ``spec``, the catalog's)."""
    kind = known_type(info, spec)
    secret = sensitive_key(key, info, kind)
    if value is None:
        shown = None
    else:
        shown = HIDDEN if secret and not is_reference(value) else cut_short(value)

    def problem(message: str) -> _Finding:
        return kind, shown, message

    if info is None and spec is None:
        missing = _missing_key(state, resource, key)
        if missing is not None:
            return problem(missing)
    elif info is not None and is_locked(resource, key, read_only=info.is_read_only):
        return problem("read-only: the broker does not take changes of this key at run time")
    mode = _mode_problem(resource, key, op, spec, state.catalog)
    if mode is not None:
        return problem(mode)
    if op in (OpType.APPEND, OpType.SUBTRACT) and kind not in (ConfigType.LIST, ConfigType.UNKNOWN):
        return problem(f"{op.name} needs a LIST config, and this one is {kind.name}")
    if value is None or _unchecked_value(state, resource, key, spec):
        return None
    if resource.type is ResourceType.BROKER_LOGGER and java_trim(value) not in LOG_LEVELS:
        return problem(f"not a log level: expected one of {', '.join(sorted(LOG_LEVELS))}")
    if has_reference(value):
        return None  # a config provider's: its resolved value's type is the broker's to judge
    try:
        parsed = parse_typed(kind, value)
    except ValueError as error:
        return problem(f"{error}: expected {expected_type(kind)}")
    valid = _valid_values(state.catalog, spec, op)
    invalid = None if valid is None else _invalid(valid, parsed)
    if valid is not None and invalid is not None and state.catalog is not None:
        release = state.catalog.catalog.release
        return problem(f"{invalid}: Kafka {release} allows {valid.describe()}")
    rule = (
        _broker_rules(state, resource, key, parsed, op)
        or _twice_on_a_broker(state, resource, valid, parsed, op)
        or _outside_allowed_range(state, resource, key, parsed, op)
        or _value_rule_problem(state, resource, key, value, op)
    )
    return None if rule is None else problem(rule)


def is_locked(resource: ConfigResource, key: str, *, read_only: bool) -> bool:
    """Whether ``key``, which the broker describes with its ``read_only`` mark, takes no change
    at run time: the one rule of the checks and the web editor's locked keys. A broker marks a
    per-listener key (``listener.name.<listener>.<key>``) read-only once it is set, yet takes
    a change of it on one broker id (Kafka's dynamic keys are the unprefixed names, and it
    never refuses a prefixed one as read-only): a listener's key store is rotated that way."""
    listener_key = resource.type is ResourceType.BROKER and ConfigCatalog.is_listener_key(key)
    return read_only and not listener_key


def _outside_allowed_range(
    state: ClusterState, resource: ConfigResource, key: str, parsed: TypedValue, op: OpType
) -> str | None:
    """What Kafka refuses of a SET of an integer beyond the key's validator, for a resource
    type other than brokers (:meth:`ConfigCatalog.allowed_range`), or None."""
    if (
        op is not OpType.SET
        or state.catalog is None
        or isinstance(parsed, bool)
        or not isinstance(parsed, int)
    ):
        return None
    rule = state.catalog.catalog.allowed_range(resource.type, key)
    if rule is None or rule[0] <= parsed <= rule[1]:
        return None
    return rule[2]


def _value_rule_problem(
    state: ClusterState, resource: ConfigResource, key: str, value: str, op: OpType
) -> str | None:
    """What the broker's own parsing of a SET value refuses beyond the key's validator, where
    the catalog of its exact release has the rule (:meth:`ConfigCatalog.value_rule`), or None.
    A broker key's rule is checked for one broker id only: on the cluster default a broker's
    own value of the key may stand instead of the default's while the broker validates it."""
    match = state.catalog
    if op is not OpType.SET or match is None or not match.exact:
        return None
    if resource.type is ResourceType.BROKER and resource.name == "":
        return None
    rule = match.catalog.value_rule(resource.type, key)
    if rule is None:
        return None
    text = java_trim(value)
    if rule is ValueRule.API_VERSION:
        spec = state.catalog_key(resource, key)
        return _api_version_problem(text, spec, match.catalog.release)
    return _VALUE_RULES[rule](text)


#: Java's ``\s*,\s*`` (Java's ``\s`` is ASCII whitespace only).
_JAVA_COMMA = re.compile(r"[ \t\n\x0b\f\r]*,[ \t\n\x0b\f\r]*")
#: Kafka's EndPoint: ``NAME://host:port``, the host possibly in brackets (matched whole).
_ENDPOINT = re.compile(r"(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)")
#: BrokerCompressionCodec's names, compared in lower case.
_BROKER_COMPRESSION = ("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")
#: SecurityProtocol's names, compared in upper case.
_SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")


def _java_split(text: str, pattern: re.Pattern[str]) -> list[str]:
    """Java's ``String.split(regex)``: the trailing empty strings dropped (``""`` is ``[""]``)."""
    if not text:
        return [""]
    parts = pattern.split(text)
    while parts and not parts[-1]:
        parts.pop()
    return parts


def _compression_problem(text: str) -> str | None:
    if text.lower() in _BROKER_COMPRESSION:
        return None
    return f"a broker's compression type is one of {', '.join(_BROKER_COMPRESSION)} (any case)"


def _endpoints_problem(text: str) -> str | None:
    """CoreUtils.listenerListToEndPoints: empty members dropped, each an EndPoint, and a
    broker with no endpoint fails its inter-broker listener (or its listeners') check."""
    endpoints = [member for member in _java_split(text, _JAVA_COMMA) if member]
    if not endpoints:
        return "a broker needs at least one listener (NAME://host:port)"
    for endpoint in endpoints:
        if not _ENDPOINT.fullmatch(endpoint):
            return f"{shorten(endpoint)!r} is not a listener endpoint (NAME://host:port)"
    return None


def _map_entries(text: str) -> tuple[list[str], str | None]:
    """CoreUtils.parseCsvMap's entries, or the problem with one (an entry with no colon)."""
    if not text:
        return [], None
    entries = _java_split(text, _JAVA_COMMA)
    for entry in entries:
        if ":" not in entry:
            return entries, f"{shorten(entry)!r} has no ':' (entries are NAME:VALUE)"
    return entries, None


def _csv_map_problem(text: str) -> str | None:
    return _map_entries(text)[1]


def _protocol_map_problem(text: str) -> str | None:
    """KafkaConfig.listenerSecurityProtocolMap: every listener needs its protocol, so the map
    is never empty, and each protocol is one Kafka has (in any case)."""
    entries, problem = _map_entries(text)
    if problem is not None:
        return problem
    if not entries:
        return "a broker needs a security protocol for its listeners: the map cannot be empty"
    for entry in entries:
        protocol = java_trim(entry[entry.rindex(":") + 1 :])
        if protocol.upper() not in _SECURITY_PROTOCOLS:
            return (
                f"{shorten(protocol)!r} is not a security protocol "
                f"(one of {', '.join(_SECURITY_PROTOCOLS)}, any case)"
            )
    return None


def _throttled_replicas_problem(text: str) -> str | None:
    """ConfigHandler's ThrottledReplicaListValidator over the LIST's members: ``*`` first, or
    every member ``partitionId:brokerId`` (or empty)."""
    members = [java_trim(member) for member in _JAVA_COMMA.split(text)] if text else []
    if (members and members[0] == "*") or all(
        re.fullmatch(r"(?:[0-9]+:[0-9]+)?", member) for member in members
    ):
        return None
    return "throttled replicas are '*' or partitionId:brokerId members"


def _api_version_problem(text: str, spec: CatalogKey | None, release: str) -> str | None:
    """ApiVersion.apply: the version's first segments (three for ``0.x``, else two) must name
    a version of the release (``2.5-IV0``) or its short form (``2.5``)."""
    if spec is None or spec.valid is None or spec.valid.text is None:
        return None
    versions = spec.valid.text.strip("[]").split(", ")
    known = {*versions, *(version.split("-")[0] for version in versions)}
    segments = _java_split(text, re.compile(r"\."))
    key = ".".join(segments[: 3 if text.startswith("0.") else 2])
    if key in known:
        return None
    return f"not a version Kafka {release} knows: one of {spec.valid.text} or its short form"


_VALUE_RULES = {
    ValueRule.BROKER_COMPRESSION: _compression_problem,
    ValueRule.ENDPOINTS: _endpoints_problem,
    ValueRule.CSV_MAP: _csv_map_problem,
    ValueRule.PROTOCOL_MAP: _protocol_map_problem,
    ValueRule.THROTTLED_REPLICAS: _throttled_replicas_problem,
}


def _twice_on_a_broker(
    state: ClusterState,
    resource: ConfigResource,
    valid: ValidValues | None,
    parsed: TypedValue,
    op: OpType,
) -> str | None:
    """KIP-1161's lists refuse a member given twice when one broker id of Kafka 4.4 on
    validates its new configuration; a topic's, the cluster default's and an earlier release's
    are left to the broker (the differential test sees them taken)."""
    if (
        op is not OpType.SET
        or state.catalog is None
        or not state.catalog.catalog.broker_refuses_a_member_twice
        or resource.type is not ResourceType.BROKER
        or resource.name == ""
        or valid is None
        or not valid.distinct_members
        or not isinstance(parsed, tuple)
    ):
        return None
    twice = sorted({member for member in parsed if parsed.count(member) > 1})
    if not twice:
        return None
    shown = ", ".join(shorten(member) for member in twice[:5])
    return f"{shown} given twice: a broker refuses a list with a member twice (KIP-1161)"


def _unchecked_value(
    state: ClusterState, resource: ConfigResource, key: str, spec: CatalogKey | None
) -> bool:
    """Whether Kafka may take this key's value unchecked, so that only the broker can judge
    it: the broker's ``config.providers*`` keys (which Kafka leaves out before it validates),
    and a per-listener key the catalog says so of (:attr:`CatalogKey.value_unchecked`) unless
    the listener is one the broker serves itself (whose channel checks all its keys)."""
    if resource.type is not ResourceType.BROKER:
        return False
    if key.startswith("config.providers"):
        return True
    if spec is None or spec.listener is None or not spec.value_unchecked:
        return False
    return spec.listener.lower() not in _served_listeners(state, resource)


def _broker_rules(
    state: ClusterState, resource: ConfigResource, key: str, parsed: TypedValue, op: OpType
) -> str | None:
    """What a broker's own requirements refuse of a SET of an integer on one broker id, or
    None. On the cluster default they are left to the broker: which broker answers, and
    whether a broker's own value stands instead of the default, only the broker knows."""
    if (
        op is not OpType.SET
        or state.catalog is None
        or resource.type is not ResourceType.BROKER
        or resource.name == ""
        or isinstance(parsed, bool)
        or not isinstance(parsed, int)
    ):
        return None
    catalog = state.catalog.catalog
    return (
        _refused_range(state, resource, key, parsed, catalog.refused_range(key))
        or (_resize_problem(state, resource, key, parsed) if catalog.resize_limited(key) else None)
        or _dedupe_problem(state, resource, key, parsed)
    )


def _current_int(state: ClusterState, resource: ConfigResource, key: str) -> int | None:
    """The broker's current value of an integer key, from the state; None: unknown."""
    entry = state.key_info(resource, key)
    if entry is None or entry.value is None:
        return None
    try:
        current = parse_typed(ConfigType.LONG, entry.value)
    except ValueError:
        return None
    return current if isinstance(current, int) and not isinstance(current, bool) else None


def _resize_problem(
    state: ClusterState, resource: ConfigResource, key: str, new: int
) -> str | None:
    """Kafka's thread-pool rule: a pool resized at run time to at least 1, at least half and
    at most double its current size (the broker's own value)."""
    old = _current_int(state, resource, key)
    if old is None or new == old:
        return None
    if new <= 0:
        return "a thread pool's size must be at least 1"
    if new < old // 2 or new > old * 2:
        return (
            f"Kafka resizes a thread pool at run time to between half and double its current "
            f"size {old} ({old // 2} to {old * 2}): change it in steps"
        )
    return None


def _refused_range(
    state: ClusterState,
    resource: ConfigResource,
    key: str,
    new: int,
    rule: tuple[int, int, str] | None,
) -> str | None:
    """A value the broker refuses whatever the other keys are
    (:meth:`ConfigCatalog.refused_range`); a listener's own connection limit stands instead
    of the broker's, and only a listener the broker serves itself checks its limits."""
    if rule is None or not rule[0] <= new <= rule[1]:
        return None
    spec = state.catalog_key(resource, key)
    if spec is not None and spec.listener is not None:
        return rule[2] if spec.listener.lower() in _served_listeners(state, resource) else None
    own = state.configs.get(resource)
    if own is not None and any(
        name.startswith("listener.name.") and name.endswith(f".{key}") for name in own
    ):
        return None
    return rule[2]


def _served_listeners(state: ClusterState, resource: ConfigResource) -> frozenset[str]:
    """The broker's own listeners (lower case, as a ``listener.name.`` prefix writes them):
    its ``listeners`` less its ``controller.listener.names``; empty when the state cannot
    tell."""
    listeners = state.key_info(resource, "listeners")
    if listeners is None or not listeners.value:
        return frozenset()
    controllers = state.key_info(resource, "controller.listener.names")
    controller_names = set() if controllers is None else _names(controllers.value or "")
    served = {name.split(":", 1)[0] for name in _names(listeners.value)}
    return frozenset(served - controller_names)


def _names(text: str) -> set[str]:
    return {item.strip().lower() for item in text.split(",") if item.strip()}


#: Kafka's log cleaner needs more than 1 MiB of dedupe buffer per thread (KafkaConfig).
_DEDUPE_PER_THREAD = 1024 * 1024
_DEDUPE_KEYS = ("log.cleaner.dedupe.buffer.size", "log.cleaner.threads")


def _dedupe_problem(
    state: ClusterState, resource: ConfigResource, key: str, new: int
) -> str | None:
    """KafkaConfig's rule that ``log.cleaner.dedupe.buffer.size`` / ``log.cleaner.threads`` is
    above 1 MiB (Java's long division), with the other key's value the broker has now."""
    if key not in _DEDUPE_KEYS:
        return None
    size_key, threads_key = _DEDUPE_KEYS
    current = _current_int(state, resource, threads_key if key == size_key else size_key)
    if current is None:
        return None
    size, threads = (new, current) if key == size_key else (current, new)
    if threads == 0:
        return None  # refused by the cleaner's thread rule
    per_thread = abs(size) // abs(threads) * (1 if (size >= 0) == (threads > 0) else -1)
    if per_thread > _DEDUPE_PER_THREAD:
        return None
    return (
        f"log.cleaner.dedupe.buffer.size must be more than 1 MiB per cleaner thread "
        f"({size} bytes for {threads} threads on this broker)"
    )


def _valid_values(
    match: CatalogMatch | None, spec: CatalogKey | None, op: OpType
) -> ValidValues | None:
    """The valid values a SET or APPEND is checked against: only from the catalog of the
    broker's own release (an exact match), since a later release may allow more (a new enum
    member), and a refusal the broker would not make has no way around it."""
    if match is None or not match.exact or op not in (OpType.SET, OpType.APPEND):
        return None
    return None if spec is None else spec.valid


def _missing_key(state: ClusterState, resource: ConfigResource, key: str) -> str | None:
    """Why a key neither the broker's describe nor the catalog knows is refused, or None when
    neither can tell (a broker takes keys of plugins it does not define)."""
    match = state.catalog
    told_by_catalog = (
        match is not None
        and match.exact
        and resource.type in _CATALOG_SAYS_UNKNOWN
        and match.catalog.covers(resource.type)
    )
    if resource.type is ResourceType.BROKER:
        return None  # a broker takes any key: a plugin of it (or a later release) may read it
    if not state.knows_keys(resource) and not told_by_catalog:
        return None
    message = "unknown config: the broker does not know this key"
    hint = key_hint(state, resource.type, key)
    if hint:
        message += f"; {hint}"
    if match is not None:
        elsewhere = releases_with_key(resource.type, key)
        if elsewhere:
            message += (
                f" (Kafka {match.catalog.release} has no such key; it is in Kafka "
                f"{', '.join(elsewhere)})"
            )
    return message


#: How "did you mean" names a kind of resource a key belongs to.
_KIND_WORDS = {
    ResourceType.TOPIC: "a topic key",
    ResourceType.BROKER: "a broker key",
    ResourceType.GROUP: "a group key",
    ResourceType.CLIENT_METRICS: "a client-metrics key",
}


def key_hint(state: ClusterState, resource_type: ResourceType, key: str) -> str:
    """ "Did you mean" for a key ``resource_type`` does not take: the other kinds it is a key
    of, and the nearest keys of ``resource_type`` in the broker's release (its catalog and what
    the broker describes); empty when there is nothing near."""
    parts: list[str] = []
    match = state.catalog
    if match is not None:
        kinds = [
            word
            for kind, word in _KIND_WORDS.items()
            if kind is not resource_type and match.catalog.get(kind, key) is not None
        ]
        if kinds:
            parts.append(f"it is {' and '.join(kinds)}")
    near = nearest_keys(state.known_keys(resource_type), key)
    if near:
        parts.append(f"did you mean {', '.join(near)}?")
    return "; ".join(parts)


def unknown_key_warnings(
    wanted: DesiredState | Mapping[ConfigResource, Iterable[AlterConfigOp]], state: ClusterState
) -> list[ConfigWarning]:
    """A warning for each broker (or cluster-default) key set in ``wanted`` (a desired state
    or alter operations) that the broker's release does not define and the broker does not
    describe, in order, with "did you mean". Never a refusal: a broker stores any key (a
    plugin may read it), so only the catalog of the exact release can say a key is none of
    Kafka's; without it nothing is said."""
    match = state.catalog
    if match is None or not match.exact:
        return []
    if isinstance(wanted, DesiredState):
        pairs = [
            (resource, key)
            for resource, spec in wanted.other_resources().items()  # brokers only: not topics
            for key, value in spec.configs.items()
            if value is not None
        ]
    else:
        pairs = [
            (resource, op.name)
            for resource, ops in wanted.items()
            for op in ops
            if op.op is not OpType.DELETE
        ]
    return [
        ConfigWarning(
            resource=resource,
            key=key,
            value=None,
            release=match.catalog.release,
            message=_unknown_key_words(state, key, match.catalog.release),
        )
        for resource, key in pairs
        if resource.type is ResourceType.BROKER
        and match.catalog.lookup(ResourceType.BROKER, key) is None
        and state.key_info(resource, key) is None
    ]


def _unknown_key_words(state: ClusterState, key: str, release: str) -> str:
    words = (
        f"{key} is not a key Kafka {release} defines for brokers "
        "(the broker stores it and uses nothing of it)"
    )
    hint = key_hint(state, ResourceType.BROKER, key)
    return f"{words}; {hint}" if hint else words


#: The resource types whose unknown keys the broker refuses (a broker takes any key a plugin
#: may read, so broker keys are never called unknown from the catalog alone).
_CATALOG_SAYS_UNKNOWN = frozenset(
    {ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLIENT_METRICS}
)


def _mode_problem(
    resource: ConfigResource,
    key: str,
    op: OpType,
    spec: CatalogKey | None,
    match: CatalogMatch | None,
) -> str | None:
    """Refuse what a broker's dynamic update mode forbids: a read-only key, a per-broker key
    on the cluster default, and a key the cluster takes on the cluster default only (a
    cluster-wide key may otherwise be set for one broker: Kafka allows it)."""
    if resource.type is not ResourceType.BROKER:
        return None
    if (
        resource.name == ""
        and op is not OpType.DELETE
        and match is not None
        and match.catalog.per_broker_listener_key(key)
    ):
        return (
            "per-broker only: Kafka takes a listener's key for one broker id, never on the "
            "cluster default (but max.connections, max.connection.creation.rate and "
            "num.network.threads)"
        )
    if spec is None or spec.update_mode is None:
        return None
    if spec.update_mode is UpdateMode.READ_ONLY:
        return "read-only: set only in the broker's properties file, with a restart"
    if op is not OpType.DELETE and match is not None and match.catalog.per_listener_only(key):
        return (
            "per-listener only: Kafka takes this SSL key for one listener, as "
            f"listener.name.<listener>.{key}"
        )
    if spec.update_mode is UpdateMode.PER_BROKER and resource.name == "":
        return (
            "per-broker only: Kafka takes this key for one broker id, never on the cluster default"
        )
    only = None if match is None or op is OpType.DELETE else match.cluster_default_only(key)
    if only is not None and resource.name != "":
        return (
            f'cluster-wide only: Kafka takes this key on the cluster default (broker ""), '
            f"never for one broker, while {only}"
        )
    return None


def _invalid(valid: ValidValues, parsed: TypedValue) -> str | None:
    """What of a parsed value Kafka's validator refuses, or None."""
    if isinstance(parsed, tuple):
        return _invalid_list(valid, parsed)
    if isinstance(parsed, bool):
        return None
    if isinstance(parsed, int | float):
        if any(float(parsed) == float(number) for number in valid.also):
            return None
        # Kafka's Range compares the values as doubles.
        if valid.minimum is not None and float(parsed) < float(valid.minimum):
            return f"below the minimum {valid.minimum}"
        if valid.maximum is not None and float(parsed) > float(valid.maximum):
            return f"above the maximum {valid.maximum}"
        return None
    if valid.non_empty and not parsed:
        return "empty"
    if valid.members is not None and not _is_member(valid, parsed):
        case = "" if valid.case_insensitive else " (case matters)"
        return f"not an allowed value{case}"
    return None


def _invalid_list(valid: ValidValues, parsed: tuple[str, ...]) -> str | None:
    if not parsed and not valid.empty_allowed:
        return "the list is empty"
    if valid.distinct_members and "" in parsed:
        return "a list member is empty (two commas in a row, or one at an end)"
    if valid.members is not None:
        wrong = [member for member in parsed if not _is_member(valid, member)]
        if wrong:
            return f"{', '.join(shorten(member) for member in wrong[:5])} not allowed"
    return None


def _is_member(valid: ValidValues, text: str) -> bool:
    """Kafka's ValidString (the exact string) or CaseInsensitiveValidString (upper-cased)."""
    assert valid.members is not None
    if valid.case_insensitive:
        return text.upper() in {member.upper() for member in valid.members}
    return text in valid.members


def check_ops(
    ops: Mapping[ConfigResource, Iterable[AlterConfigOp]], state: ClusterState
) -> list[Problem]:
    """Every problem in alter operations (as for ``incremental_alter_configs``), in order."""
    found = [_describe_failure(resource, state) for resource in ops]
    problems = [problem for problem in found if problem is not None]
    checks = _ValueChecks(state)
    for resource, resource_ops in ops.items():
        for op in resource_ops:
            problem = checks.check(resource, op.name, op.value, op.op)
            if problem is not None:
                problems.append(problem)
    return problems


def check_desired(desired: DesiredState, state: ClusterState) -> list[Problem]:
    """Every problem in the values a desired state wants, against what the cluster reports.

    Resources whose describe failed are problems too (nothing about them can be checked).
    """
    return check_resources(desired.resources(state.existing_topics()), state)


def check_resources(
    resources: Mapping[ConfigResource, ResourceSpec], state: ClusterState
) -> list[Problem]:
    """:func:`check_desired` of the resources a desired state is about, with their specs
    (``DesiredState.resources``: a plan lists them once for its checks and its changes)."""
    problems: list[Problem] = []
    checks = _ValueChecks(state)
    for resource, spec in resources.items():
        failure = _describe_failure(resource, state)
        if failure is not None:
            problems.append(failure)
            continue
        for key, value in spec.configs.items():
            op = OpType.SET if value is not None else OpType.DELETE
            problem = checks.check(resource, key, value, op)
            if problem is not None:
                problems.append(problem)
    return problems


def _describe_failure(resource: ConfigResource, state: ClusterState) -> Problem | None:
    error = state.errors.get(resource)
    if error is None:
        return None
    return Problem(
        resource=resource,
        key=None,
        value=None,
        expected_type=None,
        message=f"could not be described: {error}",
    )
