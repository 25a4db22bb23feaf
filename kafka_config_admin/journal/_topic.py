"""The journal on a Kafka topic: one JSON record per change, shared by every machine whose
clusters file names the topic (``journal: {topic: NAME}``).

The topic has one partition, so that its offsets are the journal's order and a change's id
is its offset plus one. Each record's key names the cluster, the resource and the change
(``{"cluster": ..., "resource": "topic:orders", "change": "<change set>/<n>"}``): unique,
so compaction never drops a change, while the delete policy ends records older than the
topic's retention. The topic is made ``cleanup.policy=compact,delete`` on the first write.

Its methods are synchronous, as :class:`~kafka_config_admin.journal.Journal`'s are: each runs
its Kafka I/O on an event loop of its own in a worker thread, so it can be called from a
command, from a thread of an async program or from Spark alike.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.errors import KafkaError

from .. import (
    AdminClient,
    AuthorizationError,
    KafkaConfigAdminError,
    NewTopic,
    TopicAlreadyExistsError,
    UnknownTopicOrPartitionError,
)
from ..connect import Connection, JournalTopic
from ..toolkit import error_line
from ._entries import JournalEntry
from ._store import JournalError, JournalQuery
from ._threads import in_daemon_thread

__all__ = ["JournalTopicError", "TopicJournal"]

#: The topic's settings beside its retention: compaction never drops a change (each key is
#: unique), the delete policy ends changes older than the retention.
CLEANUP_POLICY = "compact,delete"

_T = TypeVar("_T")


class JournalTopicError(JournalError):
    """The journal's topic cannot be created, written or read: missing and not creatable,
    no rights, the cluster unreachable, more than one partition, a record that is not a
    change (the topic, its cluster and the reason are named)."""


@dataclass(frozen=True)
class TopicJournal:
    """The journal on ``settings.topic`` of the cluster ``connection`` reaches."""

    connection: Connection
    settings: JournalTopic

    @property
    def topic(self) -> str:
        """The topic's name."""
        return self.settings.topic

    @property
    def where(self) -> str:
        """``topic NAME on cluster LABEL``, as messages and documents name the journal."""
        return f"topic {self.topic} on cluster {self.connection.label}"

    def record(self, entries: Sequence[JournalEntry]) -> list[int]:
        """Write a record per entry (the topic made if missing); their ids, in order."""
        if not entries:
            return []
        return self._run("written", self._record, entries)

    def entries(self, query: JournalQuery | None = None) -> list[JournalEntry]:
        """The changes ``query`` selects, oldest first (none while the topic does not exist)."""
        query = query or JournalQuery()
        chosen = [entry for entry in self._run("read", self._read) if query.matches(entry)]
        return chosen if query.limit is None else chosen[max(len(chosen) - query.limit, 0) :]

    def entry(self, change_id: int) -> JournalEntry | None:
        """The change with this id, or None."""
        return next(
            (entry for entry in self._run("read", self._read) if entry.id == change_id), None
        )

    def _run(self, doing: str, work: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """``work`` on an event loop of its own; every failure a :class:`JournalTopicError`."""

        async def guarded() -> _T:
            try:
                return await work(*args)
            except JournalTopicError:
                raise
            except (KafkaConfigAdminError, KafkaError, OSError) as error:
                raise self._error(doing, _reason(error)) from error

        return in_daemon_thread(lambda: asyncio.run(guarded()))

    def _error(self, doing: str, reason: str) -> JournalTopicError:
        return JournalTopicError(f"the journal {self.where} cannot be {doing}: {reason}")

    async def _record(self, entries: Sequence[JournalEntry]) -> list[int]:
        await self._ensure_topic()
        producer = AIOKafkaProducer(
            **self._kafka_kwargs(), acks="all", enable_idempotence=True, linger_ms=5
        )
        await producer.start()
        try:
            sent = [
                await producer.send(self.topic, value=_value(entry), key=_key(entry, n))
                for n, entry in enumerate(entries)
            ]
            return [int((await future).offset) + 1 for future in sent]
        finally:
            await producer.stop()

    async def _ensure_topic(self) -> None:
        """The topic as a journal needs it: made when missing, refused with more than one
        partition (its order would not be the journal's)."""
        async with self._admin() as admin:
            partitions = await _partitions(admin, self.topic)
            if partitions is None:
                created = NewTopic(
                    self.topic,
                    num_partitions=1,
                    replication_factor=self.settings.replication_factor,
                    configs={
                        "cleanup.policy": CLEANUP_POLICY,
                        "retention.ms": str(self.settings.retention_ms),
                    },
                )
                with suppress(TopicAlreadyExistsError):  # another writer made it first
                    await admin.create_topics([created]).all()
                await admin.wait_for_topics({self.topic: 1})
                partitions = 1
        if partitions != 1:
            raise self._error(
                "written",
                f"it has {partitions} partitions; a journal topic has one (its order is the "
                "journal's): name another topic",
            )

    async def _read(self) -> list[JournalEntry]:
        async with self._admin() as admin:
            if await _partitions(admin, self.topic) is None:
                return []  # nothing recorded yet
        consumer = AIOKafkaConsumer(
            **self._kafka_kwargs(),
            enable_auto_commit=False,
            group_id=None,
            auto_offset_reset="earliest",
        )
        await consumer.start()
        try:
            partition = TopicPartition(self.topic, 0)
            consumer.assign([partition])
            # Offsets asked for, then a seek: aiokafka's seek_to_beginning can settle at the end.
            start = (await consumer.beginning_offsets([partition]))[partition]
            end = (await consumer.end_offsets([partition]))[partition]
            consumer.seek(partition, start)
            read: list[JournalEntry] = []
            while await consumer.position(partition) < end:
                batches = await consumer.getmany(partition, timeout_ms=1000)
                for record in batches.get(partition, []):
                    if record.value is not None and record.offset < end:
                        read.append(self._entry(record.offset, record.value))
            return read
        finally:
            await consumer.stop()

    def _entry(self, offset: int, value: bytes) -> JournalEntry:
        try:
            data = json.loads(value)
            data["id"] = offset + 1
            data["time"] = datetime.fromisoformat(data["time"])
            data.pop("resource", None)
            return JournalEntry(**data)
        except (ValueError, TypeError, KeyError) as error:
            reason = f"the record at offset {offset} is not a change: {error}"
            raise self._error("read", reason) from error

    def _admin(self) -> AdminClient:
        return AdminClient(
            timeout=self.connection.timeout,
            client_id="kafka-config-admin-journal",
            **self._kafka_kwargs(),
        )

    def _kafka_kwargs(self) -> dict[str, Any]:
        """The connection's settings, as the SDK's client and aiokafka's name them alike."""
        kwargs = self.connection.admin_client_kwargs()
        if "bootstrap_controllers" in kwargs:
            raise self._error(
                "used", "its cluster is named by its controllers, which hold no topics"
            )
        if "sasl_oauth_token_provider" in kwargs:
            raise self._error("used", "a journal topic is not reached with OAUTHBEARER yet")
        return kwargs


async def _partitions(admin: AdminClient, topic: str) -> int | None:
    """The topic's partition count, or None when the cluster has no such topic."""
    try:
        described = await admin.describe_topics([topic]).all()
    except UnknownTopicOrPartitionError:
        return None
    return described[topic].num_partitions


def _key(entry: JournalEntry, index: int) -> bytes:
    """The record's key: the cluster (its id, else its label), the resource and the change."""
    key = {
        "cluster": entry.cluster_id or entry.cluster,
        "resource": entry.resource,
        "change": f"{entry.change_set}/{index}",
    }
    return json.dumps(key, sort_keys=True).encode()


def _value(entry: JournalEntry) -> bytes:
    """The change as JSON (no id: the record's offset is its id); never a secret's value,
    which the entry does not hold."""
    data = entry.to_dict()
    del data["id"]
    return json.dumps(data, sort_keys=True).encode()


def _reason(error: BaseException) -> str:
    if isinstance(error, AuthorizationError):
        return f"no rights: {error_line(error)}"
    return error_line(error)
