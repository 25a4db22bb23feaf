"""The ``kafka-config-changes`` stream on local[2] at its edges: a state location another query
owns, a cluster with a malformed address, a cluster that hangs."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

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


@pytest.fixture
def frozen_address() -> Iterator[str]:
    """A listener that takes connections and never answers: a cluster that hangs."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)  # connections complete in the kernel; nothing ever reads them
        yield f"127.0.0.1:{listener.getsockname()[1]}"


def test_a_second_query_on_the_same_state_location_is_refused(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path, stopping: None
) -> None:
    prefix = unique("feedsl-")
    (name,) = create_topics(kafka_bootstrap, [f"{prefix}-t"])
    state = tmp_path / "state"
    options = {"bootstrap.servers": kafka_bootstrap, "topicPattern": f"{prefix}-.*"}
    first: dict[str, Any] = {"path": tmp_path / "one", "checkpoint": tmp_path / "one-checkpoint"}
    start_stream(spark, state, first, **options)
    wait_for_baseline(first, state)

    second: dict[str, Any] = {"path": tmp_path / "two", "checkpoint": tmp_path / "two-checkpoint"}
    for attempt in range(1, 6):
        refused = start_stream(spark, state, second, **options)
        wait_until(lambda q=refused: not q.isActive, "the second query to fail", timeout=120)
        failure = str(refused.exception())
        if _CONNECT_BACK not in failure:  # Spark's start on a loaded machine: start it again
            break
        time.sleep(5 * attempt)
    assert "holds the states of another query" in failure, failure[-3000:]
    assert str(state) in failure

    # The first query owns the location and goes on.
    set_key(kafka_bootstrap, topic(name), "retention.ms", "7200000")
    row = wait_for_row(spark, first, "the first query's row", key="retention.ms")
    assert (row.change, row.after_value) == ("added", "7200000")


def test_a_malformed_cluster_is_an_error_row_and_the_others_flow(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path, stopping: None
) -> None:
    prefix = unique("feedmf-")
    (name,) = create_topics(kafka_bootstrap, [f"{prefix}-t"])
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        f"clusters:\n  main:\n    bootstrap_servers: {kafka_bootstrap}\n"
        "  typo:\n    bootstrap_servers: 127.0.0.1:90922x\n"
    )
    sink: dict[str, Any] = {"memory": prefix.replace("-", "_")}
    start_stream(
        spark,
        tmp_path / "state",
        sink,
        **{"clusters.file": str(clusters), "topicPattern": f"{prefix}-.*"},
    )
    wait_for_baseline(sink, tmp_path / "state")
    typo = wait_for_row(spark, sink, "the malformed cluster's error", cluster="typo")
    assert (typo.change, typo.error, typo.resource_type) == ("error", "InvalidArgumentError", None)
    assert "127.0.0.1:90922x" in typo.error_message

    set_key(kafka_bootstrap, topic(name), "retention.ms", "7200000")
    row = wait_for_row(spark, sink, "the good cluster's change", cluster="main")
    assert (row.key, row.change, row.after_value) == ("retention.ms", "added", "7200000")
    assert {row.cluster for row in rows_of(spark, sink) if row.change == "error"} == {"typo"}


#: The interval of the frozen-cluster test: the default poll deadline is the interval.
FROZEN_INTERVAL = 10.0


def test_a_frozen_cluster_delays_the_others_rows_by_at_most_one_interval(
    spark: SparkSession,
    kafka_bootstrap: str,
    frozen_address: str,
    tmp_path: Path,
    stopping: None,
) -> None:
    prefix = unique("feedfz-")
    (name,) = create_topics(kafka_bootstrap, [f"{prefix}-t"])
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        f"clusters:\n  main:\n    bootstrap_servers: {kafka_bootstrap}\n"
        f"  frozen:\n    bootstrap_servers: {frozen_address}\n"
    )
    sink: dict[str, Any] = {"memory": prefix.replace("-", "_")}
    start_stream(
        spark,
        tmp_path / "state",
        sink,
        **{
            "clusters.file": str(clusters),
            "topicPattern": f"{prefix}-.*",
            "interval": str(FROZEN_INTERVAL),
            "timeout": "120",  # the cluster's own call timeout: far longer than a poll's
        },
    )
    wait_for_baseline(sink, tmp_path / "state")
    frozen = wait_for_row(spark, sink, "the frozen cluster's error", cluster="frozen")
    assert (frozen.change, frozen.error) == ("error", "KafkaTimeoutError")

    changed = time.monotonic()
    set_key(kafka_bootstrap, topic(name), "retention.ms", "7200000")
    wait_for_row(spark, sink, "the other cluster's change", cluster="main", key="retention.ms")
    latency = time.monotonic() - changed
    # Seen at the next poll (at most one interval away), whose batch waits for the frozen
    # cluster at most one interval more; plus a batch's own time on a shared machine.
    assert latency < 2 * FROZEN_INTERVAL + 10, latency
    print(f"latency with a frozen cluster in the fleet: {latency:.1f} s")
