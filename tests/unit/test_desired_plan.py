"""The diff and its checks: typed comparison, no false drift, lists, prune, sensitive keys."""

from __future__ import annotations

import json
from typing import Any

from kafka_config_admin import (
    AlterConfigOp,
    Config,
    ConfigResource,
    ConfigSource,
    ConfigType,
    OpType,
    ResourceType,
)
from kafka_config_admin.desired import Plan, ResourceAction, make_plan, stale_keys
from kafka_config_admin.state import ClusterState, DesiredState, check_ops

from .desired_helpers import BROKER, DEFAULT, TOPIC, T, broker_config, entry, topic_config


def desired(**data: Any) -> DesiredState:
    return DesiredState.model_validate(data)


def topic_file(configs: dict[str, Any], **spec: Any) -> DesiredState:
    return desired(topics=[{"name": "orders", "configs": configs, **spec}])


def state_of(*configs: tuple[ConfigResource, Config], **kwargs: Any) -> ClusterState:
    return ClusterState(configs=dict(configs), **kwargs)


def ops(plan: Plan, resource: ConfigResource = TOPIC) -> list[tuple[str, OpType, str | None]]:
    found = plan.get(resource)
    assert found is not None, plan
    return [(change.key, change.op, change.value) for change in found.changes]


def test_equal_typed_values_make_no_change() -> None:
    state = state_of((TOPIC, topic_config()))
    for retention in (604800000, "604800000", "7d", " 604800000 ", "1w", "168h"):
        plan = make_plan(topic_file({"retention.ms": retention}), state)
        assert not plan.has_changes and plan.resources == () and plan.problems == (), retention
    plan = make_plan(
        topic_file(
            {
                "cleanup.policy": ["delete"],
                "unclean.leader.election.enable": "FALSE",
                "min.cleanable.dirty.ratio": "5e-1",
                "max.message.bytes": 1048588,
            }
        ),
        state,
    )
    assert not plan.has_changes


def test_a_different_value_is_set_with_the_current_one_shown() -> None:
    plan = make_plan(topic_file({"retention.ms": "1d"}), state_of((TOPIC, topic_config())))
    [change] = plan.resources[0].changes
    assert (change.key, change.op, change.value) == ("retention.ms", OpType.SET, "86400000")
    assert change.current == "604800000" and change.current_source is ConfigSource.DEFAULT_CONFIG
    assert change.alter_op() == AlterConfigOp("retention.ms", "86400000", OpType.SET)
    assert plan.alter_ops() == {TOPIC: [AlterConfigOp("retention.ms", "86400000")]}


def test_pinning_sets_a_default_as_an_override_once() -> None:
    state = state_of((TOPIC, topic_config()))
    plan = make_plan(topic_file({"retention.ms": "7d"}, pin=["retention.ms"]), state)
    assert ops(plan) == [("retention.ms", OpType.SET, "604800000")]
    plan = make_plan(topic_file({"retention.ms": "7d"}, pin=True), state)
    assert ops(plan) == [("retention.ms", OpType.SET, "604800000")]
    pinned = state_of(
        (TOPIC, topic_config(r=entry("retention.ms", "604800000", T, ConfigType.LONG)))
    )
    assert not make_plan(topic_file({"retention.ms": "7d"}, pin=True), pinned).has_changes


def test_keys_the_broker_has_and_the_file_does_not_name_are_not_drift() -> None:
    newer = topic_config(n=entry("some.new.key.in.kafka.9", "x"), o=entry("retention.ms", "1", T))
    plan = make_plan(topic_file({"cleanup.policy": "delete"}), state_of((TOPIC, newer)))
    assert not plan.has_changes


def test_list_gaining_members_appends_and_losing_members_subtracts() -> None:
    own = state_of((TOPIC, topic_config(c=entry("cleanup.policy", "delete", T, ConfigType.LIST))))
    plan = make_plan(topic_file({"cleanup.policy": ["delete", "compact"]}), own)
    assert ops(plan) == [("cleanup.policy", OpType.APPEND, "compact")]
    assert plan.resources[0].changes[0].wanted == "delete,compact"

    both = state_of(
        (TOPIC, topic_config(c=entry("cleanup.policy", "delete,compact", T, ConfigType.LIST)))
    )
    plan = make_plan(topic_file({"cleanup.policy": "compact"}), both)
    assert ops(plan) == [("cleanup.policy", OpType.SUBTRACT, "delete")]
    # cleanup.policy is set-like (issue 21): another order is the same value.
    assert not make_plan(topic_file({"cleanup.policy": "compact,delete"}), both).has_changes
    assert not make_plan(topic_file({"cleanup.policy": "delete, compact"}), both).has_changes


