"""The ``kafka-config-changes`` stream on local[2], against a real broker: ``maxPerPoll`` bounds
what each poll describes and every change is still seen, each poll's cost is in its rows
(``stats`` adds a row for each poll, changes or not), and a bad value of either option is
refused with a message naming it."""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import Row, SparkSession
from pyspark.sql.datasource import InputPartition

from kafka_config_admin.spark._feed import ChangeStreamReader, FeedOptions, PollTask, StateStore

from .helpers import create_topics, unique, wait_until
from .test_change_feed import (
    _CONNECT_BACK,
    rows_of,
    set_key,
    start_stream,
    stopping,
    topic,
    wait_for_baseline,
    wait_for_row,
)

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

__all__ = ["stopping"]  # the fixture, used by name

TOPICS = 3
BOUND = 1


def poll_rows(spark: SparkSession, sink: dict[str, Any]) -> list[Row]:
    return sorted(
        (row for row in rows_of(spark, sink) if row.change == "poll"), key=lambda r: r.poll
    )


def test_max_per_poll_reads_in_turn_sees_every_change_and_each_poll_says_its_cost(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path, stopping: None
) -> None:
    prefix = unique("feedcost-")
    names = create_topics(kafka_bootstrap, [f"{prefix}-{i}" for i in range(TOPICS)])
    sink: dict[str, Any] = {"memory": prefix.replace("-", "_")}
    options = {
        "bootstrap.servers": kafka_bootstrap,
        "topicPattern": f"{prefix}-.*",
        "maxPerPoll": str(BOUND),
        "stats": "true",
        # A poll cut at its deadline on a loaded machine would read everything next time.
        "pollTimeout": "120",
    }
    start_stream(spark, tmp_path / "state", sink, **options)
    wait_for_baseline(sink, tmp_path / "state")
    wait_until(lambda: len(poll_rows(spark, sink)) >= 3, "three polls", timeout=120)

    # Every poll has its row, with its cost; the baseline reads everything, the others the bound.
    baseline, *later = poll_rows(spark, sink)
    assert baseline.poll_resources_read == TOPICS
    assert all(row.poll_resources_read == BOUND for row in later), later
    for row in (baseline, *later):
        assert row.poll_requests >= 2  # the topic listing and the describe at least
        assert row.poll_bytes_received > 0 and row.poll_seconds > 0
        assert (row.resource_type, row.key, row.error) == (None, None, None)
    # Reading one topic of three receives less than reading all three.
    assert max(row.poll_bytes_received for row in later) < baseline.poll_bytes_received

    # A change to any topic is seen within ceil(topics / bound) polls (one more: a poll may
    # have begun before the change was made).
    for name in names:
        last_poll = poll_rows(spark, sink)[-1].poll
        set_key(kafka_bootstrap, topic(name), "retention.ms", "7200000")
        row = wait_for_row(spark, sink, f"{name}'s change", resource_name=name, key="retention.ms")
        assert (row.change, row.after_value) == ("added", "7200000")
        assert row.poll - last_poll <= math.ceil(TOPICS / BOUND) + 1
        # The change's row carries its poll's cost, the same as the poll's own row.
        (own,) = [poll for poll in poll_rows(spark, sink) if poll.poll == row.poll]
        cost = ("poll_resources_read", "poll_requests", "poll_bytes_received", "poll_seconds")
        assert [row[c] for c in cost] == [own[c] for c in cost]
        assert row.poll_resources_read == BOUND

    rows = rows_of(spark, sink)
    assert sorted(r.resource_name for r in rows if r.change not in ("poll",)) == sorted(names)
    assert all(r.poll_resources_read <= BOUND for r in poll_rows(spark, sink)[1:])


