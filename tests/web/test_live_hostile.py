"""The live page's stream (issue 35: ``--live-max-per-poll``, the cost line) under hostile
input, served by uvicorn against the session's real cluster: a bound far above the resources,
a topic that does not exist, and topic names no topic can have."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kafka_config_admin.connect import Connection
from kafka_config_admin.web import WebSettings

from ..integration.helpers import new_topic
from .browser import serving, with_admin

pytestmark = pytest.mark.integration

CLUSTER = "test"
Event = tuple[str, dict[str, Any]]


@pytest.fixture
def live_url(kafka_bootstrap: str) -> Iterator[str]:
    settings = WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)},
        live_interval=0.5,
        live_max_per_poll=10**30,
        timeout=30,
    )
    with serving(settings) as url:
        yield url


def events_until(url: str, params: dict[str, str], done: Any) -> list[Event]:
    """The stream's events until ``done(events)`` holds (within 60 s)."""
    events: list[Event] = []
    kind = ""
    deadline = time.monotonic() + 60
    with httpx.stream("GET", f"{url}/c/{CLUSTER}/live/events", params=params, timeout=60) as r:
        assert r.status_code == 200, r.read()
        for line in r.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((kind, json.loads(line.removeprefix("data: "))))
                if done(events):
                    return events
            assert time.monotonic() < deadline, events
    raise AssertionError(f"the stream ended: {events}")


def count(kind: str, least: int) -> Any:
    return lambda events: sum(k == kind for k, _ in events) >= least


def test_a_bound_far_above_the_resources_reads_the_one_topic_and_says_so(
    live_url: str, kafka_bootstrap: str
) -> None:
    name = with_admin(kafka_bootstrap, lambda admin: new_topic(admin, kafka_bootstrap))
    events = events_until(live_url, {"topic": name}, count("cost", 3))
    (ready,) = [data for kind, data in events if kind == "ready"]
    assert ready["resources"] == 1 and ready["max_per_poll"] == 10**30
    costs = [data for kind, data in events if kind == "cost"]
    assert all(cost["resources_read"] == 1 for cost in costs), costs
    assert all(cost["bytes_received"] > 0 and cost["requests"] >= 1 for cost in costs), costs
    assert not [data for kind, data in events if kind in ("change", "problem")], events


def test_a_missing_topic_is_absent_nothing_else(live_url: str) -> None:
    # Present, absent or unknown: a topic that is not there is followed as absent.
    events = events_until(live_url, {"topic": "no-such-topic-x"}, count("cost", 2))
    (ready,) = [data for kind, data in events if kind == "ready"]
    assert ready["resources"] == 0
    assert {kind for kind, _ in events} == {"ready", "cost"}, events


@pytest.mark.parametrize("topic", ["bad name!", "..", "caf\u00e9", "a" * 300])
def test_a_name_no_topic_can_have_is_a_problem_on_the_stream_never_a_change(
    live_url: str, topic: str
) -> None:
    events = events_until(live_url, {"topic": topic}, count("problem", 1))
    problems = [data for kind, data in events if kind == "problem"]
    assert [(p["resource_name"], p["error"]) for p in problems] == [(topic, "InvalidTopicError")]
    assert not [data for kind, data in events if kind == "change"], events


def test_a_page_opened_while_a_problem_stands_is_told_of_it(live_url: str) -> None:
    topic = "bad name!"
    with httpx.stream(
        "GET", f"{live_url}/c/{CLUSTER}/live/events", params={"topic": topic}, timeout=60
    ) as first:
        for line in first.iter_lines():
            if line == "event: problem":
                break
        # The first page still open, a second one follows the same scope.
        events = events_until(live_url, {"topic": topic}, count("cost", 3))
    assert [data["error"] for kind, data in events if kind == "problem"] == ["InvalidTopicError"]
