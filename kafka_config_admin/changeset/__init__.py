"""One change pipeline for every face: a change set, reviewed, then applied and read back.

A :class:`ChangeSet` holds typed changes to one cluster: config operations per resource,
quota values per client quota entity, SCRAM credential upserts and deletions, and partition
increases. :func:`review` reads what they are about (each key's current value and source),
makes the client's checks (only those certain for the broker's release) and asks the broker's
dry run (``validate_only``); nothing is changed. :func:`apply` sends the reviewed plan: the
broker validates again, the changes it takes are made and read back, and every resource, quota
entity, SCRAM user and growing topic gets one outcome in one vocabulary
(:class:`~kafka_config_admin.state.OutcomeStatus`)::

    from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, ResourceType
    from kafka_config_admin.changeset import ChangeSet, apply, review

    orders = ConfigResource(ResourceType.TOPIC, "orders")
    changes = ChangeSet(configs={orders: [AlterConfigOp("retention.ms", "86400000")]})
    async with AdminClient("localhost:9092") as admin:
        reviewed = await review(admin, changes)
        if reviewed.problems or reviewed.refused:
            ...  # show reviewed.problems / reviewed.verdict; nothing was sent
        report = await apply(admin, reviewed)  # validate, alter, read back
        for outcome in report.outcomes:
            print(outcome.resource, outcome.status)  # APPLIED, UNCONFIRMED, FAILED...

Guardrails: ``review(admin, changes, rules=rules, overrides=["min-isr"])`` checks the rules
(a desired-state file's, a clusters-file entry's: ``desired.connection_rules``) on the changes
(``Review.guard``); :func:`apply` refuses a change set that breaks a rule not overridden
(:class:`RuleRefusedError`, nothing sent) and says each override in the outcome's note.
What was reviewed is what is applied: :func:`apply` reads the changed keys again just before
sending and refuses those that moved since the review (:class:`StaleChangeError`, naming each
with both values), or with ``skip_stale=True`` applies the rest only.

A DELETE of a config key the resource does not set is a review problem by default (as
kafka-configs.sh refuses it); ``ChangeSet(..., unset_deletes=UnsetDeletes.SKIP)`` leaves it
out instead, with its reason in ``Review.skipped``, and sends the rest (Spark's ``apply_ops``).

Every face writes through it. The steps are public too, for a plan made otherwise (a
desired-state file's, :func:`kafka_config_admin.desired.make_plan`): the broker's verdict
(:func:`ask_broker`), the rules a plan's changes break (:func:`check_plan_rules`), applying it
(:func:`apply_plan`: validate, change, read back, one outcome per resource) and a plan saved
and applied as it was approved (:func:`saved_plan_document`, :func:`read_saved_plan`); so a
change set and a desired-state file are applied alike. These steps moved here from
:mod:`kafka_config_admin.desired`, where they stay readable, with a ``DeprecationWarning``,
for one release.
"""

from ..state import OutcomeStatus
from ._apply import (
    DEFAULT_READ_BACK_TIMEOUT,
    INTERRUPTED_NOTE,
    INTERRUPTED_RECORD_TIMEOUT,
    ApplyRecorder,
    ApplyRecording,
    ApplyReport,
    PlanRejectedError,
    QuotaOutcome,
    ResourceOutcome,
    ScramOutcome,
    apply_plan,
)
from ._build import SkippedChange
from ._changes import ChangeSet, UnsetDeletes
from ._guard import (
    FindingStatus,
    RuleCheck,
    RuleFinding,
    RuleRefusedError,
    UnknownRuleError,
    check_overrides,
    check_plan_rules,
    refusal_summary,
)
from ._reassign import DEFAULT_REASSIGNMENT_TIMEOUT, PartitionOutcome
from ._review import Review, StaleChangeError, apply, review
from ._saved import (
    SAVED_PLAN_FORMAT,
    SAVED_PLAN_KIND,
    SavedPlanError,
    desired_state_of,
    plan_desired_state,
    read_saved_plan,
    saved_plan_document,
)
from ._verdict import BrokerVerdict, Proposal, Refusal, ask_broker, is_refusal

__all__ = [
    "DEFAULT_READ_BACK_TIMEOUT",
    "DEFAULT_REASSIGNMENT_TIMEOUT",
    "INTERRUPTED_NOTE",
    "INTERRUPTED_RECORD_TIMEOUT",
    "SAVED_PLAN_FORMAT",
    "SAVED_PLAN_KIND",
    "ApplyRecorder",
    "ApplyRecording",
    "ApplyReport",
    "BrokerVerdict",
    "ChangeSet",
    "FindingStatus",
    "OutcomeStatus",
    "PartitionOutcome",
    "PlanRejectedError",
    "Proposal",
    "QuotaOutcome",
    "Refusal",
    "ResourceOutcome",
    "Review",
    "RuleCheck",
    "RuleFinding",
    "RuleRefusedError",
    "SavedPlanError",
    "ScramOutcome",
    "SkippedChange",
    "StaleChangeError",
    "UnknownRuleError",
    "UnsetDeletes",
    "apply",
    "apply_plan",
    "ask_broker",
    "check_overrides",
    "check_plan_rules",
    "desired_state_of",
    "is_refusal",
    "plan_desired_state",
    "read_saved_plan",
    "refusal_summary",
    "review",
    "saved_plan_document",
]
