"""The client-quota calls (KIP-546): what they send, and their results (no I/O).

Both go to any broker, which forwards alterations to the controller. A describe is one request
whose answer lists the entities its filter matched, so its result has one future, keyed by the
filter; an alter has one future per entity, as each entity succeeds or fails on its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._exceptions import BrokerError, InvalidArgumentError, error_for_code
from .._models.quotas import (
    ClientQuotaAlteration,
    ClientQuotaEntity,
    ClientQuotaFilter,
    QuotaEntityType,
)
from .._models.validation import check_flag
from .._protocol import ALTER_CLIENT_QUOTAS, DESCRIBE_CLIENT_QUOTAS
from .base import Operation
from .results import _Result

__all__ = [
    "AlterClientQuotas",
    "AlterClientQuotasResult",
    "DescribeClientQuotas",
    "DescribeClientQuotasResult",
    "QuotaValues",
]

#: The quota values of one entity, by key.
QuotaValues = dict[str, float]

#: These APIs never ask the client to wait out a throttle: the broker delays its answer itself.
NEVER_THROTTLES_CLIENT = 1 << 15


def _wire_entity(entity: ClientQuotaEntity) -> list[dict[str, Any]]:
    return [{"entity_type": kind, "entity_name": name} for kind, name in entity.items()]


def _decoded_entity(raw: list[dict[str, Any]]) -> ClientQuotaEntity:
    return ClientQuotaEntity._decoded((item["entity_type"], item["entity_name"]) for item in raw)


@dataclass
class DescribeClientQuotas(Operation[ClientQuotaFilter, dict[ClientQuotaEntity, QuotaValues]]):
    """DescribeClientQuotas: the quotas of every entity a filter matches."""

    filter: ClientQuotaFilter

    codec = DESCRIBE_CLIENT_QUOTAS
    hedged = True
    throttle_from_version = NEVER_THROTTLES_CLIENT

    @classmethod
    def build(cls, quota_filter: ClientQuotaFilter | None) -> DescribeClientQuotas:
        if quota_filter is None:
            quota_filter = ClientQuotaFilter()
        if not isinstance(quota_filter, ClientQuotaFilter):
            raise InvalidArgumentError(
                f"expected a ClientQuotaFilter, got {type(quota_filter).__name__}"
            )
        return cls(filter=quota_filter)

    @property
    def resources(self) -> list[ClientQuotaFilter]:
        return [self.filter]

    def body(self, resources: Sequence[ClientQuotaFilter], version: int) -> dict[str, Any]:
        return {
            "components": [
                {
                    "entity_type": component.entity_type.value,
                    "match_type": component.match_type,
                    "match": component.match,
                }
                for component in self.filter.components
            ],
            "strict": self.filter.strict,
        }

    def outcomes(
        self, resources: Sequence[ClientQuotaFilter], response: Mapping[str, Any]
    ) -> Iterator[tuple[ClientQuotaFilter, dict[ClientQuotaEntity, QuotaValues] | BrokerError]]:
        code = response["error_code"]
        if code:
            yield self.filter, error_for_code(code, response["error_message"], resource=self.filter)
            return
        yield (
            self.filter,
            {
                _decoded_entity(entry["entity"]): {v["key"]: v["value"] for v in entry["values"]}
                for entry in response["entries"] or ()
            },
        )


@dataclass
class AlterClientQuotas(Operation[ClientQuotaEntity, None]):
    """AlterClientQuotas: set or remove quota keys, each entity on its own."""

    alterations: dict[ClientQuotaEntity, tuple[tuple[str, float | None], ...]]
    validate_only: bool

    codec = ALTER_CLIENT_QUOTAS
    mutates = True
    hedged = True  # each key is set to a value or removed: the same state however often
    throttle_from_version = NEVER_THROTTLES_CLIENT
    _results_key = "entries"

    @classmethod
    def build(
        cls,
        alterations: Iterable[ClientQuotaAlteration]
        | Mapping[ClientQuotaEntity, Mapping[str, float | int | None]],
        *,
        validate_only: bool,
    ) -> AlterClientQuotas:
        if isinstance(alterations, Mapping):
            given = [ClientQuotaAlteration(e, ops) for e, ops in alterations.items()]
        elif isinstance(alterations, Iterable) and not isinstance(
            alterations, ClientQuotaAlteration | str
        ):
            given = list(alterations)
        else:
            raise InvalidArgumentError(
                "alterations must be a collection of ClientQuotaAlteration, or map each "
                f"ClientQuotaEntity to {{key: value or None}}; got {type(alterations).__name__}"
            )
        checked: dict[ClientQuotaEntity, tuple[tuple[str, float | None], ...]] = {}
        for alteration in given:
            if not isinstance(alteration, ClientQuotaAlteration):
                raise InvalidArgumentError(
                    f"expected a ClientQuotaAlteration, got {type(alteration).__name__}"
                )
            entity = alteration.entity
            if entity in checked:
                raise InvalidArgumentError(f"{entity} appears twice in one call")
            _check_combination(entity)
            checked[entity] = alteration.ops
        return cls(alterations=checked, validate_only=check_flag("validate_only", validate_only))

    @property
    def resources(self) -> list[ClientQuotaEntity]:
        return list(self.alterations)

    def body(self, resources: Sequence[ClientQuotaEntity], version: int) -> dict[str, Any]:
        return {
            "entries": [
                {
                    "entity": _wire_entity(entity),
                    "ops": [
                        {"key": key, "value": value or 0.0, "remove": value is None}
                        for key, value in self.alterations[entity]
                    ],
                }
                for entity in resources
            ],
            "validate_only": self.validate_only,
        }

    def answered(self, result: Mapping[str, Any]) -> ClientQuotaEntity:
        return _decoded_entity(result["entity"])

    def value(self, resource: ClientQuotaEntity, result: Mapping[str, Any]) -> None:
        return None


def _check_combination(entity: ClientQuotaEntity) -> None:
    """The broker's rule, checked before sending: an ip entity stands alone."""
    if QuotaEntityType.IP in entity and len(entity) > 1:
        raise InvalidArgumentError(
            f"{entity}: an ip quota entity cannot be combined with user or client-id"
        )


class DescribeClientQuotasResult(_Result[ClientQuotaFilter, dict[ClientQuotaEntity, QuotaValues]]):
    """The result of :meth:`AdminClient.describe_client_quotas`.

    ``await result.all()`` gives each matched :class:`ClientQuotaEntity` with its quota values,
    or raises the broker's error for the whole describe.
    """

    async def all(self) -> dict[ClientQuotaEntity, QuotaValues]:
        """Wait for the answer: every matching entity's quota values, by key."""
        [values] = (await self._all()).values()
        return values


class AlterClientQuotasResult(_Result[ClientQuotaEntity, None]):
    """The result of :meth:`AdminClient.alter_client_quotas`.

    ``values[entity]`` completes once that entity is altered (or fails with its own error);
    ``await result.all()`` returns when every entity was altered, or raises the first error.
    """

    async def all(self) -> None:
        """Wait for every entity; raise the first error (in the order given)."""
        await self._all()
