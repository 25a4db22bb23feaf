"""Audit rules: checks of one config on the resources a selector picks, as pure functions.

A rule is plain data (``resource``, ``match``, ``key``, ``op``, ``value``) so that other
engines (the Spark pipeline) can read it or translate it; :meth:`Rule.violation` and
:func:`evaluate_rules` evaluate it over one resource's configs with no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from .._models import HIDDEN, ConfigEntry, ConfigResource, ConfigType, ResourceType
from ._state import ClusterState, is_override
from ._types import parse_typed, same_value
from ._values import compile_regex, kafka_string

__all__ = [
    "Rule",
    "RuleOperator",
    "RuleTarget",
    "Violation",
    "evaluate_rules",
    "evaluate_state",
]


class RuleOperator(StrEnum):
    """How a rule compares a config's value with its operand."""

    EQ = "=="
    NE = "!="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    IN = "in"
    NOT_IN = "not in"
    BETWEEN = "between"
    REQUIRED = "required"


class RuleTarget(StrEnum):
    """The kind of resource a rule is about (``cluster_default`` is ``BROKER ""``)."""

    TOPIC = "topic"
    BROKER = "broker"
    CLUSTER_DEFAULT = "cluster_default"
    BROKER_LOGGER = "broker_logger"
    GROUP = "group"
    CLIENT_METRICS = "client_metrics"


_TARGET_TYPE = {
    RuleTarget.TOPIC: ResourceType.TOPIC,
    RuleTarget.BROKER: ResourceType.BROKER,
    RuleTarget.CLUSTER_DEFAULT: ResourceType.BROKER,
    RuleTarget.BROKER_LOGGER: ResourceType.BROKER_LOGGER,
    RuleTarget.GROUP: ResourceType.GROUP,
    RuleTarget.CLIENT_METRICS: ResourceType.CLIENT_METRICS,
}
_ORDERING = {
    RuleOperator.LT: Decimal.__lt__,
    RuleOperator.LE: Decimal.__le__,
    RuleOperator.GT: Decimal.__gt__,
    RuleOperator.GE: Decimal.__ge__,
}
# Longest operators first, so that "<=" is not read as "<".
_SHORTHAND = re.compile(
    r"\s*(?P<key>\S+)\s+(?P<op>==|!=|<=|>=|<|>|not in|in|between)\s+(?P<value>.+?)\s*"
)
_REQUIRED_SHORTHAND = re.compile(r"\s*(?P<key>\S+)\s+required\s*")


