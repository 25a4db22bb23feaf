"""Reading the state never plans: the deletions ``read_state`` offers the broker come from the
one rule the planner deletes by (``state._deletions``), not from a plan."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import Config, ConfigResource, ConfigSource, ConfigType, OpType
from kafka_config_admin import ResourceType as RT
from kafka_config_admin.desired import make_plan
from kafka_config_admin.state import ClusterState, DesiredState
from kafka_config_admin.state._deletions import planned_deletions

from .desired_helpers import DEFAULT, TOPIC, T, broker_config, entry, topic_config
from .test_import_circles import _graph

OTHER = ConfigResource(RT.TOPIC, "payments")
LOGGER = ConfigResource(RT.BROKER_LOGGER, "1")


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        module = stack.pop()
        for imported in graph[module] - seen:
            seen.add(imported)
            stack.append(imported)
    return seen


def test_reading_the_state_imports_no_planner() -> None:
    """Every import that runs from the state reader (at the top or in a function): none
    reaches the planner, so ``read_state`` cannot make a plan."""
    reached = _reachable(_graph(), "kafka_config_admin.state._read_state")
    assert "kafka_config_admin.state._deletions" in reached  # the check sees the graph
    assert "kafka_config_admin.desired._plan" not in reached
    # The change feed reads through the state reader: the planner is no part of it either.
    assert "kafka_config_admin.desired._plan" not in _reachable(
        _graph(), "kafka_config_admin.feed._observe"
    )


def _topic(*overrides: tuple[str, str], **flags: Any) -> Config:
    return topic_config(**{key: entry(key, value, T, **flags) for key, value in overrides})


def _deleted_by_plan(desired: DesiredState, state: ClusterState, prune: bool) -> dict[Any, Any]:
    found = {
        plan.resource: [change.key for change in plan.changes if change.op is OpType.DELETE]
        for plan in make_plan(desired, state, prune=prune).resources
    }
    return {resource: keys for resource, keys in found.items() if keys}


STATE = ClusterState(
    configs={
        TOPIC: topic_config(
            **{
                "retention.ms": entry("retention.ms", "1000", T, ConfigType.LONG),
                "segment.bytes": entry("segment.bytes", "1000000", T, ConfigType.INT),
                "leader.replication.throttled.replicas": entry(
                    "leader.replication.throttled.replicas", "0:1", T, ConfigType.LIST
                ),
                "ssl.key.password": entry(
                    "ssl.key.password", None, T, ConfigType.PASSWORD, is_sensitive=True
                ),
                "message.format.version": entry(
                    "message.format.version", "3.0", T, is_read_only=True
                ),
            }
        ),
        OTHER: _topic(("retention.ms", "5")),
    },
    topics=frozenset({"orders", "payments"}),
    schemas={RT.BROKER: broker_config()},
    errors={OTHER: RuntimeError("could not be described")},
)

FILES = [
    {"topics": [{"name": "orders"}]},
    {"topics": [{"name": "orders", "configs": {"retention.ms": None}}]},
    {"topics": [{"name": "orders", "configs": {"retention.ms": None, "cleanup.policy": None}}]},
    {"topics": [{"name": "orders", "configs": {"leader.replication.throttled.replicas": None}}]},
    {"topics": [{"pattern": ".*", "configs": {"segment.bytes": 2000}}]},
    {"topics": [{"name": "orders", "configs": {"no.such.key": None}}]},
    {"topics": [{"name": "missing", "configs": {"retention.ms": None}}]},
    {"ignore": {"topics": ["segment\\..*"]}, "topics": [{"name": "orders"}]},
    {"cluster_default": {"configs": {}}, "brokers": {1: {}}},
]


@pytest.mark.parametrize("prune", [False, True])
@pytest.mark.parametrize("data", FILES)
def test_the_deletions_offered_are_those_the_plan_makes(data: dict[str, Any], prune: bool) -> None:
    desired = DesiredState.model_validate(data)
    assert planned_deletions(desired, STATE, prune=prune) == _deleted_by_plan(desired, STATE, prune)


def test_the_rule_covers_named_nulls_prune_throttles_read_only_and_sensitive_keys() -> None:
    desired = DesiredState.model_validate(
        {"topics": [{"name": "orders", "configs": {"cleanup.policy": None}}]}
    )
    # Pruned: the overrides not named; kept out: the throttle (other tools'), the read-only
    # and the sensitive key; ``cleanup.policy`` is no override (a default): nothing to delete.
    assert planned_deletions(desired, STATE, prune=True) == {
        TOPIC: ["retention.ms", "segment.bytes"]
    }
    assert planned_deletions(desired, STATE, prune=False) == {}


def test_a_cluster_default_is_pruned_and_loggers_never_are() -> None:
    threads = entry(
        "log.cleaner.threads", "2", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, ConfigType.INT
    )
    root = entry("kafka", "INFO", ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG)
    state = ClusterState(
        configs={DEFAULT: Config(entries=(threads,)), LOGGER: Config(entries=(root,))},
        schemas={RT.BROKER: broker_config()},
    )
    desired = DesiredState.model_validate(
        {"cluster_default": {"configs": {}}, "broker_loggers": {1: {}}}
    )
    assert planned_deletions(desired, state, prune=True) == {DEFAULT: ["log.cleaner.threads"]}
    assert planned_deletions(desired, state, prune=True) == _deleted_by_plan(desired, state, True)
