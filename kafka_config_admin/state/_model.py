"""Pydantic models of a desired-state file: which resources should have which configs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
    model_validator,
)

from .. import ClientQuotaEntity, ConfigResource, ResourceType
from ..toolkit import MAX_BROKER_ID, is_broker_id, shorten
from ._kinds import ResourceKind
from ._patterns import UserPattern
from ._quotas import QuotaSpec
from ._rules import Rule
from ._scram_users import ScramCredentialSpec
from ._values import kafka_string_for

__all__ = [
    "BROKER_THROTTLE_KEYS",
    "TOPIC_THROTTLE_KEYS",
    "DesiredState",
    "IgnoreSpec",
    "ResourceSpec",
    "TopicSpec",
]

_KEY = re.compile(r"\S+")

#: The replication throttle of a topic: which replicas a reassignment tool throttles.
TOPIC_THROTTLE_KEYS = (
    "leader.replication.throttled.replicas",
    "follower.replication.throttled.replicas",
)
#: The replication throttle rates of a broker (its own, or the cluster default's).
BROKER_THROTTLE_KEYS = (
    "leader.replication.throttled.rate",
    "follower.replication.throttled.rate",
    "replica.alter.log.dirs.io.max.bytes.per.second",
)


_ANY_TOPIC = ConfigResource(ResourceType.TOPIC, "")


class ResourceSpec(BaseModel):
    """The configs wanted on one resource (or on every topic a pattern matches).

    ``configs`` maps a config name to the string Kafka takes, or to None for "no override
    here" (an override the resource has is deleted). ``pin`` lists keys to set as overrides even
    when the effective value (a default) is already the one wanted; ``pin: true`` pins them all.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    configs: dict[str, str | None] = Field(default_factory=dict)
    pin: bool | tuple[str, ...] = False

    @field_validator("configs", mode="before")
    @classmethod
    def _kafka_strings(cls, configs: Any) -> Any:
        if not isinstance(configs, Mapping):
            return configs  # pydantic reports the wrong type
        converted: dict[str, str | None] = {}
        for key, value in configs.items():
            if not isinstance(key, str) or not _KEY.fullmatch(key):
                name = shorten(key) if isinstance(key, str) else repr(key)
                raise ValueError(f"config name {name} must be a non-empty string without spaces")
            try:
                converted[key] = kafka_string_for(key, value)
            except ValueError as error:
                raise ValueError(f"{key}: {error}") from None
        return converted

    @model_validator(mode="after")
    def _pinned_keys_are_configured(self) -> ResourceSpec:
        if isinstance(self.pin, tuple):
            unknown = [key for key in self.pin if key not in self.configs]
            if unknown:
                names = ", ".join(shorten(key) for key in unknown)
                raise ValueError(f"pin names keys not in configs: {names}")
        return self

    def is_pinned(self, key: str) -> bool:
        """Whether ``key`` is set as an override even when its effective value already matches."""
        return self.pin is True or (isinstance(self.pin, tuple) and key in self.pin)


class TopicSpec(ResourceSpec):
    """Configs for one topic by ``name``, or for every topic whose name matches ``pattern``.

    ``pattern`` is a Python regular expression that must match the whole name. ``partitions``
    and ``replication_factor`` (named topics only) let apply create the topic when it is
    missing, with its configs; for an existing topic they are compared too (more partitions
    are added, another replication factor is a reassignment).
    """

    name: str | None = None
    pattern: str | None = None
    # Strict: `true` or "6" is a mistake in the file, not a count.
    partitions: int | None = Field(default=None, ge=1, le=2**31 - 1, strict=True)
    replication_factor: int | None = Field(default=None, ge=1, le=32767, strict=True)
    _regex: UserPattern | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _name_or_pattern(self) -> TopicSpec:
        if (self.name is None) == (self.pattern is None):
            raise ValueError("give exactly one of name and pattern")
        if self.name is not None and not self.name.strip():
            raise ValueError("name is empty")
        if self.pattern is not None:
            if self.partitions is not None or self.replication_factor is not None:
                raise ValueError(
                    "partitions and replication_factor need a topic name, not a pattern"
                )
            self._regex = UserPattern(self.pattern, "pattern")
        return self

    def matches(self, topic: str) -> bool:
        """Whether this entry is about ``topic`` (its name, or its pattern matches it whole)."""
        if self._regex is not None:
            return self._regex.fullmatch(topic) is not None
        return topic == self.name

    @property
    def creatable(self) -> bool:
        """Whether apply can create the topic when missing: a name, partitions and RF given."""
        return self.name is not None and None not in (self.partitions, self.replication_factor)


