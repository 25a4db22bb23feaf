"""Guardrails: the rules a plan's changes would break once applied (no I/O).

Audit (:mod:`._audit`) checks what a cluster has; the guard checks what it will have. A rule
is checked only where the plan touches it: on a key the plan changes, on every rule of a topic
the plan creates, on a quota key or a SCRAM credential the plan changes. A rule some resource
already breaks never stands in the way of a change to another key or resource.

On a key the plan changes, each rule about it ends in one of three findings (none: it holds
after the change):

- ``breaks``: it held before (or the resource is new) and breaks after, or it broke before
  and the change takes a number farther from its bound. The plan is refused
  (:class:`RuleRefusedError`) unless the caller overrides the rule by its :attr:`Rule.label`.
- ``already broken``: it broke before and still breaks, the change not taking the value
  farther from the rule (a number no farther from its bound; for another operator, any value
  that still breaks it). Reported, never refused: the change does not make things worse.
- ``unchecked``: the value after the change is the broker's, not the plan's (an override
  deleted, a topic created without the key), so it is known only once applied. Reported,
  never refused: a check that blocks valid work is worse than none; ``audit`` sees it after.

``declared`` rules compare the cluster with the file, which is audit's question; the guard
leaves them out.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from .. import (
    HIDDEN,
    ClientQuotaEntity,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigType,
    InvalidArgumentError,
)
from ..desired import ConfigChange, Plan, ResourcePlan
from ..desired._audit import quota_failure
from ..state import (
    QuotaChange,
    QuotaPlan,
    ResourceKind,
    Rule,
    RuleOperator,
    ScramChange,
    ScramPlan,
    Violation,
    is_override,
    override_source,
)
from ..state._rules import BREAKS_THE_RULE, SCRAM_RULE_KEYS, SENSITIVE_KEYS
from ..toolkit import shorten

__all__ = [
    "FindingStatus",
    "RuleCheck",
    "RuleFinding",
    "RuleRefusedError",
    "UnknownRuleError",
    "check_overrides",
    "check_plan_rules",
    "refusal_summary",
]


class FindingStatus(StrEnum):
    """What a rule says of a planned change (see the module's docstring)."""

    BREAKS = "breaks"  #: the change breaks the rule: refused unless overridden
    ALREADY_BROKEN = "already broken"  #: broken before, not made worse: applied
    UNCHECKED = "unchecked"  #: the value after is the broker's: known only once applied


class RuleFinding(BaseModel):
    """One rule on one thing a plan changes: the rule broken after the change
    (``violation``: what, the key, the value after, the rule), the value ``before``, what it
    means (``status``) and whether the caller overrode the rule (only a finding that
    breaks it is ``overridden``: nothing else needs an override)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    violation: Violation
    before: str | None
    status: FindingStatus
    overridden: bool = False

    @property
    def rule(self) -> Rule:
        """The rule."""
        return self.violation.rule

    @property
    def refuses(self) -> bool:
        """Whether this finding refuses the plan: it breaks the rule and is not overridden."""
        return self.status is FindingStatus.BREAKS and not self.overridden

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the rule's label (what ``--override-rule`` takes) and text."""
        violation = self.violation
        return {
            "rule": self.rule.label,
            "rule_text": str(self.rule),
            "resource": violation.subject_dict(),
            "key": violation.key,
            "before": self.before,
            "after": violation.actual,
            "status": self.status.value,
            "overridden": self.overridden,
            "reason": violation.reason,
            "message": str(self),
        }

    def __str__(self) -> str:
        violation = self.violation
        what = violation.subject
        if violation.key is not None:
            what += f": {violation.key}"
            if self.status is not FindingStatus.UNCHECKED:
                if violation.hidden:
                    what += f" = {HIDDEN}"
                elif violation.actual is not None:
                    what += f" = {violation.actual!r}"
                if self.before is not None:
                    what += f" (now {self.before!r})"
        text = f"{what} {_VERDICTS[self.status]} {self.rule}"
        if violation.reason != BREAKS_THE_RULE:  # said by the verdict already
            text += f" ({violation.reason})"
        return text + (" [overridden]" if self.overridden else "")


_VERDICTS = {
    FindingStatus.BREAKS: "breaks rule",
    FindingStatus.ALREADY_BROKEN: "still breaks (broken before, not made worse) rule",
    FindingStatus.UNCHECKED: "is known only once applied, so not checked against rule",
}


@dataclass(frozen=True)
class RuleCheck:
    """Every finding of the rules on a plan's changes (:func:`check_plan_rules`), in plan
    order, with the overrides the caller gave."""

    findings: tuple[RuleFinding, ...] = ()

    @property
    def refusing(self) -> tuple[RuleFinding, ...]:
        """The findings that refuse the plan (rules broken and not overridden)."""
        return tuple(finding for finding in self.findings if finding.refuses)

    @property
    def overridden(self) -> tuple[RuleFinding, ...]:
        """The findings that would refuse the plan, overridden by the caller."""
        return tuple(finding for finding in self.findings if finding.overridden)

    def override_note(self, subject: ConfigResource | ClientQuotaEntity | str) -> str:
        """What an outcome says of the rules overridden on ``subject`` (a config resource, a
        quota entity or a SCRAM user): ``rule 'min-isr' overridden``, or ``""``."""
        labels = dict.fromkeys(
            finding.rule.label
            for finding in self.overridden
            if _subject(finding.violation) == subject
        )
        if not labels:
            return ""
        return ", ".join(f"rule {label!r}" for label in labels) + " overridden"

    def raise_if_refused(self) -> None:
        """Raise :class:`RuleRefusedError` when a finding refuses the plan."""
        if self.refusing:
            raise RuleRefusedError(self.refusing)

    def to_list(self) -> list[dict[str, Any]]:
        """The findings as JSON-ready data."""
        return [finding.to_dict() for finding in self.findings]


class RuleRefusedError(InvalidArgumentError):
    """A plan breaks rules the caller did not override: nothing was sent.

    ``findings`` names each rule, the resource, key and the value after the change.
    """

    def __init__(self, findings: Iterable[RuleFinding]) -> None:
        self.findings = tuple(findings)
        lines = [f"{refusal_summary(self.findings)}:"]
        lines += [f"  {finding}" for finding in self.findings]
        super().__init__("\n".join(lines))


def refusal_summary(findings: Iterable[RuleFinding]) -> str:
    """One line saying which rules refuse a plan: ``the plan breaks rule 'min-isr' (1
    change); nothing was sent (override a rule by its name to apply anyway)``."""
    findings = list(findings)
    labels = ", ".join(dict.fromkeys(repr(finding.rule.label) for finding in findings))
    return (
        f"the plan breaks rule(s) {labels} ({len(findings)} change(s)); nothing was sent "
        "(override a rule by its name to apply anyway)"
    )


class UnknownRuleError(InvalidArgumentError):
    """An override names a rule that is not among the rules checked."""


def check_plan_rules(
    plan: Plan, rules: Iterable[Rule], *, overrides: Collection[str] = ()
) -> RuleCheck:
    """The rules ``plan``'s changes would break once applied (see the module's docstring).

    ``overrides`` are rule labels (:attr:`Rule.label`: a rule's ``name``, else its check) the
    caller overrides: their findings do not refuse the plan and say so. An override that
    names no rule of ``rules`` raises :class:`UnknownRuleError` (a typo would otherwise
    override nothing, silently). Pure: the same input always gives the same answer.
    """
    rules = list(rules)
    check_overrides(rules, overrides)
    rules = [rule for rule in rules if rule.op is not RuleOperator.DECLARED]
    found: list[RuleFinding] = []
    for resource_plan in plan.resources:
        found += _resource_findings(resource_plan, rules)
    for quota in plan.quotas:
        found += _quota_findings(quota, rules)
    for user in plan.scram:
        found += _scram_findings(user, rules)
    wanted = set(overrides)
    return RuleCheck(
        tuple(
            finding.model_copy(update={"overridden": finding.rule.label in wanted})
            if finding.status is FindingStatus.BREAKS
            else finding
            for finding in found
        )
    )


def check_overrides(rules: Iterable[Rule], overrides: Collection[str]) -> None:
    """Raise :class:`UnknownRuleError` for an override that names none of ``rules`` (by
    :attr:`Rule.label`), listing the names there are; a face checks its overrides so before
    it reads a cluster."""
    known = {rule.label for rule in rules}
    unknown = [name for name in overrides if name not in known]
    if unknown:
        names = ", ".join(shorten(name) for name in unknown)
        choices = ", ".join(repr(label) for label in sorted(known)) or "none"
        raise UnknownRuleError(f"no rule named {names} to override (rules: {choices})")


def _subject(violation: Violation) -> ConfigResource | ClientQuotaEntity | str:
    if violation.resource is not None:
        return violation.resource
    if violation.entity is not None:
        return ClientQuotaEntity(violation.entity)
    assert violation.user is not None
    return violation.user


# --- configs ----------------------------------------------------------------------------------


def _about(rule: Rule, change: ConfigChange) -> bool:
    """Whether a config rule is about the key ``change`` changes (``sensitive``: every
    sensitive key, for ``reference`` rules)."""
    if rule.key == SENSITIVE_KEYS and rule.op is RuleOperator.REFERENCE:
        return change.sensitive
    return rule.key == change.key


def _resource_findings(plan: ResourcePlan, rules: list[Rule]) -> list[RuleFinding]:
    resource = plan.resource
    selected = [rule for rule in rules if rule.resource.is_config and rule.applies_to(resource)]
    found = []
    for rule in selected:
        changes = [change for change in plan.changes if _about(rule, change)]
        for change in changes:
            finding = _change_finding(rule, resource, change)
            if finding is not None:
                found.append(finding)
        if plan.create is not None and not changes and rule.key != SENSITIVE_KEYS:
            found += _created_without(rule, resource)
    return found


def _created_without(rule: Rule, resource: ConfigResource) -> list[RuleFinding]:
    """A rule about a key a topic to create does not set: it takes the broker's value."""
    assert rule.key is not None
    if rule.op is RuleOperator.REQUIRED:
        reason = rule.failure(None, set_here=False)
        assert reason is not None
        return [_finding(rule, resource, None, None, reason, FindingStatus.BREAKS, False)]
    if rule.op is RuleOperator.REFERENCE or rule.optional:
        return []  # nothing set here holds either
    reason = "the topic is created without it: it takes the broker's value"
    return [_finding(rule, resource, None, None, reason, FindingStatus.UNCHECKED, False)]


def _change_finding(
    rule: Rule, resource: ConfigResource, change: ConfigChange
) -> RuleFinding | None:
    shown_before = None if change.sensitive else change.current
    if change.wanted is None:  # an override deleted: the value after is inherited
        if rule.op is RuleOperator.REFERENCE:
            return None
        if rule.op is not RuleOperator.REQUIRED:
            reason = "the override is deleted: the value after is the one it inherits"
            status = FindingStatus.UNCHECKED
            return _finding(rule, resource, change, shown_before, reason, status, False)
        after_entry = None
    else:
        after_entry = _entry(change, change.wanted, override_source(resource))
    after = rule.failure(after_entry, set_here=after_entry is not None)
    if after is None:
        return None  # the state before is read only for a change that breaks the rule
    status = FindingStatus.BREAKS
    if _broken_before(rule, resource, change) and _no_farther(rule, change):
        status = FindingStatus.ALREADY_BROKEN
    return _finding(rule, resource, change, shown_before, after, status, change.sensitive)


def _broken_before(rule: Rule, resource: ConfigResource, change: ConfigChange) -> bool:
    """Whether the key broke the rule before the change (a sensitive value, which the broker
    never shows, is not known to: a change of it has no such excuse)."""
    if change.sensitive:
        return False
    entry = _entry(change, change.current, change.current_source)
    return rule.failure(entry, set_here=is_override(resource, entry)) is not None


def _entry(change: ConfigChange, value: str | None, source: ConfigSource) -> ConfigEntry | None:
    if value is None and source is ConfigSource.UNKNOWN:
        return None  # the key is not there (a topic to create, a key the broker lacks)
    # Built from a plan's values, already checked and typed: validating them again cost about
    # as much as the rule's own check.
    return ConfigEntry.model_construct(
        name=change.key, value=value, source=source, type=change.type
    )


def _no_farther(rule: Rule, change: ConfigChange) -> bool:
    """Whether the change leaves a broken rule no farther from holding (any change, for an
    operator without a distance; never for a value that is not a number)."""
    if rule.op not in _DISTANCE_OPERATORS:
        return True
    before = rule.shortfall(change.type, change.current)
    after = rule.shortfall(change.type, change.wanted)
    return before is not None and after is not None and after <= before


_DISTANCE_OPERATORS = (
    RuleOperator.LT,
    RuleOperator.LE,
    RuleOperator.GT,
    RuleOperator.GE,
    RuleOperator.BETWEEN,
)


def _finding(
    rule: Rule,
    resource: ConfigResource,
    change: ConfigChange | None,
    before: str | None,
    reason: str,
    status: FindingStatus,
    sensitive: bool,
) -> RuleFinding:
    after = None if change is None or sensitive else change.wanted
    if sensitive:
        reason = f"the value is hidden (sensitive): {reason}"
    violation = Violation(
        resource=resource,
        key=change.key if change is not None else rule.key,
        actual=after,
        rule=rule,
        reason=reason,
    )
    return RuleFinding(violation=violation, before=before, status=status)


# --- quotas and SCRAM credentials ---------------------------------------------------------------


def _quota_findings(plan: QuotaPlan, rules: list[Rule]) -> list[RuleFinding]:
    entity = plan.quota_entity
    found = []
    for rule in rules:
        if not rule.selects_entity(entity):
            continue
        for change in plan.changes:
            if change.key == rule.key:
                found += _quota_finding(rule, entity, change)
    return found


def _quota_finding(rule: Rule, entity: ClientQuotaEntity, change: QuotaChange) -> list[RuleFinding]:
    def failure(value: float | None) -> tuple[str | None, str | None]:
        values = {} if value is None else {change.key: value}
        return quota_failure(rule, entity, values, ())

    before, before_value = failure(change.current)
    after, after_value = failure(change.wanted)
    if after is None:
        return []
    status = FindingStatus.BREAKS
    if before is not None and _numbers_no_farther(rule, before_value, after_value):
        status = FindingStatus.ALREADY_BROKEN
    violation = Violation(
        entity=dict(entity), key=change.key, actual=after_value, rule=rule, reason=after
    )
    return [RuleFinding(violation=violation, before=before_value, status=status)]


def _scram_findings(plan: ScramPlan, rules: list[Rule]) -> list[RuleFinding]:
    found = []
    for rule in rules:
        if rule.resource is not ResourceKind.SCRAM_USER or not rule.selects_name(plan.user):
            continue
        for change in plan.changes:
            if change.op == "UPSERT" and rule.key is not None:
                found += _scram_finding(rule, plan.user, change)
    return found


def _scram_finding(rule: Rule, user: str, change: ScramChange) -> list[RuleFinding]:
    key = rule.key
    assert key is not None

    def value(iterations: int | None) -> str | None:
        if iterations is None:
            return None  # the credential is not there
        return change.mechanism if key == "mechanism" else str(iterations)

    def failure(text: str | None) -> str | None:
        if text is None:
            return None  # a credential made new: the rule had nothing to judge
        entry = ConfigEntry(name=key, value=text, type=SCRAM_RULE_KEYS[key])
        return rule.failure(entry, set_here=True)

    before_value, after_value = value(change.current_iterations), value(change.iterations)
    after = failure(after_value)
    if after is None:
        return []
    status = FindingStatus.BREAKS
    if failure(before_value) is not None and _numbers_no_farther(rule, before_value, after_value):
        status = FindingStatus.ALREADY_BROKEN
    violation = Violation(
        user=user,
        mechanism=change.mechanism,
        key=key,
        actual=after_value,
        rule=rule,
        reason=after,
    )
    return [RuleFinding(violation=violation, before=before_value, status=status)]


def _numbers_no_farther(rule: Rule, before: str | None, after: str | None) -> bool:
    if rule.op not in _DISTANCE_OPERATORS:
        return True
    was = rule.shortfall(ConfigType.DOUBLE, before)
    now = rule.shortfall(ConfigType.DOUBLE, after)
    return was is not None and now is not None and now <= was
