"""The ``kafka-config-changes`` streaming source: one row per config change, fleet-wide.

Offsets are poll sequence numbers (with the poll's time): ``latestOffset`` on the driver opens
a new poll once ``interval`` seconds have passed, and a micro-batch ``(start, end]`` has one
partition per cluster. On an executor, ``read()`` loads the cluster's state of poll ``start``
from the state location, reads the cluster (once: the state of poll ``end`` is written there
the first time and read back by any retry), and emits
:func:`~kafka_config_admin.feed.diff_states`
of the two. So a batch replayed after a failure gives the same rows, and the first batch after
a restart compares the cluster with the last state committed: nothing twice, nothing missed.
``commit`` removes the states no batch can need again.

A state location belongs to one query: the first poll of a new checkpoint names a stream id
(kept in every offset after it, so in the checkpoint) that is written to the location once; a
query whose checkpoint names another stream (a second query, or a new checkpoint on an old
location) is refused, since its polls would be compared with another query's states.

Each cluster's poll has ``pollTimeout`` seconds (the interval, at least 10, by default): a
cluster that hangs is an error row for that poll, so a micro-batch, and the other clusters'
rows in it, wait for it at most that long.

With ``maxPerPoll``, each poll describes at most that many resources, in turn
(:class:`~kafka_config_admin.feed.ReadRotation`): a task makes the cluster's rotation from
where the poll before left it, and keeps where this one leaves it beside the poll's state.
What each poll cost (the feed's :class:`~kafka_config_admin.feed.PollCost`, with where the
rotation stands: :class:`KeptCost`) is kept there too, written once as the state is, and
every row of the poll carries it (the ``poll_*`` columns); a poll that found no change has no
row, so ``stats`` adds one ``poll`` row per cluster and poll. Python data sources cannot
report metrics of their own in Spark's query progress: the rows are where the cost shows.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pyarrow as pa
from pyspark.sql.datasource import (
    DataSource,
    DataSourceStreamReader,
    InputPartition,
)
from pyspark.sql.streaming.datasource import ReadLimit
from pyspark.sql.types import StructType

from .. import AdminClient, InvalidArgumentError
from ..connect import Connection, connections_from_options
from ..feed import (
    BROKER_GONE_AFTER,
    POLL_ROW,
    ObservedState,
    PollCost,
    ReadRotation,
    ResourceKey,
    StateChange,
    diff_states,
    next_state,
    observe_once,
)
from ..state import ResourceScope
from ..toolkit import check_seconds
from ._options import parse_bool, parse_positive_int, parse_scope
from ._schema import CHANGES_ARROW_SCHEMA, CHANGES_SCHEMA, POLL_COST_COLUMNS

__all__ = ["KafkaConfigChangesDataSource", "StateStore"]

SOURCE_NAME = "kafka-config-changes"
#: Seconds between polls unless the ``interval`` option says otherwise.
DEFAULT_INTERVAL = 30.0
#: The least time a cluster's poll is given unless ``pollTimeout`` says otherwise: a short
#: interval must not time out the polls of a large cluster.
MIN_POLL_TIMEOUT = 10.0
#: How a poll's time names its snapshot (as ``take_snapshot`` names a snapshot: sortable).
SNAPSHOT_ID_FORMAT = "%Y%m%dT%H%M%S%fZ"


@dataclass(frozen=True)
class FeedOptions:
    """The stream's options: the clusters and what to watch, how often, and where states go."""

    clusters: tuple[Connection, ...]
    scope: ResourceScope
    include_documentation: bool
    interval: float
    state_location: str
    poll_timeout: float
    broker_gone_after: float
    #: At most this many resources described a poll, in turn; None: every one, every poll.
    max_per_poll: int | None = None
    #: One ``poll`` row per cluster and poll, with its cost, changes or not.
    stats: bool = False

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> FeedOptions:
        """The ``kafka-configs`` source's options (``resourceTypes`` may add ``quota`` and
        ``scram_user``), ``interval``, ``stateLocation``, ``pollTimeout``,
        ``brokerGoneAfter``, ``maxPerPoll`` and ``stats``."""
        scope = parse_scope(options)
        if parse_bool(options, "synonyms", False):
            raise InvalidArgumentError(
                "kafka-config-changes does not take synonyms: its rows carry each value's "
                "source before and after, which says where an inherited value comes from"
            )
        location = options.get("stateLocation")
        if not location:
            raise InvalidArgumentError(
                "kafka-config-changes needs the option stateLocation: a directory every "
                "executor and the driver can reach, where each poll's state is kept"
            )
        interval = _seconds(options, "interval", DEFAULT_INTERVAL)
        return cls(
            clusters=connections_from_options(options),
            scope=scope,
            include_documentation=parse_bool(options, "documentation", False),
            interval=interval,
            state_location=location,
            poll_timeout=_seconds(options, "pollTimeout", max(interval, MIN_POLL_TIMEOUT)),
            broker_gone_after=_seconds(options, "brokerGoneAfter", BROKER_GONE_AFTER),
            max_per_poll=parse_positive_int(options, "maxPerPoll"),
            stats=parse_bool(options, "stats", False),
        )


