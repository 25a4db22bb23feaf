"""A change set: the typed changes a face asks of one cluster (no I/O)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .. import (
    AlterConfigOp,
    ClientQuotaEntity,
    ConfigResource,
    InvalidArgumentError,
    QuotaEntityType,
    UserScramCredentialAlteration,
)
from ..state import QUOTA_KEYS
from ..toolkit import check_quota_value

__all__ = ["ChangeSet", "UnsetDeletes"]


class UnsetDeletes(StrEnum):
    """What a change set does with a DELETE of a config key the resource does not set (its
    value is a default, or it has none): the broker takes such a DELETE and changes nothing."""

    #: A review problem, so nothing of the change set is sent (as kafka-configs.sh refuses
    #: it: "Invalid config(s)"); the CLI and the web editor.
    REFUSE = "refuse"
    #: Left out with its reason (``Review.skipped``), since the state it asks for already
    #: holds; the resource's other changes are sent. Spark's ``apply_ops``.
    SKIP = "skip"


@dataclass(frozen=True)
class ChangeSet:
    """Changes to one cluster, each kind keyed by what it changes.

    - ``configs``: alter operations per resource (as for ``incremental_alter_configs``);
    - ``quotas``: quota values per client quota entity (None removes a value);
    - ``scram``: SCRAM credential upserts and deletions (their passwords already salted);
    - ``partitions``: the partition count each topic grows to;
    - ``unset_deletes``: what a DELETE of a key the resource does not set becomes
      (:class:`UnsetDeletes`: refused, the default, or skipped with its reason).

    A key changed twice on one resource, a quota key the entity does not take, a quota value
    Kafka refuses, a partition count below 1 or two changes of one user's mechanism raise
    :class:`InvalidArgumentError` here, before anything is read or sent. Every other check
    needs the cluster: :func:`review` makes them.
    """

    configs: Mapping[ConfigResource, Sequence[AlterConfigOp]] = field(default_factory=dict)
    quotas: Mapping[ClientQuotaEntity, Mapping[str, float | None]] = field(default_factory=dict)
    scram: Sequence[UserScramCredentialAlteration] = ()
    partitions: Mapping[str, int] = field(default_factory=dict)
    unset_deletes: UnsetDeletes = UnsetDeletes.REFUSE

    def __post_init__(self) -> None:
        for resource, ops in self.configs.items():
            keys = [op.name for op in ops]
            twice = sorted({key for key in keys if keys.count(key) > 1})
            if twice:
                raise InvalidArgumentError(
                    f"{resource}: {', '.join(twice)} changed twice in one change set"
                )
        for entity, values in self.quotas.items():
            _check_quotas(entity, values)
        seen: set[tuple[str, str]] = set()
        for change in self.scram:
            key = (change.user, change.mechanism.mechanism_name)
            if key in seen:
                raise InvalidArgumentError(
                    f"user {change.user!r}: {key[1]} is changed twice in one change set"
                )
            seen.add(key)
        for topic, count in self.partitions.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise InvalidArgumentError(
                    f"topic {topic!r}: a partition count is a whole number of at least 1, "
                    f"got {count!r}"
                )


def _check_quotas(entity: ClientQuotaEntity, values: Mapping[str, float | None]) -> None:
    kinds = [QuotaEntityType(kind) for kind in entity]
    if QuotaEntityType.IP in kinds and len(kinds) > 1:
        raise InvalidArgumentError(f"{entity}: an ip entity cannot be combined with others")
    allowed = QUOTA_KEYS[kinds[0]]
    for key, value in values.items():
        if key not in allowed:
            raise InvalidArgumentError(
                f"{entity}: {key} is not a quota key of it (use {', '.join(allowed)})"
            )
        if value is not None:
            check_quota_value(key, value, where=f"{entity}: {key}")
