"""The state layer's comparison of two sides' overrides (the CLI's ``diff`` and the web's
compare page): by type, one-sided keys and resources, and secrets compared by presence."""

from __future__ import annotations

from kafka_config_admin import ConfigResource, ConfigType, ResourceType
from kafka_config_admin.desired import parse_desired_state
from kafka_config_admin.state import (
    KeyComparison,
    KeyMatch,
    Overrides,
    compare_overrides,
    desired_overrides,
)

TOPIC = ConfigResource(ResourceType.TOPIC, "orders")
ONLY_LEFT = ConfigResource(ResourceType.TOPIC, "payments")
DEFAULT = ConfigResource(ResourceType.BROKER, "")


def test_keys_compared_by_type_and_one_sided_resources_named() -> None:
    left: Overrides = {
        TOPIC: {
            "cleanup.policy": ("compact,delete", ConfigType.LIST),
            "retention.ms": ("604800000", ConfigType.LONG),
            "segment.ms": ("1000", ConfigType.LONG),
        },
        ONLY_LEFT: {},
    }
    right: Overrides = {
        TOPIC: {
            "cleanup.policy": ("delete, compact", ConfigType.LIST),
            "retention.ms": ("86400000", ConfigType.LONG),
            "max.message.bytes": ("2097152", ConfigType.INT),
        },
        DEFAULT: {},
    }
    topic, only_left, default = compare_overrides(left, right)
    assert topic.keys == (
        KeyComparison("cleanup.policy", KeyMatch.SAME, "compact,delete", "delete, compact", False),
        KeyComparison("max.message.bytes", KeyMatch.RIGHT_ONLY, None, "2097152", False),
        KeyComparison("retention.ms", KeyMatch.DIFFERENT, "604800000", "86400000", False),
        KeyComparison("segment.ms", KeyMatch.LEFT_ONLY, "1000", None, False),
    )
    assert [key.key for key in topic.differences] == [
        "max.message.bytes",
        "retention.ms",
        "segment.ms",
    ]
    assert not topic.same
    assert (only_left.on_left, only_left.on_right, only_left.keys) == (True, False, ())
    assert (default.on_left, default.on_right, default.same) == (False, True, False)
    assert compare_overrides({TOPIC: {}}, {TOPIC: {}})[0].same


def test_a_secret_is_compared_by_presence_and_marked_hidden() -> None:
    key = "listener.name.internal.ssl.key.password"
    both = compare_overrides(
        {DEFAULT: {key: (None, ConfigType.PASSWORD)}}, {DEFAULT: {key: (None, ConfigType.PASSWORD)}}
    )
    assert both[0].keys == (KeyComparison(key, KeyMatch.SAME, None, None, True),)
    one = compare_overrides({DEFAULT: {key: (None, ConfigType.PASSWORD)}}, {DEFAULT: {}})
    assert one[0].keys == (KeyComparison(key, KeyMatch.LEFT_ONLY, None, None, True),)


def test_a_desired_state_is_compared_on_the_keys_it_names_as_its_plan_without_prune() -> None:
    desired = parse_desired_state(
        """
topics:
  - name: orders
    configs: {retention.ms: 604800000, cleanup.policy: null, max.message.bytes: null}
  - name: missing
    configs: {retention.ms: 1000}
  - pattern: 'logs-.*'
    configs: {segment.bytes: 10485760}
cluster_default:
  configs: {log.retention.hours: 48}
"""
    )
    default = ConfigResource(ResourceType.BROKER, "")
    orders, logs = (ConfigResource(ResourceType.TOPIC, name) for name in ("orders", "logs-a"))
    unnamed = ConfigResource(ResourceType.TOPIC, "payments")
    cluster: Overrides = {
        orders: {
            "retention.ms": ("86400000", ConfigType.LONG),
            "cleanup.policy": ("compact", ConfigType.LIST),
            "segment.bytes": ("1048576", ConfigType.INT),
        },
        logs: {"segment.bytes": ("10485760", ConfigType.INT)},
        unnamed: {"retention.ms": ("1", ConfigType.LONG)},
        default: {},
    }
    compared = {
        item.resource.name: item for item in compare_overrides(*desired_overrides(desired, cluster))
    }
    # Not the file's: the topic it does not name, and segment.bytes of orders (no prune).
    assert set(compared) == {"orders", "missing", "logs-a", ""}
    assert [(key.key, key.match) for key in compared["orders"].keys] == [
        ("cleanup.policy", KeyMatch.RIGHT_ONLY),  # set to null: the file wants it gone
        ("retention.ms", KeyMatch.DIFFERENT),
    ]
    missing = compared["missing"]
    assert (missing.on_left, missing.on_right) == (True, False)
    assert compared["logs-a"].same  # matched by the pattern, the same value
    assert [(key.key, key.match) for key in compared[""].keys] == [
        ("log.retention.hours", KeyMatch.LEFT_ONLY)
    ]
