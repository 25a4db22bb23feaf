"""Topic models and operations: checks before sending, request bodies, response shaping."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kafka_config_admin import (
    ConfigResource,
    ConfigSource,
    CreatedTopic,
    InvalidArgumentError,
    NewTopic,
    PolicyViolationError,
    ResourceType,
    TopicAlreadyExistsError,
    TopicListing,
)
from kafka_config_admin._models.topics import topic_id_text
from kafka_config_admin._ops.topics import CreateTopics, DescribeTopicsOn, ListTopics

TOPIC_ID = bytes(range(1, 17))


@pytest.mark.parametrize("name", ["orders", "a.b_c-D9", "x" * 249, "__private"])
def test_valid_topic_names(name: str) -> None:
    assert NewTopic(name).name == name


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "must not be empty"),
        (".", "not allowed"),
        ("..", "not allowed"),
        ("x" * 250, "250 characters long; Kafka allows at most 249"),
        ("orders/eu", "characters Kafka does not allow ('/')"),
        ("ordérs ", "(' é')"),
        (5, "must be a str, got int"),
    ],
)
def test_invalid_topic_names(name: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        NewTopic(name)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_partitions": 0}, "num_partitions must be an int from 1 to 2147483647"),
        ({"num_partitions": True}, "num_partitions"),
        ({"num_partitions": "3"}, "num_partitions"),
        ({"replication_factor": 0}, "replication_factor must be an int from 1 to 32767"),
        ({"replication_factor": 40000}, "replication_factor"),
        ({"configs": ["retention.ms"]}, "mapping of name to value"),
        ({"configs": {"": "1"}}, "non-empty strings"),
        ({"configs": {"retention.ms": None}}, "must be a str, int, float, bool or list"),
        ({"replica_assignments": {1: [1]}}, "must name partitions 0 to 0"),
        ({"replica_assignments": {0: [1, 1]}}, "distinct broker ids"),
        ({"replica_assignments": {0: []}}, "distinct broker ids"),
        ({"replica_assignments": {0: [1, 2], 1: [1]}}, "same number of replicas"),
        ({"replica_assignments": {0: [1]}, "num_partitions": 1}, "not both"),
    ],
)
def test_new_topic_rejects_bad_counts_and_configs(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        NewTopic("orders", **kwargs)


def test_new_topic_keeps_kafka_strings_and_hides_secrets_in_its_repr() -> None:
    topic = NewTopic(
        "orders",
        3,
        configs={"retention.ms": 1000, "cleanup.policy": ["delete", "compact"], "x.password": "s3"},
    )
    assert topic.configs == {
        "retention.ms": "1000",
        "cleanup.policy": "delete,compact",
        "x.password": "s3",
    }
    assert "s3" not in repr(topic) and "[hidden]" in repr(topic)
    assert topic == NewTopic("orders", 3, None, dict(topic.configs))
    assert hash(topic) == hash(NewTopic("orders"))
    with pytest.raises(AttributeError):
        topic.name = "other"  # type: ignore[misc]


def create(topics: Any, **kwargs: Any) -> CreateTopics:
    return CreateTopics.build(
        topics,
        validate_only=kwargs.get("validate_only", False),
        timeout_ms=5000,
        controller=lambda: 2,
    )


def test_create_topics_goes_to_the_controller() -> None:
    # A ZooKeeper-era broker that is not the controller answers NOT_CONTROLLER.
    assert create([NewTopic("a")]).destination("a") == 2


def test_wait_for_topics_asks_each_broker_itself_never_a_hedge() -> None:
    """What a broker shows is the question: its request never goes to another broker."""
    on_broker = DescribeTopicsOn.on(3, ["a", "b"])
    assert [on_broker.destination(name) for name in on_broker.resources] == [3, 3]
    assert not on_broker.hedged
    with pytest.raises(InvalidArgumentError):
        DescribeTopicsOn.on(3, ["a", "a"])


@pytest.mark.parametrize(
    ("topics", "message"),
    [
        (NewTopic("a"), "collection of NewTopic, got NewTopic"),
        ("a", "collection of NewTopic, got str"),
        (None, "collection of NewTopic, got NoneType"),
        (["a"], "expected a NewTopic, got str"),
        ([NewTopic("a"), NewTopic("a", 2)], "'a' appears twice"),
        ([NewTopic("a.b"), NewTopic("a_b")], "'a.b' and 'a_b' collide"),
    ],
)
def test_create_rejects_bad_calls_before_sending(topics: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        create(topics)


def test_create_body_uses_minus_one_for_broker_defaults() -> None:
    operation = create(
        [
            NewTopic("orders", 3, 2, {"retention.ms": "1000"}),
            NewTopic("plain"),
            NewTopic("placed", replica_assignments={1: [2, 1], 0: [1, 2]}),
        ],
        validate_only=True,
    )
    assert operation.resources == ["orders", "plain", "placed"]
    body = operation.body(["plain", "placed"], 7)
    assert body == {
        "topics": [
            {
                "name": "plain",
                "num_partitions": -1,
                "replication_factor": -1,
                "assignments": [],
                "configs": [],
            },
            {
                "name": "placed",
                "num_partitions": -1,
                "replication_factor": -1,
                "assignments": [
                    {"partition_index": 0, "broker_ids": [1, 2]},
                    {"partition_index": 1, "broker_ids": [2, 1]},
                ],
                "configs": [],
            },
        ],
        "timeout_ms": 5000,
        "validate_only": True,
    }
    assert operation.body(["orders"], 2)["topics"][0]["configs"] == [
        {"name": "retention.ms", "value": "1000"}
    ]


def created(name: str, code: int = 0, **fields: Any) -> dict[str, Any]:
    result = {
        "name": name,
        "topic_id": bytes(16),
        "error_code": code,
        "error_message": None,
        "topic_config_error_code": 0,
        "num_partitions": -1,
        "replication_factor": -1,
        "configs": None,
    }
    result.update(fields)
    return result


def test_create_outcomes_are_typed_per_topic_and_redacted() -> None:
    operation = create(
        [NewTopic("new"), NewTopic("taken"), NewTopic("refused", configs={"a.password": "s3"})]
    )
    config = {
        "name": "retention.ms",
        "value": "1000",
        "read_only": False,
        "config_source": 1,
        "is_sensitive": False,
    }
    response = {
        "topics": [
            created(
                "taken", 36, error_message="Topic 'taken' already exists."
            ),  # not in the order asked
            created(
                "new",
                topic_id=TOPIC_ID,
                num_partitions=3,
                replication_factor=2,
                configs=[config],
            ),
            created("refused", 44, error_message="a.password=s3 is not allowed"),
        ]
    }
    outcomes = dict(operation.outcomes(operation.resources, response))
    new = outcomes["new"]
    assert isinstance(new, CreatedTopic)
    assert (new.topic_id, new.num_partitions, new.replication_factor) == (
        "AQIDBAUGBwgJCgsMDQ4PEA",
        3,
        2,
    )
    assert (
        new.configs is not None and new.configs["retention.ms"].source is ConfigSource.TOPIC_CONFIG
    )
    taken, refused = outcomes["taken"], outcomes["refused"]
    assert isinstance(taken, TopicAlreadyExistsError)
    assert taken.resource == ConfigResource(ResourceType.TOPIC, "taken")
    assert "topic 'taken'" in str(taken)
    assert isinstance(refused, PolicyViolationError) and "s3" not in str(refused)
    old = dict(operation.outcomes(["new"], {"topics": [created("new")]}))["new"]
    assert old == CreatedTopic("new", None, None, None, None)  # a broker before v5


def test_topic_ids_print_as_kafka_prints_them() -> None:
    assert topic_id_text(TOPIC_ID) == "AQIDBAUGBwgJCgsMDQ4PEA"  # Kafka's Uuid.toString()
    assert topic_id_text(bytes(16)) is None


def listed(name: str | None, internal: bool = False, partitions: int = 1) -> dict[str, Any]:
    return {
        "error_code": 0,
        "name": name,
        "topic_id": TOPIC_ID,
        "is_internal": internal,
        "partitions": [{"replica_nodes": [1, 2, 3]}] * partitions,
    }


def test_listing_filters_by_whole_name_and_internal_flag_and_sorts() -> None:
    topics = [
        listed("orders-eu", partitions=3),
        listed("__consumer_offsets", internal=True),
        listed("orders"),
        listed("my-orders"),
        listed(None),  # asked for by id only: never the case for a listing
        listed("creating", partitions=0),
    ]
    response = {"error_code": 0, "topics": topics}
    everything = ListTopics.build(None, include_internal=False)
    [(key, listing)] = list(everything.outcomes([None], response))
    assert key is None and isinstance(listing, list)
    assert [t.name for t in listing] == ["creating", "my-orders", "orders", "orders-eu"]
    assert listing[0] == TopicListing("creating", "AQIDBAUGBwgJCgsMDQ4PEA", False, 0, None)
    assert listing[3].num_partitions == 3 and listing[3].replication_factor == 3
    matched = ListTopics.build("orders.*", include_internal=True).listings(topics)
    assert [t.name for t in matched] == ["orders", "orders-eu"]
    compiled = ListTopics.build(re.compile("__.*"), include_internal=True).listings(topics)
    assert [(t.name, t.is_internal) for t in compiled] == [("__consumer_offsets", True)]


def test_listing_body_asks_for_every_topic_at_each_version() -> None:
    operation = ListTopics.build(None, include_internal=False)
    assert operation.body([None], 0) == {"topics": []}
    assert operation.body([None], 3) == {"topics": None}
    assert operation.body([None], 12) == {"topics": None, "allow_auto_topic_creation": False}


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("orders[", "not a regular expression"),
        (re.compile(b"x"), "not a bytes pattern"),
        (5, "str or re.Pattern, got int"),
    ],
)
def test_listing_rejects_bad_patterns(pattern: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=re.escape(message)):
        ListTopics.build(pattern, include_internal=False)
