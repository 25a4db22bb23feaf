"""Audit rules: checks of one config, quota or SCRAM credential on what a selector picks.

A rule is plain data (``resource``, ``match`` or ``entity``, ``key``, ``op``, ``value``) so that
other engines (the Spark pipeline) can read it or translate it; :meth:`Rule.violation` and
:func:`evaluate_rules` evaluate it over one resource's configs with no I/O. Rules about client
quotas and SCRAM users are evaluated by :mod:`._audit` with the same operators.
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

from .. import (
    HIDDEN,
    ConfigEntry,
    ConfigResource,
    ConfigType,
    QuotaEntityType,
    ScramMechanism,
)
from ._kinds import ResourceKind
from ._nearest import nearest_keys
from ._patterns import UserPattern
from ._quotas import QUOTA_KEYS
from ._references import has_reference
from ._state import is_override
from ._types import parse_typed, same_value
from ._values import kafka_string_for

__all__ = [
    "Rule",
    "RuleOperator",
    "Violation",
    "evaluate_rules",
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
    REFERENCE = "reference"
    DECLARED = "declared"


#: The key a ``reference`` rule names to mean every sensitive key (no Kafka config has it).
SENSITIVE_KEYS = "sensitive"


_ORDERING = {
    RuleOperator.LT: Decimal.__lt__,
    RuleOperator.LE: Decimal.__le__,
    RuleOperator.GT: Decimal.__gt__,
    RuleOperator.GE: Decimal.__ge__,
}
#: The keys of a SCRAM rule, checked on each credential of a user, and their types.
SCRAM_RULE_KEYS = {"mechanism": ConfigType.STRING, "iterations": ConfigType.INT}
_MECHANISMS = tuple(mechanism.mechanism_name for mechanism in ScramMechanism if mechanism.value)
_EQUALITY = (RuleOperator.EQ, RuleOperator.NE, RuleOperator.IN, RuleOperator.NOT_IN)
# Longest operators first, so that "<=" is not read as "<".
_SHORTHAND = re.compile(
    r"\s*(?P<key>\S+)\s+(?P<op>==|!=|<=|>=|<|>|not in|in|between)\s+(?P<value>.+?)\s*"
)
_REGEX_OPERATORS = re.compile(r"[\\^$*+?{}\[\]|()]")
_UNARY_SHORTHAND = re.compile(r"\s*(?P<key>\S+)\s+(?P<op>required|reference)\s*")
#: The operators that take no value.
_UNARY = (RuleOperator.REQUIRED, RuleOperator.REFERENCE, RuleOperator.DECLARED)


class Rule(BaseModel):
    """One audit rule: ``key`` ``op`` ``value`` on every ``resource`` its selector picks.

    Operators: ``==``, ``!=`` (compared by the config's type, so ``7d`` equals ``604800000``),
    ``<``, ``<=``, ``>``, ``>=`` (numbers), ``between`` (``value: [low, high]``, inclusive),
    ``in`` and ``not in`` (``value`` a list of allowed or forbidden values; for a LIST config
    every member is checked), ``required`` (the key is set on the resource itself, not
    inherited or a default), ``reference`` (a value set for the key is a config provider
    reference, ``${provider:path:key}``: checked on the file's values, and on the cluster's
    where the broker shows them; the key ``sensitive`` means every sensitive key),
    ``declared`` (quota and SCRAM rules: the entity or credential is in the file; no key).
    ``value`` takes human units for ``.ms``/``.bytes`` keys and sizes for ``*_byte_rate``
    quota keys.

    In a file, ``check: "min.insync.replicas >= 2"`` is short for ``key``, ``op`` and ``value``.
    ``match`` is a regular expression over the resource name (whole name; default: all).
    Quota rules select with ``entity`` instead: entity type to a regular expression over the
    name, or null for the type's default entity (``{user: '.*'}``, ``{client-id: null}``).
    ``optional: true`` lets a resource or entity without the key pass.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str | None = None
    resource: ResourceKind = ResourceKind.TOPIC
    match: str | None = None
    entity: dict[str, str | None] | None = None
    key: str | None = None
    op: RuleOperator
    value: str | tuple[str, ...] | None = None
    optional: bool = False
    _regex: UserPattern | None = PrivateAttr(default=None)
    _entity_regexes: dict[str, UserPattern | None] = PrivateAttr(default_factory=dict)

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
        if text.strip() == RuleOperator.DECLARED:
            return {**data, "op": RuleOperator.DECLARED}
        unary = _UNARY_SHORTHAND.fullmatch(text)
        if unary is not None:
            return {**data, "key": unary["key"], "op": unary["op"]}
        parts = _SHORTHAND.fullmatch(text)
        if parts is None:
            raise ValueError(
                f"check {text!r} is not 'KEY OP VALUE' (OP one of ==, !=, <, <=, >, >=, in, "
                "not in, between), 'KEY required', 'KEY reference' or 'declared'"
            )
        value: Any = parts["value"]
        if parts["op"] in ("in", "not in", "between"):
            value = [member.strip() for member in value.strip("[]").split(",")]
        return {**data, "key": parts["key"], "op": parts["op"], "value": value}

    @field_validator("resource", mode="before")
    @classmethod
    def _kind(cls, value: Any) -> ResourceKind:
        return ResourceKind.parse(str(value))

    @field_validator("value", mode="before")
    @classmethod
    def _operand(cls, value: Any, info: ValidationInfo) -> Any:
        key = str(info.data.get("key") or "")
        if isinstance(value, list | tuple):
            return tuple(_operand_string(key, member) for member in value)
        return None if value is None else _operand_string(key, value)

    @model_validator(mode="after")
    def _check_operand(self) -> Rule:
        self._check_selector()
        operand = self.value
        if self.op in _UNARY:
            if operand is not None:
                raise ValueError(f"{self.op} takes no value")
            if self.optional:
                raise ValueError(f"optional does not go with {self.op}")
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
        if self.resource is ResourceKind.QUOTA:
            self._check_quota_key()
        elif self.resource is ResourceKind.SCRAM_USER:
            self._check_scram_key()
        return self

    def _check_selector(self) -> None:
        """The selector and the key fit the target; compiles the regular expressions."""
        if self.op is RuleOperator.DECLARED:
            if self.resource.is_config:
                raise ValueError("declared is for quota and scram_user rules")
            if self.key is not None:
                raise ValueError("declared takes no key")
        elif self.key is None:
            raise ValueError("a rule needs a key (or check: 'KEY OP VALUE')")
        if self.op is RuleOperator.REFERENCE and not self.resource.is_config:
            raise ValueError("reference is for configs: quota and scram_user values are numbers")
        if self.resource is ResourceKind.QUOTA:
            if self.match is not None:
                raise ValueError("a quota rule selects with entity, not match")
            if not self.entity:
                raise ValueError(
                    "a quota rule needs entity: entity type to a regular expression over the "
                    "name, or null for the default entity, e.g. {user: '.*'}"
                )
            self._entity_regexes = _entity_selector(self.entity)
        elif self.entity is not None:
            raise ValueError("entity is for quota rules (use match)")
        if self.match is not None:
            self._regex = UserPattern(self.match, "match")

    def _check_quota_key(self) -> None:
        assert self.entity is not None
        allowed = _entity_keys(self.entity)
        if self.key is not None and self.key not in allowed:
            raise ValueError(
                f"{self.key!r} is not a quota key of {'/'.join(self.entity)} entities "
                f"(use {', '.join(allowed)})"
            )
        for operand in self._operands():
            _number(self.key, operand)

    def _check_scram_key(self) -> None:
        if self.op is RuleOperator.REQUIRED:
            raise ValueError(
                "required is for configs and quotas: a scram_user rule checks each credential "
                "(use declared, or mechanism/iterations)"
            )
        if self.key is None:
            return
        if self.key not in SCRAM_RULE_KEYS:
            raise ValueError(
                f"{self.key!r} is not a scram_user rule key (use {', '.join(SCRAM_RULE_KEYS)})"
            )
        if self.key == "iterations":
            for operand in self._operands():
                if not operand.strip().lstrip("-").isdigit():
                    raise ValueError(f"iterations: {operand!r} is not a whole number")
            return
        if self.op not in _EQUALITY:
            raise ValueError(f"mechanism takes ==, !=, in or not in, not {self.op}")
        for operand in self._operands():
            if operand not in _MECHANISMS:
                known = ", ".join(_MECHANISMS)
                raise ValueError(f"mechanism: {operand!r} is not a SCRAM mechanism (use {known})")

    def _operands(self) -> tuple[str, ...]:
        if self.value is None:
            return ()
        return self.value if isinstance(self.value, tuple) else (self.value,)

    def applies_to(self, resource: ConfigResource) -> bool:
        """Whether the rule is about this resource (its kind, and its name matches)."""
        if ResourceKind.of(resource) is not self.resource:
            return False
        return self._regex is None or self._regex.fullmatch(resource.name) is not None

    def selects_entity(self, entity: Mapping[str, str | None]) -> bool:
        """Whether a quota rule is about this quota entity: the same entity types, each name
        matching its regular expression (a default entity: where the selector says null)."""
        if self.resource is not ResourceKind.QUOTA or set(entity) != set(self._entity_regexes):
            return False
        for kind, regex in self._entity_regexes.items():
            name = entity[kind]
            if (regex is None) != (name is None):
                return False
            if regex is not None and name is not None and regex.fullmatch(name) is None:
                return False
        return True

    def selects_name(self, name: str) -> bool:
        """Whether ``match`` (all when left out) matches the whole ``name``."""
        return self._regex is None or self._regex.fullmatch(name) is not None

    def named_entity(self) -> dict[str, str | None] | None:
        """The one entity a quota rule's selector names when every name in it is literal (or
        null), so that the rule sees the entity even when the cluster has no quota on it."""
        if self.entity is None or not all(_literal(name) for name in self.entity.values()):
            return None
        return dict(self.entity)

    def named_user(self) -> str | None:
        """The one user a scram_user rule's ``match`` names when it is a literal name."""
        if self.resource is not ResourceKind.SCRAM_USER or self.match is None:
            return None
        return self.match if _literal(self.match) else None

    def violation(
        self, resource: ConfigResource, entry: ConfigEntry | None, *, near: Iterable[str] = ()
    ) -> Violation | None:
        """The violation of this rule by ``entry`` (the resource's entry for ``key``, or None
        when the resource has none), or None when the rule holds. Does not check
        :meth:`applies_to`. A key the resource does not have names the nearest of the
        resource's keys ``near`` (did you mean)."""
        absent = "the resource has no such config"
        hint = nearest_keys(near, self.key) if entry is None and self.key else []
        if hint:
            absent += f"; did you mean {', '.join(hint)}?"
        reason = self.failure(entry, set_here=is_override(resource, entry), absent=absent)
        if reason is None:
            return None
        sensitive = entry is not None and entry.sensitive
        actual = None if entry is None or sensitive else entry.value
        return Violation(resource=resource, key=self.key, actual=actual, rule=self, reason=reason)

    def failure(
        self,
        entry: ConfigEntry | None,
        *,
        set_here: bool,
        absent: str = "the resource has no such config",
        unset: str = "not set on the resource itself",
    ) -> str | None:
        """Why ``entry`` (None: there is no such key) breaks the rule, or None when it holds.

        ``set_here`` tells whether the value is set on the thing itself (for ``required``);
        ``absent`` and ``unset`` are the reasons given when there is no such key, or it is
        not set there.
        """
        if self.op is RuleOperator.REQUIRED:
            return None if set_here else unset
        if self.op is RuleOperator.REFERENCE:
            # Nothing set, nothing in plain text; a hidden value is checked in the file.
            if not set_here or entry is None or entry.value is None:
                return None
            return None if has_reference(entry.value) else NOT_A_REFERENCE
        if entry is None:
            return None if self.optional else absent
        if entry.value is None:
            if self.optional and not entry.sensitive:
                return None
            return "the value is hidden (sensitive)" if entry.sensitive else "no value"
        if has_reference(entry.value) and (self.op in _ORDERING or self.op is RuleOperator.BETWEEN):
            return _UNRESOLVED
        holds = _HOLDS[self.op](self, entry.type, entry.value)
        return None if holds else BREAKS_THE_RULE

    def _equal(self, kind: ConfigType, actual: str) -> bool:
        assert isinstance(self.value, str)
        return same_value(kind, actual, self.value, key=self.key)

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

    def shortfall(self, kind: ConfigType, actual: str | None) -> Decimal | None:
        """How far a number is from holding an ordering rule (``<``, ``<=``, ``>``, ``>=``,
        ``between``): 0 where it holds or meets the bound; None for another operator or a
        value that is not a number. A change that does not make it larger does not take the
        value farther from the rule."""
        if self.op not in _ORDERING and self.op is not RuleOperator.BETWEEN:
            return None
        number = None if actual is None else _actual_number(kind, actual)
        if number is None:
            return None
        if self.op is RuleOperator.BETWEEN:
            assert isinstance(self.value, tuple)
            low, high = (Decimal(bound) for bound in self.value)
            return max(low - number, number - high, Decimal(0))
        assert isinstance(self.value, str)
        bound = Decimal(self.value)
        below = self.op in (RuleOperator.GT, RuleOperator.GE)
        return max(bound - number if below else number - bound, Decimal(0))

    @property
    def label(self) -> str:
        """The rule as an override names it (``--override-rule``): its ``name``, else its
        check as written short (``min.insync.replicas >= 2``)."""
        return self.name or self._check_text()

    def _check_text(self) -> str:
        if self.op is RuleOperator.DECLARED:
            return "declared in the file"
        if self.op in (RuleOperator.REQUIRED, RuleOperator.REFERENCE):
            return f"{self.key} {self.op}"
        if isinstance(self.value, tuple):
            return f"{self.key} {self.op} [{', '.join(self.value)}]"
        return f"{self.key} {self.op} {self.value}"

    def __str__(self) -> str:
        text = self._check_text()
        if self.optional:
            text += " where set"
        label = f"{self.name}: " if self.name else ""
        return f"{label}{text} (on {self._where()})"

    def _where(self) -> str:
        if self.entity is not None:
            names = ", ".join(
                f"default {kind}" if name is None else f"{kind} matching {name!r}"
                for kind, name in self.entity.items()
            )
            return f"quotas of {names}"
        where = f"{self.resource.replace('_', ' ')}s"
        if self.match is not None:
            where += f" matching {self.match!r}"
        return where


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


#: Why a value breaks a rule, when nothing more is to be said.
BREAKS_THE_RULE = "the value breaks the rule"
#: Why a reference breaks a rule that compares numbers: its value is the provider's.
_UNRESOLVED = "a config provider reference: never resolved here, so no number to compare"
#: Why a value breaks a ``reference`` rule.
NOT_A_REFERENCE = "a plain value, not a config provider reference (${provider:path:key})"


def _operand_string(key: str, value: object) -> str:
    text = kafka_string_for(key, value)
    if text is None:
        raise ValueError("a rule's value may not be null")
    return text


def _entity_selector(entity: Mapping[str, str | None]) -> dict[str, UserPattern | None]:
    """A quota rule's entity selector checked (known types, ip alone) and compiled."""
    types = {kind.value for kind in QuotaEntityType}
    selector: dict[str, UserPattern | None] = {}
    for kind, name in entity.items():
        if kind not in types:
            raise ValueError(f"entity: unknown entity type {kind!r} (use {', '.join(types)})")
        selector[kind] = None if name is None else UserPattern(name, f"entity {kind}")
    if QuotaEntityType.IP in selector and len(selector) > 1:
        raise ValueError("entity: an ip entity cannot be combined with user or client-id")
    return selector


def _literal(name: str | None) -> bool:
    """Whether a selector's name is null or a plain name: a regular expression without
    operators (a ``.`` matches itself too, so ``svc.etl`` names the user ``svc.etl``)."""
    return name is None or (name != "" and _REGEX_OPERATORS.search(name) is None)


def _entity_keys(entity: Mapping[str, str | None]) -> tuple[str, ...]:
    return QUOTA_KEYS[QuotaEntityType(next(iter(entity)))]


def _number(key: str | None, text: str) -> Decimal:
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
    """A rule broken by one thing: what broke it, the key, its actual value and the rule.

    What broke it is a config ``resource``, a quota ``entity`` (entity type to name, None for
    a default entity) or a SCRAM ``user`` (with the credential's ``mechanism``, when the rule
    is about one). ``key`` is None for ``declared`` rules. ``actual`` is None when there is no
    value for the key or the value is sensitive.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    resource: ConfigResource | None = None
    entity: dict[str, str | None] | None = None
    user: str | None = None
    mechanism: str | None = None
    key: str | None
    actual: str | None
    rule: Rule
    reason: str

    @property
    def subject(self) -> str:
        """What broke the rule, as people read it: ``topic 'orders'``,
        ``quota of user 'alice'``, ``SCRAM user 'bob' (SCRAM-SHA-256)``."""
        if self.resource is not None:
            return str(self.resource)
        if self.entity is not None:
            return "quota of " + ", ".join(
                f"default {kind}" if name is None else f"{kind} {name!r}"
                for kind, name in self.entity.items()
            )
        credential = f" ({self.mechanism})" if self.mechanism else ""
        return f"SCRAM user {self.user!r}{credential}"

    def subject_dict(self) -> dict[str, Any]:
        """What broke the rule, for JSON: ``{"type": "TOPIC", "name": "orders"}``,
        ``{"type": "QUOTA", "entity": {"user": "alice"}}`` or
        ``{"type": "SCRAM_USER", "name": "bob", "mechanism": "SCRAM-SHA-256"}``."""
        if self.resource is not None:
            return {"type": self.resource.type.name, "name": self.resource.name}
        if self.entity is not None:
            return {"type": "QUOTA", "entity": dict(self.entity)}
        return {"type": "SCRAM_USER", "name": self.user, "mechanism": self.mechanism}

    @property
    def hidden(self) -> bool:
        """Whether the value is sensitive: the broker never shows it."""
        return self.reason.startswith("the value is hidden")

    def __str__(self) -> str:
        if self.key is None:
            return f"{self.subject}: breaks {self.rule} ({self.reason})"
        shown = HIDDEN if self.hidden else repr(self.actual)
        return f"{self.subject}: {self.key} = {shown} breaks {self.rule} ({self.reason})"


def evaluate_rules(
    rules: Iterable[Rule], resource: ConfigResource, config: Mapping[str, ConfigEntry]
) -> list[Violation]:
    """Every violation of ``rules`` by one resource's configs (rules about other resources
    are skipped). Pure: the same input always gives the same answer."""
    found: list[Violation] = []
    for rule in rules:
        if rule.applies_to(resource) and rule.key is not None:  # config rules have keys
            violation = rule.violation(resource, config.get(rule.key), near=config)
            if violation is not None:
                found.append(violation)
    return found
