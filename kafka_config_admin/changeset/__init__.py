"""One change pipeline for every face: a change set, reviewed, then applied and read back.

A :class:`ChangeSet` holds typed changes to one cluster: config operations per resource,
quota values per client quota entity, SCRAM credential upserts and deletions, and partition
increases. :func:`review` reads what they are about (each key's current value and source),
makes the client's checks (only those certain for the broker's release) and asks the broker's
dry run (``validate_only``); nothing is changed. :func:`apply` sends the reviewed plan: the
broker validates again, the changes it takes are made and read back, and every resource, quota
entity, SCRAM user and growing topic gets one outcome in one vocabulary
(:class:`~kafka_config_admin.desired.OutcomeStatus`)::

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

The CLI's ``alter`` and its quota and SCRAM changes write through it; it is built over the
desired-state pipeline (:mod:`kafka_config_admin.desired`: the plan, its checks, the broker's
verdict and ``apply_plan``), so a change set and a desired-state file are applied alike.
"""

from ..desired import ApplyReport, OutcomeStatus, PlanRejectedError, RuleRefusedError
from ._build import SkippedChange
from ._changes import ChangeSet, UnsetDeletes
from ._review import Review, StaleChangeError, apply, review

__all__ = [
    "ApplyReport",
    "ChangeSet",
    "OutcomeStatus",
    "PlanRejectedError",
    "Review",
    "RuleRefusedError",
    "SkippedChange",
    "StaleChangeError",
    "UnsetDeletes",
    "apply",
    "review",
]
