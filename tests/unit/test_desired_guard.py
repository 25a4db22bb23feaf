"""Guardrails: the rules a plan's after-state breaks, judged against the state before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kafka_config_admin import ClientQuotaEntity, ConfigResource, ConfigType, ResourceType
from kafka_config_admin.changeset import (
    FindingStatus,
    RuleRefusedError,
    UnknownRuleError,
    check_plan_rules,
)
from kafka_config_admin.connect import parse_clusters_file
from kafka_config_admin.desired import (
    DesiredStateError,
    Plan,
    connection_rules,
    load_rules_file,
    make_plan,
)
from kafka_config_admin.state import ClusterState, DesiredState, Rule

from .desired_helpers import BROKER, DEFAULT, TOPIC, T, broker_config, entry, topic_config

MIN_ISR = Rule.model_validate({"name": "min-isr", "check": "min.insync.replicas >= 2"})
INT, LONG = ConfigType.INT, ConfigType.LONG
RETENTION = Rule.model_validate({"check": "retention.ms <= 30d"})


def topic_plan(configs: dict[str, Any], *current: Any, **spec: Any) -> Plan:
    desired = DesiredState.model_validate(
        {"topics": [{"name": "orders", "configs": configs, **spec}]}
    )
    state = ClusterState(
        configs={TOPIC: topic_config(**{e.name: e for e in current})}, topics=frozenset({"orders"})
    )
    return make_plan(desired, state)


def statuses(plan: Plan, *rules: Rule, overrides: tuple[str, ...] = ()) -> list[Any]:
    check = check_plan_rules(plan, rules, overrides=overrides)
    return [(f.rule.label, f.violation.key, f.violation.actual, f.status) for f in check.findings]


def test_a_change_that_breaks_a_rule_is_found_with_its_rule_key_and_value() -> None:
    plan = topic_plan(
        {"min.insync.replicas": 1, "retention.ms": "60d"},
        entry("min.insync.replicas", "2", T, kind=INT),
    )
    check = check_plan_rules(plan, [MIN_ISR, RETENTION])
    assert [
        (f.rule.label, f.violation.key, f.violation.actual, f.status) for f in check.findings
    ] == [
        ("min-isr", "min.insync.replicas", "1", FindingStatus.BREAKS),
        ("retention.ms <= 2592000000", "retention.ms", "5184000000", FindingStatus.BREAKS),
    ]
    assert len(check.refusing) == 2
    with pytest.raises(RuleRefusedError) as refused:
        check.raise_if_refused()
    message = str(refused.value)
    assert "'min-isr'" in message and "topic 'orders'" in message
    assert "min.insync.replicas = '1'" in message and "nothing was sent" in message


def test_a_change_that_keeps_the_rule_finds_nothing() -> None:
    plan = topic_plan({"min.insync.replicas": 3, "retention.ms": "1d"})
    assert statuses(plan, MIN_ISR, RETENTION) == []


def test_a_rule_already_broken_does_not_block_a_change_to_another_key() -> None:
    # min.insync.replicas is 1 (the default) on the cluster: broken before, not touched.
    plan = topic_plan({"retention.ms": "1d"})
    assert plan.has_changes
    assert statuses(plan, MIN_ISR) == []


def test_a_broken_rule_not_made_worse_is_reported_and_does_not_refuse() -> None:
    plan = topic_plan({"retention.ms": "40d"}, entry("retention.ms", "5184000000", T, kind=LONG))
    check = check_plan_rules(plan, [RETENTION])
    assert [f.status for f in check.findings] == [FindingStatus.ALREADY_BROKEN]
    assert check.findings[0].before == "5184000000"
    assert check.refusing == ()
    check.raise_if_refused()


def test_a_broken_rule_made_worse_refuses() -> None:
    plan = topic_plan({"retention.ms": "90d"}, entry("retention.ms", "5184000000", T, kind=LONG))
    assert [f.status for f in check_plan_rules(plan, [RETENTION]).refusing] == [
        FindingStatus.BREAKS
    ]


def test_between_and_a_lower_bound_measure_worse_by_distance() -> None:
    between = Rule.model_validate({"check": "min.insync.replicas between [2, 3]"})
    plan = topic_plan({"min.insync.replicas": 5}, entry("min.insync.replicas", "4", T, kind=INT))
    assert [f.status for f in check_plan_rules(plan, [between]).findings] == [FindingStatus.BREAKS]
    plan = topic_plan({"min.insync.replicas": 4}, entry("min.insync.replicas", "5", T, kind=INT))
    assert [f.status for f in check_plan_rules(plan, [between]).findings] == [
        FindingStatus.ALREADY_BROKEN
    ]


def test_an_override_lets_the_plan_through_and_is_said() -> None:
    plan = topic_plan({"min.insync.replicas": 1}, entry("min.insync.replicas", "2", T, kind=INT))
    check = check_plan_rules(plan, [MIN_ISR], overrides=["min-isr"])
    assert check.refusing == () and len(check.overridden) == 1
    assert check.override_note(TOPIC) == "rule 'min-isr' overridden"
    assert check.override_note(ConfigResource(ResourceType.TOPIC, "other")) == ""
    assert check.findings[0].to_dict()["overridden"] is True


def test_an_unnamed_rule_is_overridden_by_its_check() -> None:
    plan = topic_plan({"retention.ms": "60d"})
    check = check_plan_rules(plan, [RETENTION], overrides=["retention.ms <= 2592000000"])
    assert check.refusing == ()


def test_an_override_naming_no_rule_is_refused() -> None:
    plan = topic_plan({"retention.ms": "1d"})
    with pytest.raises(UnknownRuleError, match="no rule named 'min-ir' to override"):
        check_plan_rules(plan, [MIN_ISR], overrides=["min-ir"])


def test_a_rule_about_other_topics_is_not_checked() -> None:
    other = Rule.model_validate({"check": "min.insync.replicas >= 2", "match": "payments-.*"})
    plan = topic_plan({"min.insync.replicas": 1}, entry("min.insync.replicas", "2", T, kind=INT))
    assert statuses(plan, other) == []


def test_a_topic_to_create_is_checked_on_every_rule_about_it() -> None:
    required = Rule.model_validate({"check": "cleanup.policy required"})
    desired = DesiredState.model_validate(
        {
            "topics": [
                {
                    "name": "fresh",
                    "partitions": 1,
                    "replication_factor": 1,
                    "configs": {"min.insync.replicas": 1},
                }
            ]
        }
    )
    plan = make_plan(desired, ClusterState(configs={}, topics=frozenset()))
    found = statuses(plan, MIN_ISR, RETENTION, required)
    assert found == [
        ("min-isr", "min.insync.replicas", "1", FindingStatus.BREAKS),
        ("retention.ms <= 2592000000", "retention.ms", None, FindingStatus.UNCHECKED),
        ("cleanup.policy required", "cleanup.policy", None, FindingStatus.BREAKS),
    ]


def test_a_deleted_override_is_unchecked_unless_the_rule_requires_the_key() -> None:
    required = Rule.model_validate({"check": "min.insync.replicas required"})
    plan = topic_plan({"min.insync.replicas": None}, entry("min.insync.replicas", "2", T, kind=INT))
    assert statuses(plan, MIN_ISR, required) == [
        ("min-isr", "min.insync.replicas", None, FindingStatus.UNCHECKED),
        ("min.insync.replicas required", "min.insync.replicas", None, FindingStatus.BREAKS),
    ]


def test_quota_and_scram_changes_are_checked() -> None:
    quota_rule = Rule.model_validate(
        {
            "name": "user-rate",
            "resource": "quota",
            "entity": {"user": ".*"},
            "check": "producer_byte_rate <= 1048576",
        }
    )
    scram_rule = Rule.model_validate(
        {"name": "iterations", "resource": "scram_user", "check": "iterations >= 8192"}
    )
    desired = DesiredState.model_validate(
        {
            "quotas": [{"entity": {"user": "alice"}, "values": {"producer_byte_rate": 2097152}}],
            "scram_users": {
                "bob": [{"mechanism": "SCRAM-SHA-256", "iterations": 4096, "password_env": "P"}]
            },
        }
    )
    plan = make_plan(desired, ClusterState(configs={}, quotas={}, scram={}))
    check = check_plan_rules(plan, [quota_rule, scram_rule], overrides=["iterations"])
    assert [(f.rule.label, f.violation.actual, f.refuses) for f in check.findings] == [
        ("user-rate", "2097152", True),
        ("iterations", "4096", False),
    ]
    assert check.override_note("bob") == "rule 'iterations' overridden"
    assert check.override_note(ClientQuotaEntity({"user": "alice"})) == ""
    check = check_plan_rules(plan, [quota_rule, scram_rule], overrides=["user-rate"])
    assert (
        check.override_note(ClientQuotaEntity({"user": "alice"})) == "rule 'user-rate' overridden"
    )
    assert [finding.refuses for finding in check.findings] == [False, True]


def test_a_rules_file_holds_rules_only(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text("rules:\n  - name: min-isr\n    check: min.insync.replicas >= 2\n")
    assert [rule.label for rule in load_rules_file(rules)] == ["min-isr"]
    rules.write_text("rules: []\ntopics: []\n")
    with pytest.raises(DesiredStateError, match="a rules file holds only rules"):
        load_rules_file(rules)
    rules.write_text("rules:\n  - check: min.insync.replicas >=\n")
    with pytest.raises(DesiredStateError, match=r"rules\.yaml:2"):
        load_rules_file(rules)


def test_a_clusters_file_entry_names_its_rules_file_relative_to_itself(tmp_path: Path) -> None:
    (tmp_path / "rules.yaml").write_text("rules:\n  - check: retention.ms <= 30d\n")
    clusters = parse_clusters_file(
        "clusters:\n  prod:\n    bootstrap_servers: k:9092\n    rules: rules.yaml\n"
        "  dev:\n    bootstrap_servers: d:9092\n",
        source="clusters.yaml",
        base_dir=tmp_path,
    )
    assert clusters.connection("prod").rules == tmp_path / "rules.yaml"
    assert [r.label for r in connection_rules(clusters.connection("prod"))] == [
        "retention.ms <= 2592000000"
    ]
    assert connection_rules(clusters.connection("dev")) == ()


def test_a_sensitive_value_is_judged_unseen_and_never_shown() -> None:
    reference = Rule.model_validate({"resource": "broker", "check": "sensitive reference"})
    secret = "listener.name.x.ssl.key.password"
    state = ClusterState(configs={BROKER: broker_config()})
    for value, found in (("hunter2", [FindingStatus.BREAKS]), ("${file:/s.txt:pw}", [])):
        desired = DesiredState.model_validate({"brokers": {1: {"configs": {secret: value}}}})
        check = check_plan_rules(make_plan(desired, state, include_sensitive=True), [reference])
        assert [finding.status for finding in check.findings] == found, value
        if found:
            (finding,) = check.findings
            assert finding.violation.actual is None and finding.violation.hidden
            assert "hunter2" not in str(finding) + str(finding.to_dict())
            assert f"{secret} = [hidden]" in str(finding)


def test_a_rule_meets_the_changes_of_its_own_kind_of_resource() -> None:
    on_brokers = Rule.model_validate({"resource": "broker", "check": "log.cleaner.threads <= 2"})
    on_default = Rule.model_validate(
        {"resource": "cluster_default", "check": "log.cleaner.threads <= 2"}
    )
    desired = DesiredState.model_validate(
        {"cluster_default": {"configs": {"log.cleaner.threads": 4}}}
    )
    state = ClusterState(configs={DEFAULT: broker_config()}, schemas={})
    plan = make_plan(desired, state)
    assert plan.has_changes, plan
    found = check_plan_rules(plan, [on_brokers, on_default]).findings
    assert [(f.rule is on_default, f.violation.actual, f.status) for f in found] == [
        (True, "4", FindingStatus.BREAKS)
    ]