def test_without_stats_a_poll_that_changed_nothing_has_no_row_and_a_change_has_its_cost(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path, stopping: None
) -> None:
    prefix = unique("feedplain-")
    names = create_topics(kafka_bootstrap, [f"{prefix}-{i}" for i in range(2)])
    sink: dict[str, Any] = {"memory": prefix.replace("-", "_")}
    start_stream(
        spark,
        tmp_path / "state",
        sink,
        **{"bootstrap.servers": kafka_bootstrap, "topicPattern": f"{prefix}-.*"},
    )
    wait_for_baseline(sink, tmp_path / "state")
    set_key(kafka_bootstrap, topic(names[1]), "retention.ms", "7200000")
    row = wait_for_row(spark, sink, "the change", resource_name=names[1], key="retention.ms")
    assert row.poll_resources_read == 2  # no bound: every topic, every poll
    assert row.poll_bytes_received > 0 and row.poll_requests >= 2 and row.poll_seconds > 0
    assert [r for r in rows_of(spark, sink) if r.change == "poll"] == []


def test_each_poll_goes_on_with_the_rotation_kept_beside_its_state_and_a_replay_is_the_same(
    kafka_bootstrap: str, tmp_path: Path
) -> None:
    """The tasks of a stream, without Spark: each poll's task is a new reader (another
    executor, or the query started again), which finds the rotation's turn where the poll
    before left it."""
    prefix = unique("feedturn-")
    names = create_topics(kafka_bootstrap, [f"{prefix}-{i}" for i in range(TOPICS)])
    options = FeedOptions.parse(
        {
            "bootstrap.servers": kafka_bootstrap,
            "topicPattern": f"{prefix}-.*",
            "stateLocation": str(tmp_path),
            "maxPerPoll": str(BOUND),
            "pollTimeout": "120",
        }
    )
    (cluster,) = options.clusters

    def poll(end: int) -> list[dict[str, Any]]:
        # A poll's time is its offset's: the same when its batch is replayed.
        when = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=end)
        task = PollTask(cluster, end - 1, end, when)
        batches = ChangeStreamReader(options).read(InputPartition(task))
        return [row for batch in batches for row in batch.to_pylist()]

    assert poll(1) == []  # the baseline
    for name in names:
        set_key(kafka_bootstrap, topic(name), "retention.ms", "7200000")
    # One topic a poll, in turn across the readers: every change seen, one a poll.
    seen = []
    for end in range(2, 2 + TOPICS):
        rows = poll(end)
        assert [(r["key"], r["change"], r["poll_resources_read"]) for r in rows] == [
            ("retention.ms", "added", BOUND)
        ]
        seen.append(rows[0]["resource_name"])
    assert sorted(seen) == sorted(names)
    # A batch replayed (a retried task) gives the very same rows, its cost included.
    last = 1 + TOPICS
    assert poll(last) == rows
    # Committing a poll forgets the states and costs of the polls before it.
    ChangeStreamReader(options).commit({"poll": last})
    store = StateStore(str(tmp_path))
    assert store.load_cost(cluster.label, last - 1) is None
    assert store.load(cluster.label, last - 1) is None
    assert store.load_cost(cluster.label, last) is not None


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("maxPerPoll", "0", "option maxPerPoll must be a positive integer, got '0'"),
        ("stats", "yes", "option stats must be true or false, got 'yes'"),
    ],
)
def test_a_bad_max_per_poll_or_stats_fails_the_query_naming_the_option(
    spark: SparkSession,
    kafka_bootstrap: str,
    tmp_path: Path,
    stopping: None,
    option: str,
    value: str,
    message: str,
) -> None:
    sink: dict[str, Any] = {"memory": unique("feedbad_").replace("-", "_")}
    options = {"bootstrap.servers": kafka_bootstrap, option: value}
    failure = ""
    for attempt in range(1, 6):
        try:
            refused = start_stream(spark, tmp_path / f"state-{attempt}", sink, **options)
        except Exception as error:  # refused as the query starts
            failure = str(error)
        else:
            wait_until(lambda q=refused: not q.isActive, "the query to fail", timeout=120)
            failure = str(refused.exception())
        if _CONNECT_BACK not in failure:  # Spark's start on a loaded machine: start it again
            break
        time.sleep(5 * attempt)
    assert message in failure, failure[-3000:]