class IgnoreSpec(BaseModel):
    """Keys that are not the file's, per resource kind: never compared, planned or pruned.

    Each entry is a config name or a Python regular expression matching whole names
    (``'confluent\\..*'``). A key a resource of that kind names in ``configs`` must not be
    ignored too (the file would say two things of it).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    topics: tuple[str, ...] = ()
    brokers: tuple[str, ...] = ()
    cluster_default: tuple[str, ...] = ()
    broker_loggers: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    client_metrics: tuple[str, ...] = ()
    _patterns: dict[str, tuple[UserPattern, ...]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _compile(self) -> IgnoreSpec:
        for kind in type(self).model_fields:
            entries: tuple[str, ...] = getattr(self, kind)
            for entry in entries:
                if not entry.strip():
                    raise ValueError(f"{kind}: an ignored key is empty")
            self._patterns[kind] = tuple(UserPattern(entry, "ignore") for entry in entries)
        return self

    @property
    def empty(self) -> bool:
        """Whether no key of any kind is ignored."""
        return not any(self._patterns.values())

    def ignores(self, resource: ConfigResource, key: str) -> bool:
        """Whether ``key`` of ``resource`` is not the file's."""
        patterns = self._patterns.get(ResourceKind.of(resource).section, ())
        return any(pattern.fullmatch(key) for pattern in patterns)


def _broker_id(key: object) -> object:
    """A key naming a broker by the SDK's rule (``is_broker_id``): a YAML integer or a string
    of ASCII digits, at most MAX_BROKER_ID (not ``true``, ``-1`` or ``'\u0661'``)."""
    name = str(key) if type(key) is int else key
    if not (isinstance(name, str) and is_broker_id(name)):
        raise ValueError(f"{key!r} is not a broker id (0 to {MAX_BROKER_ID})")
    return int(name)


_BrokerId = Annotated[int, BeforeValidator(_broker_id)]


