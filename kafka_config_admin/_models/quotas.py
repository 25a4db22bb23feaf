"""Client quotas (KIP-546): entities, the filters that find them, and alterations.

A quota entity is a combination of entity types (``user``, ``client-id``, ``ip``), each with a
name or None for that type's default entity: ``{"user": "alice"}``, ``{"user": None}`` (the
default user), ``{"user": "alice", "client-id": "app"}``. Quota values are floats keyed by
config name (``producer_byte_rate``, ``consumer_byte_rate``, ``request_percentage``,
``controller_mutation_rate``, ``connection_creation_rate``, or any key the broker knows).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, overload

from .._exceptions import InvalidArgumentError
from .configs import NamedIntEnum, unknown_member
from .validation import check_string, given, shorten

__all__ = [
    "ClientQuotaAlteration",
    "ClientQuotaEntity",
    "ClientQuotaFilter",
    "ClientQuotaFilterComponent",
    "QuotaEntityType",
    "QuotaMatchType",
    "check_quota_value",
    "quota_value_text",
]


class QuotaEntityType(StrEnum):
    """The entity types a client quota can be set on."""

    USER = "user"
    CLIENT_ID = "client-id"
    IP = "ip"

    @classmethod
    def _missing_(cls, value: object) -> QuotaEntityType | None:
        raise unknown_member(cls, value)


class QuotaMatchType(NamedIntEnum):
    """How a filter component matches an entity type's name (the wire's ids)."""

    EXACT = 0  #: the given name
    DEFAULT = 1  #: the default entity of the type (name None)
    ANY = 2  #: any name, the default included


_TYPES = {kind.value: kind for kind in QuotaEntityType}


def _entity_type(value: object, where: str) -> QuotaEntityType:
    kind = _TYPES.get(value) if isinstance(value, str) else None
    if kind is None:
        names = ", ".join(_TYPES)
        raise InvalidArgumentError(f"{where}: unknown entity type {given(value)} (use {names})")
    return kind


def _canonical_order(item: tuple[str, str | None]) -> tuple[int, str]:
    """Types in Kafka's order (user, client-id, ip), then any other by name."""
    order = list(_TYPES)
    kind = item[0]
    return (order.index(kind) if kind in _TYPES else len(order)), kind


def _describe(kind: str, name: str | None) -> str:
    return f"default {kind}" if name is None else f"{kind} {name!r}"


class ClientQuotaEntity(Mapping[str, str | None]):
    """The entity a set of quotas applies to: a read-only mapping of entity type to name.

    ``ClientQuotaEntity({"user": "alice", "client-id": "app"})``; a name None is the type's
    default entity (``ClientQuotaEntity({"user": None})``). Hashable, so it keys results.
    Types must be ``user``, ``client-id`` or ``ip`` (or :class:`QuotaEntityType`); entities the
    broker describes keep whatever types it sends.
    """

    __slots__ = ("_entries", "_hash")

    def __init__(self, entries: Mapping[str, str | None]) -> None:
        if not isinstance(entries, Mapping) or not entries:
            raise InvalidArgumentError(
                "ClientQuotaEntity entries: needs a non-empty mapping of entity type to name, "
                f"got {given(entries)}"
            )
        checked: dict[str, str | None] = {}
        for kind, name in entries.items():
            kind = _entity_type(kind, "ClientQuotaEntity")
            if name is not None and (not isinstance(name, str) or not name):
                raise InvalidArgumentError(
                    f"the {kind.value} name of a ClientQuotaEntity must be a non-empty str, or "
                    f"None for the default {kind.value}; got {given(name)}"
                )
            if name is not None:
                check_string(f"the {kind.value} name {shorten(name)}", name)
            checked[kind.value] = name
        self._set(checked)

    @classmethod
    def _decoded(cls, pairs: Iterable[tuple[str, str | None]]) -> ClientQuotaEntity:
        """An entity as the broker sent it, unchecked: a newer broker may know more types."""
        entity = cls.__new__(cls)
        entity._set(dict(pairs))
        return entity

    def _set(self, entries: dict[str, str | None]) -> None:
        self._entries = dict(sorted(entries.items(), key=_canonical_order))
        self._hash = hash(tuple(self._entries.items()))

    def __getitem__(self, kind: str) -> str | None:
        return self._entries[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ClientQuotaEntity):
            return self._entries == other._entries
        return NotImplemented

    def __repr__(self) -> str:
        return f"ClientQuotaEntity({self._entries!r})"

    def __str__(self) -> str:
        return ", ".join(_describe(kind, name) for kind, name in self._entries.items())


