"""How the command line names resources and changes (no broker needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_config_admin import AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin.cli._resources import (
    ChangeOptions,
    SelectionOptions,
    UsageError,
    parse_resource,
    split_add_config,
)


@pytest.mark.parametrize(
    ("text", "resource"),
    [
        ("orders", ConfigResource(ResourceType.TOPIC, "orders")),
        ("topic:orders", ConfigResource(ResourceType.TOPIC, "orders")),
        ("broker:1", ConfigResource(ResourceType.BROKER, "1")),
        ("broker:", ConfigResource(ResourceType.BROKER, "")),
        ("broker-logger:2", ConfigResource(ResourceType.BROKER_LOGGER, "2")),
        ("BROKER_LOGGER:2", ConfigResource(ResourceType.BROKER_LOGGER, "2")),
        ("group:payments", ConfigResource(ResourceType.GROUP, "payments")),
        ("client-metrics:all", ConfigResource(ResourceType.CLIENT_METRICS, "all")),
    ],
)
def test_type_name_arguments(text: str, resource: ConfigResource) -> None:
    assert parse_resource(text) == resource


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("queue:x", "unknown resource type 'queue'"),
        ("broker:one", "a broker is named by its numeric id"),
        # The SDK's rule: ASCII digits of an INT32 (str.isdigit() takes these three).
        ("broker:\u00b2", "a broker is named by its numeric id"),
        ("broker-logger:\u0661", "a broker is named by its numeric id"),
        ("broker:2147483648", r"numeric id \(0 to 2147483647\)"),
        ("group:", "a group needs a name"),
    ],
)
def test_bad_resource_arguments(text: str, problem: str) -> None:
    with pytest.raises(UsageError, match=problem):
        parse_resource(text)


def test_shortcuts_and_arguments_keep_their_order_once_each() -> None:
    selection = SelectionOptions(
        arguments=["orders", "broker:1"],
        topics=["orders", "payments"],
        brokers=["2"],
        groups=["g"],
        broker_default=True,
    ).selection()
    assert [str(resource) for resource in selection.resources] == [
        "topic 'orders'",
        "broker '1'",
        "topic 'payments'",
        "broker '2'",
        "group 'g'",
        "cluster-wide broker default",
    ]


def test_add_config_keeps_bracketed_lists_together() -> None:
    assert split_add_config("retention.ms=1000,cleanup.policy=[delete, compact],a=b=c") == [
        ("retention.ms", "1000"),
        ("cleanup.policy", "delete,compact"),
        ("a", "b=c"),
    ]
    with pytest.raises(UsageError, match="unbalanced brackets"):
        split_add_config("a=[x,y")
    with pytest.raises(UsageError, match="expected KEY=VALUE"):
        split_add_config("a=1,oops")


def test_every_change_form_gives_its_op(tmp_path: Path) -> None:
    file = tmp_path / "more.properties"
    file.write_text("# from a file\nsegment.ms=3600000\n")
    ops = ChangeOptions(
        set=["retention.ms=86400000"],
        delete=["max.message.bytes"],
        append=["cleanup.policy=compact"],
        subtract=["leader.replication.throttled.replicas=1:1"],
        add_config=["min.insync.replicas=2,flush.ms=[1]"],
        add_config_file=[file],
        delete_config=["segment.bytes,file.delete.delay.ms"],
    ).ops()
    assert ops == [
        AlterConfigOp("retention.ms", "86400000", OpType.SET),
        AlterConfigOp("min.insync.replicas", "2", OpType.SET),
        AlterConfigOp("flush.ms", "1", OpType.SET),
        AlterConfigOp("segment.ms", "3600000", OpType.SET),
        AlterConfigOp("cleanup.policy", "compact", OpType.APPEND),
        AlterConfigOp("leader.replication.throttled.replicas", "1:1", OpType.SUBTRACT),
        AlterConfigOp("max.message.bytes", None, OpType.DELETE),
        AlterConfigOp("segment.bytes", None, OpType.DELETE),
        AlterConfigOp("file.delete.delay.ms", None, OpType.DELETE),
    ]


def test_a_key_changed_twice_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=r"retention\.ms is changed twice"):
        ChangeOptions(set=["retention.ms=1"], delete=["retention.ms"]).ops()
