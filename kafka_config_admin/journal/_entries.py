"""What one journal row says of one change, and the rows of an applied plan.

A row never holds a secret: a sensitive config key and a SCRAM credential are recorded as
changed, with no value, and ``sensitive`` set.
"""

from __future__ import annotations

import getpass
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from .. import ClientQuotaEntity, ConfigResource, InvalidArgumentError, ResourceType
from ..changeset import ApplyReport
from ..desired import Plan, ResourceAction, ResourcePlan
from ..state import OutcomeStatus, QuotaPlan, ScramPlan, override_source
from ..toolkit import error_line, is_sensitive_name

__all__ = [
    "JournalEntry",
    "Origin",
    "PlannedRows",
    "entries_of",
    "planned_rows",
    "resource_type_name",
]

#: The faces a change can come from.
FACES = ("cli", "web", "spark", "sdk")

#: ``resource_type`` of a quota entity's rows and of a SCRAM user's rows.
QUOTA = "quota"
SCRAM_USER = "scram-user"


@dataclass(frozen=True)
class Origin:
    """Who made the changes an apply records, from where, to which cluster.

    ``face``: ``cli``, ``web``, ``spark`` or ``sdk``; ``user``: the OS user (CLI, SDK), the
    web editor's signed-in user, the Spark job's user; ``application``: the Spark
    application's id; ``cluster``: the cluster's label (its clusters-file name, else its
    bootstrap servers); ``note``: what the change was for (``undo of change set ...``).
    """

    face: str
    user: str
    cluster: str
    application: str | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.face not in FACES:
            raise InvalidArgumentError(
                f"face {self.face!r}: a journal's face is one of {', '.join(FACES)}"
            )

    @classmethod
    def of_process(cls, face: str, cluster: str, *, note: str = "") -> Origin:
        """This process's OS user, as ``face`` (``cli``, ``sdk``), on ``cluster``."""
        return cls(face=face, user=os_user(), cluster=cluster, note=note)


