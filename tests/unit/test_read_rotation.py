"""``ReadRotation``: which resources a bounded poll of the change feed describes (pure logic).

Against a broker: tests/integration/test_cli_watch.py (``watch --max-per-poll``).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kafka_config_admin import ConfigResource, InvalidArgumentError, ResourceType
from kafka_config_admin.feed import (
    ObservedState,
    ObservedValue,
    ReadRotation,
    ResourceObservation,
    resources_read,
)

NOW = datetime(2026, 1, 1, tzinfo=UTC)
TOPICS = [ConfigResource(ResourceType.TOPIC, f"t{i}") for i in range(5)]


def state(
    resources: list[ConfigResource], *, failed: tuple[str, ...] = (), error: bool = False
) -> ObservedState:
    """A state holding each resource's values (an error for those named in ``failed``)."""
    values = {"retention.ms": ObservedValue("1", "TOPIC_CONFIG", "LONG", False)}
    return ObservedState(
        "c",
        NOW,
        {
            ("TOPIC", r.name): ResourceObservation(
                values, ("Error", "x") if r.name in failed else None
            )
            for r in resources
        },
        error=("KafkaConnectionError", "down") if error else None,
    )


def names(resources: list[ConfigResource]) -> list[str]:
    return [r.name for r in resources]


def test_the_first_poll_reads_everything() -> None:
    rotation = ReadRotation(2)
    assert rotation.pick(TOPICS, None) == TOPICS
    assert rotation.last_read == 5


def test_later_polls_read_at_most_the_bound_in_turn_and_every_resource_comes_round() -> None:
    rotation, before = ReadRotation(2), state(TOPICS)
    picks = [names(rotation.pick(TOPICS, before)) for _ in range(3)]
    assert picks == [["t0", "t1"], ["t2", "t3"], ["t4", "t0"]]
    assert rotation.last_read == 2


def test_new_and_failed_resources_are_read_first_and_past_the_bound() -> None:
    """They take no room from the turn: a resource failing at every poll starves no other."""
    rotation = ReadRotation(2)
    before = state(TOPICS[:4], failed=("t1",))  # t4 is new, t1's last read failed
    assert names(rotation.pick(TOPICS, before)) == ["t1", "t4", "t0", "t2"]
    assert rotation.last_read == 4
    assert names(rotation.pick(TOPICS, state(TOPICS))) == ["t3", "t4"]


def test_unknown_resources_past_the_bound_are_all_read() -> None:
    """A resource is never left unread while the feed holds nothing for it."""
    assert ReadRotation(1).pick(TOPICS, state([])) == TOPICS


def test_after_a_poll_that_could_not_read_the_cluster_everything_is_read() -> None:
    assert ReadRotation(1).pick(TOPICS, state(TOPICS, error=True)) == TOPICS


@pytest.mark.parametrize("bound", [0, -1, True, 1.5, "2"])
def test_a_bound_that_is_not_a_positive_int_is_refused(bound: object) -> None:
    with pytest.raises(InvalidArgumentError, match="max_per_poll"):
        ReadRotation(bound)  # type: ignore[arg-type]


def test_a_rotation_resumed_after_its_last_key_goes_on_where_the_last_one_stopped() -> None:
    """As the Spark stream does: each poll's rotation is a new one, made from the last's
    ``resume_after`` (kept with the state), and the turns are those of one rotation kept."""
    before, after, picks = state(TOPICS), None, []
    for _ in range(3):
        rotation = ReadRotation(2, resume_after=after)
        picks.append(names(rotation.pick(TOPICS, before)))
        after = rotation.resume_after
    assert picks == [["t0", "t1"], ["t2", "t3"], ["t4", "t0"]]
    assert after == ("TOPIC", "t0")


def test_the_turn_goes_by_key_whatever_order_the_listing_gives() -> None:
    rotation, before = ReadRotation(2), state(TOPICS)
    shuffled = [TOPICS[3], TOPICS[0], TOPICS[4], TOPICS[2], TOPICS[1]]
    picks = [names(rotation.pick(shuffled, before)) for _ in range(3)]
    assert picks == [["t0", "t1"], ["t2", "t3"], ["t4", "t0"]]


def test_a_resumed_key_that_is_gone_goes_on_from_the_next_one() -> None:
    rotation = ReadRotation(2, resume_after=("TOPIC", "t1x"))  # deleted since
    assert names(rotation.pick(TOPICS, state(TOPICS))) == ["t2", "t3"]


@pytest.mark.parametrize("after", [-1, 3, "t1", ("TOPIC",), ("TOPIC", 1), ["TOPIC", "t1"]])
def test_a_resume_after_that_is_not_a_resource_key_is_refused(after: object) -> None:
    with pytest.raises(InvalidArgumentError, match="resume_after"):
        ReadRotation(2, resume_after=after)  # type: ignore[arg-type]


def test_a_polls_cost_counts_what_it_read_and_nothing_when_it_failed() -> None:
    everything = state(TOPICS)
    assert resources_read(everything, None) == 5
    rotation = ReadRotation(2)
    rotation.pick(TOPICS, everything)
    assert resources_read(everything, rotation) == 2
    assert resources_read(state(TOPICS, error=True), rotation) == 0
    assert resources_read(state(TOPICS, error=True), None) == 0
