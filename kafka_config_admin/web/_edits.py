"""The edits a user has made but not applied: the desired state of what they touched.

Each edit is a key's wanted value (a Kafka string) or None to reset it to its default
(DELETE); quota edits are a quota's wanted number or None to remove it; SCRAM edits are a
user's credential to upsert (its password already salted: the plain password is never kept)
or to delete, one per user and mechanism. The pending plan is
``desired``'s diff of :meth:`Edits.desired` against the cluster, as for a desired-state file,
so that values are compared, checked and applied exactly as the CLI does.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from dataclasses import dataclass, field

from .. import (
    ClientQuotaEntity,
    ConfigResource,
    ScramMechanism,
    UserScramCredentialAlteration,
)
from ..changeset import desired_state_of
from ..state import DesiredState

__all__ = ["Edits"]


@dataclass
class Edits:
    """Pending edits of one cluster."""

    configs: dict[ConfigResource, dict[str, str | None]] = field(default_factory=dict)
    quotas: dict[ClientQuotaEntity, dict[str, float | None]] = field(default_factory=dict)
    #: By user, then mechanism: kept until applied or discarded (a salted password is as good
    #: as the password for a SCRAM login, so it is never shown and never outlives its need).
    scram: dict[str, dict[ScramMechanism, UserScramCredentialAlteration]] = field(
        default_factory=dict, repr=False
    )

    def __len__(self) -> int:
        counts = (self.configs.values(), self.quotas.values(), self.scram.values())
        return sum(len(edits) for kind in counts for edits in kind)

    def set(self, resource: ConfigResource, key: str, value: str | None) -> None:
        """Want ``value`` for ``key`` (None: reset to its default)."""
        self.configs.setdefault(resource, {})[key] = value

    def set_quota(self, entity: ClientQuotaEntity, key: str, value: float | None) -> None:
        """Want ``value`` for a quota of ``entity`` (None: remove it)."""
        self.quotas.setdefault(entity, {})[key] = value

    def set_scram(self, alteration: UserScramCredentialAlteration) -> None:
        """Want a user's credential upserted or deleted (replacing an edit of the same
        user and mechanism)."""
        self.scram.setdefault(alteration.user, {})[alteration.mechanism] = alteration

    def scram_changes(self) -> tuple[UserScramCredentialAlteration, ...]:
        """The SCRAM edits, users in the order first edited."""
        return tuple(
            change for by_mechanism in self.scram.values() for change in by_mechanism.values()
        )

    def forget(
        self,
        resources: builtins.set[ConfigResource],
        entities: builtins.set[ClientQuotaEntity],
        users: Iterable[str] = (),
    ) -> None:
        """Drop the edits of these resources, quota entities and SCRAM users (applied, or
        discarded)."""
        for resource in resources:
            self.configs.pop(resource, None)
        for entity in entities:
            self.quotas.pop(entity, None)
        for name in users:
            self.scram.pop(name, None)

    def clear(self) -> None:
        """Drop every edit."""
        self.configs.clear()
        self.quotas.clear()
        self.scram.clear()

    def desired(self) -> DesiredState:
        """The edits as a desired state (each key named is pinned: set even when the value
        equals an inherited one, since the user asked for it on this resource)."""
        return desired_state_of(self.configs, self.quotas)
