"""The Spark source's planning, without Spark: options, pushed filters, what gets described."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspark", reason="the spark extra is not installed")

from pyspark.sql.datasource import EqualTo, GreaterThan, In, StringStartsWith

from kafka_config_admin import ConfigResource, InvalidArgumentError, ResourceType
from kafka_config_admin.spark._options import SnapshotOptions
from kafka_config_admin.spark._selection import Selection
from kafka_config_admin.spark._source import narrow
from kafka_config_admin.state import ResourceKind

SERVERS = {"bootstrap.servers": "127.0.0.1:9092"}


def parse(**options: str) -> SnapshotOptions:
    return SnapshotOptions.parse({**SERVERS, **options})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"resourceTypes": "topic,queue"}, "resourceTypes: 'queue' is not a resource type"),
        ({"resourceTypes": "topic,quota"}, "kafka-configs reads config resources, not quota"),
        ({"topicPattern": "("}, "is not a regular expression"),
        ({"synonyms": "yes"}, "synonyms must be true or false"),
        ({"topicsPerPartition": "0"}, "topicsPerPartition must be a positive integer"),
        ({"topics": " , "}, "option topics is empty"),
        ({"timeout": "-1"}, "timeout must be a positive number"),
        ({"security.protocol": "SASL_PLAINTEXT"}, "needs username and password"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options: dict[str, str], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        parse(**options)


def test_a_source_needs_a_cluster() -> None:
    with pytest.raises(InvalidArgumentError, match=r"bootstrap.servers .* or clusters.file"):
        SnapshotOptions.parse({})


def test_kinds_and_the_cluster_name() -> None:
    options = parse(resourceTypes="topic, Broker_Default,broker-logger", cluster="east")
    assert options.scope.kinds == (
        ResourceKind.TOPIC,
        ResourceKind.CLUSTER_DEFAULT,
        ResourceKind.BROKER_LOGGER,
    )
    assert [target.name for target in options.clusters] == ["east"]


def test_pushed_filters_narrow_the_selection() -> None:
    selection = Selection()
    for pushed in [
        EqualTo(("cluster",), "east"),
        In(("resource_name",), ("a", "b", "c")),
        EqualTo(("resource_name",), "b"),
        StringStartsWith(("resource_name",), "b"),
        GreaterThan(("resource_name",), "a"),  # not usable: ignored
        EqualTo(("name",), "retention.ms"),  # not a pushable column
    ]:
        selection = narrow(selection, pushed)
    assert selection == Selection(
        clusters=frozenset({"east"}), resource_names=frozenset({"b"}), name_prefixes=("b",)
    )


def test_only_listed_topics_the_filters_allow_are_described() -> None:
    options = parse(resourceTypes="topic,broker,broker_default", topicPattern="orders-.*")
    selection = narrow(Selection(), In(("resource_name",), ("orders-1", "orders-9", "1", "")))
    scope, selected = options.scope, selection.type_selected
    assert scope.lists_topics(selected) and scope.lists_brokers(selected)
    assert not scope.lists_groups(selected)
    described = scope.config_resources(
        listed_topics=["orders-1", "orders-2", "payments-1"],
        listed_brokers=["1", "2"],
        type_selected=selected,
        name_selected=selection.name_selected,
    )
    assert described == [
        ConfigResource(ResourceType.TOPIC, "orders-1"),
        ConfigResource(ResourceType.BROKER, "1"),
        ConfigResource(ResourceType.BROKER, ""),
    ]


def test_explicit_names_are_described_even_when_not_listed() -> None:
    options = parse(topics="a,missing", resourceTypes="topic,group", groups="g1")
    assert not options.scope.lists_groups()
    selection = narrow(Selection(), EqualTo(("resource_type",), "TOPIC"))
    assert not options.scope.lists_topics(selection.type_selected)
    assert options.scope.config_resources(type_selected=selection.type_selected) == [
        ConfigResource(ResourceType.TOPIC, "a"),
        ConfigResource(ResourceType.TOPIC, "missing"),
    ]


@pytest.mark.parametrize("value", ["0", "-3", "x", "1.5", "", " "])
def test_the_stream_refuses_a_max_per_poll_that_is_not_a_positive_integer(value: str) -> None:
    from kafka_config_admin.spark._feed import FeedOptions

    with pytest.raises(
        InvalidArgumentError, match=f"maxPerPoll must be a positive integer, got {value!r}"
    ):
        FeedOptions.parse({**SERVERS, "stateLocation": "/tmp/s", "maxPerPoll": value})


def test_the_stream_reads_every_resource_and_adds_no_poll_rows_unless_told() -> None:
    from kafka_config_admin.spark._feed import FeedOptions

    plain = FeedOptions.parse({**SERVERS, "stateLocation": "/tmp/s"})
    assert (plain.max_per_poll, plain.stats) == (None, False)
    bounded = FeedOptions.parse(
        {**SERVERS, "stateLocation": "/tmp/s", "maxPerPoll": " 500 ", "stats": "TRUE"}
    )
    assert (bounded.max_per_poll, bounded.stats) == (500, True)
