"""Audit rules over a cluster's state: configs, client quotas and SCRAM credentials (no I/O).

Config rules see each described resource (:func:`evaluate_rules`). Quota rules see every
entity the cluster has quotas on, every entity a rule names literally (``{user: null}``, the
default user, is seen even when it has no quota) and every SCRAM user as a user entity, so
that "every user has a quota" also catches users without any. SCRAM rules see each
credential of every user with credentials, and each user the file or a rule names.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from .. import (
    HIDDEN,
    ClientQuotaEntity,
    ConfigEntry,
    ConfigResource,
    ConfigType,
    InvalidArgumentError,
    QuotaEntityType,
    ResourceType,
)
from ..state._kinds import ResourceKind
from ..state._references import has_reference
from ..state._rules import (
    NOT_A_REFERENCE,
    SCRAM_RULE_KEYS,
    SENSITIVE_KEYS,
    Rule,
    RuleOperator,
    Violation,
    evaluate_rules,
)
from ..state._state import ClusterState, is_override
from ..toolkit import quota_value_text

if TYPE_CHECKING:
    from ..state._model import DesiredState

__all__ = [
    "Shadowed",
    "evaluate_quota_rules",
    "evaluate_scram_rules",
    "evaluate_state",
    "find_shadowed",
]

_CLUSTER_DEFAULT = ConfigResource(ResourceType.BROKER, "")


class Shadowed(BaseModel):
    """A cluster-default value that one broker does not take: it sets the key for itself
    (DYNAMIC_BROKER_CONFIG), and its own value wins there."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    key: str
    broker: int
    broker_value: str | None
    cluster_value: str | None
    sensitive: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (sensitive values as ``[hidden]``)."""
        shown = self._shown()
        return {
            "key": self.key,
            "broker": self.broker,
            "broker_value": shown[0],
            "cluster_value": shown[1],
            "message": str(self),
        }

    def _shown(self) -> tuple[str | None, str | None]:
        if self.sensitive:
            return HIDDEN, HIDDEN
        return self.broker_value, self.cluster_value

    def __str__(self) -> str:
        broker_value, cluster_value = self._shown()
        return (
            f"broker {self.broker} sets {self.key}={broker_value} for itself: the cluster "
            f"default {self.key}={cluster_value} does not apply there"
        )

    def __repr_args__(self) -> Any:
        for name, value in super().__repr_args__():
            masked = name in ("broker_value", "cluster_value") and self.sensitive
            yield name, HIDDEN if masked and value is not None else value


def find_shadowed(
    state: ClusterState,
    cluster_values: Mapping[str, str | None] | None = None,
    *,
    declared: Mapping[int, Collection[str]] | None = None,
) -> list[Shadowed]:
    """Each cluster-default value a broker overrides for itself, by key then broker.

    ``cluster_values`` are the cluster-default values to look at (a plan's wanted ones); by
    default, those the cluster default sets now. A broker whose own value ``declared`` names
    (broker id to keys, the file's ``brokers`` section) is left out: the file says so itself.
    Needs the state's ``broker_overrides`` (:func:`read_state` reads them when the file has a
    cluster default).
    """
    if cluster_values is None:
        current = state.configs.get(_CLUSTER_DEFAULT)
        cluster_values = (
            {}
            if current is None
            else {
                key: entry.value
                for key, entry in current.items()
                if is_override(_CLUSTER_DEFAULT, entry)
            }
        )
    found = []
    for key, cluster_value in sorted(cluster_values.items()):
        if cluster_value is None:
            continue
        for broker, own in sorted(state.broker_overrides.items()):
            entry = own.get(key)
            if entry is None or key in (declared or {}).get(broker, ()):
                continue
            sensitive = state.is_sensitive(_CLUSTER_DEFAULT, key) or entry.sensitive
            found.append(
                Shadowed(
                    key=key,
                    broker=broker,
                    broker_value=entry.value,
                    cluster_value=cluster_value,
                    sensitive=sensitive,
                )
            )
    return found


_NO_QUOTA = "the entity has no such quota"
_TYPE_RANK = {kind.value: rank for rank, kind in enumerate(QuotaEntityType)}


def evaluate_state(
    rules: Iterable[Rule], state: ClusterState, *, desired: DesiredState | None = None
) -> list[Violation]:
    """Every violation of ``rules`` by what ``state`` holds: the described resources in state
    order, then quota entities, then SCRAM credentials.

    Rules about quotas need a state that holds every quota entity (``quotas_complete``),
    rules about SCRAM users one that holds every SCRAM user (``scram_complete``), as
    :func:`read_state` reads them when the file has such rules; ``declared`` rules need the
    ``desired`` state they compare with. Raises :class:`InvalidArgumentError` otherwise.
    ``reference`` rules check the values the ``desired`` file sets (a sensitive value is never
    shown by the broker, so only the file tells), and on the cluster the keys the file does
    not set.
    """
    rules = tuple(rules)
    found: list[Violation] = []
    in_file = _file_values(desired, state)
    for resource, config in state.configs.items():
        found.extend(
            violation
            for violation in evaluate_rules(rules, resource, config)
            if violation.rule.op is not RuleOperator.REFERENCE
            or (resource, violation.key) not in in_file
        )
    found += _file_reference_violations(rules, in_file, state)
    quota_rules = [rule for rule in rules if rule.resource is ResourceKind.QUOTA]
    scram_rules = [rule for rule in rules if rule.resource is ResourceKind.SCRAM_USER]
    _need_read(quota_rules, state.quotas_complete, "every client quota entity")
    _need_read(scram_rules, state.scram_complete, "every SCRAM user")
    in_file_quotas = None if desired is None else [spec.entity for spec in desired.quotas]
    found += evaluate_quota_rules(
        quota_rules, state.quotas, users=state.scram, declared=in_file_quotas
    )
    in_file_users = None if desired is None else _mechanisms(desired)
    found += evaluate_scram_rules(scram_rules, state.scram, declared=in_file_users)
    return found


def _file_values(
    desired: DesiredState | None, state: ClusterState
) -> dict[tuple[ConfigResource, str], str | None]:
    """The values the file sets, by resource and key (empty without a file)."""
    if desired is None:
        return {}
    return {
        (resource, key): value
        for resource, spec in desired.resources(state.existing_topics()).items()
        for key, value in spec.configs.items()
    }


def _file_reference_violations(
    rules: Iterable[Rule],
    in_file: Mapping[tuple[ConfigResource, str], str | None],
    state: ClusterState,
) -> list[Violation]:
    """The file's values that break a ``reference`` rule: set, and not a reference."""
    found: list[Violation] = []
    for rule in rules:
        if rule.op is not RuleOperator.REFERENCE:
            continue
        for (resource, key), value in in_file.items():
            if value is None or has_reference(value) or not rule.applies_to(resource):
                continue
            sensitive = state.is_sensitive(resource, key)
            if rule.key != key and not (rule.key == SENSITIVE_KEYS and sensitive):
                continue
            reason = f"{_HIDDEN_IN_FILE if sensitive else 'set in the file as'} {NOT_A_REFERENCE}"
            actual = None if sensitive else value
            found.append(
                Violation(resource=resource, key=key, actual=actual, rule=rule, reason=reason)
            )
    return found


#: A sensitive value the file sets: never shown (:attr:`Violation.hidden` reads this start).
_HIDDEN_IN_FILE = "the value is hidden (sensitive): the file sets it as"


def _mechanisms(desired: DesiredState) -> dict[str, list[str]]:
    """The file's SCRAM users, each with the mechanisms it lists."""
    return {user: [spec.mechanism for spec in specs] for user, specs in desired.scram_users.items()}


def _need_read(rules: list[Rule], read: bool, what: str) -> None:
    if rules and not read:
        raise InvalidArgumentError(
            f"rule {rules[0]} needs {what} of the cluster, and the state does not hold them: "
            "read it with read_state"
        )


def _need_declared(rules: Iterable[Rule], declared: object, section: str) -> None:
    for rule in rules:
        if rule.op is RuleOperator.DECLARED and declared is None:
            raise InvalidArgumentError(
                f"rule {rule} compares with the file's {section}: pass the desired state"
            )


def evaluate_quota_rules(
    rules: Iterable[Rule],
    quotas: Mapping[ClientQuotaEntity, Mapping[str, float]],
    *,
    users: Iterable[str] = (),
    declared: Iterable[Mapping[str, str | None]] | None = None,
) -> list[Violation]:
    """Every violation of the quota rules among ``rules`` by the quota entities: those in
    ``quotas`` (every entity with quotas, entity to key to value), those a rule names
    literally, and each of ``users`` (such as SCRAM users) as a user entity. Entities come
    sorted by their text; ``declared`` are the file's entities (for ``declared`` rules)."""
    rules = [rule for rule in rules if rule.resource is ResourceKind.QUOTA]
    _need_declared(rules, declared, "quotas")
    in_file = {ClientQuotaEntity(entity) for entity in declared or ()}
    seen = set(quotas)
    seen.update(ClientQuotaEntity(named) for rule in rules if (named := rule.named_entity()))
    seen.update(ClientQuotaEntity({"user": user}) for user in users if user)
    found: list[Violation] = []
    for entity in sorted(seen, key=_entity_order):
        values = quotas.get(entity, {})
        for rule in rules:
            if rule.selects_entity(entity):
                reason, actual = quota_failure(rule, entity, values, in_file)
                if reason is not None:
                    found.append(
                        Violation(
                            entity=dict(entity),
                            key=rule.key,
                            actual=actual,
                            rule=rule,
                            reason=reason,
                        )
                    )
    return found


def quota_failure(
    rule: Rule,
    entity: ClientQuotaEntity,
    values: Mapping[str, float],
    in_file: Collection[ClientQuotaEntity],
) -> tuple[str | None, str | None]:
    """Why the entity breaks the rule (None: it holds), and the value the rule looked at."""
    if rule.op is RuleOperator.DECLARED:
        return (None if entity in in_file else "not in the file's quotas"), None
    assert rule.key is not None
    value = values.get(rule.key)
    if value is None:
        return rule.failure(None, set_here=False, absent=_NO_QUOTA, unset=_NO_QUOTA), None
    text = quota_value_text(value)
    entry = ConfigEntry(name=rule.key, value=text, type=ConfigType.DOUBLE)
    return rule.failure(entry, set_here=True), text


def _entity_order(entity: ClientQuotaEntity) -> tuple[tuple[int, bool, str], ...]:
    """Kafka's order of entity types (user, client-id, ip), a default before any name."""
    rank = len(_TYPE_RANK)  # a type a newer broker knows comes last
    return tuple(
        (_TYPE_RANK.get(kind, rank), name is not None, name or "") for kind, name in entity.items()
    )


def evaluate_scram_rules(
    rules: Iterable[Rule],
    credentials: Mapping[str, Mapping[str, int]],
    *,
    declared: Mapping[str, Collection[str]] | None = None,
) -> list[Violation]:
    """Every violation of the scram_user rules among ``rules`` by each credential of each
    user (``credentials``: user to mechanism to iterations; users sorted by name, with any
    user a rule names literally). A user without credentials breaks every rule but
    ``declared`` and optional ones. ``declared`` maps the file's users to their mechanisms."""
    rules = [rule for rule in rules if rule.resource is ResourceKind.SCRAM_USER]
    _need_declared(rules, declared, "scram_users")
    users = set(credentials)
    users.update(named for rule in rules if (named := rule.named_user()))
    found: list[Violation] = []
    for user in sorted(users):
        for rule in rules:
            if rule.selects_name(user):
                found += _scram_violations(rule, user, credentials.get(user, {}), declared)
    return found


def _scram_violations(
    rule: Rule,
    user: str,
    credentials: Mapping[str, int],
    declared: Mapping[str, Collection[str]] | None,
) -> list[Violation]:
    if not credentials:
        if rule.op is RuleOperator.DECLARED or rule.optional:
            return []
        missing = "the user has no SCRAM credentials"
        return [Violation(user=user, key=rule.key, actual=None, rule=rule, reason=missing)]
    found = []
    for mechanism, iterations in sorted(credentials.items()):
        actual: str | None = None
        reason: str | None = None
        if rule.op is RuleOperator.DECLARED:
            assert declared is not None
            if user not in declared:
                reason = "the user is not in the file's scram_users"
            elif mechanism not in declared[user]:
                reason = "the file does not list this mechanism for the user"
        else:
            assert rule.key is not None
            actual = mechanism if rule.key == "mechanism" else str(iterations)
            entry = ConfigEntry(name=rule.key, value=actual, type=SCRAM_RULE_KEYS[rule.key])
            reason = rule.failure(entry, set_here=True)
        if reason is not None:
            found.append(
                Violation(
                    user=user,
                    mechanism=mechanism,
                    key=rule.key,
                    actual=actual,
                    rule=rule,
                    reason=reason,
                )
            )
    return found