def test_list_inherited_from_a_default_is_set_not_appended() -> None:
    # The broker appends to the resource's own value or the static default, not to what a
    # resource inherits: only a list set on the resource itself is appended to.
    plan = make_plan(
        topic_file({"cleanup.policy": ["delete", "compact"]}), state_of((TOPIC, topic_config()))
    )
    assert ops(plan) == [("cleanup.policy", OpType.SET, "delete,compact")]


def test_null_deletes_an_override_and_nothing_else() -> None:
    overridden = state_of(
        (TOPIC, topic_config(r=entry("retention.ms", "1000", T, ConfigType.LONG)))
    )
    plan = make_plan(topic_file({"retention.ms": None}), overridden)
    assert ops(plan) == [("retention.ms", OpType.DELETE, None)]
    assert not make_plan(
        topic_file({"retention.ms": None}), state_of((TOPIC, topic_config()))
    ).has_changes


def test_prune_deletes_only_overrides_the_file_does_not_name() -> None:
    config = topic_config(
        r=entry("retention.ms", "1000", T, ConfigType.LONG),
        m=entry("min.insync.replicas", "2", T, ConfigType.INT),
    )
    file = topic_file({"min.insync.replicas": 2})
    assert not make_plan(file, state_of((TOPIC, config))).has_changes
    plan = make_plan(file, state_of((TOPIC, config)), prune=True)
    assert ops(plan) == [("retention.ms", OpType.DELETE, None)]
    assert plan.prune and plan.to_dict()["prune"] is True


def test_sensitive_keys_are_skipped_unless_asked_and_never_shown() -> None:
    file = desired(brokers={1: {"configs": {"listener.name.x.ssl.key.password": "hunter2"}}})
    state = state_of((BROKER, broker_config()))
    plan = make_plan(file, state)
    assert not plan.has_changes
    [resource] = plan.resources
    assert resource.action is ResourceAction.UNCHANGED
    assert resource.skipped[0].key == "listener.name.x.ssl.key.password"

    plan = make_plan(file, state, include_sensitive=True)
    [change] = plan.resources[0].changes
    assert change.sensitive and change.op is OpType.SET
    assert change.alter_op().sensitive
    text = plan.to_json() + repr(plan) + str(plan)
    assert "hunter2" not in text and "[hidden]" in plan.to_json()


def test_unknown_read_only_and_unparsable_are_all_reported_and_not_planned() -> None:
    file = topic_file(
        {
            "retention.ms": "soon",
            "min.insync.replicas": 3_000_000_000,
            "unclean.leader.election.enable": "yes",
            "no.such.key": 1,
            "cleanup.policy": "delete,,compact",
            "max.message.bytes": "2MiB",
        }
    )
    plan = make_plan(file, state_of((TOPIC, topic_config())))
    problems = {problem.key: problem for problem in plan.problems}
    assert set(problems) == {
        "retention.ms",
        "min.insync.replicas",
        "unclean.leader.election.enable",
        "no.such.key",
    }
    # Without the release's catalog an empty list member is not refused: Kafka's LIST keeps
    # it, and only a validator of the release (KIP-1161's lists) refuses it.
    assert "cleanup.policy" not in problems
    assert problems["min.insync.replicas"].expected_type is ConfigType.INT
    assert "out of range for INT" in str(problems["min.insync.replicas"])
    assert "3000000000" in str(problems["min.insync.replicas"])
    assert "topic 'orders'" in str(problems["no.such.key"])
    assert "unknown config" in problems["no.such.key"].message
    assert "BOOLEAN" in problems["unclean.leader.election.enable"].message
    # The good key is still planned, for review; apply refuses the plan as a whole.
    assert ops(plan) == [
        ("cleanup.policy", OpType.SET, "delete,,compact"),
        ("max.message.bytes", OpType.SET, "2097152"),
    ]

    broker_plan = make_plan(
        desired(brokers={1: {"configs": {"broker.id": 2}}}), state_of((BROKER, broker_config()))
    )
    [problem] = broker_plan.problems
    assert "read-only" in problem.message and problem.resource == BROKER


def test_check_ops_refuses_append_on_non_lists_and_unknown_keys() -> None:
    state = state_of((TOPIC, topic_config()))
    problems = check_ops(
        {
            TOPIC: [
                AlterConfigOp("retention.ms", "1", OpType.APPEND),
                AlterConfigOp("cleanup.policy", "compact", OpType.APPEND),
                AlterConfigOp("cleanup.policy", "x", OpType.SUBTRACT),
                AlterConfigOp("nope", op=OpType.DELETE),
                AlterConfigOp("min.insync.replicas", "two"),
            ]
        },
        state,
    )
    assert [(p.key, p.message.split(":")[0]) for p in problems] == [
        ("retention.ms", "APPEND needs a LIST config, and this one is LONG"),
        ("nope", "unknown config"),
        ("min.insync.replicas", "not an integer"),
    ]


