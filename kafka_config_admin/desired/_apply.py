"""The I/O of desired state: read what a cluster has, and apply a plan to it.

:func:`read_state` describes what a desired state is about (with KIP-569 types) into a
:class:`ClusterState`; :func:`apply_plan` sends a :class:`Plan`: the broker validates every
change first (``validate_only``), then the changes that passed are made, and each applied
resource is read back until it shows its new values, since brokers apply a committed change a
few milliseconds apart. One resource failing never stops the others; every resource gets an
outcome in the :class:`ApplyReport`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import anyio

from .._client import AdminClient
from .._exceptions import InvalidArgumentError, UnknownTopicOrPartitionError
from .._models import AlterConfigOp, Config, ConfigResource, ResourceType
from ._check import Problem
from ._model import DesiredState
from ._plan import Plan, ResourceAction, ResourcePlan
from ._state import ClusterState

__all__ = [
    "DEFAULT_READ_BACK_TIMEOUT",
    "ApplyReport",
    "OutcomeStatus",
    "PlanRejectedError",
    "ResourceOutcome",
    "apply_plan",
    "read_state",
]

#: Seconds :func:`apply_plan` reads back applied resources before calling them unconfirmed.
DEFAULT_READ_BACK_TIMEOUT = 30.0

_READ_BACK_PAUSE = 0.05


class PlanRejectedError(InvalidArgumentError):
    """The plan has problems (wrong types, unknown or read-only keys): nothing was sent."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        lines = [f"the plan has {len(self.problems)} problem(s); nothing was sent:"]
        lines += [f"  {problem}" for problem in self.problems]
        super().__init__("\n".join(lines))


class OutcomeStatus(StrEnum):
    """What became of one resource of a plan."""

    APPLIED = "applied"  #: changed, and read back showing the new values
    VALIDATED = "validated"  #: dry run: the broker accepted the change and applied nothing
    UNCONFIRMED = "unconfirmed"  #: changed, but not read back as wanted before the deadline
    FAILED = "failed"  #: refused (``error`` says why); nothing of it was changed
    SKIPPED = "skipped"  #: nothing sent (a missing topic the file gives no partitions/RF for)


@dataclass(frozen=True)
class ResourceOutcome:
    """The outcome of one resource: its status, the error when it failed, and a note."""

    resource: ConfigResource
    action: ResourceAction
    status: OutcomeStatus
    error: BaseException | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data."""
        return {
            "resource": {"type": self.resource.type.name, "name": self.resource.name},
            "action": self.action.value,
            "status": self.status.value,
            "error": None if self.error is None else type(self.error).__name__,
            "message": str(self.error) if self.error is not None else self.note,
        }


@dataclass(frozen=True)
class ApplyReport:
    """Every resource's outcome of :func:`apply_plan`, in plan order."""

    outcomes: tuple[ResourceOutcome, ...] = ()
    dry_run: bool = False

    @property
    def ok(self) -> bool:
        """Whether nothing failed and every change was read back (or validated)."""
        return not self.failed and not self.unconfirmed

    @property
    def failed(self) -> list[ResourceOutcome]:
        """The resources that failed, with their errors."""
        return [o for o in self.outcomes if o.status is OutcomeStatus.FAILED]

    @property
    def unconfirmed(self) -> list[ResourceOutcome]:
        """The resources changed but not read back as wanted before the deadline."""
        return [o for o in self.outcomes if o.status is OutcomeStatus.UNCONFIRMED]

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "dry_run": self.dry_run,
            "ok": self.ok,
            "outcomes": [outcome.to_dict() for outcome in self.outcomes],
        }


async def read_state(admin: AdminClient, desired: DesiredState) -> ClusterState:
    """Describe what ``desired`` is about, with KIP-569 types, for :func:`make_plan`.

    Named topics the cluster lacks are left out of ``configs`` (they are missing, not errors);
    any other failed describe is in ``errors``. A broker's own configs serve as the schema of
    the cluster default, and a described topic's as the schema of topics to create. The
    describe has the client's ``timeout``.
    """
    resources = list(desired.resources(()))
    schemas: dict[ResourceType, Config] = {}
    broker_schema = _broker_schema_resource(admin, desired)
    wanted = list(dict.fromkeys([*resources, *([broker_schema] if broker_schema else [])]))
    described = admin.describe_configs(wanted, include_documentation=True)
    await described.wait()
    configs: dict[ConfigResource, Config] = {}
    errors: dict[ConfigResource, BaseException] = {}
    for resource, future in described.values.items():
        error = future.exception()
        if error is None:
            configs[resource] = future.result()
        elif not (
            isinstance(error, UnknownTopicOrPartitionError) and resource.type is ResourceType.TOPIC
        ):
            errors[resource] = error
    if broker_schema is not None and broker_schema in configs:
        schemas[ResourceType.BROKER] = configs[broker_schema]
        if broker_schema not in resources:
            del configs[broker_schema]
    topic_configs = [c for r, c in configs.items() if r.type is ResourceType.TOPIC]
    if topic_configs:
        schemas[ResourceType.TOPIC] = topic_configs[0]
    return ClusterState(configs=configs, schemas=schemas, errors=errors)


def _broker_schema_resource(admin: AdminClient, desired: DesiredState) -> ConfigResource | None:
    """A broker to describe for the keys and types brokers take, when the file needs one."""
    if desired.cluster_default is None and not desired.brokers:
        return None
    ids = sorted(desired.brokers) or admin.broker_ids()[:1]
    return ConfigResource(ResourceType.BROKER, str(ids[0])) if ids else None