class Rule(BaseModel):
    """One audit rule: ``key`` ``op`` ``value`` on every ``resource`` whose name ``match``-es.

    Operators: ``==``, ``!=`` (compared by the config's type, so ``7d`` equals ``604800000``),
    ``<``, ``<=``, ``>``, ``>=`` (numbers), ``between`` (``value: [low, high]``, inclusive),
    ``in`` and ``not in`` (``value`` a list of allowed or forbidden values; for a LIST config
    every member is checked), ``required`` (the key is set on the resource itself, not
    inherited or a default). ``value`` takes human units for ``.ms``/``.bytes`` keys.

    In a file, ``check: "min.insync.replicas >= 2"`` is short for ``key``, ``op`` and ``value``.
    ``match`` is a regular expression over the resource name (whole name; default: all).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str | None = None
    resource: RuleTarget = RuleTarget.TOPIC
    match: str | None = None
    key: str
    op: RuleOperator
    value: str | tuple[str, ...] | None = None
    _regex: re.Pattern[str] | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or "check" not in data:
            return data
        if {"key", "op", "value"} & set(data):
            raise ValueError("give either check or key/op/value, not both")
        data = dict(data)
        text = data.pop("check")
        if not isinstance(text, str):
            raise ValueError("check must be a string such as 'min.insync.replicas >= 2'")
        required = _REQUIRED_SHORTHAND.fullmatch(text)
        if required is not None:
            return {**data, "key": required["key"], "op": RuleOperator.REQUIRED}
        parts = _SHORTHAND.fullmatch(text)
        if parts is None:
            raise ValueError(
                f"check {text!r} is not 'KEY OP VALUE' (OP one of ==, !=, <, <=, >, >=, in, "
                "not in, between) or 'KEY required'"
            )
        value: Any = parts["value"]
        if parts["op"] in ("in", "not in", "between"):
            value = [member.strip() for member in value.strip("[]").split(",")]
        return {**data, "key": parts["key"], "op": parts["op"], "value": value}

    @field_validator("value", mode="before")
    @classmethod
    def _operand(cls, value: Any, info: ValidationInfo) -> Any:
        key = str(info.data.get("key", ""))
        if isinstance(value, list | tuple):
            return tuple(_operand_string(key, member) for member in value)
        return None if value is None else _operand_string(key, value)

    @model_validator(mode="after")
    def _check_operand(self) -> Rule:
        operand = self.value
        if self.op is RuleOperator.REQUIRED:
            if operand is not None:
                raise ValueError("required takes no value")
        elif self.op in (RuleOperator.IN, RuleOperator.NOT_IN, RuleOperator.BETWEEN):
            if not isinstance(operand, tuple) or not operand:
                raise ValueError(f"{self.op} needs a list as its value")
            if self.op is RuleOperator.BETWEEN:
                if len(operand) != 2:
                    raise ValueError("between needs [low, high]")
                low, high = (_number(self.key, member) for member in operand)
                if low > high:
                    raise ValueError(f"between: {operand[0]} is above {operand[1]}")
        elif operand is None or isinstance(operand, tuple):
            raise ValueError(f"{self.op} needs one value")
        elif self.op in _ORDERING:
            _number(self.key, operand)
        if self.match is not None:
            self._regex = compile_regex("match", self.match)
        return self

    def applies_to(self, resource: ConfigResource) -> bool:
        """Whether the rule is about this resource (its kind, and its name matches)."""
        if resource.type is not _TARGET_TYPE[self.resource]:
            return False
        if resource.type is ResourceType.BROKER and (
            (resource.name == "") != (self.resource is RuleTarget.CLUSTER_DEFAULT)
        ):
            return False
        return self._regex is None or self._regex.fullmatch(resource.name) is not None

    def violation(self, resource: ConfigResource, entry: ConfigEntry | None) -> Violation | None:
        """The violation of this rule by ``entry`` (the resource's entry for ``key``, or None
        when the resource has none), or None when the rule holds. Does not check
        :meth:`applies_to`."""
        reason = self._failure(resource, entry)
        if reason is None:
            return None
        sensitive = entry is not None and entry.is_sensitive
        actual = None if entry is None or sensitive else entry.value
        return Violation(resource=resource, key=self.key, actual=actual, rule=self, reason=reason)

    def _failure(self, resource: ConfigResource, entry: ConfigEntry | None) -> str | None:
        if self.op is RuleOperator.REQUIRED:
            return None if is_override(resource, entry) else "not set on the resource itself"
        if entry is None:
            return "the resource has no such config"
        if entry.value is None:
            return "the value is hidden (sensitive)" if entry.is_sensitive else "no value"
        holds = _HOLDS[self.op](self, entry.type, entry.value)
        return None if holds else "the value breaks the rule"

    def _equal(self, kind: ConfigType, actual: str) -> bool:
        assert isinstance(self.value, str)
        return same_value(kind, actual, self.value)

    def _membership(self, kind: ConfigType, actual: str) -> bool:
        assert isinstance(self.value, tuple)
        allowed = self.value
        if kind is ConfigType.LIST:
            try:
                members = parse_typed(kind, actual)
            except ValueError:
                return False
            assert isinstance(members, tuple)
            found = [any(member == option.strip() for option in allowed) for member in members]
            return all(found) if self.op is RuleOperator.IN else not any(found)
        found_one = any(same_value(kind, actual, option) for option in allowed)
        return found_one if self.op is RuleOperator.IN else not found_one

    def _ordered(self, kind: ConfigType, actual: str) -> bool:
        number = _actual_number(kind, actual)
        if number is None:
            return False
        if self.op is RuleOperator.BETWEEN:
            assert isinstance(self.value, tuple)
            low, high = (Decimal(bound) for bound in self.value)
            return low <= number <= high
        assert isinstance(self.value, str)
        return bool(_ORDERING[self.op](number, Decimal(self.value)))

    def __str__(self) -> str:
        if self.op is RuleOperator.REQUIRED:
            text = f"{self.key} required"
        elif isinstance(self.value, tuple):
            text = f"{self.key} {self.op} [{', '.join(self.value)}]"
        else:
            text = f"{self.key} {self.op} {self.value}"
        where = f"{self.resource.replace('_', ' ')}s"
        if self.match is not None:
            where += f" matching {self.match!r}"
        label = f"{self.name}: " if self.name else ""
        return f"{label}{text} (on {where})"


_HOLDS = {
    RuleOperator.EQ: Rule._equal,
    RuleOperator.NE: lambda rule, kind, actual: not rule._equal(kind, actual),
    RuleOperator.IN: Rule._membership,
    RuleOperator.NOT_IN: Rule._membership,
    RuleOperator.LT: Rule._ordered,
    RuleOperator.LE: Rule._ordered,
    RuleOperator.GT: Rule._ordered,
    RuleOperator.GE: Rule._ordered,
    RuleOperator.BETWEEN: Rule._ordered,
}


def _operand_string(key: str, value: object) -> str:
    text = kafka_string(key, value)
    if text is None:
        raise ValueError("a rule's value may not be null")
    return text


def _number(key: str, text: str) -> Decimal:
    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"{key}: {text!r} is not a number") from None
    if not number.is_finite():
        raise ValueError(f"{key}: {text!r} is not a finite number")
    return number


def _actual_number(kind: ConfigType, actual: str) -> Decimal | None:
    """The value as a number, or None when it is not one (the rule then fails)."""
    try:
        parsed = parse_typed(kind, actual)
    except ValueError:
        return None
    if isinstance(parsed, bool):
        return None
    if isinstance(parsed, int | float):
        number = Decimal(parsed)
    else:
        try:
            number = Decimal(str(parsed))
        except InvalidOperation:
            return None
    return number if number.is_finite() else None


class Violation(BaseModel):
    """A rule broken by one resource: the resource, the key, its actual value and the rule.

    ``actual`` is None when the resource has no value for the key or the value is sensitive.
    """

    model_config = ConfigDict(frozen=True)

    resource: ConfigResource
    key: str
    actual: str | None
    rule: Rule
    reason: str

    def __str__(self) -> str:
        shown = HIDDEN if self.reason.startswith("the value is hidden") else repr(self.actual)
        return f"{self.resource}: {self.key} = {shown} breaks {self.rule} ({self.reason})"


def evaluate_rules(
    rules: Iterable[Rule], resource: ConfigResource, config: Mapping[str, ConfigEntry]
) -> list[Violation]:
    """Every violation of ``rules`` by one resource's configs (rules about other resources
    are skipped). Pure: the same input always gives the same answer."""
    found: list[Violation] = []
    for rule in rules:
        if rule.applies_to(resource):
            violation = rule.violation(resource, config.get(rule.key))
            if violation is not None:
                found.append(violation)
    return found


def evaluate_state(rules: Iterable[Rule], state: ClusterState) -> list[Violation]:
    """Every violation of ``rules`` by the resources ``state`` describes, in state order."""
    rules = tuple(rules)
    found: list[Violation] = []
    for resource, config in state.configs.items():
        found.extend(evaluate_rules(rules, resource, config))
    return found
