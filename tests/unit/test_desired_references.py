"""Config provider references (``${provider:path:key}``) and the values a coming Kafka release
will refuse, in the pure desired-state code: checks, diff, display, audit rules, warnings."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from kafka_config_admin import HIDDEN, CatalogMatch, ConfigSource, ConfigType, OpType, ResourceType
from kafka_config_admin.desired import evaluate_state, make_plan
from kafka_config_admin.state import (
    UPCOMING_CHANGES,
    ClusterState,
    DesiredState,
    Rule,
    RuleOperator,
    check_value,
    has_reference,
    is_reference,
    same_value,
    state_warnings,
    upcoming_changes,
    upcoming_warning,
)
from kafka_config_admin.toolkit import load_catalog

from .desired_helpers import BROKER, TOPIC, T, broker_config, entry, topic_config

REF = "${file:/etc/kafka/secrets.properties:ssl.key.password}"
SECRET = "listener.name.x.ssl.key.password"
OTHER = "listener.name.y.ssl.key.password"


def desired(**data: Any) -> DesiredState:
    return DesiredState.model_validate(data)


def catalog_state(**kw: Any) -> ClusterState:
    match = CatalogMatch(catalog=load_catalog("4.4.0"), exact=True)
    return ClusterState(catalog=match, **kw)


@pytest.mark.parametrize(
    ("value", "has", "only"),
    [
        (REF, True, True),
        ("${env:KAFKA_SECRET}", True, True),  # provider and key, no path
        ("${vault:secret/kafka:pw} ${file:/p:k}", True, True),
        ('Login required password="${file:/p:pw}";', True, False),  # a JAAS line
        ("${no-colon}", False, False),
        ("$file:/p:k", False, False),
        ("plain", False, False),
        ("", False, False),
    ],
)
def test_references_are_found_as_kafkas_config_transformer_finds_them(
    value: str, has: bool, only: bool
) -> None:
    assert has_reference(value) is has and is_reference(value) is only
    assert not has_reference(None) and not is_reference(None)


def test_a_reference_is_never_parsed_as_the_keys_type_nor_held_to_valid_values() -> None:
    state = catalog_state(configs={TOPIC: topic_config()})
    for key in ("retention.ms", "compression.type", "cleanup.policy", "min.cleanable.dirty.ratio"):
        assert check_value(state, TOPIC, key, "${file:/p:" + key + "}") is None, key
    assert check_value(state, TOPIC, "retention.ms", "soon") is not None  # still checked
    assert same_value(ConfigType.LIST, "${file:/p:k}", " ${file:/p:k} ")
    assert not same_value(ConfigType.LONG, "${file:/p:a}", "${file:/p:b}")


def test_a_plan_sends_a_reference_as_written_and_shows_it_even_for_a_sensitive_key() -> None:
    listed = entry("cleanup.policy", "delete", T, ConfigType.LIST)
    other = entry(OTHER, None, kind=ConfigType.PASSWORD, is_sensitive=True)
    state = ClusterState(configs={TOPIC: topic_config(c=listed), BROKER: broker_config(other)})
    file = desired(
        topics=[{"name": "orders", "configs": {"cleanup.policy": "${file:/p:policy}"}}],
        brokers={1: {"configs": {SECRET: REF, OTHER: "hunter2"}}},
    )
    plan = make_plan(file, state, include_sensitive=True)
    assert plan.problems == ()
    [policy] = plan.get(TOPIC).changes  # type: ignore[union-attr]
    assert (policy.op, policy.value) == (OpType.SET, "${file:/p:policy}")  # never an APPEND
    shown = {c.key: c.to_dict()["wanted"] for c in plan.get(BROKER).changes}  # type: ignore[union-attr]
    assert shown == {SECRET: REF, OTHER: HIDDEN}
    assert "hunter2" not in plan.to_json() and REF in plan.to_json()


def test_a_problem_shows_a_sensitive_reference_but_never_a_sensitive_value() -> None:
    state = ClusterState(configs={BROKER: broker_config()})
    problem = check_value(state, BROKER, "broker.id", REF)
    assert problem is not None and problem.value == REF  # read-only: refused, shown
    problem = check_value(state, BROKER, "broker.id", "7")
    assert problem is not None and problem.value == "7"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"check": "ssl.key.password reference", "value": "x"}, "give either check"),
        ({"key": "k", "op": "reference", "value": "x"}, "reference takes no value"),
        (
            {
                "resource": "quota",
                "entity": {"user": ".*"},
                "check": "producer_byte_rate reference",
            },
            "reference is for configs",
        ),
    ],
)
def test_bad_reference_rules_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Rule.model_validate(data)


def test_a_reference_rule_checks_the_files_values_and_the_clusters_visible_ones() -> None:
    rule = Rule.model_validate({"resource": "broker", "check": "sensitive reference"})
    assert rule.op is RuleOperator.REFERENCE and str(rule) == "sensitive reference (on brokers)"
    named = Rule.model_validate({"check": "message.timestamp.type reference"})
    plain = entry("message.timestamp.type", "CreateTime", T)
    referenced = entry("min.insync.replicas", "${file:/p:isr}", T)
    state = ClusterState(
        configs={BROKER: broker_config(), TOPIC: topic_config(m=plain, i=referenced)}
    )
    file = desired(
        brokers={
            1: {"configs": {SECRET: "hunter2", OTHER: REF}},
        }
    )
    found = evaluate_state([rule, named], state, desired=file)
    assert [(v.resource, v.key) for v in found] == [
        (TOPIC, "message.timestamp.type"),
        (BROKER, SECRET),
    ]
    cluster, secret = found
    assert cluster.actual == "CreateTime" and "not a config provider reference" in cluster.reason
    assert secret.hidden and secret.actual is None and "hunter2" not in str(secret)
    assert evaluate_state([rule], state) == []  # without the file, hidden values are unknown
    isr = Rule.model_validate({"check": "min.insync.replicas reference"})
    assert evaluate_state([isr], state) == []


def test_a_reference_breaks_a_numeric_rule_saying_it_is_not_resolved() -> None:
    rule = Rule.model_validate({"check": "retention.ms >= 1d"})
    state = ClusterState(
        configs={TOPIC: topic_config(r=entry("retention.ms", "${file:/p:r}", T, ConfigType.LONG))}
    )
    [violation] = evaluate_state([rule], state)
    assert "never resolved here" in violation.reason and violation.actual == "${file:/p:r}"
    same = Rule.model_validate({"check": "retention.ms == ${file:/p:r}"})
    assert evaluate_state([same], state) == []  # compared as the text it is


def test_a_file_value_wins_over_the_clusters_for_a_reference_rule() -> None:
    rule = Rule.model_validate({"check": "message.timestamp.type reference"})
    state = ClusterState(
        configs={TOPIC: topic_config(m=entry("message.timestamp.type", "CreateTime", T))}
    )
    file = desired(
        topics=[{"name": "orders", "configs": {"message.timestamp.type": "${file:/p:t}"}}]
    )
    assert evaluate_state([rule], state, desired=file) == []


def test_every_upcoming_change_names_its_release_and_source() -> None:
    assert UPCOMING_CHANGES
    for change in UPCOMING_CHANGES:
        assert change.release == "5.0" and change.source
        assert (change.minimum is None) is change.removed
    [segment] = upcoming_changes(ResourceType.TOPIC, "segment.ms")
    assert segment.source == "KIP-1030" and segment.minimum == 60_000
    assert upcoming_changes(ResourceType.TOPIC, "retention.ms") == []


def test_every_upcoming_change_is_valid_as_its_model_says() -> None:
    # The table is made without validation (importing it builds no validator): each entry
    # must be what validating its fields makes.
    for change in UPCOMING_CHANGES:
        assert type(change).model_validate(change.model_dump()) == change


@pytest.mark.parametrize(
    ("resource", "key", "value", "warned"),
    [
        (TOPIC, "segment.ms", "1000", True),
        (TOPIC, "segment.ms", " 59999 ", True),
        (TOPIC, "segment.ms", "60000", False),
        (TOPIC, "segment.ms", "${file:/p:roll}", False),  # never resolved: never judged
        (TOPIC, "segment.ms", "soon", False),  # today's checks refuse it already
        (TOPIC, "segment.ms", None, False),  # a reset
        (BROKER, "segment.ms", "1000", False),  # the broker's key is log.roll.ms
        (BROKER, "log.roll.ms", "1000", True),
        (BROKER, "log.cleaner.threads", "0", True),
        (BROKER, "log.cleaner.enable", "true", True),  # the key goes
    ],
)
def test_upcoming_warnings(resource: Any, key: str, value: str | None, warned: bool) -> None:
    found = upcoming_warning(resource, key, value)
    assert (found is not None) is warned
    if found is not None:
        assert found.message.startswith("Kafka 5.0 will ") and found.change.source in found.message


def test_warnings_never_refuse_a_plan_and_hide_sensitive_values() -> None:
    state = catalog_state(configs={TOPIC: topic_config()})
    file = desired(topics=[{"name": "orders", "configs": {"segment.ms": 1000}}])
    plan = make_plan(file, state)
    assert plan.problems == () and [c.key for c in plan.get(TOPIC).changes] == ["segment.ms"]  # type: ignore[union-attr]
    [warning] = plan.warnings
    assert str(warning) == (
        "topic 'orders', segment.ms = '1000': Kafka 5.0 will refuse values below 60000 (KIP-1030)"
    )
    assert plan.to_dict()["warnings"] == [warning.to_dict()]
    hidden = upcoming_warning(BROKER, "log.cleaner.threads", "0", sensitive=True)
    assert hidden is not None and hidden.value == HIDDEN


def test_state_warnings_see_overrides_only() -> None:
    low = entry("segment.ms", "1000", T, ConfigType.LONG)
    state = ClusterState(
        configs={
            TOPIC: topic_config(s=low),
            BROKER: broker_config(entry("log.roll.ms", "5", ConfigSource.DEFAULT_CONFIG)),
        }
    )
    assert [(w.resource, w.key) for w in state_warnings(state)] == [(TOPIC, "segment.ms")]