def os_user() -> str:
    """The OS user running this process (its uid when it has no name)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return f"uid {os.getuid()}"


@dataclass(frozen=True, kw_only=True)
class _RecordedChange:
    """What a journal row says of its change itself, before the origin and the outcome are
    added (see :class:`JournalEntry`)."""

    resource_type: str
    resource_name: str
    entity: dict[str, str | None] | None
    key: str
    op: str
    old_value: str | None
    old_set: bool
    new_value: str | None
    new_set: bool
    sensitive: bool


@dataclass(frozen=True, kw_only=True)
class JournalEntry(_RecordedChange):
    """One change as the journal recorded it.

    ``resource_type`` is a config resource's type (``topic``, ``broker``, ``broker-logger``,
    ``group``, ``client-metrics``), ``quota`` (``entity`` holds the quota entity) or
    ``scram-user`` (``key`` is the mechanism). ``old_set`` / ``new_set`` say whether the key
    was set on the resource itself before and after (``old_value`` may be a default it
    inherited); a ``sensitive`` row has no values. ``outcome`` is an :class:`OutcomeStatus`
    value, ``message`` the broker's refusal when it failed, ``note`` the outcome's note (a
    guardrail overridden) and the origin's.
    """

    id: int | None
    change_set: str
    time: datetime
    user: str
    face: str
    application: str | None
    cluster: str
    cluster_id: str | None
    outcome: str
    message: str
    note: str

    @property
    def resource(self) -> str:
        """``topic:orders``, ``broker:`` (the cluster default), ``quota:user=alice``."""
        return f"{self.resource_type}:{self.resource_name}"

    @property
    def applied(self) -> bool:
        """Whether the change was made (read back, or made but not read back in time)."""
        return self.outcome in (OutcomeStatus.APPLIED.value, OutcomeStatus.UNCONFIRMED.value)

    def value_text(self, value: str | None, was_set: bool) -> str:
        """``old_value`` or ``new_value`` as people read it: ``(not set)``, ``(secret, not
        recorded)``, a value the key inherited after ``(not set; ``."""
        if self.sensitive:
            return "(secret, not recorded)" if was_set else "(not set)"
        if not was_set:
            return "(not set)" if value is None else f"(not set; {value})"
        return "" if value is None else value

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready data (time in ISO 8601, UTC)."""
        data = asdict(self)
        data["time"] = self.time.isoformat()
        data["resource"] = self.resource
        return data

    def entity_json(self) -> str | None:
        """The quota entity as stored."""
        return None if self.entity is None else json.dumps(self.entity, sort_keys=True)


def _entry_of(fields: dict[str, Any]) -> JournalEntry:
    """The entry of ``fields``, a dict of its every field that becomes the entry's own: a
    quarter of ``JournalEntry()``'s cost, which sets a frozen dataclass's 21 fields one at a
    time (an apply of 2,000 topics makes 2,000 entries; the rows' test checks every field)."""
    entry = object.__new__(JournalEntry)
    object.__setattr__(entry, "__dict__", fields)
    return entry


def resource_type_name(resource: ConfigResource) -> str:
    """``topic``, ``broker-logger``...: a config resource's type as rows and filters say it."""
    return _TYPE_NAMES[resource.type]


#: Each resource type as rows say it (a lookup: an enum's name is a descriptor call).
_TYPE_NAMES = {kind: kind.name.lower().replace("_", "-") for kind in ResourceType}


def entity_name(entity: dict[str, str | None]) -> str:
    """``user=alice,client-id=<default>``: a quota entity as rows and filters say it."""
    return ",".join(
        f"{kind}={'<default>' if name is None else name}" for kind, name in entity.items()
    )


@dataclass(frozen=True)
class PlannedRows:
    """A plan's changes as journal rows, before the apply says what became of them: made while
    the changes are sent (:meth:`Recorder.prepare`), so that recording them after costs
    little. Each mapping holds the rows of one resource, quota entity, SCRAM user or topic
    grown."""

    configs: Mapping[ConfigResource, tuple[_RecordedChange, ...]]
    quotas: Mapping[ClientQuotaEntity, tuple[_RecordedChange, ...]]
    scram: Mapping[str, tuple[_RecordedChange, ...]]
    partitions: Mapping[str, _RecordedChange]


def planned_rows(plan: Plan) -> PlannedRows:
    """The rows of every change ``plan`` may send (a skipped resource sends none)."""
    partitions = {
        growing.topic: _RecordedChange(
            resource_type="topic",
            resource_name=growing.topic,
            entity=None,
            key="partitions",
            op="ADD_PARTITIONS",
            old_value=str(growing.current_partitions),
            old_set=True,
            new_value=str(growing.wanted_partitions),
            new_set=True,
            sensitive=False,
        )
        for growing in plan.partition_plans()
        if growing.wanted_partitions != growing.current_partitions
    }
    return PlannedRows(
        configs={
            resource_plan.resource: tuple(_config_rows(resource_plan.resource, resource_plan))
            for resource_plan in plan.resources
            if resource_plan.action in (ResourceAction.ALTER, ResourceAction.CREATE)
        },
        quotas={
            quota_plan.quota_entity: tuple(_quota_rows(quota_plan)) for quota_plan in plan.quotas
        },
        scram={scram_plan.user: tuple(_scram_rows(scram_plan)) for scram_plan in plan.scram},
        partitions=partitions,
    )


def entries_of(
    planned: PlannedRows,
    report: ApplyReport,
    *,
    origin: Origin,
    cluster_id: str | None,
    change_set: str,
    time: datetime,
) -> list[JournalEntry]:
    """A row per change ``report`` says was sent (skipped resources send nothing), from the
    rows planned for them."""
    entries: list[JournalEntry] = []

    def add(
        rows: Iterable[_RecordedChange],
        status: OutcomeStatus,
        error: BaseException | None,
        note: str,
    ) -> None:
        fields = {
            "id": None,
            "change_set": change_set,
            "time": time,
            "user": origin.user,
            "face": origin.face,
            "application": origin.application,
            "cluster": origin.cluster,
            "cluster_id": cluster_id,
            "outcome": status.value,
            "message": "" if error is None else error_line(error),
            "note": "; ".join(part for part in (note, origin.note) if part),
        }
        # Each row: these fields and its change's, a shallow copy (asdict deep-copied them).
        entries.extend(_entry_of(fields | vars(row)) for row in rows)

    for outcome in report.outcomes:
        if outcome.status is not OutcomeStatus.SKIPPED:
            add(
                planned.configs.get(outcome.resource, ()),
                outcome.status,
                outcome.error,
                outcome.note,
            )
    for quota in report.quotas:
        add(planned.quotas[quota.entity], quota.status, quota.error, quota.note)
    for user in report.scram:
        add(planned.scram[user.user], user.status, user.error, user.note)
    for moved in report.partitions:
        grown = planned.partitions.get(moved.topic)
        if grown is not None:
            add((grown,), moved.status, moved.error, moved.note)
    return entries


def _config_rows(
    resource: ConfigResource, resource_plan: ResourcePlan
) -> Iterator[_RecordedChange]:
    kind, name = resource_type_name(resource), resource.name
    creation = resource_plan.create
    if creation is not None:  # the topic's configs are sent with it, not as changes
        yield _RecordedChange(
            resource_type=kind,
            resource_name=name,
            entity=None,
            key="",
            op="CREATE",
            old_value=None,
            old_set=False,
            new_value=None,
            new_set=True,
            sensitive=False,
        )
        for key, value in creation.configs.items():
            hidden = is_sensitive_name(key)
            shown = None if hidden else value
            yield _RecordedChange(
                resource_type=kind,
                resource_name=name,
                entity=None,
                key=key,
                op="SET",
                old_value=None,
                old_set=False,
                new_value=shown,
                new_set=True,
                sensitive=hidden,
            )
        return
    for change in resource_plan.changes:
        hidden = change.sensitive
        yield _RecordedChange(
            resource_type=kind,
            resource_name=name,
            entity=None,
            key=change.key,
            op=change.op.name,
            old_value=None if hidden else change.current,
            old_set=change.current_source is override_source(resource),
            new_value=None if hidden else change.wanted,
            new_set=change.wanted is not None,
            sensitive=hidden,
        )


def _quota_rows(quota_plan: QuotaPlan) -> Iterator[_RecordedChange]:
    entity = dict(quota_plan.entity)
    for change in quota_plan.changes:
        current, wanted = change.shown()
        yield _RecordedChange(
            resource_type=QUOTA,
            resource_name=entity_name(entity),
            entity=dict(entity),  # a row's own, as the rows share nothing
            key=change.key,
            op=change.op.name,
            old_value=current,
            old_set=change.current is not None,
            new_value=wanted,
            new_set=change.wanted is not None,
            sensitive=False,
        )


def _scram_rows(scram_plan: ScramPlan) -> Iterator[_RecordedChange]:
    for change in scram_plan.changes:
        yield _RecordedChange(
            resource_type=SCRAM_USER,
            resource_name=scram_plan.user,
            entity=None,
            key=change.mechanism,
            op=change.op,
            old_value=None,
            old_set=change.current_iterations is not None,
            new_value=None,
            new_set=change.op == "UPSERT",
            sensitive=True,
        )