async def apply_plan(
    admin: AdminClient,
    plan: Plan,
    *,
    dry_run: bool = False,
    read_back_timeout: float = DEFAULT_READ_BACK_TIMEOUT,
) -> ApplyReport:
    """Apply ``plan``: validate every change on the broker, make those that pass, read back.

    Raises :class:`PlanRejectedError` (sending nothing) when the plan has problems. Otherwise
    every resource of the plan gets a :class:`ResourceOutcome`; a resource the broker refuses
    (its policy, a bad value) fails alone. With ``dry_run`` only the validation is sent.
    Each request has the client's ``timeout``; the read back of applied resources lasts at
    most ``read_back_timeout`` seconds, and a resource whose new values do not show by then
    is ``UNCONFIRMED``.
    """
    if plan.problems:
        raise PlanRejectedError(plan.problems)
    outcomes: dict[ConfigResource, ResourceOutcome] = {}
    alters = {p.resource: p for p in plan.resources if p.action is ResourceAction.ALTER}
    for resource_plan in plan.resources:
        if resource_plan.action in (ResourceAction.MISSING, ResourceAction.UNCHANGED):
            outcomes[resource_plan.resource] = _skipped(resource_plan)
        elif resource_plan.action is ResourceAction.CREATE:
            outcomes[resource_plan.resource] = ResourceOutcome(
                resource_plan.resource,
                ResourceAction.CREATE,
                OutcomeStatus.FAILED,
                error=InvalidArgumentError("creating topics needs AdminClient.create_topics"),
            )
    if alters:
        outcomes.update(await _alter(admin, alters, dry_run, read_back_timeout))
    return ApplyReport(
        outcomes=tuple(outcomes[p.resource] for p in plan.resources), dry_run=dry_run
    )


def _skipped(resource_plan: ResourcePlan) -> ResourceOutcome:
    if resource_plan.action is ResourceAction.MISSING:
        note = "the topic does not exist; give partitions and replication_factor to create it"
    else:
        note = "skipped: " + ", ".join(
            f"{skip.key} ({skip.reason})" for skip in resource_plan.skipped
        )
    return ResourceOutcome(
        resource_plan.resource, resource_plan.action, OutcomeStatus.SKIPPED, note=note
    )


async def _alter(
    admin: AdminClient,
    alters: Mapping[ConfigResource, ResourcePlan],
    dry_run: bool,
    read_back_timeout: float,
) -> dict[ConfigResource, ResourceOutcome]:
    ops = {resource: [c.alter_op() for c in plan.changes] for resource, plan in alters.items()}
    outcomes: dict[ConfigResource, ResourceOutcome] = {}
    passed = await _send(admin, ops, True, outcomes)
    if dry_run:
        for resource in passed:
            outcomes[resource] = _outcome(resource, OutcomeStatus.VALIDATED)
        return outcomes
    applied = await _send(admin, {r: ops[r] for r in passed}, False, outcomes)
    confirmed = await _read_back(admin, {r: alters[r] for r in applied}, read_back_timeout)
    for resource in applied:
        if resource in confirmed:
            outcomes[resource] = _outcome(resource, OutcomeStatus.APPLIED)
        else:
            outcomes[resource] = _outcome(
                resource,
                OutcomeStatus.UNCONFIRMED,
                note="applied, but a describe did not show the new values before the deadline",
            )
    return outcomes


async def _send(
    admin: AdminClient,
    ops: Mapping[ConfigResource, list[AlterConfigOp]],
    validate_only: bool,
    outcomes: dict[ConfigResource, ResourceOutcome],
) -> list[ConfigResource]:
    """Send one incremental alter; record failures in ``outcomes``, return the successes."""
    if not ops:
        return []
    result = admin.incremental_alter_configs(ops, validate_only=validate_only)
    await result.wait()
    succeeded = []
    for resource, future in result.values.items():
        error = future.exception()
        if error is None:
            succeeded.append(resource)
        else:
            outcomes[resource] = _outcome(resource, OutcomeStatus.FAILED, error=error)
    return succeeded


async def _read_back(
    admin: AdminClient, applied: Mapping[ConfigResource, ResourcePlan], seconds: float
) -> set[ConfigResource]:
    """The applied resources a describe shows as wanted, asked again for up to ``seconds``."""
    pending = dict(applied)
    confirmed: set[ConfigResource] = set()
    with anyio.move_on_after(seconds):
        while pending:
            keys = {r: [c.key for c in plan.changes] for r, plan in pending.items()}
            result = admin.describe_configs(keys)
            await result.wait()
            for resource, future in result.values.items():
                if future.exception() is None and _shows(pending[resource], future.result()):
                    confirmed.add(resource)
                    del pending[resource]
            if pending:
                await anyio.sleep(_READ_BACK_PAUSE)
    return confirmed


def _shows(plan: ResourcePlan, config: Config) -> bool:
    return all(
        change.shows_wanted(plan.resource, config.get(change.key)) for change in plan.changes
    )


def _outcome(
    resource: ConfigResource,
    status: OutcomeStatus,
    *,
    error: BaseException | None = None,
    note: str = "",
) -> ResourceOutcome:
    return ResourceOutcome(resource, ResourceAction.ALTER, status, error=error, note=note)
