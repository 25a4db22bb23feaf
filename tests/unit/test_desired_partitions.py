"""Partitions and replication factors in the plan: placement, refusals, moves in progress."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping

import click
import pytest

from kafka_config_admin import (
    PartitionInfo,
    PartitionReassignment,
    TopicDescription,
    TopicPartition,
)
from kafka_config_admin.cli._desired import throttle_rate
from kafka_config_admin.desired import (
    DesiredStateError,
    Plan,
    ResourceAction,
    make_plan,
    parse_desired_state,
    place_replicas,
)
from kafka_config_admin.state import ClusterState, DesiredState

from .desired_helpers import TOPIC, topic_config

Replicas = tuple[int, ...]
THREE: dict[int, str | None] = {1: None, 2: None, 3: None}


def description(
    replicas: Mapping[int, Replicas], leaders: Mapping[int, int] = {}
) -> TopicDescription:
    """Topic ``orders`` with these replica lists; each leader is the first replica unless
    ``leaders`` says otherwise."""
    return TopicDescription(
        name="orders",
        topic_id=None,
        is_internal=False,
        partitions=tuple(
            PartitionInfo(
                partition=p,
                leader=leaders.get(p, r[0]),
                replicas=r,
                isr=r,
                offline_replicas=(),
            )
            for p, r in sorted(replicas.items())
        ),
    )


def plan_for(
    replicas: Mapping[int, Replicas],
    *,
    partitions: int | None = None,
    replication_factor: int | None = None,
    racks: Mapping[int, str | None] = THREE,
    moving: Mapping[TopicPartition, PartitionReassignment] | None = None,
    leaders: Mapping[int, int] = {},
) -> Plan:
    spec: dict[str, object] = {"name": "orders"}
    if partitions is not None:
        spec["partitions"] = partitions
    if replication_factor is not None:
        spec["replication_factor"] = replication_factor
    state = ClusterState(
        configs={TOPIC: topic_config()},
        topic_descriptions={"orders": description(replicas, leaders)},
        reassignments=moving or {},
        racks=racks,
    )
    return make_plan(DesiredState.model_validate({"topics": [spec]}), state)


def loads(placed: Mapping[int, Replicas]) -> Counter[int]:
    return Counter(broker for replicas in placed.values() for broker in replicas)


def test_the_same_count_and_factor_plan_nothing() -> None:
    made = plan_for({0: (1, 2), 1: (2, 3)}, partitions=2, replication_factor=2)
    assert not made.has_changes
    assert made.resources == ()


def test_more_partitions_are_planned_without_moving_the_others() -> None:
    made = plan_for({0: (1,), 1: (2,)}, partitions=5, replication_factor=1)
    [item] = made.resources
    assert item.action is ResourceAction.ALTER
    assert item.partitions is not None
    assert item.partitions.adds_partitions
    assert item.partitions.reassignments == {}
    assert item.partitions.to_dict()["wanted_partitions"] == 5
    assert "partitions 2 -> 5" in item.partitions.summary()


def test_fewer_partitions_are_a_problem_and_nothing_is_planned() -> None:
    made = plan_for({0: (1,), 1: (2,), 2: (3,)}, partitions=2)
    [problem] = made.problems
    assert (problem.key, problem.value) == ("partitions", "2")
    assert "Kafka cannot remove partitions" in problem.message
    assert made.partition_plans() == []


def test_more_replicas_than_brokers_is_a_problem() -> None:
    made = plan_for({0: (1,)}, replication_factor=4)
    [problem] = made.problems
    assert problem.key == "replication_factor"
    assert "the cluster has 3" in problem.message


def test_a_higher_factor_keeps_each_leader_first_and_spreads_replicas_evenly() -> None:
    current = {p: (p % 3 + 1,) for p in range(6)}
    made = plan_for(current, replication_factor=3)
    [partitions] = made.partition_plans()
    placed = partitions.reassignments
    assert set(placed) == set(range(6))
    for p, replicas in placed.items():
        assert replicas[0] == current[p][0]
        assert sorted(replicas) == [1, 2, 3]
    assert partitions.current_replicas == current


def test_a_lower_factor_keeps_the_leader_and_leaves_the_brokers_even() -> None:
    current = {p: (1, 2, 3) for p in range(6)}
    leaders = {p: p % 3 + 1 for p in range(6)}
    placed = place_replicas(current, leaders, 2, THREE)
    for p, replicas in placed.items():
        assert replicas[0] == leaders[p]
        assert len(set(replicas)) == 2
    assert set(loads(placed).values()) == {4}


@pytest.mark.parametrize("partitions", [6, 7])
def test_the_spread_stays_even_when_one_broker_leads_every_partition(partitions: int) -> None:
    # After a restart one broker may lead them all: keeping every leader would pile replicas
    # on it, so the leaders on a broker holding its share give their place up.
    current = {p: (1, 2, 3) for p in range(partitions)}
    placed = place_replicas(current, dict.fromkeys(current, 1), 2, THREE)
    counts = loads(placed).values()
    assert max(counts) - min(counts) <= 1
    assert sum(replicas[0] == 1 for replicas in placed.values()) >= partitions * 2 // 3


def test_a_leader_that_is_not_the_first_replica_is_no_change() -> None:
    # After a restart the leader may be any replica: not a reason to move anything.
    made = plan_for({0: (1, 2), 1: (2, 3)}, replication_factor=2, leaders={0: 2, 1: 3})
    assert made.resources == ()
    placed = place_replicas({0: (1, 2)}, {0: 2}, 3, THREE)
    assert placed[0][0] == 2  # a partition that moves anyway gets its leader first


def test_uneven_replicas_stay_unless_the_file_names_a_replication_factor() -> None:
    # One partition reassigned alone leaves the topic with partitions of 1 and 2 replicas: a
    # file that names no factor (an export of such a topic) moves nothing.
    uneven = {0: (1, 2), 1: (2,), 2: (3,)}
    assert plan_for(uneven).resources == ()
    assert plan_for(uneven, partitions=4).partition_plans()[0].reassignments == {}
    [partitions] = plan_for(uneven, replication_factor=2).partition_plans()
    assert set(partitions.reassignments) == {1, 2}
    assert partitions.fewest_replicas == 1
    assert "replication factor 1-2 (uneven) -> 2 (2 partition(s) moved)" in partitions.summary()


def test_a_partition_without_a_leader_keeps_its_first_replica_first() -> None:
    current: dict[int, Replicas] = {0: (2, 3)}
    placed = place_replicas(current, {0: None}, 3, THREE)
    assert placed[0][0] == 2
    assert sorted(placed[0]) == [1, 2, 3]


def test_racks_get_one_replica_each_before_any_gets_two() -> None:
    racks = {1: "a", 2: "a", 3: "b", 4: "b", 5: "c", 6: "c"}
    current = {p: (p % 6 + 1,) for p in range(12)}
    placed = place_replicas(current, {}, 3, racks)
    for p, replicas in placed.items():
        assert replicas[0] == current[p][0]
        assert {racks[b] for b in replicas} == {"a", "b", "c"}, (p, replicas)
    assert set(loads(placed).values()) == {6}


def test_dropping_replicas_drops_a_second_one_on_a_rack_first() -> None:
    racks = {1: "a", 2: "a", 3: "b"}
    placed = place_replicas({0: (1, 2, 3)}, {0: 1}, 2, racks)
    assert placed[0] == (1, 3)


def test_more_partitions_and_another_factor_place_the_new_partitions_too() -> None:
    made = plan_for({0: (1,), 1: (2,)}, partitions=3, replication_factor=2)
    [partitions] = made.partition_plans()
    assert partitions.adds_partitions
    assert set(partitions.reassignments) == {0, 1, 2}
    assert all(len(set(r)) == 2 for r in partitions.reassignments.values())
    assert set(loads(partitions.reassignments).values()) == {2}


def test_a_move_in_progress_is_shown_and_nothing_else_is_planned() -> None:
    # Adding replica 3 to partition 0: the metadata lists old and new replicas meanwhile.
    moving = {TopicPartition("orders", 0): PartitionReassignment((1, 2, 3), (3,), (2,))}
    made = plan_for({0: (1, 2, 3), 1: (2, 3)}, replication_factor=2, moving=moving)
    [partitions] = made.partition_plans()
    assert partitions.in_progress == {0: (1, 3)}
    assert partitions.reassignments == {}
    assert partitions.current_replication_factor == 2
    assert "reassignment in progress" in partitions.summary()
    assert made.has_changes


def test_a_move_of_another_topic_is_not_this_topics() -> None:
    moving = {TopicPartition("other", 0): PartitionReassignment((1, 2), (2,), ())}
    assert plan_for({0: (1,)}, replication_factor=1, moving=moving).resources == ()


@pytest.mark.parametrize("count", ["true", "'6'", "6.0", "0", "2147483648"])
def test_counts_that_are_not_plain_positive_integers_are_errors_in_the_file(count: str) -> None:
    text = f"topics:\n  - {{name: orders, partitions: {count}, replication_factor: {count}}}\n"
    with pytest.raises(DesiredStateError) as raised:
        parse_desired_state(text)
    assert "topics[0].partitions" in str(raised.value)
    assert "topics[0].replication_factor" in str(raised.value)


@pytest.mark.parametrize(
    ("text", "rate"),
    [("1048576", 1048576), ("10MiB", 10 * 2**20), ("500kB/s", 500_000), (" 1000/s ", 1000)],
)
def test_throttle_rates_take_units(text: str, rate: int) -> None:
    assert throttle_rate(text) == rate


@pytest.mark.parametrize("text", ["0", "-5", "fast", "1.5B", "10 parsecs"])
def test_bad_throttle_rates_are_usage_errors(text: str) -> None:
    with pytest.raises(click.BadParameter):
        throttle_rate(text)


def evenly_led(
    brokers: int, partitions: int, seed: int
) -> Iterator[tuple[dict[int, Replicas], dict[int, int]]]:
    """Replica lists at every factor for ``partitions`` led evenly by ``brokers`` brokers, in
    random orders (fixed seed)."""
    rnd = random.Random(seed)
    ids = list(range(1, brokers + 1))
    leaders = [ids[p % brokers] for p in range(partitions)]
    rnd.shuffle(leaders)
    for factor in ids:
        current: dict[int, Replicas] = {}
        for p, leader in enumerate(leaders):
            others = [b for b in ids if b != leader]
            rnd.shuffle(others)
            current[p] = (leader, *others)[:factor]
        yield current, dict(enumerate(leaders))


@pytest.mark.parametrize("brokers", range(1, 8))
def test_a_new_factor_keeps_evenly_spread_leaders_first_and_the_brokers_even(brokers: int) -> None:
    # Chosen one partition at a time, the last partitions could find their only room on the
    # broker that leads them (a real reassignment once moved a leader that way).
    for seed in range(60):
        for current, leaders in evenly_led(brokers, 1 + seed % 13, seed):
            ids = dict.fromkeys(range(1, brokers + 1))
            for factor in range(1, brokers + 1):
                if factor == len(current[0]):
                    continue
                placed = place_replicas(current, leaders, factor, ids)
                assert all(len(set(r)) == len(r) == factor for r in placed.values())
                assert all(placed[p][0] == leaders[p] for p in placed), (current, placed)
                counts = [loads(placed)[b] for b in ids]
                assert max(counts) - min(counts) <= 1, (current, placed)
