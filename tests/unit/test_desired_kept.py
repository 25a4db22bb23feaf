"""Keys a plan keeps (the broker's, other tools'), keys the file ignores, shadowed defaults."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kafka_config_admin import Config, ConfigResource, ConfigSource, ConfigType, OpType
from kafka_config_admin import ResourceType as RT
from kafka_config_admin.desired import (
    DesiredStateError,
    ResourceAction,
    find_shadowed,
    make_plan,
    parse_desired_state,
)
from kafka_config_admin.state import ClusterState, DesiredState

from .desired_helpers import BROKER, DEFAULT, TOPIC, T, broker_config, entry, topic_config

DYNAMIC_DEFAULT = ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
DYNAMIC_BROKER = ConfigSource.DYNAMIC_BROKER_CONFIG
LEADER_THROTTLE = "leader.replication.throttled.replicas"
ELR_REASON = "Cluster-level min.insync.replicas cannot be removed while ELR is enabled."


def desired(**data: Any) -> DesiredState:
    return DesiredState.model_validate(data)


def topic_with(*overrides: tuple[str, str]) -> Config:
    return topic_config(**{key: entry(key, value, T) for key, value in overrides})


def deleted(plan: Any, resource: ConfigResource = TOPIC) -> list[str]:
    found = plan.get(resource)
    if found is None:
        return []
    return [change.key for change in found.changes if change.op is OpType.DELETE]


def test_a_key_the_broker_will_not_remove_is_kept_with_its_reason_not_deleted() -> None:
    cluster_default = Config(
        entries=(entry("min.insync.replicas", "1", DYNAMIC_DEFAULT, ConfigType.INT),)
    )
    state = ClusterState(
        configs={DEFAULT: cluster_default},
        schemas={RT.BROKER: broker_config()},
        undeletable={
            DEFAULT: {"min.insync.replicas": f"the broker will not remove it: {ELR_REASON}"}
        },
    )
    for file in (
        desired(cluster_default={"configs": {}}),  # pruned
        desired(cluster_default={"configs": {"min.insync.replicas": None}}),  # asked for
    ):
        plan = make_plan(file, state, prune=True)
        assert not plan.has_changes, plan
        resource_plan = plan.get(DEFAULT)
        assert resource_plan is not None and resource_plan.action is ResourceAction.UNCHANGED
        [kept] = resource_plan.kept
        assert (kept.key, kept.current) == ("min.insync.replicas", "1")
        assert ELR_REASON in kept.reason
        shown = json.loads(plan.to_json())["resources"][0]["kept"]
        assert shown == [{"key": "min.insync.replicas", "current": "1", "reason": kept.reason}]
    # Without the broker's refusal on record, the same state deletes it.
    plain = ClusterState(configs={DEFAULT: cluster_default}, schemas={RT.BROKER: broker_config()})
    assert deleted(make_plan(desired(cluster_default={}), plain, prune=True), DEFAULT) == [
        "min.insync.replicas"
    ]


def test_replication_throttles_survive_prune_unless_the_file_names_them() -> None:
    topic_state = ClusterState(
        configs={TOPIC: topic_with((LEADER_THROTTLE, "0:1,0:2"), ("retention.ms", "1000"))}
    )
    plan = make_plan(desired(topics=[{"name": "orders"}]), topic_state, prune=True)
    assert deleted(plan) == ["retention.ms"]
    resource_plan = plan.get(TOPIC)
    assert resource_plan is not None
    assert [kept.key for kept in resource_plan.kept] == [LEADER_THROTTLE]
    assert "throttle" in resource_plan.kept[0].reason
    named = desired(topics=[{"name": "orders", "configs": {LEADER_THROTTLE: None}}])
    assert deleted(make_plan(named, topic_state, prune=True)) == [LEADER_THROTTLE, "retention.ms"]
    rate = entry("leader.replication.throttled.rate", "1000", DYNAMIC_BROKER, ConfigType.LONG)
    broker_state = ClusterState(configs={BROKER: broker_config(rate)})
    plan = make_plan(desired(brokers={1: {}}), broker_state, prune=True)
    assert deleted(plan, BROKER) == []
    kept_plan = plan.get(BROKER)
    assert kept_plan is not None and [k.key for k in kept_plan.kept] == [rate.name]


def test_ignored_keys_are_never_compared_planned_or_pruned() -> None:
    file = parse_desired_state(
        r"""
ignore:
  topics: ['confluent\..*', retention.ms]
topics:
  - pattern: 'ord.*'
    configs: {max.message.bytes: 2000}
