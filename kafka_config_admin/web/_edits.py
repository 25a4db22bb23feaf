"""The edits a user has made but not applied: the desired state of what they touched.

Each edit is a key's wanted value (a Kafka string) or None to reset it to its default
(DELETE); quota edits are a quota's wanted number or None to remove it. The pending plan is
``desired``'s diff of :meth:`Edits.desired` against the cluster, as for a desired-state file,
so that values are compared, checked and applied exactly as the CLI does.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field

from .. import ClientQuotaEntity, ConfigResource
from ..desired import DesiredState, desired_state_of

__all__ = ["Edits"]


@dataclass
class Edits:
    """Pending edits of one cluster."""

    configs: dict[ConfigResource, dict[str, str | None]] = field(default_factory=dict)
    quotas: dict[ClientQuotaEntity, dict[str, float | None]] = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(map(len, self.configs.values())) + sum(map(len, self.quotas.values()))

    def set(self, resource: ConfigResource, key: str, value: str | None) -> None:
        """Want ``value`` for ``key`` (None: reset to its default)."""
        self.configs.setdefault(resource, {})[key] = value

    def set_quota(self, entity: ClientQuotaEntity, key: str, value: float | None) -> None:
        """Want ``value`` for a quota of ``entity`` (None: remove it)."""
        self.quotas.setdefault(entity, {})[key] = value

    def forget(
        self,
        resources: builtins.set[ConfigResource],
        entities: builtins.set[ClientQuotaEntity],
    ) -> None:
        """Drop the edits of these resources and quota entities (applied, or discarded)."""
        for resource in resources:
            self.configs.pop(resource, None)
        for entity in entities:
            self.quotas.pop(entity, None)

    def clear(self) -> None:
        """Drop every edit."""
        self.configs.clear()
        self.quotas.clear()

    def desired(self) -> DesiredState:
        """The edits as a desired state (each key named is pinned: set even when the value
        equals an inherited one, since the user asked for it on this resource)."""
        return desired_state_of(self.configs, self.quotas)
