"""Guardrails on the command line: the rules a change is checked against (a desired-state
file's and the cluster's clusters-file entry's), ``--override-rule``, and the findings' lines.
``alter``, ``plan`` and ``apply`` use them alike."""

from __future__ import annotations

from collections.abc import Sequence

import click

from ..changeset import (
    FindingStatus,
    RuleCheck,
    RuleFinding,
    UnknownRuleError,
    check_overrides,
    refusal_summary,
)
from ..connect import Connection
from ..desired import connection_rules
from ..state import Rule
from ._exit import say, say_lines

__all__ = ["guarding_rules", "print_rule_findings", "refused_by_rules"]


def guarding_rules(
    resolved: Connection, file_rules: Sequence[Rule], override_rules: tuple[str, ...]
) -> tuple[Rule, ...]:
    """``file_rules`` and the rules the cluster's clusters-file entry names (a rules file's
    mistake is said before connecting); an ``--override-rule`` name none of them has is a
    usage error."""
    rules = (*file_rules, *connection_rules(resolved))
    try:
        check_overrides(rules, override_rules)
    except UnknownRuleError as error:
        raise click.BadParameter(str(error), param_hint="--override-rule") from None
    return rules


def print_rule_findings(guard: RuleCheck) -> None:
    """Each rule finding on one line on stderr: ``refused by rule``, ``rule overridden``,
    ``rule warning`` (broken before, not made worse) or ``rule not checked``."""
    say_lines(f"{_finding_word(finding)}: {finding}" for finding in guard.findings)


def refused_by_rules(guard: RuleCheck, *, prefix: str = "") -> bool:
    """Print the findings and, when one refuses the change, the one-line summary (after
    ``prefix``): whether the change is refused (exit 4, nothing sent)."""
    print_rule_findings(guard)
    if not guard.refusing:
        return False
    say(prefix + refusal_summary(guard.refusing))
    return True


def _finding_word(finding: RuleFinding) -> str:
    if finding.refuses:
        return "refused by rule"
    if finding.overridden:
        return "rule overridden"
    return "rule not checked" if finding.status is FindingStatus.UNCHECKED else "rule warning"
