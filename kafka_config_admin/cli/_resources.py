"""Resources and changes as the command line names them.

Resources: ``TYPE:NAME`` arguments (``topic:orders``, ``broker:1``, ``broker:`` or
``cluster-default:`` for the cluster default, ``broker-logger:1``, ``group:g``,
``client-metrics:m``; TYPE in any spelling :class:`~kafka_config_admin.state.ResourceKind`
reads; a bare name is a topic) and the
``kafka-configs.sh`` shortcuts (``--topic``, ``--broker``, ``--broker-logger``, ``--group``,
``--client-metrics``, ``--entity-default``).

Changes: ``--set k=v``, ``--delete k``, ``--append k=v``, ``--subtract k=v``, and
``kafka-configs.sh``'s ``--add-config 'k1=v1,k2=[a,b]'``, ``--add-config-file`` and
``--delete-config k1,k2``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import (
    AlterConfigOp,
    ClientQuotaEntity,
    ClientQuotaFilter,
    ClientQuotaFilterComponent,
    ConfigResource,
    InvalidArgumentError,
    OpType,
    QuotaEntityType,
    ResourceType,
)
from ..connect import parse_properties
from ..state import ResourceKind, kafka_string_for
from ..toolkit import MAX_BROKER_ID, is_broker_id

#: The kinds ``TYPE:NAME`` can name: those with configs (quotas: ``--entity-type``).
_CONFIG_KINDS = tuple(kind for kind in ResourceKind if kind.is_config)


class UsageError(InvalidArgumentError):
    """A command line that cannot be carried out as given (exit code 2)."""


@dataclass(frozen=True)
class QuotaSelection:
    """The quota entity a command line names: per type a name, None (the default) or ANY.

    ``names[kind]`` is missing for a type given without a name (describe: every entity).
    """

    kinds: tuple[QuotaEntityType, ...]
    names: dict[QuotaEntityType, str | None] = field(default_factory=dict)

    def __str__(self) -> str:
        return ", ".join(
            f"{kind.value} {self.names[kind]!r}" if self.names.get(kind) is not None
            else (f"default {kind.value}" if kind in self.names else f"every {kind.value}")
            for kind in self.kinds
        )  # fmt: skip

    @property
    def one_user(self) -> str | None:
        """The user named when the entity is one named user (SCRAM credentials are theirs)."""
        if self.kinds != (QuotaEntityType.USER,):
            return None
        return self.names.get(QuotaEntityType.USER)

    @property
    def has_scram(self) -> bool:
        """Whether SCRAM credentials are described too: users only, not the default user."""
        user = QuotaEntityType.USER
        return self.kinds == (user,) and (user not in self.names or self.names[user] is not None)

    def entity(self) -> ClientQuotaEntity:
        """The one entity an alter changes; every type needs a name or ``--entity-default``."""
        missing = [kind.value for kind in self.kinds if kind not in self.names]
        if missing:
            raise UsageError(
                f"--entity-name or --entity-default must be given for each --entity-type to "
                f"alter (missing for {', '.join(missing)})"
            )
        return ClientQuotaEntity({kind.value: self.names[kind] for kind in self.kinds})

    def filter(self) -> ClientQuotaFilter:
        """Entities of exactly these types, matching the names given (any name where none)."""
        return ClientQuotaFilter.contains_only(
            ClientQuotaFilterComponent.named(kind, self.names[kind])
            if kind in self.names
            else ClientQuotaFilterComponent.any(kind)
            for kind in self.kinds
        )


@dataclass(frozen=True)
class Selection:
    """The resources a command line names, in the order given, and a topic pattern; or else
    the quota entity it names (``--entity-type users|clients|ips``)."""

    resources: tuple[ConfigResource, ...] = ()
    match: str | None = None
    quota: QuotaSelection | None = None
    #: Types of which every node is named (``--entity-type brokers`` without a name: every
    #: node and the cluster default; ``broker-loggers``: every node's loggers).
    every_node: tuple[ResourceType, ...] = ()

    @property
    def empty(self) -> bool:
        return (
            not self.resources and self.match is None and self.quota is None and not self.every_node
        )


@dataclass
class SelectionOptions:
    """The resource options of one command line, as given."""

    arguments: Sequence[str] = ()
    topics: Sequence[str] = ()
    brokers: Sequence[str] = ()
    broker_loggers: Sequence[str] = ()
    groups: Sequence[str] = ()
    client_metrics: Sequence[str] = ()
    broker_default: bool = False
    match: str | None = None
    entity_resources: Sequence[ConfigResource] = ()
    quota: QuotaSelection | None = None
    every_node: tuple[ResourceType, ...] = ()

    def selection(self) -> Selection:
        """The resources named, each once, in the order given (or the quota entity alone)."""
        named = [parse_resource(argument) for argument in self.arguments]
        named.extend(self.entity_resources)
        for kind, names in (
            (ResourceType.TOPIC, self.topics),
            (ResourceType.BROKER, self.brokers),
            (ResourceType.BROKER_LOGGER, self.broker_loggers),
            (ResourceType.GROUP, self.groups),
            (ResourceType.CLIENT_METRICS, self.client_metrics),
        ):
            named.extend(resource(kind, name) for name in names)
        if self.broker_default:
            named.append(ConfigResource(ResourceType.BROKER, ""))
        if self.quota is not None and (named or self.match is not None):
            raise UsageError(
                f"{self.quota} is a quota entity: name it alone, without topics, brokers, "
                "groups or other config resources"
            )
        return Selection(tuple(dict.fromkeys(named)), self.match, self.quota, self.every_node)


def parse_resource(text: str) -> ConfigResource:
    """``TYPE:NAME`` (or a bare topic name) as a resource; ``broker:`` and ``cluster-default:``
    are the cluster default."""
    kind_name, colon, name = text.partition(":")
    if not colon:
        return resource(ResourceType.TOPIC, text)
    try:
        kind = ResourceKind.parse(kind_name, allowed=_CONFIG_KINDS)
    except InvalidArgumentError:
        known = ", ".join(kind.dashed for kind in _CONFIG_KINDS)
        raise UsageError(
            f"{text!r}: unknown resource type {kind_name!r} (use one of {known}, as TYPE:NAME)"
        ) from None
    if kind is ResourceKind.CLUSTER_DEFAULT and name.strip():
        raise UsageError(f"{text!r}: the cluster default has no name (cluster-default: or broker:)")
    resource_type = kind.resource_type
    assert resource_type is not None  # a kind that has configs
    return resource(resource_type, name)


def resource(kind: ResourceType, name: str) -> ConfigResource:
    """A resource, with the name checks the SDK makes turned into one clear line."""
    name = name.strip()
    if (
        kind in (ResourceType.BROKER, ResourceType.BROKER_LOGGER)
        and name
        and not is_broker_id(name)
    ):
        raise UsageError(
            f"{kind.name.lower()} {name!r}: a broker is named by its numeric id "
            f"(0 to {MAX_BROKER_ID})"
        )
    if kind is not ResourceType.BROKER and not name:
        raise UsageError(f"a {kind.name.lower().replace('_', ' ')} needs a name")
    return ConfigResource(kind, name)


@dataclass
class ChangeOptions:
    """The change options of one command line, as given."""

    set: Sequence[str] = ()
    delete: Sequence[str] = ()
    append: Sequence[str] = ()
    subtract: Sequence[str] = ()
    add_config: Sequence[str] = ()
    add_config_file: Sequence[Path] = ()
    delete_config: Sequence[str] = ()

    def ops(self) -> list[AlterConfigOp]:
        """The operations, one per key; the same key twice is a usage error."""
        ops: list[AlterConfigOp] = []
        ops += [_op(OpType.SET, *key_value(item)) for item in self.set]
        ops += [
            _op(OpType.SET, key, value)
            for item in self.add_config
            for key, value in split_add_config(item)
        ]
        for path in self.add_config_file:
            ops += [_op(OpType.SET, key, value) for key, value in _read_properties(path).items()]
        ops += [_op(OpType.APPEND, *key_value(item)) for item in self.append]
        ops += [_op(OpType.SUBTRACT, *key_value(item)) for item in self.subtract]
        deleted = [*self.delete, *(key for item in self.delete_config for key in item.split(","))]
        ops += [_op(OpType.DELETE, key.strip(), None) for key in deleted if key.strip()]
        _check_each_key_once(op.name for op in ops)
        return ops


def key_value(item: str) -> tuple[str, str]:
    """``key=value`` split at the first ``=``."""
    key, equals, value = item.partition("=")
    if not equals or not key.strip():
        raise UsageError(f"{item!r}: expected KEY=VALUE")
    return key.strip(), value.strip()


def split_add_config(text: str) -> list[tuple[str, str]]:
    """``kafka-configs.sh``'s ``k1=v1,k2=[a,b]``: commas inside brackets belong to the value."""
    items: list[str] = []
    depth, start = 0, 0
    for index, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[start:index])
            start = index + 1
    if depth != 0:
        raise UsageError(f"--add-config {text!r}: unbalanced brackets")
    items.append(text[start:])
    pairs = [key_value(item) for item in items if item.strip()]
    return [(key, _unbracket(value)) for key, value in pairs]


def _unbracket(value: str) -> str:
    if value.startswith("[") and value.endswith("]"):
        return ",".join(item.strip() for item in value[1:-1].split(","))
    return value


def _read_properties(path: Path) -> dict[str, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read --add-config-file {path}: {error.strerror}") from None
    return parse_properties(text, source=str(path))


def _op(op: OpType, key: str, value: str | None) -> AlterConfigOp:
    if op is OpType.SET:
        try:  # human units on .ms and .bytes keys, as in a desired-state file: 7d, 1GiB
            value = kafka_string_for(key, value)
        except ValueError as error:
            raise UsageError(f"{key}={value}: {error}") from None
    return AlterConfigOp(key, value, op)


def _check_each_key_once(keys: Iterable[str]) -> None:
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise UsageError(f"{key} is changed twice on one command line")
        seen.add(key)
