"""``kafka-configs.sh``'s entities: ``--entity-type``/``--entity-name``/``--entity-default``.

Quota entities (``users``, ``clients``, ``ips``; ``users`` and ``clients`` together for a
combined entity) become a :class:`QuotaSelection`; ``topics``, ``brokers``, ``broker-loggers``,
``groups`` and ``client-metrics`` become config resources. Names pair with types in the order
given, ``--entity-default`` standing for a name (the default entity), as ``kafka-configs.sh``
pairs them. ``--user``, ``--client``, ``--ip`` and ``--user-defaults``, ``--client-defaults``,
``--ip-defaults`` are its shortcuts. Changes of quota entities are checked here too: quota keys
by entity type, numbers, and SCRAM credentials (``SCRAM-SHA-256=[iterations=8192,password=..]``).
No I/O.
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .. import (
    DEFAULT_SCRAM_ITERATIONS,
    AlterConfigOp,
    ConfigResource,
    InvalidArgumentError,
    OpType,
    QuotaEntityType,
    ResourceType,
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from ..state import QUOTA_KEYS, ResourceKind
from ..toolkit import check_quota_value
from ._resources import QuotaSelection, UsageError, resource

QUOTA_TYPES = {
    "users": QuotaEntityType.USER,
    "clients": QuotaEntityType.CLIENT_ID,
    "ips": QuotaEntityType.IP,
}
#: kafka-configs.sh's config entity types: the plural names of the kinds with configs
#: (its --entity-default on brokers is the cluster default).
CONFIG_TYPES = {
    kind.section.replace("_", "-"): resource_type
    for kind in ResourceKind
    if (resource_type := kind.resource_type) is not None
    and kind is not ResourceKind.CLUSTER_DEFAULT
}
ENTITY_TYPES = (*QUOTA_TYPES, *CONFIG_TYPES)
#: Entity types given without a name that stand for every node (kafka-configs.sh's reading).
EVERY_NODE_TYPES = (ResourceType.BROKER, ResourceType.BROKER_LOGGER)

SCRAM_MECHANISMS = ("SCRAM-SHA-256", "SCRAM-SHA-512")
_SCRAM_VALUE = re.compile(r"(?:iterations=(?P<iterations>[^,]*),)?password=(?P<password>.*)", re.S)


@dataclass(frozen=True)
class EntityOptions:
    """The entity options of one command line, as given.

    ``names`` holds each ``--entity-name`` in order, with ``""`` for each ``--entity-default``.
    """

    types: Sequence[str] = ()
    names: Sequence[str] = ()
    users: Sequence[str] = ()
    clients: Sequence[str] = ()
    ips: Sequence[str] = ()
    user_defaults: bool = False
    client_defaults: bool = False
    ip_defaults: bool = False

    def pairs(self) -> list[tuple[str, str | None]]:
        """(type, name) in the order kafka-configs.sh pairs them; the name is "" for the
        default entity, None when none was given."""
        shortcuts: list[tuple[str, str | None]] = [
            *(("users", name) for name in self.users),
            *(("clients", name) for name in self.clients),
            *(("ips", name) for name in self.ips),
            *(
                (kind, "")
                for kind, given in (
                    ("users", self.user_defaults),
                    ("clients", self.client_defaults),
                    ("ips", self.ip_defaults),
                )
                if given
            ),
        ]
        if shortcuts and (self.types or self.names):
            raise UsageError(
                "--entity-type/--entity-name/--entity-default cannot be combined with --user, "
                "--client, --ip or their --*-defaults"
            )
        if shortcuts:
            return shortcuts
        if not self.types and list(self.names) == [""]:
            return [("brokers", "")]  # --entity-default alone: the cluster default
        if len(self.names) > len(self.types):
            raise UsageError("more --entity-name/--entity-default than --entity-type")
        types = [_entity_type(text) for text in self.types]
        names: list[str | None] = [*self.names, *([None] * (len(types) - len(self.names)))]
        return list(zip(types, names, strict=True))


def _entity_type(text: str) -> str:
    kind = text.strip().lower()
    if kind not in ENTITY_TYPES:
        raise UsageError(f"unknown entity type {text!r} (use one of {', '.join(ENTITY_TYPES)})")
    return kind


def entities(
    options: EntityOptions,
) -> tuple[list[ConfigResource], tuple[ResourceType, ...], QuotaSelection | None]:
    """The config resources, the types of which every node is named, and the quota entity the
    entity options name.

    ``--entity-type brokers`` without a name is every node and the cluster default,
    ``broker-loggers`` every node's loggers, as kafka-configs.sh describes them.
    """
    pairs = options.pairs()
    kinds = [kind for kind, _ in pairs]
    if len(set(kinds)) != len(kinds):
        raise UsageError(f"an entity type is given twice: {', '.join(kinds)}")
    if len(kinds) > 1 and set(kinds) != {"users", "clients"}:
        raise UsageError("only 'users' and 'clients' entity types may be given together")
    if not pairs:
        return [], (), None
    kind, name = pairs[0]
    if kind in CONFIG_TYPES and name is None and CONFIG_TYPES[kind] in EVERY_NODE_TYPES:
        return [], (CONFIG_TYPES[kind],), None
    if kind in CONFIG_TYPES:
        return [_config_resource(kind, name)], (), None
    selection = QuotaSelection(
        kinds=tuple(QUOTA_TYPES[kind] for kind in sorted(kinds, reverse=True)),  # user first
        names={
            QUOTA_TYPES[kind]: _quota_name(kind, name) for kind, name in pairs if name is not None
        },
    )
    return [], (), selection


def _config_resource(kind: str, name: str | None) -> ConfigResource:
    resource_type = CONFIG_TYPES[kind]
    if name is None:
        raise UsageError(f"--entity-type {kind} needs --entity-name")
    if name == "" and resource_type is not ResourceType.BROKER:
        raise UsageError(f"--entity-default is for brokers, users, clients and ips, not {kind}")
    return resource(resource_type, name)


def _quota_name(kind: str, name: str) -> str | None:
    if name == "":
        return None  # --entity-default
    if kind == "ips":
        try:
            ipaddress.ip_address(name)
        except ValueError:
            raise UsageError(f"--entity-type ips: {name!r} is not an IP address") from None
    return name


@dataclass(frozen=True)
class QuotaChanges:
    """What an alter of a quota entity does: quota values to set (a number) or remove (None),
    or SCRAM credentials to upsert and delete (never both, as kafka-configs.sh requires)."""

    quotas: dict[str, float | None]
    scram: list[UserScramCredentialAlteration]


def quota_changes(selection: QuotaSelection, ops: Sequence[AlterConfigOp]) -> QuotaChanges:
    """The changes ``--add-config``/``--delete-config`` ask of the entity; UsageError if wrong."""
    entity = selection.entity()
    quotas: dict[str, float | None] = {}
    scram: list[UserScramCredentialAlteration] = []
    for op in ops:
        if op.op not in (OpType.SET, OpType.DELETE):
            raise UsageError(
                f"{op.name}: quotas and SCRAM credentials are set with --add-config and removed "
                f"with --delete-config, not {op.op.name}"
            )
        if op.name in SCRAM_MECHANISMS:
            scram.append(_scram_change(selection, op))
        else:
            quotas[op.name] = _quota_value(selection, op)
    if quotas and scram:
        raise UsageError(
            f"{entity}: quotas and SCRAM credentials cannot be changed on one command line"
        )
    return QuotaChanges(quotas, scram)


def _quota_value(selection: QuotaSelection, op: AlterConfigOp) -> float | None:
    allowed = QUOTA_KEYS[selection.kinds[-1]]
    if op.name not in allowed:
        scram = " or SCRAM-SHA-256/SCRAM-SHA-512" if selection.one_user else ""
        raise UsageError(
            f"{op.name!r} is not a quota key of {selection} (use {', '.join(allowed)}{scram})"
        )
    if op.op is OpType.DELETE:
        return None
    try:
        value = float(str(op.value))
    except ValueError:
        value = math.nan
    try:
        return check_quota_value(op.name, value, where=f"{op.name}={op.value}: the quota")
    except InvalidArgumentError as error:
        raise UsageError(str(error).partition(", got ")[0]) from None


def _scram_change(selection: QuotaSelection, op: AlterConfigOp) -> UserScramCredentialAlteration:
    user = selection.one_user
    if user is None:
        raise UsageError(
            f"{op.name}: SCRAM credentials belong to one named user (--entity-type users "
            f"--entity-name NAME), not to {selection}"
        )
    if op.op is OpType.DELETE:
        return UserScramCredentialDeletion(user, op.name)
    match = _SCRAM_VALUE.fullmatch(str(op.value or ""))
    if match is None or not match["password"]:
        raise UsageError(
            f"{op.name} of user {user!r} needs a password: "
            f"--add-config '{op.name}=[iterations=8192,password=...]'"
        )
    iterations = match["iterations"]
    if iterations is not None and not (iterations.isascii() and iterations.isdigit()):
        raise UsageError(f"{op.name} of user {user!r}: iterations must be a whole number")
    count = DEFAULT_SCRAM_ITERATIONS if iterations is None else int(iterations)
    return UserScramCredentialUpsertion(user, op.name, match["password"], iterations=count)
