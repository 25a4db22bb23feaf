"""The one rule every reader of cluster state uses to choose the schema of a resource type."""

from __future__ import annotations

from kafka_config_admin import ConfigResource, ResourceType
from kafka_config_admin.state import schema_resources

BROKER, TOPIC = ResourceType.BROKER, ResourceType.TOPIC
DEFAULT = ConfigResource(BROKER, "")


def broker(name: str) -> ConfigResource:
    return ConfigResource(BROKER, name)


def topic(name: str) -> ConfigResource:
    return ConfigResource(TOPIC, name)


def test_a_described_resource_of_the_kind_comes_first_brokers_by_number() -> None:
    described = [DEFAULT, broker("10"), broker("2"), topic("b"), topic("a")]
    chosen = schema_resources([BROKER, TOPIC], described, broker_ids=[0], topics=["0"])
    assert chosen == {BROKER: broker("2"), TOPIC: topic("a")}


def test_the_cluster_default_is_never_a_schema_the_cluster_s_own_are_used() -> None:
    chosen = schema_resources([BROKER, TOPIC], [DEFAULT], broker_ids=[5, 3], topics=["z", "m"])
    assert chosen == {BROKER: broker("3"), TOPIC: topic("m")}


def test_only_the_kinds_asked_and_none_without_candidates() -> None:
    assert schema_resources([], [broker("1"), topic("a")], broker_ids=[1]) == {}
    assert schema_resources([BROKER, TOPIC], [DEFAULT]) == {}
    group = ConfigResource(ResourceType.GROUP, "g")
    assert schema_resources([ResourceType.GROUP], [group]) == {ResourceType.GROUP: group}
