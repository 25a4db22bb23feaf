"""The change feed's diff of two observed states (pure: no broker)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from kafka_config_admin import (
    ClientQuotaEntity,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigType,
    ResourceType,
    TopicAuthorizationFailedError,
)
from kafka_config_admin.cli._commands import WATCH_BROKER_GONE_AFTER
from kafka_config_admin.feed import (
    BROKER_GONE_AFTER,
    ChangeKind,
    ObservedState,
    ObservedValue,
    ResourceObservation,
    diff_states,
    next_state,
    observed_state,
    observed_values,
)
from kafka_config_admin.feed._observe import _entity_name

T0 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)
T1 = T0 + timedelta(seconds=30)
DEFAULT = ObservedValue("604800000", "DEFAULT_CONFIG", "LONG")
OVERRIDE = ObservedValue("3600000", "TOPIC_CONFIG", "LONG")


def topic(**configs: ObservedValue) -> ResourceObservation:
    return ResourceObservation({key.replace("_", "."): value for key, value in configs.items()})


def state(
    resources: dict[str, ResourceObservation] | None = None, time: datetime = T0
) -> ObservedState:
    """A state of "main": resources as ``{"TYPE:name": observation}``."""
    observed = {}
    for name, observation in (resources or {}).items():
        kind, resource_name = name.split(":", 1)
        observed[(kind, resource_name)] = observation
    return ObservedState("main", time, observed)


def changes(before: ObservedState | None, after: ObservedState) -> list[tuple[object, ...]]:
    return [
        (
            row.resource_type,
            row.resource_name,
            row.key,
            row.change.value,
            row.before_value,
            row.after_value,
        )
        for row in diff_states(before, next_state(before, after))
    ]


def test_an_override_set_changed_and_deleted() -> None:
    base = state({"TOPIC:orders": topic(retention_ms=DEFAULT)})
    with_override = state({"TOPIC:orders": topic(retention_ms=OVERRIDE)}, T1)
    assert changes(base, with_override) == [
        ("TOPIC", "orders", "retention.ms", "added", "604800000", "3600000")
    ]
    changed = state({"TOPIC:orders": topic(retention_ms=ObservedValue("1", "TOPIC_CONFIG"))}, T1)
    assert changes(with_override, changed) == [
        ("TOPIC", "orders", "retention.ms", "changed", "3600000", "1")
    ]
    assert changes(changed, base) == [
        ("TOPIC", "orders", "retention.ms", "removed", "1", "604800000")
    ]
    assert changes(base, base) == []


def test_the_first_poll_is_a_baseline() -> None:
    assert changes(None, state({"TOPIC:orders": topic(retention_ms=OVERRIDE)})) == []


def test_the_cluster_default_and_what_topics_inherit() -> None:
    inherited = ObservedValue("1024", "DYNAMIC_DEFAULT_BROKER_CONFIG", "LONG")
    before = state({"BROKER:": ResourceObservation({}), "TOPIC:a": topic(retention_bytes=DEFAULT)})
    after = state(
        {
            "BROKER:": ResourceObservation({"log.retention.bytes": inherited}),
            "TOPIC:a": topic(retention_bytes=inherited),
        },
        T1,
    )
    assert changes(before, after) == [
        ("BROKER", "", "log.retention.bytes", "added", None, "1024"),
        ("TOPIC", "a", "retention.bytes", "changed", "604800000", "1024"),
    ]


def test_a_topic_that_appears_and_goes_shows_its_overrides_only() -> None:
    empty = state()
    created = state(
        {
            "TOPIC:t": topic(
                retention_ms=DEFAULT, cleanup_policy=ObservedValue("compact", "TOPIC_CONFIG")
            )
        },
        T1,
    )
    assert changes(empty, created) == [
        ("TOPIC", "t", None, "added", None, None),
        ("TOPIC", "t", "cleanup.policy", "added", None, "compact"),
    ]
    assert changes(created, empty) == [
        ("TOPIC", "t", None, "removed", None, None),
        ("TOPIC", "t", "cleanup.policy", "removed", "compact", None),
    ]


def test_a_sensitive_key_set_and_deleted_read_apart_a_rotation_is_not_seen() -> None:
    secret = ObservedValue(None, "DYNAMIC_BROKER_CONFIG", "PASSWORD", sensitive=True)
    unset = state({"BROKER:1": ResourceObservation({})})
    is_set = state({"BROKER:1": ResourceObservation({"ssl.key.password": secret})}, T1)

    def rows(before: ObservedState, after: ObservedState) -> list[tuple[object, ...]]:
        return [
            (row.key, row.change, row.before_value, row.after_value)
            for row in diff_states(before, after)
        ]

    assert rows(unset, is_set) == [("ssl.key.password", ChangeKind.ADDED, None, None)]
    assert rows(is_set, unset) == [("ssl.key.password", ChangeKind.REMOVED, None, None)]
    # A new value reads as the old one (Kafka never returns it): no row.
    assert rows(is_set, replace(is_set, time=T1 + timedelta(seconds=30))) == []
    # Moved from the cluster default to the broker's own: changed, still without values.
    default = ObservedValue(None, "DYNAMIC_DEFAULT_BROKER_CONFIG", "PASSWORD", sensitive=True)
    inherited = state({"BROKER:1": ResourceObservation({"ssl.key.password": default})})
    assert rows(inherited, is_set) == [("ssl.key.password", ChangeKind.ADDED, None, None)]
    assert rows(is_set, inherited) == [("ssl.key.password", ChangeKind.REMOVED, None, None)]


def logger_config(levels: dict[str, str]) -> Config:
    source = ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG
    return Config(
        entries=tuple(
            ConfigEntry(name=name, value=level, source=source) for name, level in levels.items()
        )
    )


def test_a_logger_counts_as_set_when_its_level_is_not_the_one_it_inherits() -> None:
    levels = {
        "root": "INFO",
        "kafka": "INFO",
        "kafka.controller": "TRACE",
        "kafka.controller.QuorumController": "TRACE",
        "kafka.server.ReplicaManager": "DEBUG",
        "org.apache.kafka.server.purgatory.DelayedProduce": "INFO",
    }
    seen = observed_values(logger_config(levels), ResourceType.BROKER_LOGGER)
    assert {name: value.value for name, value in seen.items()} == {
        "root": "INFO",
        "kafka.controller": "TRACE",
        "kafka.server.ReplicaManager": "DEBUG",
    }
    # Another resource type keeps every entry.
    assert len(observed_values(logger_config(levels), ResourceType.BROKER)) == len(levels)


def test_lazily_made_loggers_and_a_restart_give_no_rows() -> None:
    logger = ConfigResource(ResourceType.BROKER_LOGGER, "1")
    before = observed_state(
        "main", T0, {logger: logger_config({"root": "INFO", "kafka.log.LogCleaner": "DEBUG"})}
    )
    after = observed_state(
        "main",
        T1,
        {
            logger: logger_config(
                {
                    "root": "INFO",
                    "kafka.log.LogCleaner": "DEBUG",
                    "org.apache.kafka.server.purgatory.DelayedProduce": "INFO",
                    "kafka.server.KafkaApis": "INFO",
                }
            )
        },
    )
    assert diff_states(before, next_state(before, after)) == []
    reset = observed_state(
        "main", T1, {logger: logger_config({"root": "INFO", "kafka.log.LogCleaner": "INFO"})}
    )
    assert changes(before, reset) == [
        ("BROKER_LOGGER", "1", "kafka.log.LogCleaner", "removed", "DEBUG", None)
    ]


def test_a_broker_missing_from_the_metadata_is_unknown_until_gone_after() -> None:
    broker = ResourceObservation(
        {"log.cleaner.threads": ObservedValue("2", "DYNAMIC_BROKER_CONFIG")}
    )
    loggers = ResourceObservation({"root": ObservedValue("INFO", "DYNAMIC_BROKER_LOGGER_CONFIG")})
    three = state({"BROKER:1": broker, "BROKER:2": broker, "BROKER_LOGGER:2": loggers})
    two = state({"BROKER:1": broker}, T1)
    down = next_state(three, two, broker_gone_after=600)
    rows = diff_states(three, down)
    assert [(r.resource_type, r.resource_name, r.change, r.error) for r in rows] == [
        ("BROKER", "2", ChangeKind.ERROR, "BrokerNotAvailableError"),
        ("BROKER_LOGGER", "2", ChangeKind.ERROR, "BrokerNotAvailableError"),
    ]
    assert down.resources[("BROKER", "2")].configs == broker.configs
    # Kept through the JSON the stream writes, with the time it went missing.
    assert ObservedState.from_json(down.to_json()) == down
    # Back in the metadata with the same keys: nothing to report.
    back = next_state(down, replace(three, time=T1 + timedelta(seconds=60)))
    assert diff_states(down, back) == []
    # Still missing after broker_gone_after: now it is gone.
    gone = state({"BROKER:1": broker}, T1 + timedelta(seconds=600))
    later = next_state(down, gone, broker_gone_after=600)
    assert [(r.resource_type, r.key, r.change.value) for r in diff_states(down, later)] == [
        ("BROKER", None, "removed"),
        ("BROKER", "log.cleaner.threads", "removed"),
        ("BROKER_LOGGER", None, "removed"),
        ("BROKER_LOGGER", "root", "removed"),
    ]


def test_an_unreachable_cluster_is_an_error_and_nothing_is_removed() -> None:
    seen = state({"TOPIC:orders": topic(retention_ms=OVERRIDE)})
    down = ObservedState("main", T1, error=("KafkaConnectionError", "could not talk"))
    kept = next_state(seen, down)
    rows = diff_states(seen, kept)
    assert [(row.resource_type, row.change, row.error) for row in rows] == [
        (None, ChangeKind.ERROR, "KafkaConnectionError")
    ]
    assert kept.resources == seen.resources  # the next poll compares with the last known
    back = state({"TOPIC:orders": topic(retention_ms=DEFAULT)}, T1 + T1.resolution)
    assert changes(kept, back) == [
        ("TOPIC", "orders", "retention.ms", "removed", "3600000", "604800000")
    ]


def test_a_resource_that_fails_alone_is_an_error_not_a_removal() -> None:
    seen = state({"TOPIC:a": topic(retention_ms=OVERRIDE), "TOPIC:b": topic(retention_ms=DEFAULT)})
    failed = state(
        {
            "TOPIC:a": ResourceObservation(None, ("TopicAuthorizationFailedError", "denied")),
            "TOPIC:b": topic(retention_ms=DEFAULT),
        },
        T1,
    )
    kept = next_state(seen, failed)
    rows = diff_states(seen, kept)
    assert [(row.resource_name, row.change, row.error) for row in rows] == [
        ("a", ChangeKind.ERROR, "TopicAuthorizationFailedError")
    ]
    assert kept.resources[("TOPIC", "a")].configs == seen.resources[("TOPIC", "a")].configs
    assert changes(kept, seen) == []  # readable again, unchanged: nothing to report


def test_a_resource_first_seen_failing_is_a_baseline_once_read() -> None:
    failed = state({"TOPIC:a": ResourceObservation(None, ("TopicAuthorizationFailedError", "x"))})
    read = state({"TOPIC:a": topic(retention_ms=OVERRIDE)}, T1)
    assert changes(failed, read) == []


def test_quota_entities_and_scram_users() -> None:
    rate = ObservedValue("1048576", "ENTITY")
    before = state({"QUOTA:user 'alice'": ResourceObservation({"producer_byte_rate": rate})})
    after = state(
        {
            "QUOTA:user 'alice'": ResourceObservation(
                {"producer_byte_rate": ObservedValue("2048", "ENTITY")}
            ),
            "SCRAM_USER:bob": ResourceObservation(
                {"SCRAM-SHA-256": ObservedValue("8192", "ENTITY")}
            ),
        },
        T1,
    )
    assert changes(before, after) == [
        ("QUOTA", "user 'alice'", "producer_byte_rate", "changed", "1048576", "2048"),
        ("SCRAM_USER", "bob", None, "added", None, None),
        ("SCRAM_USER", "bob", "SCRAM-SHA-256", "added", None, "8192"),
    ]


def test_a_type_whose_listing_fails_keeps_its_resources() -> None:
    before = state({"QUOTA:user 'a'": ResourceObservation({"k": ObservedValue("1", "ENTITY")})})
    failed = ObservedState(
        "main", T1, {}, type_errors={"QUOTA": ("UnsupportedVersionError", "old broker")}
    )
    kept = next_state(before, failed)
    assert [(row.resource_type, row.change) for row in diff_states(before, kept)] == [
        ("QUOTA", ChangeKind.ERROR)
    ]
    assert kept.resources == before.resources


def test_a_state_survives_json() -> None:
    original = ObservedState(
        "main",
        T0,
        {
            ("TOPIC", "a"): topic(retention_ms=OVERRIDE),
            ("TOPIC", "b"): ResourceObservation(None, ("X", "y")),
        },
        type_errors={"SCRAM_USER": ("UnsupportedVersionError", "old")},
    )
    assert ObservedState.from_json(original.to_json()) == original


def test_a_cluster_down_from_the_start_gets_its_baseline_once_read() -> None:
    down = ObservedState("main", T0, error=("KafkaConnectionError", "x"), known=False)
    assert [row.change for row in diff_states(None, down)] == [ChangeKind.ERROR]
    still_down = next_state(down, ObservedState("main", T1, error=down.error, known=False))
    up = state({"TOPIC:orders": topic(retention_ms=OVERRIDE)}, T1)
    assert changes(still_down, up) == []
    assert ObservedState.from_json(still_down.to_json()) == still_down


def test_a_snapshot_read_another_way_is_compared_as_the_feed_compares() -> None:
    """observed_state: described configs (as a Spark snapshot holds them) -> a feed state."""
    resource = ConfigResource(ResourceType.TOPIC, "orders")
    failed = ConfigResource(ResourceType.TOPIC, "payments")

    def config(value: str, source: ConfigSource) -> Config:
        return Config(
            entries=(
                ConfigEntry(name="retention.ms", value=value, source=source, type=ConfigType.LONG),
                ConfigEntry(name="sasl.jaas.config", value=None, is_sensitive=True),
            )
        )

    before = observed_state(
        "main", T0, {resource: config("604800000", ConfigSource.DEFAULT_CONFIG), failed: Config()}
    )
    after = observed_state(
        "main",
        T1,
        {resource: config("3600000", ConfigSource.TOPIC_CONFIG)},
        {failed: TopicAuthorizationFailedError("denied")},
    )
    rows = diff_states(before, next_state(before, after))
    assert [(row.resource_name, row.key, row.change.value, row.after_value) for row in rows] == [
        ("orders", "retention.ms", "added", "3600000"),
        ("payments", None, "error", None),
    ]
    assert rows[0].config_type == "LONG" and rows[1].error == "TopicAuthorizationFailedError"


def test_watch_defaults_to_the_feeds_broker_gone_after() -> None:
    assert WATCH_BROKER_GONE_AFTER == BROKER_GONE_AFTER


def test_quota_entities_are_named_as_kafkas_tools_write_them() -> None:
    assert _entity_name(ClientQuotaEntity({"client-id": "app", "user": "alice"})) == (
        "user=alice,client-id=app"
    )
    assert _entity_name(ClientQuotaEntity({"user": None})) == "user=<default>"
