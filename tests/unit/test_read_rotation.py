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


def test_new_and_failed_resources_are_read_first() -> None:
    rotation = ReadRotation(2)
    before = state(TOPICS[:4], failed=("t1",))  # t4 is new, t1's last read failed
    assert names(rotation.pick(TOPICS, before)) == ["t1", "t4"]
    assert names(rotation.pick(TOPICS, state(TOPICS))) == ["t0", "t1"]


def test_unknown_resources_past_the_bound_are_all_read() -> None:
    """A resource is never left unread while the feed holds nothing for it."""
    assert ReadRotation(1).pick(TOPICS, state([])) == TOPICS


def test_after_a_poll_that_could_not_read_the_cluster_everything_is_read() -> None:
    assert ReadRotation(1).pick(TOPICS, state(TOPICS, error=True)) == TOPICS


@pytest.mark.parametrize("bound", [0, -1, True, 1.5, "2"])
def test_a_bound_that_is_not_a_positive_int_is_refused(bound: object) -> None:
    with pytest.raises(InvalidArgumentError, match="max_per_poll"):
        ReadRotation(bound)  # type: ignore[arg-type]


def test_a_rotation_resumed_from_its_next_turn_goes_on_where_the_last_one_stopped() -> None:
    """As the Spark stream does: each poll's rotation is a new one, made from the last's
    ``next_turn`` (kept with the state), and the turns are those of one rotation kept."""
    before, next_turn, picks = state(TOPICS), 0, []
    for _ in range(3):
        rotation = ReadRotation(2, next_turn=next_turn)
        picks.append(names(rotation.pick(TOPICS, before)))
        next_turn = rotation.next_turn
    assert picks == [["t0", "t1"], ["t2", "t3"], ["t4", "t0"]]


@pytest.mark.parametrize("turn", [-1, True, 1.5, "2"])
def test_a_next_turn_that_is_not_an_int_of_at_least_zero_is_refused(turn: object) -> None:
    with pytest.raises(InvalidArgumentError, match="next_turn"):
        ReadRotation(2, next_turn=turn)  # type: ignore[arg-type]


def test_a_polls_cost_counts_what_it_read_and_nothing_when_it_failed() -> None:
    everything = state(TOPICS)
    assert resources_read(everything, None) == 5
    rotation = ReadRotation(2)
    rotation.pick(TOPICS, everything)
    assert resources_read(everything, rotation) == 2
    assert resources_read(state(TOPICS, error=True), rotation) == 0
    assert resources_read(state(TOPICS, error=True), None) == 0
