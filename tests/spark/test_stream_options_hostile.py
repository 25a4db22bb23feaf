"""The ``kafka-config-changes`` stream's ``maxPerPoll`` and ``stats`` under hostile use, on
local[2] against a real broker: a bound far above the topics watched (larger than a long), a
topic created and one deleted under it. Bad values, refused by name, are tried in
tests/spark/test_change_feed_cost.py and tests/unit/test_spark_planning.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

from .helpers import create_topics, unique, wait_until
from .test_change_feed import (
    delete_topic,
    rows_of,
    start_stream,
    stopping,
    wait_for_baseline,
    wait_for_row,
)

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

__all__ = ["stopping"]  # the fixture, used by name


def test_a_bound_above_a_long_reads_every_topic_and_sees_topics_come_and_go(
    spark: SparkSession, kafka_bootstrap: str, tmp_path: Path, stopping: None
) -> None:
    prefix = unique("feedbig-")
    first, second = create_topics(kafka_bootstrap, [f"{prefix}-0", f"{prefix}-1"])
    sink: dict[str, Any] = {"memory": prefix.replace("-", "_")}
    start_stream(
        spark,
        tmp_path / "state",
        sink,
        **{
            "bootstrap.servers": kafka_bootstrap,
            "topicPattern": f"{prefix}-.*",
            "maxPerPoll": "99999999999999999999",
            "stats": "true",
            "pollTimeout": "120",
        },
    )
    wait_for_baseline(sink, tmp_path / "state")
    wait_until(lambda: sum(r.change == "poll" for r in rows_of(spark, sink)) >= 2, "two polls", 120)
    (third,) = create_topics(kafka_bootstrap, [f"{prefix}-2"])
    delete_topic(kafka_bootstrap, first)
    added = wait_for_row(spark, sink, "the new topic", resource_name=third, change="added")
    removed = wait_for_row(spark, sink, "the topic deleted", resource_name=first, change="removed")
    assert added.key is None and removed.key is None
    polls = [r for r in rows_of(spark, sink) if r.change == "poll"]
    # Each poll read what was there (2, then 3 or 2 as the topics came and went), never more.
    assert {r.poll_resources_read for r in polls} <= {2, 3}, polls
    others = {r.resource_name for r in rows_of(spark, sink) if r.change != "poll"}
    assert others == {first, third}, others
    assert second not in others