def test_missing_topics_are_created_when_the_file_says_how_else_reported() -> None:
    file = desired(
        topics=[
            {
                "name": "new",
                "partitions": 3,
                "replication_factor": 2,
                "configs": {"retention.ms": "1d", "x.y": None},
            },
            {"name": "absent", "configs": {"retention.ms": "1d"}},
        ]
    )
    state = ClusterState(topics=frozenset({"orders"}), schemas={ResourceType.TOPIC: topic_config()})
    plan = make_plan(file, state)
    new, absent = plan.resources
    assert new.action is ResourceAction.CREATE and new.create is not None
    assert (new.create.partitions, new.create.replication_factor) == (3, 2)
    assert new.create.configs == {"retention.ms": "86400000"}
    assert [(c.key, c.op, c.value, c.type) for c in new.changes] == [
        ("retention.ms", OpType.SET, "86400000", ConfigType.LONG)
    ]
    assert plan.alter_ops() == {}
    assert absent.action is ResourceAction.MISSING
    assert plan.has_changes and plan.missing_topics == ["absent"]
    # A topic apply cannot create is a problem: the plan is refused, never "no changes".
    [problem] = [problem for problem in plan.problems if problem.resource.name == "absent"]
    assert problem.key is None
    assert problem.message == (
        "the topic does not exist; give partitions and replication_factor to create it"
    )
    assert plan.creations() == [new.create]
    # A topic to create is type-checked against another topic's keys.
    bad = desired(
        topics=[
            {
                "name": "new",
                "partitions": 1,
                "replication_factor": 1,
                "configs": {"retention.ms": "x"},
            }
        ]
    )
    assert [p.key for p in make_plan(bad, state).problems] == ["retention.ms"]


def test_exact_name_wins_over_patterns_then_the_first_matching_pattern() -> None:
    file = desired(
        topics=[
            {"pattern": "logs\\..*", "configs": {"retention.ms": "1d"}},
            {"pattern": "logs\\.app.*", "configs": {"retention.ms": "2d"}},
            {"name": "logs.special", "configs": {"retention.ms": "3d"}},
        ]
    )
    names = ["logs.app1", "logs.special", "other", "logs"]
    state = ClusterState(
        configs={ConfigResource(ResourceType.TOPIC, n): topic_config() for n in names},
        topics=frozenset(names),
    )
    plan = make_plan(file, state)
    wanted = {p.resource.name: p.changes[0].value for p in plan.resources}
    assert wanted == {"logs.special": "259200000", "logs.app1": "86400000"}


def test_cluster_default_compares_with_the_brokers_default_and_knows_keys_from_it() -> None:
    file = desired(
        cluster_default={
            "configs": {"log.cleaner.threads": 1, "background.threads": 12, "bogus": 1}
        }
    )
    state = state_of((DEFAULT, Config()), schemas={ResourceType.BROKER: broker_config()})
    plan = make_plan(file, state)
    # A broker takes a key it does not define (a plugin's): it is the broker's to judge.
    assert ops(plan, DEFAULT) == [
        ("background.threads", OpType.SET, "12"),
        ("bogus", OpType.SET, "1"),
    ]
    assert not plan.problems
    set_default = state_of(
        (
            DEFAULT,
            Config(
                entries=(
                    entry(
                        "background.threads",
                        "12",
                        ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                        ConfigType.INT,
                    ),
                )
            ),
        ),
        schemas={ResourceType.BROKER: broker_config()},
    )
    assert (
        make_plan(
            desired(cluster_default={"configs": {"background.threads": 12}}), set_default
        ).resources
        == ()
    )


def test_describe_failures_are_problems() -> None:
    group = ConfigResource(ResourceType.GROUP, "g")
    state = ClusterState(errors={group: RuntimeError("GROUP_AUTHORIZATION_FAILED")})
    plan = make_plan(
        desired(groups={"g": {"configs": {"consumer.session.timeout.ms": "45s"}}}), state
    )
    [problem] = plan.problems
    assert problem.key is None and "GROUP_AUTHORIZATION_FAILED" in str(problem)
    assert plan.resources == ()


def test_broker_logger_levels_are_checked() -> None:
    logger = ConfigResource(ResourceType.BROKER_LOGGER, "1")
    config = Config(
        entries=(entry("kafka.server", "INFO", ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG),)
    )
    file = desired(broker_loggers={1: {"configs": {"kafka.server": "LOUD"}}})
    [problem] = make_plan(file, state_of((logger, config))).problems
    assert "log level" in problem.message
    plan = make_plan(
        desired(broker_loggers={1: {"configs": {"kafka.server": "DEBUG"}}}),
        state_of((logger, config)),
    )
    assert ops(plan, logger) == [("kafka.server", OpType.SET, "DEBUG")]


