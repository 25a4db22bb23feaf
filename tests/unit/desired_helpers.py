"""Configs as a broker describes them, built by hand for the pure desired-state tests."""

from __future__ import annotations

from kafka_config_admin import Config, ConfigEntry, ConfigResource, ConfigSource, ConfigType
from kafka_config_admin import ResourceType as RT

TOPIC = ConfigResource(RT.TOPIC, "orders")
BROKER = ConfigResource(RT.BROKER, "1")
DEFAULT = ConfigResource(RT.BROKER, "")

D = ConfigSource.DEFAULT_CONFIG
T = ConfigSource.TOPIC_CONFIG


def entry(
    name: str,
    value: str | None,
    source: ConfigSource = D,
    kind: ConfigType = ConfigType.STRING,
    *,
    is_read_only: bool = False,
    is_sensitive: bool = False,
) -> ConfigEntry:
    return ConfigEntry(
        name=name,
        value=value,
        source=source,
        type=kind,
        is_read_only=is_read_only,
        is_sensitive=is_sensitive,
    )


def topic_config(**overrides: ConfigEntry) -> Config:
    """A topic's describe: a few defaults, replaced by the entries given (by key)."""
    entries = {
        "retention.ms": entry("retention.ms", "604800000", kind=ConfigType.LONG),
        "cleanup.policy": entry("cleanup.policy", "delete", kind=ConfigType.LIST),
        "min.insync.replicas": entry("min.insync.replicas", "1", kind=ConfigType.INT),
        "max.message.bytes": entry("max.message.bytes", "1048588", kind=ConfigType.INT),
        "unclean.leader.election.enable": entry(
            "unclean.leader.election.enable", "false", kind=ConfigType.BOOLEAN
        ),
        "min.cleanable.dirty.ratio": entry(
            "min.cleanable.dirty.ratio", "0.5", kind=ConfigType.DOUBLE
        ),
        "segment.bytes": entry("segment.bytes", "1073741824", kind=ConfigType.INT),
    }
    for value in overrides.values():
        entries[value.name] = value
    return Config(entries=tuple(entries.values()))


def broker_config(*extra: ConfigEntry) -> Config:
    """A broker id's describe: static and default keys, one read-only, one sensitive."""
    entries = [
        entry("log.retention.ms", None, kind=ConfigType.LONG),
        entry("log.retention.hours", "168", kind=ConfigType.INT),
        entry("log.cleaner.threads", "1", kind=ConfigType.INT),
        entry("background.threads", "10", kind=ConfigType.INT),
        entry("message.max.bytes", "1048588", kind=ConfigType.INT),
        entry(
            "broker.id", "1", ConfigSource.STATIC_BROKER_CONFIG, ConfigType.INT, is_read_only=True
        ),
        entry(
            "listener.name.x.ssl.key.password",
            None,
            kind=ConfigType.PASSWORD,
            is_sensitive=True,
        ),
        *extra,
    ]
    return Config(entries=tuple(entries))
