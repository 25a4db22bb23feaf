"""Typed models of topics: one to create, one listed, one created (no I/O).

Topic names are checked here the way Kafka checks them (``org.apache.kafka.common.internals
.Topic``), so a bad name fails before anything is sent.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .._exceptions import InvalidArgumentError
from .configs import HIDDEN, Config, is_sensitive, kafka_string
from .validation import given

__all__ = [
    "CreatedTopic",
    "NewPartitions",
    "NewTopic",
    "PartitionInfo",
    "PartitionReassignment",
    "TopicDescription",
    "TopicListing",
    "TopicPartition",
    "check_topic_name",
    "replica_list",
    "topic_id_text",
]

#: The longest topic name Kafka accepts.
MAX_TOPIC_NAME_LENGTH = 249
_LEGAL_NAME = re.compile(r"[a-zA-Z0-9._-]+")
_MAX_INT16 = 2**15 - 1
_MAX_INT32 = 2**31 - 1


def check_topic_name(name: object) -> str:
    """The name if Kafka accepts it as a topic name; otherwise InvalidArgumentError saying why."""
    if not isinstance(name, str):
        raise InvalidArgumentError(
            f"a topic name must be a str, got {type(name).__name__}: {given(name)}"
        )
    if not name:
        raise InvalidArgumentError("a topic name must not be empty")
    if name in (".", ".."):
        raise InvalidArgumentError(f"{given(name)} is not allowed as a topic name")
    if len(name) > MAX_TOPIC_NAME_LENGTH:
        raise InvalidArgumentError(
            f"topic name {name[:40]!r}... is {len(name)} characters long; "
            f"Kafka allows at most {MAX_TOPIC_NAME_LENGTH}"
        )
    if not _LEGAL_NAME.fullmatch(name):
        bad = "".join(sorted({char for char in name if not _LEGAL_NAME.fullmatch(char)}))
        raise InvalidArgumentError(
            f"topic name {given(name)} has characters Kafka does not allow ({given(bad)}): "
            "use ASCII letters, digits, '.', '_' and '-'"
        )
    return name


def colliding_names(names: Iterable[str]) -> tuple[str, str] | None:
    """Two names that differ only by '.' against '_' (Kafka's metric names mix them up)."""
    seen: dict[str, str] = {}
    for name in names:
        unified = name.replace(".", "_")
        other = seen.setdefault(unified, name)
        if other != name:
            return other, name
    return None


def topic_id_text(raw: bytes) -> str | None:
    """A topic id as Kafka prints it (URL-safe base64, no padding); None for the zero id."""
    if not any(raw):
        return None
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass(frozen=True, init=False)
class NewTopic:
    """A topic to create with :meth:`AdminClient.create_topics`.

    ``num_partitions`` and ``replication_factor`` left as None take the broker's defaults
    (``num.partitions``, ``default.replication.factor``). ``configs`` are the topic's own
    settings (values may be str, int, float, bool or a list, as in :class:`AlterConfigOp`).
    ``replica_assignments`` places each partition on brokers by hand (partition index to
    broker ids, the first one preferred as leader); it excludes the two counts. Every check
    Kafka makes of the name and of the counts is made here: a bad topic raises
    :class:`InvalidArgumentError` before anything is sent.
    """

    name: str
    num_partitions: int | None = None
    replication_factor: int | None = None
    configs: Mapping[str, str] = field(default_factory=dict)
    replica_assignments: Mapping[int, tuple[int, ...]] | None = None

    def __init__(
        self,
        name: str,
        num_partitions: int | None = None,
        replication_factor: int | None = None,
        configs: Mapping[str, Any] | None = None,
        *,
        replica_assignments: Mapping[int, Sequence[int]] | None = None,
    ) -> None:
        name = check_topic_name(name)
        _set = object.__setattr__
        _set(self, "name", name)
        _set(self, "num_partitions", _count(name, "num_partitions", num_partitions, _MAX_INT32))
        _set(
            self,
            "replication_factor",
            _count(name, "replication_factor", replication_factor, _MAX_INT16),
        )
        _set(self, "configs", _configs(name, configs))
        assignments = _assignments(name, replica_assignments)
        if assignments is not None and (
            num_partitions is not None or replication_factor is not None
        ):
            raise InvalidArgumentError(
                f"topic {given(name)}: give replica_assignments or num_partitions and "
                "replication_factor, not both"
            )
        _set(self, "replica_assignments", assignments)

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        shown = {key: HIDDEN if is_sensitive(key) else value for key, value in self.configs.items()}
        assignments = (
            ""
            if self.replica_assignments is None
            else f", replica_assignments={self.replica_assignments}"
        )
        return (
            f"NewTopic(name={self.name!r}, num_partitions={self.num_partitions}, "
            f"replication_factor={self.replication_factor}, configs={shown}{assignments})"
        )


def _count(topic: str, what: str, value: object, largest: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= largest:
        raise InvalidArgumentError(
            f"topic {topic!r}: {what} must be an int from 1 to {largest} (or None for the "
            f"broker's default), got {given(value)}"
        )
    return value


def _configs(topic: str, configs: Mapping[str, Any] | None) -> dict[str, str]:
    if configs is None:
        return {}
    if not isinstance(configs, Mapping):
        raise InvalidArgumentError(
            f"configs of topic {topic!r} must be a mapping of name to value, got {given(configs)}"
        )
    checked = {}
    for key, raw in configs.items():
        if not isinstance(key, str) or not key:
            raise InvalidArgumentError(
                f"config names of topic {given(topic)} must be non-empty strings, got {given(key)}"
            )
        try:
            checked[key] = kafka_string(raw)
        except TypeError:  # the value itself stays out: it may be a secret
            raise InvalidArgumentError(
                f"value of {key!r} for topic {topic!r} must be a str, int, float, bool or "
                f"list, got {type(raw).__name__}"
            ) from None
        except ValueError as error:
            raise InvalidArgumentError(f"value of {key!r} for topic {topic!r}: {error}") from None
    return checked


def _assignments(
    topic: str, given: Mapping[int, Sequence[int]] | None
) -> dict[int, tuple[int, ...]] | None:
    if given is None:
        return None
    if not isinstance(given, Mapping) or not given:
        raise InvalidArgumentError(
            f"replica_assignments of topic {topic!r} must map each partition index to broker ids"
        )
    if sorted(given) != list(range(len(given))):
        raise InvalidArgumentError(
            f"replica_assignments of topic {topic!r} must name partitions 0 to "
            f"{len(given) - 1}, got {sorted(given)!r}"
        )
    checked = {}
    for partition, brokers in sorted(given.items()):
        replicas = tuple(brokers) if isinstance(brokers, Sequence) else ()
        if (
            not replicas
            or any(isinstance(b, bool) or not isinstance(b, int) or b < 0 for b in replicas)
            or len(set(replicas)) != len(replicas)
        ):
            raise InvalidArgumentError(
                f"partition {partition} of topic {topic!r} needs a list of distinct broker ids, "
                f"got {brokers!r}"
            )
        checked[partition] = replicas
    if len({len(replicas) for replicas in checked.values()}) != 1:
        raise InvalidArgumentError(
            f"every partition of topic {topic!r} needs the same number of replicas"
        )
    return checked


@dataclass(frozen=True, slots=True)
class TopicListing:
    """A topic as :meth:`AdminClient.list_topics` lists it.

    Attributes:
        name: the topic's name.
        topic_id: its id as Kafka prints it (``kafka-topics.sh --describe``), or None when the
            broker is older than Metadata v10 (Kafka 2.8).
        is_internal: Kafka's own topics (``__consumer_offsets``, ``__transaction_state``).
        num_partitions: how many partitions it has.
        replication_factor: the replicas each of its partitions has, or None when they
            differ (a partition reassigned alone, or a reassignment under way) or the broker
            listed no partitions (a topic still being created).
    """

    name: str
    topic_id: str | None
    is_internal: bool
    num_partitions: int
    replication_factor: int | None


@dataclass(frozen=True, slots=True)
class CreatedTopic:
    """What :meth:`AdminClient.create_topics` created (or, with ``validate_only``, would).

    The counts and configs come from brokers that speak CreateTopics v5 (Kafka 2.4) or later;
    before that, and for ``configs`` when the principal may not describe the topic's
    configs, they are None. ``topic_id`` needs CreateTopics v7 (Kafka 2.8) and is None for
    ``validate_only``.
    """

    name: str
    topic_id: str | None
    num_partitions: int | None
    replication_factor: int | None
    configs: Config | None


class _TopicPartitionFields(NamedTuple):
    topic: str
    partition: int


class TopicPartition(_TopicPartitionFields):
    """One partition of one topic: the key of the partition calls' futures.

    A named tuple, checked when made: a topic name Kafka accepts and a non-negative index.
    """

    __slots__ = ()

    def __new__(cls, topic: str, partition: int) -> TopicPartition:
        check_topic_name(topic)
        if isinstance(partition, bool) or not isinstance(partition, int):
            raise InvalidArgumentError(
                f"topic {topic!r}: partition must be an int, got {given(partition)}"
            )
        if not 0 <= partition <= _MAX_INT32:
            raise InvalidArgumentError(
                f"topic {topic!r}: partition must be from 0 to {_MAX_INT32}, got {partition}"
            )
        return super().__new__(cls, topic, partition)


@dataclass(frozen=True, slots=True)
class PartitionInfo:
    """One partition as the cluster's metadata shows it.

    Attributes:
        partition: its index.
        leader: the broker leading it, or None when it has no leader.
        replicas: the brokers holding a replica, the preferred leader first.
        isr: the in-sync replicas.
        offline_replicas: replicas on brokers (or log directories) that are offline.
    """

    partition: int
    leader: int | None
    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    offline_replicas: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TopicDescription:
    """A topic as :meth:`AdminClient.describe_topics` describes it: its partitions' replicas.

    ``replication_factor`` is the largest replica count of its partitions (they differ while a
    reassignment adds replicas, and after one partition was reassigned alone), None when no
    partition is listed.
    """

    name: str
    topic_id: str | None
    is_internal: bool
    partitions: tuple[PartitionInfo, ...]

    @property
    def num_partitions(self) -> int:
        """How many partitions it has."""
        return len(self.partitions)

    @property
    def replication_factor(self) -> int | None:
        """The most replicas any of its partitions has."""
        return max((len(p.replicas) for p in self.partitions), default=None)


@dataclass(frozen=True, init=False)
class NewPartitions:
    """The partition count a topic should reach with :meth:`AdminClient.create_partitions`.

    ``total_count`` is the new total (Kafka only ever adds partitions). ``assignments``, when
    given, places each new partition on brokers (one list of broker ids per new partition,
    the first one preferred as leader); otherwise the controller places them.
    """

    total_count: int
    assignments: tuple[tuple[int, ...], ...] | None

    def __init__(
        self, total_count: int, assignments: Sequence[Sequence[int]] | None = None
    ) -> None:
        if (
            isinstance(total_count, bool)
            or not isinstance(total_count, int)
            or not 1 <= total_count <= _MAX_INT32
        ):
            raise InvalidArgumentError(
                f"NewPartitions total_count must be an int from 1 to {_MAX_INT32}, "
                f"got {given(total_count)}"
            )
        object.__setattr__(self, "total_count", total_count)
        object.__setattr__(self, "assignments", _new_assignments(assignments))


def _new_assignments(
    assignments: Sequence[Sequence[int]] | None,
) -> tuple[tuple[int, ...], ...] | None:
    if assignments is None:
        return None
    if isinstance(assignments, str | bytes) or not isinstance(assignments, Sequence):
        raise InvalidArgumentError(
            "NewPartitions assignments must be a list of replica lists (one per new "
            f"partition), got {given(assignments)}"
        )
    try:
        return tuple(replica_list(brokers) for brokers in assignments)
    except InvalidArgumentError as error:
        raise InvalidArgumentError(f"NewPartitions assignments: {error}") from None


def replica_list(brokers: object) -> tuple[int, ...]:
    """``brokers`` as a replica list: distinct non-negative broker ids, at least one."""
    replicas = tuple(brokers) if isinstance(brokers, Sequence | tuple | list) else ()
    if (
        not replicas
        or isinstance(brokers, str)
        or any(
            isinstance(b, bool) or not isinstance(b, int) or not 0 <= b <= _MAX_INT32
            for b in replicas
        )
        or len(set(replicas)) != len(replicas)
    ):
        raise InvalidArgumentError(
            f"a replica list needs distinct broker ids, got {given(brokers)}"
        )
    return replicas


@dataclass(frozen=True, slots=True)
class PartitionReassignment:
    """A reassignment in progress (:meth:`AdminClient.list_partition_reassignments`).

    ``replicas`` is the partition's whole replica set now (old and new), ``adding_replicas``
    those being added, ``removing_replicas`` those to drop once the new ones caught up.
    """

    replicas: tuple[int, ...]
    adding_replicas: tuple[int, ...]
    removing_replicas: tuple[int, ...]

    @property
    def target_replicas(self) -> tuple[int, ...]:
        """The replica list once the reassignment completes."""
        return tuple(b for b in self.replicas if b not in self.removing_replicas)