def test_plan_json_shape_is_stable() -> None:
    overridden = topic_config(c=entry("cleanup.policy", "delete", T, ConfigType.LIST))
    plan = make_plan(
        topic_file({"cleanup.policy": "delete,compact", "retention.ms": "x"}),
        state_of((TOPIC, overridden)),
    )
    data = json.loads(plan.to_json())
    assert data == {
        "format": 1,
        "digest": plan.digest,  # added with saved plans (issue 30)
        "cluster_id": None,
        "has_changes": True,
        "prune": False,
        "problems": [
            {
                "resource": {"type": "TOPIC", "name": "orders"},
                "key": "retention.ms",
                "value": "x",
                "expected_type": "LONG",
                "message": "not an integer: expected LONG (a 64-bit integer, "
                "-9223372036854775808 to 9223372036854775807)",
            }
        ],
        "warnings": [],  # values a coming Kafka release will refuse (issue 34)
        "resources": [
            {
                "resource": {"type": "TOPIC", "name": "orders"},
                "action": "alter",
                "changes": [
                    {
                        "key": "cleanup.policy",
                        "op": "APPEND",
                        "value": "compact",
                        "wanted": "delete,compact",
                        "current": "delete",
                        "current_source": "TOPIC_CONFIG",
                        "type": "LIST",
                        "sensitive": False,
                    }
                ],
                "create": None,
                "skipped": [],
                "kept": [],  # kept, shadowed and partitions came later (issue 21)
                "shadowed": [],
                "partitions": None,
            }
        ],
        "quotas": [],  # fields are only ever added: quotas and SCRAM users came later
        "scram": [],
    }


def test_prune_never_resets_broker_loggers() -> None:
    logger = ConfigResource(ResourceType.BROKER_LOGGER, "1")
    source = ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG
    config = Config(
        entries=(entry("kafka.server", "INFO", source), entry("kafka.log", "INFO", source))
    )
    file = desired(broker_loggers={1: {"configs": {"kafka.server": "INFO"}}})
    assert make_plan(file, state_of((logger, config)), prune=True).resources == ()


def test_stale_keys_name_what_changed_since_the_plan_was_made() -> None:
    wanted = desired(
        topics=[{"name": "orders", "configs": {"retention.ms": "1d", "cleanup.policy": "compact"}}]
    )
    before = make_plan(wanted, state_of((TOPIC, topic_config())))
    assert stale_keys(before, state_of((TOPIC, topic_config()))) == {}
    changed = topic_config(retention_ms=entry("retention.ms", "120000", T, ConfigType.LONG))
    [key] = stale_keys(before, state_of((TOPIC, changed)))[TOPIC]
    assert (key.key, key.planned, key.now) == ("retention.ms", "604800000", "120000")
    assert key.now_source is T
    # someone else already made the change: stale too (the plan was made against another value)
    done = topic_config(
        retention_ms=entry("retention.ms", "86400000", T, ConfigType.LONG),
        cleanup_policy=entry("cleanup.policy", "compact", T, ConfigType.LIST),
    )
    gone = stale_keys(before, state_of((TOPIC, done)))[TOPIC]
    assert {(key.key, key.now) for key in gone} == {
        ("retention.ms", "86400000"),
        ("cleanup.policy", "compact"),
    }
    # a resource the fresh read could not describe: every key stale, its value now unknown
    unread = stale_keys(before, state_of())[TOPIC]
    assert {(key.key, key.now, key.now_source) for key in unread} == {
        ("retention.ms", None, ConfigSource.UNKNOWN),
        ("cleanup.policy", None, ConfigSource.UNKNOWN),
    }


def test_a_keys_effective_entry_is_what_a_change_replaces() -> None:
    """ClusterState.effective_entry, which plans and change sets both compare with: the
    cluster default's unset key is a broker's default; elsewhere only what was described."""
    state = ClusterState(
        configs={DEFAULT: Config(), TOPIC: topic_config()},
        schemas={ResourceType.BROKER: broker_config()},
    )
    threads = state.effective_entry(DEFAULT, "log.cleaner.threads")
    assert threads is not None and (threads.value, threads.source) == (
        "1",
        ConfigSource.DEFAULT_CONFIG,
    )
    assert state.effective_entry(DEFAULT, "no.such.key") is None
    assert state.effective_entry(BROKER, "log.cleaner.threads") is None  # not described
    retention = state.effective_entry(TOPIC, "retention.ms")
    assert retention is not None and retention.value == "604800000"
