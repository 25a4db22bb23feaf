"""Client quotas in a desired-state file: the ``quotas:`` section and its diff (no I/O).

Each entry names one quota entity (``user``, ``client-id`` and ``ip`` mapped to a name, null
for the default entity of the type) and the quota values wanted on it (a number, or null for
"no value here": one the entity has is removed)::

    quotas:
      - entity: {user: alice}
        values: {producer_byte_rate: 1048576, consumer_byte_rate: 2097152}
      - entity: {user: alice, client-id: null}
        values: {request_percentage: 25}
      - entity: {ip: 10.1.2.3}
        values: {connection_creation_rate: 5}

Keys are checked by entity type as Kafka's QuotaConfig names them. Quota values are doubles
on the wire and compared as such. Keys the file does not name are left alone, except when
pruning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .. import ClientQuotaEntity, InvalidArgumentError, OpType, QuotaEntityType
from ..toolkit import check_quota_value, quota_value_text

__all__ = ["QUOTA_KEYS", "QuotaChange", "QuotaPlan", "QuotaSpec", "plan_quotas", "quota_keys"]

_USER_OR_CLIENT_KEYS = (
    "producer_byte_rate",
    "consumer_byte_rate",
    "request_percentage",
    "controller_mutation_rate",
)
#: The quota keys each entity type takes (Kafka's QuotaConfig).
QUOTA_KEYS: dict[QuotaEntityType, tuple[str, ...]] = {
    QuotaEntityType.USER: _USER_OR_CLIENT_KEYS,
    QuotaEntityType.CLIENT_ID: _USER_OR_CLIENT_KEYS,
    QuotaEntityType.IP: ("connection_creation_rate",),
}


def quota_keys(entity: ClientQuotaEntity) -> tuple[str, ...]:
    """The keys an entity takes: an ip entity its connection rate, others the client quotas."""
    return QUOTA_KEYS[QuotaEntityType(next(iter(entity)))]


class QuotaSpec(BaseModel):
    """The quota values wanted on one entity (None: no value for that key)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    entity: dict[str, str | None]
    values: dict[str, float | None] = Field(default_factory=dict)

    @field_validator("values", mode="before")
    @classmethod
    def _numbers(cls, values: Any) -> Any:
        if not isinstance(values, Mapping):
            return values  # pydantic reports the wrong type
        return {key: _number(key, value) for key, value in values.items()}

    @model_validator(mode="after")
    def _entity_and_keys(self) -> QuotaSpec:
        try:
            entity = ClientQuotaEntity(self.entity)
        except InvalidArgumentError as error:
            raise ValueError(str(error)) from None
        if QuotaEntityType.IP in entity and len(entity) > 1:
            raise ValueError(f"{entity}: an ip entity cannot be combined with user or client-id")
        allowed = quota_keys(entity)
        unknown = [key for key in self.values if key not in allowed]
        if unknown:
            raise ValueError(
                f"{entity}: {', '.join(unknown)} not a quota key (use {', '.join(allowed)})"
            )
        return self

    @property
    def quota_entity(self) -> ClientQuotaEntity:
        return ClientQuotaEntity(self.entity)


#: A decimal number as a file writes it (the loader keeps ``25.5`` as text, as it does for
#: config values): digits, a fraction, an exponent; no sign, ``_``, ``nan`` or ``inf``.
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def _number(key: object, value: object) -> float | None:
    """A file's quota value (null, a number, or a decimal the loader kept as text), checked by
    the SDK's rule."""
    if value is None:
        return None
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        value = float(value)
    try:
        return check_quota_value(str(key), value, where=f"{key} (null removes it)")
    except InvalidArgumentError as error:
        raise ValueError(str(error)) from None


class QuotaChange(BaseModel):
    """One quota key of one entity: its value now and the value wanted (None: none)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str
    current: float | None
    wanted: float | None

    @property
    def op(self) -> OpType:
        """``SET``, or ``DELETE`` when no value is wanted (the entity's value is removed)."""
        return OpType.DELETE if self.wanted is None else OpType.SET

    def shown(self) -> tuple[str | None, str | None]:
        """The current and wanted values as every face writes them (:func:`quota_value_text`;
        None: no value)."""
        return quota_value_text(self.current), quota_value_text(self.wanted)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "current": self.current, "wanted": self.wanted}


class QuotaPlan(BaseModel):
    """The quota changes of one entity."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    entity: dict[str, str | None]
    changes: tuple[QuotaChange, ...]

    @property
    def quota_entity(self) -> ClientQuotaEntity:
        return ClientQuotaEntity(self.entity)

    def alteration(self) -> dict[str, float | None]:
        """The values for ``alter_client_quotas`` (None removes)."""
        return {change.key: change.wanted for change in self.changes}

    def shown_by(self, values: Mapping[str, float]) -> bool:
        """Whether the entity's described values show this plan applied."""
        return all(values.get(change.key) == change.wanted for change in self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {"entity": dict(self.entity), "changes": [c.to_dict() for c in self.changes]}


def plan_quotas(
    specs: tuple[QuotaSpec, ...],
    current: Mapping[ClientQuotaEntity, Mapping[str, float]],
    *,
    prune: bool,
) -> tuple[QuotaPlan, ...]:
    """The entities whose quotas differ from ``specs``, with their changes, in file order."""
    plans = []
    for spec in specs:
        entity = spec.quota_entity
        have = current.get(entity, {})
        changes = [
            QuotaChange(key=key, current=have.get(key), wanted=wanted)
            for key, wanted in spec.values.items()
            if have.get(key) != wanted
        ]
        if prune:
            changes += [
                QuotaChange(key=key, current=value, wanted=None)
                for key, value in sorted(have.items())
                if key not in spec.values
            ]
        if changes:
            plans.append(QuotaPlan(entity=dict(entity), changes=tuple(changes)))
    return tuple(plans)
