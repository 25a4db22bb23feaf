"""``list_groups``: what it sends to each broker and how the answers become listings (no I/O).

A broker lists only the groups it coordinates, so a full list asks every broker, as Kafka's
Admin client does: one ListGroups request per broker, one outcome per broker (the key is the
broker id). The engine routes each key to its broker and retries what failed in a retriable
way; the result merges the brokers' lists.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._exceptions import BrokerError, InvalidArgumentError, error_for_code
from .._protocol import LIST_GROUPS
from .base import Operation
from .results import _Result

__all__ = ["GroupListing", "ListGroups", "ListGroupsResult"]


@dataclass(frozen=True, slots=True)
class GroupListing:
    """A group as :meth:`AdminClient.list_groups` lists it.

    Attributes:
        group_id: the group's name.
        protocol_type: ``"consumer"`` for consumer groups, ``"connect"`` for Kafka Connect,
            ``""`` for groups that only commit offsets, ...
        state: ``"Stable"``, ``"Empty"``..., or None from brokers older than ListGroups v4
            (Kafka 2.6).
        type: ``"classic"``, ``"consumer"``, ``"share"``..., or None from brokers older than
            ListGroups v5 (Kafka 3.8).
        coordinator: the id of the broker that coordinates the group (the one that listed it).
    """

    group_id: str
    protocol_type: str
    state: str | None
    type: str | None
    coordinator: int


@dataclass
class ListGroups(Operation[int, list[GroupListing]]):
    """ListGroups to each broker: keyed by broker id, each key routed to its own broker."""

    brokers: list[int]
    states: list[str]
    types: list[str]

    codec = LIST_GROUPS
    throttle_from_version = 2

    @classmethod
    def build(
        cls,
        brokers: Collection[int],
        *,
        states: Collection[str] | None,
        types: Collection[str] | None,
    ) -> ListGroups:
        return cls(
            brokers=sorted(brokers),
            states=_filter("states", states),
            types=_filter("types", types),
        )

    @property
    def resources(self) -> list[int]:
        return self.brokers

    def destination(self, resource: int) -> int:
        return resource

    def body(self, resources: Sequence[int], version: int) -> dict[str, Any]:
        # A filter the broker's version cannot carry fails the encode (UnsupportedVersionError).
        return {"states_filter": self.states, "types_filter": self.types}

    def outcomes(
        self, resources: Sequence[int], response: Mapping[str, Any]
    ) -> Iterator[tuple[int, list[GroupListing] | BrokerError]]:
        code = response["error_code"]
        for broker in resources:  # routed per broker: one key per request
            if code:
                yield broker, error_for_code(code, None, resource=self.subject(broker))
                continue
            yield (
                broker,
                [
                    GroupListing(
                        group_id=group["group_id"],
                        protocol_type=group["protocol_type"],
                        state=group["group_state"] or None,
                        type=group["group_type"] or None,
                        coordinator=broker,
                    )
                    for group in response["groups"]
                ],
            )

    def subject(self, resource: int) -> object:
        return f"the group list of broker {resource}"


def _filter(name: str, values: Collection[str] | None) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str) or not all(isinstance(v, str) and v for v in values):
        raise InvalidArgumentError(
            f"{name} must be a collection of non-empty strings, got {values!r}"
        )
    return list(values)


class ListGroupsResult(_Result[int, list[GroupListing]]):
    """The result of :meth:`AdminClient.list_groups`, one future per broker asked.

    ``await result.all()`` gives every group, sorted by name, or raises the first broker's
    error; ``await result.valid()`` the groups of the brokers that answered, and
    ``result.errors()`` (after a wait) the brokers that did not, with their errors.
    """

    async def all(self) -> list[GroupListing]:
        """Every group of the cluster; raises the first broker's error (by broker id)."""
        return _sorted((await self._all()).values())

    async def valid(self) -> list[GroupListing]:
        """The groups of every broker that answered; the others are in ``errors()``."""
        await self.wait()
        return _sorted(
            future.result() for future in self.values.values() if future.exception() is None
        )


def _sorted(lists: Iterable[list[GroupListing]]) -> list[GroupListing]:
    # A group moving between coordinators while the brokers are asked may be listed twice.
    unique = {listing.group_id: listing for listed in lists for listing in listed}
    return [unique[name] for name in sorted(unique)]