class DesiredState(BaseModel):
    """A desired-state file: the configs wanted per resource, and audit rules.

    Which entry of ``topics`` applies to a topic: the entry naming it exactly wins; otherwise the
    first entry (in file order) whose pattern matches it. Entries are not merged.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    version: Literal[1] = 1
    topics: tuple[TopicSpec, ...] = ()
    brokers: dict[_BrokerId, ResourceSpec] = Field(default_factory=dict)
    cluster_default: ResourceSpec | None = None
    broker_loggers: dict[_BrokerId, ResourceSpec] = Field(default_factory=dict)
    groups: dict[str, ResourceSpec] = Field(default_factory=dict)
    client_metrics: dict[str, ResourceSpec] = Field(default_factory=dict)
    quotas: tuple[QuotaSpec, ...] = ()
    scram_users: dict[str, tuple[ScramCredentialSpec, ...]] = Field(default_factory=dict)
    rules: tuple[Rule, ...] = ()
    ignore: IgnoreSpec = Field(default_factory=IgnoreSpec)

    @model_validator(mode="after")
    def _ignored_keys_not_configured(self) -> DesiredState:
        if self.ignore.empty:
            return self
        entries: list[tuple[str, ConfigResource, ResourceSpec]] = [
            (f"topic {spec.name or spec.pattern!r}", _ANY_TOPIC, spec) for spec in self.topics
        ]
        entries += [
            (str(resource), resource, spec) for resource, spec in self.other_resources().items()
        ]
        clashes = [
            f"{label}: {key}"
            for label, resource, spec in entries
            for key in spec.configs
            if self.ignore.ignores(resource, key)
        ]
        if clashes:
            raise ValueError(
                "keys both configured and ignored (say one or the other): " + ", ".join(clashes)
            )
        return self

    @field_validator("groups", "client_metrics")
    @classmethod
    def _names(cls, specs: dict[str, ResourceSpec]) -> dict[str, ResourceSpec]:
        if "" in specs:
            raise ValueError("a name is empty")
        return specs

    @field_validator("quotas")
    @classmethod
    def _quota_entities_once(cls, quotas: tuple[QuotaSpec, ...]) -> tuple[QuotaSpec, ...]:
        first: dict[ClientQuotaEntity, int] = {}
        for index, spec in enumerate(quotas):
            if spec.quota_entity in first:
                raise ValueError(
                    f"{index}: {spec.quota_entity} is named twice (first in "
                    f"quotas[{first[spec.quota_entity]}])"
                )
            first[spec.quota_entity] = index
        return quotas

    @field_validator("scram_users")
    @classmethod
    def _one_credential_per_mechanism(
        cls, users: dict[str, tuple[ScramCredentialSpec, ...]]
    ) -> dict[str, tuple[ScramCredentialSpec, ...]]:
        for user, specs in users.items():
            if not user:
                raise ValueError("a user name is empty")
            mechanisms = [spec.mechanism for spec in specs]
            if len(set(mechanisms)) != len(mechanisms):
                raise ValueError(f"user {user!r} lists a mechanism twice")
        return users

    @field_validator("topics")
    @classmethod
    def _topic_names_once(cls, topics: tuple[TopicSpec, ...]) -> tuple[TopicSpec, ...]:
        # The message starts with the second entry's index: the loader points at its line.
        first: dict[str, int] = {}
        for index, spec in enumerate(topics):
            if spec.name is not None:
                if spec.name in first:
                    raise ValueError(
                        f"{index}: topic {shorten(spec.name)} is named twice (first in "
                        f"topics[{first[spec.name]}])"
                    )
                first[spec.name] = index
        return topics

    def topic_spec(self, topic: str) -> TopicSpec | None:
        """The entry that applies to ``topic``: its exact name, else the first matching pattern."""
        for spec in self.topics:
            if spec.name == topic:
                return spec
        for spec in self.topics:
            if spec.pattern is not None and spec.matches(topic):
                return spec
        return None

    @property
    def named_topics(self) -> tuple[TopicSpec, ...]:
        """The entries naming one topic (not patterns), in file order."""
        return tuple(spec for spec in self.topics if spec.name is not None)

    def topic_resources(self, existing: Iterable[str]) -> dict[ConfigResource, TopicSpec]:
        """Every topic the file is about, with its entry: named ones (existing or not) first,
        in file order, then existing topics matched by a pattern, sorted by name."""
        chosen = {
            ConfigResource(ResourceType.TOPIC, spec.name): spec
            for spec in self.topics
            if spec.name is not None
        }
        # Only the patterns can match a topic not named (as topic_spec would find): asking
        # topic_spec for each existing topic went through every entry, which with 2,000
        # named topics on a 10,000-topic cluster took minutes.
        patterns = [spec for spec in self.topics if spec.pattern is not None]
        if not patterns:
            return chosen
        for topic in sorted(set(existing)):
            resource = ConfigResource(ResourceType.TOPIC, topic)
            if resource not in chosen:
                spec = next((entry for entry in patterns if entry.matches(topic)), None)
                if spec is not None:
                    chosen[resource] = spec
        return chosen

    @property
    def deletes_keys(self) -> bool:
        """Whether the file sets any key to null: without ``prune``, the one way a plan
        deletes an override."""
        specs = [*self.topics, *self.other_resources().values()]
        return any(None in spec.configs.values() for spec in specs)

    def other_resources(self) -> dict[ConfigResource, ResourceSpec]:
        """Every resource other than topics the file is about, with its spec, in a fixed order:
        brokers, the cluster default, broker loggers, groups, client-metrics resources."""
        chosen: dict[ConfigResource, ResourceSpec] = {}
        for broker_id, spec in sorted(self.brokers.items()):
            chosen[ConfigResource(ResourceType.BROKER, str(broker_id))] = spec
        if self.cluster_default is not None:
            chosen[ConfigResource(ResourceType.BROKER, "")] = self.cluster_default
        for broker_id, spec in sorted(self.broker_loggers.items()):
            chosen[ConfigResource(ResourceType.BROKER_LOGGER, str(broker_id))] = spec
        for name, spec in self.groups.items():
            chosen[ConfigResource(ResourceType.GROUP, name)] = spec
        for name, spec in self.client_metrics.items():
            chosen[ConfigResource(ResourceType.CLIENT_METRICS, name)] = spec
        return chosen

    def resources(self, existing_topics: Iterable[str]) -> dict[ConfigResource, ResourceSpec]:
        """Every resource the file is about (see :meth:`topic_resources`), with its spec."""
        chosen: dict[ConfigResource, ResourceSpec] = dict(self.topic_resources(existing_topics))
        chosen.update(self.other_resources())
        return chosen