def _seconds(options: Mapping[str, str], name: str, default: float) -> float:
    text = options.get(name)
    return default if text is None else check_seconds(name, text, text=True)


class KafkaConfigChangesDataSource(DataSource):
    """``spark.readStream.format("kafka-config-changes")``: one row per change between polls."""

    @classmethod
    def name(cls) -> str:
        return SOURCE_NAME

    def schema(self) -> StructType:
        return CHANGES_SCHEMA

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        return ChangeStreamReader(FeedOptions.parse(self.options))


@dataclass(frozen=True)
class PollTask:
    """One cluster's part of a micro-batch: compare poll ``end`` with poll ``start``."""

    cluster: Connection
    start: int
    end: int
    time: datetime


class ChangeStreamReader(DataSourceStreamReader):
    """Plans one partition per cluster per micro-batch; see the module's docstring."""

    def __init__(self, options: FeedOptions) -> None:
        self.options = options
        #: When this reader last opened a poll (monotonic seconds); None: poll at once.
        self.last_poll: float | None = None
        #: The stream this reader names when it starts from the initial offset (a new
        #: checkpoint): made once, as Spark asks for the initial offset more than once.
        self.new_stream = uuid.uuid4().hex

    def initialOffset(self) -> dict[str, Any]:
        return {"poll": 0}

    def latestOffset(self, start: dict[str, Any], limit: ReadLimit) -> dict[str, Any]:
        now = time.monotonic()
        if self.last_poll is not None and now - self.last_poll < self.options.interval:
            return start
        # From the initial offset (a new checkpoint, or one older than named streams), the
        # stream is this reader's new one; after that, the checkpoint's offsets carry it.
        stream = str(start.get("stream") or self.new_stream)
        StateStore(self.options.state_location).bind(stream)
        self.last_poll = now
        return {
            "poll": int(start["poll"]) + 1,
            "time": datetime.now(UTC).isoformat(),
            "stream": stream,
        }

    def partitions(self, start: dict[str, Any], end: dict[str, Any]) -> Sequence[InputPartition]:
        first, last = int(start["poll"]), int(end["poll"])
        if last <= first:
            return []
        when = datetime.fromisoformat(end["time"])
        return [
            InputPartition(PollTask(target, first, last, when)) for target in self.options.clusters
        ]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        task: PollTask = partition.value
        store = StateStore(self.options.state_location)
        name = task.cluster.label
        before = store.load(name, task.start) if task.start > 0 else None
        after = store.load(name, task.end)
        cost = store.load_cost(name, task.end)
        if after is None:
            previous = store.load_cost(name, task.start) if task.start > 0 else None
            observed, measured = self._poll(task, before, previous)
            # The cost first: a task retried once the state is kept must find the poll's cost.
            cost = store.save_cost_once(name, task.end, measured)
            kept = next_state(before, observed, broker_gone_after=self.options.broker_gone_after)
            after = store.save_once(name, task.end, kept)
        snapshot_id = task.time.astimezone(UTC).strftime(SNAPSHOT_ID_FORMAT)
        changes = diff_states(before, after)
        yield _batch(changes, snapshot_id, task, cost, stats=self.options.stats)

    def _poll(
        self, task: PollTask, before: ObservedState | None, previous: KeptCost | None
    ) -> tuple[ObservedState, KeptCost]:
        """Read the cluster (at most ``maxPerPoll`` resources, from where the poll before left
        the rotation): what it has now, and what reading it cost."""
        limit = self.options.max_per_poll
        turn = None if previous is None else previous.resume_after
        rotation = None if limit is None else ReadRotation(limit, resume_after=turn)
        clients: list[AdminClient] = []

        def client() -> AdminClient:
            # Made inside observe_once (a bad setting is an error row), kept for its traffic.
            clients.append(task.cluster.admin_client())
            return clients[-1]

        started = time.monotonic()
        observed = asyncio.run(
            observe_once(
                client,
                self.options.scope,
                task.cluster.label,
                include_documentation=self.options.include_documentation,
                time=task.time,
                deadline=self.options.poll_timeout,
                rotation=rotation,
                before=before,
            )
        )
        cost = PollCost.measure(observed, rotation, clients, time.monotonic() - started)
        return observed, KeptCost(cost, turn if rotation is None else rotation.resume_after)

    def commit(self, end: dict[str, Any]) -> None:
        store = StateStore(self.options.state_location)
        for target in self.options.clusters:
            store.forget_before(target.label, int(end["poll"]))


@dataclass(frozen=True)
class KeptCost:
    """What one cluster's poll cost, and where its rotation left off (``resume_after``, the
    key its last turn ended on): kept beside the poll's state for the executors of the polls
    after it."""

    cost: PollCost
    resume_after: ResourceKey | None = None

    def to_json(self) -> str:
        """One flat JSON object: the cost's fields, then ``resume_after``."""
        return json.dumps({**asdict(self.cost), "resume_after": self.resume_after})

    @classmethod
    def from_json(cls, text: str) -> KeptCost:
        """A kept cost; one kept by an earlier release holds the turn as an index
        (``next_turn``), which no longer names a resource: its rotation starts again."""
        fields = json.loads(text)
        fields.pop("next_turn", None)
        after = fields.pop("resume_after", None)
        return cls(PollCost(**fields), None if after is None else (after[0], after[1]))

    def columns(self) -> dict[str, Any]:
        """The poll's ``poll_*`` columns."""
        return {
            "poll_resources_read": self.cost.resources_read,
            "poll_requests": self.cost.requests,
            "poll_bytes_received": self.cost.bytes_received,
            "poll_seconds": self.cost.seconds,
        }