"""
    )
    state = ClusterState(
        configs={
            TOPIC: topic_with(
                ("confluent.placement.constraints", "{}"),
                ("retention.ms", "1000"),
                ("segment.bytes", "1000000"),
            )
        },
        topics=frozenset({"orders"}),
    )
    plan = make_plan(file, state, prune=True)
    resource_plan = plan.get(TOPIC)
    assert resource_plan is not None
    assert [(c.key, c.op) for c in resource_plan.changes] == [
        ("max.message.bytes", OpType.SET),
        ("segment.bytes", OpType.DELETE),
    ]
    assert resource_plan.kept == ()  # ignored keys are not the file's: not even listed


@pytest.mark.parametrize(
    "text",
    [
        "ignore: {topics: [retention.ms]}\ntopics: [{name: a, configs: {retention.ms: 1d}}]",
        "ignore: {topics: ['retention\\..*']}\n"
        "topics: [{pattern: 'a.*', configs: {retention.ms: 1}}]",
        "ignore: {cluster_default: [log.retention.ms]}\n"
        "cluster_default: {configs: {log.retention.ms: 1}}",
        "ignore: {topics: ['(']}",
        "ignore: {topic: [x]}",
        "ignore: {topics: ['']}",
    ],
)
def test_an_ignore_section_that_contradicts_itself_or_the_file_is_refused(text: str) -> None:
    with pytest.raises(DesiredStateError) as raised:
        parse_desired_state(text)
    assert "ignore" in str(raised.value)


def test_ignore_is_per_resource_kind() -> None:
    file = parse_desired_state(
        "ignore: {brokers: [log.cleaner.threads]}\n"
        "cluster_default: {configs: {}}\n"
        "brokers: {1: {configs: {}}}\n"
    )
    threads = entry("log.cleaner.threads", "2", DYNAMIC_BROKER, ConfigType.INT)
    default_threads = entry("log.cleaner.threads", "3", DYNAMIC_DEFAULT, ConfigType.INT)
    state = ClusterState(
        configs={BROKER: broker_config(threads), DEFAULT: Config(entries=(default_threads,))},
        schemas={RT.BROKER: broker_config()},
    )
    plan = make_plan(file, state, prune=True)
    assert deleted(plan, BROKER) == []
    assert deleted(plan, DEFAULT) == ["log.cleaner.threads"]


def shadow_state(*own: tuple[int, str, str], cluster: Config | None = None) -> ClusterState:
    overrides: dict[int, list[Any]] = {1: [], 2: [], 3: []}
    for broker, key, value in own:
        overrides[broker].append(entry(key, value, DYNAMIC_BROKER, ConfigType.INT))
    return ClusterState(
        configs={DEFAULT: cluster or Config()},
        schemas={RT.BROKER: broker_config()},
        broker_overrides={b: Config(entries=tuple(e)) for b, e in overrides.items()},
    )


def test_a_broker_that_overrides_a_wanted_cluster_default_is_named_with_both_values() -> None:
    state = shadow_state((2, "log.cleaner.threads", "4"), (3, "background.threads", "9"))
    file = desired(cluster_default={"configs": {"log.cleaner.threads": 2}})
    plan = make_plan(file, state)
    resource_plan = plan.get(DEFAULT)
    assert resource_plan is not None
    [shadow] = resource_plan.shadowed
    assert (shadow.broker, shadow.key, shadow.broker_value, shadow.cluster_value) == (
        2,
        "log.cleaner.threads",
        "4",
        "2",
    )
    assert "broker 2" in str(shadow) and "=4" in str(shadow) and "=2" in str(shadow)
    data = json.loads(plan.to_json())["resources"][0]["shadowed"]
    assert data[0]["broker"] == 2 and data[0]["broker_value"] == "4"
    # Already as wanted on the cluster default: still said, the plan has no changes.
    cluster = Config(entries=(entry("log.cleaner.threads", "2", DYNAMIC_DEFAULT, ConfigType.INT),))
    same = make_plan(file, shadow_state((2, "log.cleaner.threads", "4"), cluster=cluster))
    assert not same.has_changes and same.get(DEFAULT) is not None
    # The file's own brokers section sets it for broker 2: no surprise to report.
    declared = desired(
        cluster_default={"configs": {"log.cleaner.threads": 2}},
        brokers={2: {"configs": {"log.cleaner.threads": 4}}},
    )
    cluster_plan = make_plan(declared, state).get(DEFAULT)
    assert cluster_plan is None or cluster_plan.shadowed == ()


def test_audit_finds_every_shadowed_cluster_default_value() -> None:
    cluster = Config(entries=(entry("log.cleaner.threads", "2", DYNAMIC_DEFAULT, ConfigType.INT),))
    state = shadow_state(
        (1, "log.cleaner.threads", "4"), (3, "log.cleaner.threads", "5"), cluster=cluster
    )
    found = find_shadowed(state)
    assert [(s.broker, s.broker_value, s.cluster_value) for s in found] == [
        (1, "4", "2"),
        (3, "5", "2"),
    ]


def test_a_shadowed_sensitive_value_is_never_shown() -> None:
    key = "listener.name.x.ssl.key.password"
    state = ClusterState(
        configs={DEFAULT: Config()},
        schemas={RT.BROKER: broker_config()},
        broker_overrides={
            1: Config(entries=(entry(key, None, DYNAMIC_BROKER, ConfigType.PASSWORD),))
        },
    )
    [shadow] = find_shadowed(state, {key: "secret"})
    assert "secret" not in str(shadow) and "secret" not in repr(shadow)
    assert "secret" not in json.dumps(shadow.to_dict())
