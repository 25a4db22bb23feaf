"""Which resources of a cluster to read: the one scope the snapshot and the change feed share."""

from __future__ import annotations

import re

import pytest

from kafka_config_admin import ConfigResource, InvalidArgumentError, ResourceType
from kafka_config_admin.state import ResourceKind, ResourceScope


def test_kinds_parse_by_name_and_name_the_known_ones_otherwise() -> None:
    assert ResourceKind.parse(" Broker-Default") is ResourceKind.CLUSTER_DEFAULT
    with pytest.raises(InvalidArgumentError, match="'queue' is not a resource type; use one of"):
        ResourceKind.parse("queue")


def test_each_kind_has_its_config_resource_type_and_entities_have_none() -> None:
    assert ResourceKind.CLUSTER_DEFAULT.resource_type is ResourceType.BROKER
    assert ResourceKind.BROKER_LOGGER.resource_type is ResourceType.BROKER_LOGGER
    assert ResourceKind.QUOTA.resource_type is None
    assert ResourceKind.SCRAM_USER.resource_type is None


def test_a_scope_needs_a_kind() -> None:
    with pytest.raises(InvalidArgumentError, match="no resource type"):
        ResourceScope(kinds=())


def test_client_metrics_are_listed_unless_named() -> None:
    """Kafka lists them (ListClientMetricsResources, ListConfigResources): ``list_scope``."""
    listed = ResourceScope(kinds=(ResourceKind.CLIENT_METRICS,))
    assert listed.lists_client_metrics()
    assert listed.config_resources(listed_client_metrics=["b", "a"]) == [
        ConfigResource(ResourceType.CLIENT_METRICS, "a"),
        ConfigResource(ResourceType.CLIENT_METRICS, "b"),
    ]
    named = ResourceScope(kinds=(ResourceKind.CLIENT_METRICS,), client_metrics=("m",))
    assert not named.lists_client_metrics()
    assert named.config_resources(listed_client_metrics=["a"]) == [
        ConfigResource(ResourceType.CLIENT_METRICS, "m")
    ]


@pytest.mark.parametrize("name", ["one", "-1", "2147483648", "\u0661", ""])
def test_brokers_are_named_by_the_sdks_rule(name: str) -> None:
    with pytest.raises(InvalidArgumentError, match="a broker is named by its numeric id"):
        ResourceScope(kinds=(ResourceKind.BROKER,), brokers=(name,))


def test_only_what_is_not_named_is_listed() -> None:
    everything = ResourceScope(
        kinds=(ResourceKind.TOPIC, ResourceKind.BROKER_LOGGER, ResourceKind.GROUP)
    )
    assert everything.lists_topics() and everything.lists_brokers() and everything.lists_groups()
    named = ResourceScope(
        kinds=(ResourceKind.TOPIC, ResourceKind.BROKER, ResourceKind.GROUP),
        topics=("a",),
        brokers=("1",),
        groups=("g",),
    )
    assert not (named.lists_topics() or named.lists_brokers() or named.lists_groups())
    defaults_only = ResourceScope(kinds=(ResourceKind.CLUSTER_DEFAULT, ResourceKind.QUOTA))
    assert not defaults_only.lists_brokers()
    # A query's filter on the resource type decides too: a logger-only filter lists brokers.
    loggers = ResourceScope(kinds=(ResourceKind.BROKER_LOGGER,))
    assert loggers.lists_brokers(lambda t: t is ResourceType.BROKER_LOGGER)
    assert not loggers.lists_brokers(lambda t: t is ResourceType.BROKER)


def test_config_resources_from_what_was_listed() -> None:
    scope = ResourceScope(
        kinds=(
            ResourceKind.TOPIC,
            ResourceKind.BROKER,
            ResourceKind.CLUSTER_DEFAULT,
            ResourceKind.BROKER_LOGGER,
            ResourceKind.QUOTA,
        ),
        topic_pattern=re.compile("orders-.*"),
    )
    resources = scope.config_resources(
        listed_topics=["orders-2", "payments", "orders-1", "xorders-1"], listed_brokers=["1", "2"]
    )
    assert resources == [
        ConfigResource(ResourceType.TOPIC, "orders-1"),
        ConfigResource(ResourceType.TOPIC, "orders-2"),
        ConfigResource(ResourceType.BROKER, "1"),
        ConfigResource(ResourceType.BROKER, "2"),
        ConfigResource(ResourceType.BROKER, ""),
        ConfigResource(ResourceType.BROKER_LOGGER, "1"),
        ConfigResource(ResourceType.BROKER_LOGGER, "2"),
    ]
    narrowed = scope.config_resources(
        listed_topics=["orders-1"],
        listed_brokers=["1", "2"],
        type_selected=lambda t: t is ResourceType.BROKER,
        name_selected=lambda name: name != "2",
    )
    assert narrowed == [
        ConfigResource(ResourceType.BROKER, "1"),
        ConfigResource(ResourceType.BROKER, ""),
    ]


def test_named_resources_are_read_even_when_not_listed() -> None:
    scope = ResourceScope(
        kinds=(ResourceKind.TOPIC, ResourceKind.GROUP, ResourceKind.CLIENT_METRICS),
        topics=("missing", "a", "a"),
        groups=("g",),
        client_metrics=("all",),
    )
    assert scope.config_resources(listed_topics=["b"]) == [
        ConfigResource(ResourceType.TOPIC, "missing"),
        ConfigResource(ResourceType.TOPIC, "a"),
        ConfigResource(ResourceType.GROUP, "g"),
        ConfigResource(ResourceType.CLIENT_METRICS, "all"),
    ]
