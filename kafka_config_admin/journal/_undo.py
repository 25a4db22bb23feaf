"""Undo: the inverse of recorded changes, as a change set for the one pipeline.

Each recorded change puts back what it found: the old value by SET, a key that was not set
by DELETE, a quota's old value (or its removal), a SCRAM credential it created by deletion
(no password is kept, so a changed or deleted credential cannot be put back). A change made
since (the cluster no longer shows the recorded new value) is left alone unless forced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .. import (
    AdminClient,
    AlterConfigOp,
    ClientQuotaEntity,
    Config,
    ConfigResource,
    OpType,
    ResourceType,
    UserScramCredentialDeletion,
)
from ..changeset import ChangeSet
from ..state import describe_state, is_override, read_scram_credentials, same_value
from ..toolkit import error_line, quota_value_text
from ._entries import QUOTA, SCRAM_USER, JournalEntry

__all__ = ["LeftAlone", "Undo", "plan_undo"]


@dataclass(frozen=True)
class LeftAlone:
    """A recorded change that undo leaves as it is, why, and what the cluster shows now."""

    entry: JournalEntry
    reason: str
    now: str | None = None


@dataclass(frozen=True)
class Undo:
    """The change set that undoes ``undone`` (review and apply it), and what it leaves alone."""

    changes: ChangeSet
    undone: tuple[JournalEntry, ...] = ()
    left: tuple[LeftAlone, ...] = field(default_factory=tuple)

    @property
    def changed_since(self) -> tuple[LeftAlone, ...]:
        """The changes left alone because the cluster shows another value now."""
        return tuple(left for left in self.left if left.reason.startswith(_CHANGED_SINCE))


_CHANGED_SINCE = "changed since"


async def plan_undo(
    admin: AdminClient, entries: Sequence[JournalEntry], *, force: bool = False
) -> Undo:
    """The change set that puts back what ``entries`` changed, newest first, after reading
    what the cluster has now (``admin`` must be the cluster they were recorded on: the
    caller checks). A key, quota or credential that shows another value than the recorded
    new one is left alone, unless ``force``; one already back as it was needs nothing."""
    wanted: list[JournalEntry] = []
    left: list[LeftAlone] = []
    seen: set[tuple[str, str, str]] = set()
    for entry in sorted(entries, key=lambda e: e.id or 0, reverse=True):
        subject = (entry.resource_type, entry.resource_name, entry.key)
        reason = _cannot_undo(entry)
        if reason is None and subject in seen:
            reason = "a later change of the same key is undone first"
        if reason is not None:
            left.append(LeftAlone(entry, reason))
            continue
        seen.add(subject)
        wanted.append(entry)
    configs = await _configs_now(admin, [e for e in wanted if _config_resource(e) is not None])
    quotas = await _quotas_now(admin, [e for e in wanted if e.resource_type == QUOTA])
    scram_users = [e.resource_name for e in wanted if e.resource_type == SCRAM_USER]
    scram = await read_scram_credentials(admin, scram_users) if scram_users else {}
    ops: dict[ConfigResource, list[AlterConfigOp]] = {}
    quota_values: dict[ClientQuotaEntity, dict[str, float | None]] = {}
    deletions: list[UserScramCredentialDeletion] = []
    undone: list[JournalEntry] = []
    for entry in wanted:
        resource = _config_resource(entry)
        if resource is not None:
            config = configs.get(resource)
            if not isinstance(config, Config):
                reason = "it cannot be read now" + (f": {error_line(config)}" if config else "")
                left.append(LeftAlone(entry, reason))
                continue
            now_set, now, same_as_new, same_as_old = _config_now(entry, resource, config)
        elif entry.resource_type == QUOTA:
            now_set, now, same_as_new, same_as_old = _quota_now(entry, quotas)
        else:
            now_set = entry.key in scram.get(entry.resource_name, {})
            now, same_as_new, same_as_old = None, now_set == entry.new_set, not now_set
        if same_as_old:
            left.append(LeftAlone(entry, "already as it was before", now))
            continue
        if not same_as_new and not force:
            left.append(
                LeftAlone(entry, f"{_CHANGED_SINCE}: pass --force to undo it all the same", now)
            )
            continue
        if resource is not None:
            ops.setdefault(resource, []).append(_inverse_op(entry))
        elif entry.resource_type == QUOTA:
            assert entry.entity is not None
            old = None if entry.old_value is None else float(entry.old_value)
            quota_values.setdefault(ClientQuotaEntity(entry.entity), {})[entry.key] = old
        else:
            deletions.append(UserScramCredentialDeletion(entry.resource_name, entry.key))
        undone.append(entry)
    changes = ChangeSet(configs=ops, quotas=quota_values, scram=deletions)
    return Undo(changes, tuple(undone), tuple(left))


def _cannot_undo(entry: JournalEntry) -> str | None:
    """Why ``entry`` cannot be undone at all, or None."""
    if not entry.applied:
        return f"it was not applied ({entry.outcome})"
    if entry.op == "CREATE":
        return "a topic created is not deleted by undo"
    if entry.op == "ADD_PARTITIONS":
        return "Kafka cannot remove partitions"
    if entry.resource_type == SCRAM_USER and entry.old_set:
        return "no password is kept: a credential changed or deleted cannot be put back"
    if entry.sensitive and entry.old_set:
        return "a sensitive value is not kept: set it again yourself"
    if entry.resource_type not in (QUOTA, SCRAM_USER) and _config_resource(entry) is None:
        return f"unknown resource type {entry.resource_type!r}"
    return None


def _config_resource(entry: JournalEntry) -> ConfigResource | None:
    if entry.resource_type in (QUOTA, SCRAM_USER):
        return None
    name = entry.resource_type.upper().replace("-", "_")
    if name not in ResourceType.__members__:
        return None
    return ConfigResource(ResourceType[name], entry.resource_name)


def _inverse_op(entry: JournalEntry) -> AlterConfigOp:
    """SET of the old value; DELETE of a key that was not set (it is set now: a key set
    neither before nor now is already as it was)."""
    if entry.old_set:
        return AlterConfigOp(entry.key, entry.old_value, OpType.SET)
    return AlterConfigOp(entry.key, None, OpType.DELETE)


async def _configs_now(
    admin: AdminClient, entries: Sequence[JournalEntry]
) -> Mapping[ConfigResource, Config | BaseException]:
    resources = list(dict.fromkeys(r for e in entries if (r := _config_resource(e)) is not None))
    if not resources:
        return {}
    state = await describe_state(admin, resources)
    found: dict[ConfigResource, Config | BaseException] = dict(state.errors)
    found.update(state.configs)
    return found


def _config_now(
    entry: JournalEntry, resource: ConfigResource, config: Config
) -> tuple[bool, str | None, bool, bool]:
    """Whether the key is set now, its value as shown, and whether it is as the change left
    it and as it was before."""
    now = config.get(entry.key)
    now_set = is_override(resource, now)
    value = now.value if now is not None and now_set else None
    shown = None if entry.sensitive or not now_set else value
    kind = now.type if now is not None else None

    def matches(was_set: bool, recorded: str | None) -> bool:
        if was_set != now_set:
            return False
        if not now_set or entry.sensitive:
            return True
        assert kind is not None
        return same_value(kind, value, recorded, key=entry.key)

    return (
        now_set,
        shown,
        matches(entry.new_set, entry.new_value),
        matches(entry.old_set, entry.old_value),
    )


async def _quotas_now(
    admin: AdminClient, entries: Sequence[JournalEntry]
) -> Mapping[ClientQuotaEntity, Mapping[str, float]]:
    if not entries:
        return {}
    return await admin.describe_client_quotas().all()


def _quota_now(
    entry: JournalEntry, quotas: Mapping[ClientQuotaEntity, Mapping[str, float]]
) -> tuple[bool, str | None, bool, bool]:
    assert entry.entity is not None
    value = quotas.get(ClientQuotaEntity(entry.entity), {}).get(entry.key)
    now = quota_value_text(value)
    return value is not None, now, now == entry.new_value, now == entry.old_value