@dataclass(frozen=True, init=False)
class ClientQuotaFilterComponent:
    """Matches one entity type's name: exactly, the default entity, or any.

    Make them with :meth:`exact`, :meth:`default` or :meth:`any`.
    """

    entity_type: QuotaEntityType
    match_type: QuotaMatchType
    match: str | None

    def __init__(
        self,
        entity_type: QuotaEntityType | str,
        match_type: QuotaMatchType | int,
        match: str | None = None,
    ) -> None:
        where = "ClientQuotaFilterComponent"
        kind = _entity_type(entity_type, where)
        try:
            how = QuotaMatchType(match_type)
        except ValueError:
            raise InvalidArgumentError(
                f"{where}: match_type must be a QuotaMatchType, got {given(match_type)}"
            ) from None
        exact = how is QuotaMatchType.EXACT
        if exact and (not isinstance(match, str) or not match):
            raise InvalidArgumentError(
                f"{where}: an EXACT match needs a non-empty name, got {given(match)}"
            )
        if isinstance(match, str):
            check_string(f"{where}: the name {shorten(match)}", match)
        if not exact and match is not None:
            raise InvalidArgumentError(
                f"{where}: a {how.name} match takes no name, got {given(match)}"
            )
        object.__setattr__(self, "entity_type", kind)
        object.__setattr__(self, "match_type", how)
        object.__setattr__(self, "match", match)

    @classmethod
    def exact(cls, entity_type: QuotaEntityType | str, name: str) -> ClientQuotaFilterComponent:
        """Entities whose ``entity_type`` is ``name``."""
        return cls(entity_type, QuotaMatchType.EXACT, name)

    @classmethod
    def default(cls, entity_type: QuotaEntityType | str) -> ClientQuotaFilterComponent:
        """Entities whose ``entity_type`` is the default one."""
        return cls(entity_type, QuotaMatchType.DEFAULT)

    @classmethod
    def named(
        cls, entity_type: QuotaEntityType | str, name: str | None
    ) -> ClientQuotaFilterComponent:
        """Entities whose ``entity_type`` is ``name``, or the default one when ``name`` is
        None (a :class:`ClientQuotaEntity`'s name for that type)."""
        return cls.default(entity_type) if name is None else cls.exact(entity_type, name)

    @classmethod
    def any(cls, entity_type: QuotaEntityType | str) -> ClientQuotaFilterComponent:
        """Entities with any name (the default too) for ``entity_type``."""
        return cls(entity_type, QuotaMatchType.ANY)

    def __str__(self) -> str:
        if self.match_type is QuotaMatchType.EXACT:
            return _describe(self.entity_type.value, self.match)
        if self.match_type is QuotaMatchType.DEFAULT:
            return _describe(self.entity_type.value, None)
        return f"any {self.entity_type.value}"


@dataclass(frozen=True, init=False)
class ClientQuotaFilter:
    """Which entities :meth:`AdminClient.describe_client_quotas` describes.

    An entity matches when it matches every component. Not ``strict``, it may also have
    entity types no component names; ``strict``, it has exactly the types named.
    ``ClientQuotaFilter()`` (no components, not strict) matches every entity.
    """

    components: tuple[ClientQuotaFilterComponent, ...]
    strict: bool

    def __init__(
        self, components: Iterable[ClientQuotaFilterComponent] = (), *, strict: bool = False
    ) -> None:
        if isinstance(components, ClientQuotaFilterComponent | str) or not isinstance(
            components, Iterable
        ):
            raise InvalidArgumentError(
                "ClientQuotaFilter components: takes a collection of ClientQuotaFilterComponent, "
                f"got {given(components)}"
            )
        checked = tuple(components)
        seen: set[QuotaEntityType] = set()
        for component in checked:
            if not isinstance(component, ClientQuotaFilterComponent):
                raise InvalidArgumentError(
                    "expected a ClientQuotaFilterComponent, got "
                    f"{type(component).__name__}: {component!r}"
                )
            if component.entity_type in seen:
                raise InvalidArgumentError(
                    f"the entity type {component.entity_type.value!r} appears twice in one filter"
                )
            seen.add(component.entity_type)
        if not isinstance(strict, bool):
            raise InvalidArgumentError(f"strict must be a bool, got {given(strict)}")
        object.__setattr__(self, "components", checked)
        object.__setattr__(self, "strict", strict)

    @classmethod
    def contains(cls, components: Iterable[ClientQuotaFilterComponent]) -> ClientQuotaFilter:
        """Entities matching every component, whatever other types they have."""
        return cls(components)

    @classmethod
    def contains_only(cls, components: Iterable[ClientQuotaFilterComponent]) -> ClientQuotaFilter:
        """Entities matching every component and having no other entity type."""
        return cls(components, strict=True)

    @classmethod
    def exactly(cls, entity: ClientQuotaEntity) -> ClientQuotaFilter:
        """``entity`` alone: each of its types with its name (or the default), no other type."""
        return cls.contains_only(
            ClientQuotaFilterComponent.named(kind, name) for kind, name in entity.items()
        )

    def __str__(self) -> str:
        if not self.components:
            return "quota entities of no type" if self.strict else "every quota entity"
        parts = " and ".join(str(component) for component in self.components)
        return f"quota entities of {parts}" + (" and no other type" if self.strict else "")


