"""What the CLI prints: the describe document, masking, and typed comparison in diff."""

from __future__ import annotations

from kafka_config_admin import (
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigSynonym,
    ConfigType,
    ResourceType,
)
from kafka_config_admin.cli._diff import Side, compare
from kafka_config_admin.cli._output import DescribeView, describe_document, shown_value

BROKER = ConfigResource(ResourceType.BROKER, "1")
TOPIC = ConfigResource(ResourceType.TOPIC, "orders")


def entry(name: str, value: str | None, source: ConfigSource, **fields: object) -> ConfigEntry:
    return ConfigEntry.model_validate(
        {"name": name, "value": value, "source": source, "type": ConfigType.LONG, **fields}
    )


def test_sensitive_values_are_never_shown_even_if_a_broker_sent_one() -> None:
    secret = entry(
        "listener.name.sasl.password",
        "s3cret",
        ConfigSource.DYNAMIC_BROKER_CONFIG,
        is_sensitive=True,
        type=ConfigType.PASSWORD,
        synonyms=(
            ConfigSynonym(name="x", value="s3cret", source=ConfigSource.DYNAMIC_BROKER_CONFIG),
        ),
    )
    view = DescribeView(synonyms=True)
    document = describe_document("c", {BROKER: Config(entries=(secret,))}, view)
    shown = document["resources"][0]["configs"]["listener.name.sasl.password"]
    assert shown["value"] is None and shown["is_sensitive"] is True
    assert shown["synonyms"][0]["value"] is None
    assert "s3cret" not in str(document)
    assert shown_value("s3cret", sensitive=True) == "[hidden]"


def test_without_all_only_values_set_on_the_resource_itself() -> None:
    config = Config(
        entries=(
            entry("retention.ms", "1", ConfigSource.TOPIC_CONFIG),
            entry("min.insync.replicas", "2", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
            entry("segment.ms", "3", ConfigSource.DEFAULT_CONFIG, is_default=True),
        )
    )
    overrides = describe_document("c", {TOPIC: config}, DescribeView())
    assert list(overrides["resources"][0]["configs"]) == ["retention.ms"]
    every = describe_document("c", {TOPIC: config}, DescribeView(all=True))
    assert list(every["resources"][0]["configs"]) == [
        "min.insync.replicas",
        "retention.ms",
        "segment.ms",
    ]
    keys = describe_document("c", {TOPIC: config}, DescribeView(keys=frozenset({"segment.ms"})))
    assert list(keys["resources"][0]["configs"]) == ["segment.ms"]


def test_a_failed_resource_carries_its_error() -> None:
    document = describe_document("c", {TOPIC: ValueError("no  such\ntopic")}, DescribeView())
    assert document["resources"][0] == {
        "resource_type": "TOPIC",
        "resource_name": "orders",
        "error": "ValueError",
        "error_message": "no such topic",
        "configs": {},
    }


def test_diff_compares_by_type_and_names_one_sided_keys_and_resources() -> None:
    other = ConfigResource(ResourceType.TOPIC, "payments")
    left = Side(
        "a",
        {
            TOPIC: {
                "retention.ms": ("604800000", ConfigType.LONG),
                "cleanup.policy": ("delete,compact", ConfigType.LIST),
                "segment.ms": ("1", ConfigType.LONG),
            },
            other: {},
        },
    )
    right = Side(
        "b",
        {
            TOPIC: {
                "retention.ms": ("0604800000", ConfigType.LONG),
                "cleanup.policy": ("delete, compact", ConfigType.LIST),
                "max.message.bytes": ("2", ConfigType.INT),
            }
        },
    )
    assert compare(left, right) == [
        {
            "resource": {"resource_type": "TOPIC", "resource_name": "orders"},
            "key": "max.message.bytes",
            "left": "(not set)",
            "right": "2",
        },
        {
            "resource": {"resource_type": "TOPIC", "resource_name": "orders"},
            "key": "segment.ms",
            "left": "1",
            "right": "(not set)",
        },
        {
            "resource": {"resource_type": "TOPIC", "resource_name": "payments"},
            "key": None,
            "left": "(present)",
            "right": "(absent)",
        },
    ]
