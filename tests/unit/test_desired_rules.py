"""Audit rules: operators, selectors, the check shorthand, and evaluation as a pure function."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from kafka_config_admin import Config, ConfigResource, ConfigSource, ConfigType, ResourceType
from kafka_config_admin.desired import evaluate_state
from kafka_config_admin.state import ClusterState, ResourceKind, Rule, RuleOperator, evaluate_rules

from .desired_helpers import BROKER, DEFAULT, TOPIC, T, entry, topic_config


def rule(**data: Any) -> Rule:
    return Rule.model_validate(data)


def broken(r: Rule, config: Config, resource: ConfigResource = TOPIC) -> bool:
    return bool(evaluate_rules([r], resource, config))


def test_shorthand_reads_key_operator_and_value() -> None:
    r = rule(check="min.insync.replicas >= 2", match="payments\\..*")
    assert (r.key, r.op, r.value, r.resource) == (
        "min.insync.replicas",
        RuleOperator.GE,
        "2",
        ResourceKind.TOPIC,
    )
    assert rule(check="cleanup.policy in [delete, compact]").value == ("delete", "compact")
    assert rule(check="cleanup.policy not in compact").op is RuleOperator.NOT_IN
    assert rule(check="retention.ms between [1d, 7d]").value == ("86400000", "604800000")
    assert rule(check="retention.ms required").op is RuleOperator.REQUIRED
    assert rule(check="retention.ms <= 7d").value == "604800000"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"check": "min.insync.replicas 2"}, "KEY OP VALUE"),
        ({"check": "a >= 2", "key": "a"}, "not both"),
        ({"key": "a", "op": ">=", "value": "two"}, "not a number"),
        ({"key": "a", "op": "between", "value": [3, 1]}, "above"),
        ({"key": "a", "op": "between", "value": [1]}, "low, high"),
        ({"key": "a", "op": "in", "value": "x"}, "needs a list"),
        ({"key": "a", "op": "==", "value": [1]}, "needs one value"),
        ({"key": "a", "op": "required", "value": 1}, "takes no value"),
        ({"key": "a", "op": "~", "value": 1}, "Input should be"),
        ({"key": "a", "op": "==", "value": 1, "match": "("}, "not a regular expression"),
        ({"key": "a", "op": "==", "value": 1, "resource": "queue"}, "'queue' is not a resource"),
    ],
)
def test_bad_rules_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        rule(**data)


def test_numeric_comparisons_with_types_and_units() -> None:
    config = topic_config(m=entry("min.insync.replicas", "2", T, ConfigType.INT))
    assert not broken(rule(check="min.insync.replicas >= 2"), config)
    assert broken(rule(check="min.insync.replicas > 2"), config)
    assert broken(rule(check="min.insync.replicas < 2"), config)
    assert not broken(rule(check="min.insync.replicas <= 2"), config)
    assert not broken(rule(check="retention.ms >= 7d"), config)
    assert broken(rule(check="retention.ms < 1d"), config)
    assert not broken(rule(check="retention.ms between [1d, 7d]"), config)
    assert broken(rule(check="retention.ms between [1d, 6d]"), config)
    assert not broken(rule(check="min.cleanable.dirty.ratio between [0.1, 0.5]"), config)
    # A value that is not a number breaks an ordering rule rather than passing it.
    assert broken(rule(check="cleanup.policy >= 1"), config)


def test_equality_is_typed() -> None:
    config = topic_config()
    assert not broken(rule(key="retention.ms", op="==", value="7d"), config)
    assert not broken(rule(key="retention.ms", op="==", value=604800000), config)
    assert broken(rule(key="retention.ms", op="!=", value="1w"), config)
    assert not broken(rule(key="unclean.leader.election.enable", op="==", value=False), config)


def test_membership_checks_every_member_of_a_list() -> None:
    both = topic_config(c=entry("cleanup.policy", "delete, compact", T, ConfigType.LIST))
    assert not broken(rule(check="cleanup.policy in [delete, compact]"), both)
    assert broken(rule(check="cleanup.policy in [delete]"), both)
    assert broken(rule(check="cleanup.policy not in [compact]"), both)
    assert not broken(rule(check="cleanup.policy not in [foo]"), both)
    assert not broken(rule(key="unclean.leader.election.enable", op="in", value=["FALSE"]), both)


def test_required_means_set_on_the_resource_itself() -> None:
    r = rule(check="retention.ms required")
    assert broken(r, topic_config())
    assert not broken(r, topic_config(r=entry("retention.ms", "1", T, ConfigType.LONG)))


def test_violation_names_resource_key_actual_value_and_rule() -> None:
    config = topic_config()
    [violation] = evaluate_rules(
        [rule(name="isr", check="min.insync.replicas >= 2")], TOPIC, config
    )
    assert (violation.resource, violation.key, violation.actual) == (
        TOPIC,
        "min.insync.replicas",
        "1",
    )
    text = str(violation)
    assert "topic 'orders'" in text and "min.insync.replicas" in text and "'1'" in text
    assert "isr: min.insync.replicas >= 2 (on topics)" in text


def test_missing_and_sensitive_values_break_rules_without_being_shown() -> None:
    secret = Config(
        entries=(entry("ssl.key.password", None, kind=ConfigType.PASSWORD, is_sensitive=True),)
    )
    [violation] = evaluate_rules(
        [rule(resource="broker", check="ssl.key.password == x")], BROKER, secret
    )
    assert violation.actual is None and "hidden" in str(violation)
    [missing] = evaluate_rules([rule(check="no.such.key == 1")], TOPIC, topic_config())
    assert "no such config" in missing.reason and "did you mean" not in missing.reason


def test_a_rule_on_a_key_the_resource_lacks_names_the_nearest_keys() -> None:
    [typo] = evaluate_rules([rule(check="min.insync.replica >= 2")], TOPIC, topic_config())
    assert typo.reason == "the resource has no such config; did you mean min.insync.replicas?"


def test_selectors_pick_resource_kind_and_name() -> None:
    topic_rule = rule(check="a == 1", match="pay.*")
    assert topic_rule.applies_to(ConfigResource(ResourceType.TOPIC, "payments"))
    assert not topic_rule.applies_to(ConfigResource(ResourceType.TOPIC, "orders"))
    assert not topic_rule.applies_to(ConfigResource(ResourceType.GROUP, "payments"))
    broker_rule = rule(resource="broker", check="a == 1")
    assert broker_rule.applies_to(BROKER) and not broker_rule.applies_to(DEFAULT)
    default_rule = rule(resource="cluster_default", check="a == 1")
    assert default_rule.applies_to(DEFAULT) and not default_rule.applies_to(BROKER)


def test_evaluate_state_covers_every_described_resource() -> None:
    good = ConfigResource(ResourceType.TOPIC, "good")
    state = ClusterState(
        configs={
            TOPIC: topic_config(),
            good: topic_config(m=entry("min.insync.replicas", "2", T, ConfigType.INT)),
            BROKER: Config(entries=(entry("x", "1", ConfigSource.STATIC_BROKER_CONFIG),)),
        }
    )
    violations = evaluate_state([rule(check="min.insync.replicas >= 2")], state)
    assert [v.resource for v in violations] == [TOPIC]