@dataclass(frozen=True, init=False)
class ClientQuotaAlteration:
    """Set or remove quota values of one entity.

    ``ClientQuotaAlteration(entity, {"producer_byte_rate": 1048576, "consumer_byte_rate": None})``
    sets the first and removes the second (None removes). Values are numbers; the broker
    decides which keys an entity may have and which must be whole.
    """

    entity: ClientQuotaEntity
    ops: tuple[tuple[str, float | None], ...]

    def __init__(self, entity: ClientQuotaEntity, ops: Mapping[str, float | int | None]) -> None:
        if not isinstance(entity, ClientQuotaEntity):
            raise InvalidArgumentError(
                "ClientQuotaAlteration entity: expected a ClientQuotaEntity, got "
                f"{type(entity).__name__}: {given(entity)}"
            )
        if not isinstance(ops, Mapping):
            raise InvalidArgumentError(
                f"ClientQuotaAlteration ops: the quota changes of {entity} must map each key to a "
                f"number or None, got {given(ops)}"
            )
        checked = tuple((_quota_key(entity, key), _quota_value(entity, key, value))
                        for key, value in ops.items())  # fmt: skip
        object.__setattr__(self, "entity", entity)
        object.__setattr__(self, "ops", checked)


def _quota_key(entity: ClientQuotaEntity, key: Any) -> str:
    if not isinstance(key, str) or not key:
        raise InvalidArgumentError(
            f"quota keys of {entity} must be non-empty str, got {given(key)}"
        )
    check_string(f"quota key {shorten(key)} of {entity}", key)
    return key


def _quota_value(entity: ClientQuotaEntity, key: str, value: Any) -> float | None:
    if value is None:
        return None
    return check_quota_value(key, value, where=f"quota {key!r} of {entity}")


def check_quota_value(key: str, value: object, *, where: str | None = None) -> float:
    """``value`` as a value of quota ``key``, by Kafka's rule: the one check the SDK, desired
    state and the CLI share.

    A finite number above 0: Kafka 3.x and 4.x brokers refuse 0 and below ("Quota ... must be
    greater than 0", ``INVALID_REQUEST``), so it is refused here before anything is sent. Which
    keys an entity takes and which must be whole numbers (``*_byte_rate``,
    ``connection_creation_rate``) the broker decides, per key, in its answer. Raises
    :class:`InvalidArgumentError` naming ``where`` (default: the quota) and the value.
    """
    where = where or f"quota {key!r}"
    if isinstance(value, bool) or not isinstance(value, int | float) or not _finite(value):
        raise InvalidArgumentError(f"{where} must be a finite number above 0, got {given(value)}")
    if value <= 0:
        raise InvalidArgumentError(
            f"{where} must be a finite number above 0 (Kafka refuses 0 and below), "
            f"got {given(value)}"
        )
    return float(value)


@overload
def quota_value_text(value: float) -> str: ...


@overload
def quota_value_text(value: float | None) -> str | None: ...


def quota_value_text(value: float | None) -> str | None:
    """A quota value as Kafka's tools and every face of this library write it: a whole number
    without a fraction (``1048576``, not ``1048576.0``), any other number in full
    (``12.5``, ``0.001``): the one format of the CLI, the desired state, the change feed, the
    web editor and Spark. None (no value: a quota unset, or removed by a change) stays None."""
    if value is None:
        return None
    number = float(value)  # an int too: Python 3.11 ints have no is_integer
    return str(int(number)) if math.isfinite(number) and number.is_integer() else repr(number)


def _finite(value: float) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False