def _batch(
    changes: Sequence[StateChange],
    snapshot_id: str,
    task: PollTask,
    cost: KeptCost | None,
    *,
    stats: bool,
) -> pa.RecordBatch:
    """The poll's rows: one per change, and with ``stats`` its ``poll`` row. ``cost`` is None
    for a poll kept before costs were (its ``poll_*`` columns are null)."""
    rows: list[dict[str, Any]] = [change.to_dict() for change in changes]
    for row, change in zip(rows, changes, strict=True):
        row["detected_time"] = change.detected_time
    if stats:
        rows.append({"cluster": task.cluster.label, "change": POLL_ROW, "detected_time": task.time})
    poll = {
        "snapshot_id": snapshot_id,
        "poll": task.end,
        **(
            dict.fromkeys(name for name, _ in POLL_COST_COLUMNS) if cost is None else cost.columns()
        ),
    }
    columns = {
        name: [poll[name] if name in poll else row.get(name) for row in rows]
        for name in CHANGES_ARROW_SCHEMA.names
    }
    return pa.RecordBatch.from_pydict(columns, schema=CHANGES_ARROW_SCHEMA)


#: The file that names the stream (the checkpoint) a state location belongs to.
_STREAM_FILE = "STREAM"


class StateStore:
    """Each cluster's state per poll, as JSON files under one directory.

    A state is written once: the first writer wins and every later reader (a retried or
    replayed task) gets the very same state, so a batch always gives the same rows.
    """

    def __init__(self, location: str) -> None:
        self.root = Path(location)

    def bind(self, stream: str) -> None:
        """Take the location for ``stream`` (a query's checkpoint), or refuse: it holds the
        states of another stream, which this one's polls must not be compared with."""
        marker = self.root / _STREAM_FILE
        self.root.mkdir(parents=True, exist_ok=True)
        try:
            with marker.open("x", encoding="utf-8") as file:
                file.write(stream)
            return
        except FileExistsError:
            owner = marker.read_text(encoding="utf-8").strip()
        if owner != stream:
            raise InvalidArgumentError(
                f"stateLocation {str(self.root)!r} holds the states of another query (stream "
                f"{owner}, this checkpoint's is {stream}): give each query its own "
                "stateLocation, and a query started on a new checkpoint a new (or emptied) one"
            )

    def path(self, cluster: str, poll: int) -> Path:
        return self.root / quote(cluster, safe="") / f"{poll:012d}.json"

    def load(self, cluster: str, poll: int) -> ObservedState | None:
        """The state of a poll, or None when it was never written (or already forgotten)."""
        try:
            text = self.path(cluster, poll).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        return ObservedState.from_json(text)

    def save_once(self, cluster: str, poll: int, state: ObservedState) -> ObservedState:
        """Keep ``state`` as the poll's, unless one is already kept: the state kept."""
        if _write_once(self.path(cluster, poll), state.to_json()):
            return state
        kept = self.load(cluster, poll)
        return state if kept is None else kept

    def cost_path(self, cluster: str, poll: int) -> Path:
        return self.path(cluster, poll).with_suffix(_COST_SUFFIX)

    def load_cost(self, cluster: str, poll: int) -> KeptCost | None:
        """What a poll cost, or None when it was never written (or already forgotten)."""
        try:
            return KeptCost.from_json(self.cost_path(cluster, poll).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None

    def save_cost_once(self, cluster: str, poll: int, cost: KeptCost) -> KeptCost:
        """Keep ``cost`` as the poll's, unless one is already kept: the cost kept."""
        if _write_once(self.cost_path(cluster, poll), cost.to_json()):
            return cost
        kept = self.load_cost(cluster, poll)
        return cost if kept is None else kept

    def forget_before(self, cluster: str, poll: int) -> None:
        """Remove the cluster's states (and costs) of polls before ``poll`` (no batch reads
        them again)."""
        directory = self.root / quote(cluster, safe="")
        if not directory.is_dir():
            return
        for path in directory.iterdir():
            polled = path.suffix in (".json", _COST_SUFFIX) and path.stem.isdigit()
            if polled and int(path.stem) < poll:
                path.unlink(missing_ok=True)


#: A poll's cost is kept beside its state (``000000000007.json``) as ``000000000007.cost``.
_COST_SUFFIX = ".cost"


def _write_once(target: Path, text: str) -> bool:
    """Write ``text`` to ``target`` unless it exists: whether this call wrote it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".poll-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, target)  # atomic, and never replaces: the first writer wins
        except FileExistsError:
            return False
    finally:
        os.unlink(temporary)
    return True
