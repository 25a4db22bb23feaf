"""Partitions and replication factor of existing topics: compared, and the moves planned (no I/O).

More partitions is a CreatePartitions; fewer is a problem (Kafka cannot remove partitions, and
a delete and recreate loses the data: never planned). A different replication factor is a
reassignment: every partition gets a new replica list that keeps its current leader first and
as many of its replicas as it can, and spreads the replicas evenly over the brokers (and over
racks, when the brokers report racks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from .. import (
    ConfigResource,
    PartitionReassignment,
    ResourceType,
    TopicDescription,
    TopicPartition,
)
from ..state._check import Problem

__all__ = ["PartitionPlan", "place_replicas", "plan_partitions"]

Replicas = tuple[int, ...]


class PartitionPlan(BaseModel):
    """What changes in one topic's partitions: more of them, other replica lists, or a
    reassignment still under way.

    The partitions to add are placed by the controller at the topic's replication factor
    (Kafka refuses new partitions with another one); ``reassignments`` maps partitions to
    their new replica lists (the added partitions too, when the factor changes),
    ``current_replicas`` shows what the existing ones have now; ``in_progress`` maps the
    partitions a reassignment is moving to their target replica lists.
    ``current_replication_factor`` is the most replicas a partition has; ``fewest_replicas``
    the fewest when the partitions differ (one reassigned alone), else None.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    topic: str
    current_partitions: int
    wanted_partitions: int
    current_replication_factor: int
    wanted_replication_factor: int
    fewest_replicas: int | None = None
    reassignments: dict[int, Replicas] = {}
    current_replicas: dict[int, Replicas] = {}
    in_progress: dict[int, Replicas] = {}

    @property
    def adds_partitions(self) -> bool:
        """Whether apply raises the partition count."""
        return self.wanted_partitions > self.current_partitions

    @property
    def has_changes(self) -> bool:
        """Whether anything is to be done or still under way."""
        return self.adds_partitions or bool(self.reassignments) or bool(self.in_progress)

    def moves(self) -> dict[TopicPartition, Replicas]:
        """The reassignments to start, by partition."""
        return {
            TopicPartition(self.topic, partition): replicas
            for partition, replicas in self.reassignments.items()
        }

    def to_dict(self) -> dict[str, Any]:
        """The plan's JSON shape of a topic's partition changes."""
        return {
            "current_partitions": self.current_partitions,
            "wanted_partitions": self.wanted_partitions,
            "current_replication_factor": self.current_replication_factor,
            "fewest_replicas": self.fewest_replicas,
            "wanted_replication_factor": self.wanted_replication_factor,
            "reassignments": [
                {
                    "partition": partition,
                    "current": list(self.current_replicas.get(partition, ())),
                    "wanted": list(replicas),
                }
                for partition, replicas in sorted(self.reassignments.items())
            ],
            "in_progress": [
                {"partition": partition, "target": list(replicas)}
                for partition, replicas in sorted(self.in_progress.items())
            ],
        }

    def summary(self) -> str:
        """One line for a table: what changes."""
        parts = []
        if self.in_progress:
            parts.append(f"reassignment in progress ({len(self.in_progress)} partition(s))")
        if self.adds_partitions:
            parts.append(f"partitions {self.current_partitions} -> {self.wanted_partitions}")
        if self.reassignments:
            current = str(self.current_replication_factor)
            if self.fewest_replicas is not None:
                current = f"{self.fewest_replicas}-{current} (uneven)"
            parts.append(
                f"replication factor {current} -> "
                f"{self.wanted_replication_factor} ({len(self.reassignments)} partition(s) moved)"
            )
        return "; ".join(parts)


def plan_partitions(
    description: TopicDescription,
    wanted_partitions: int | None,
    wanted_replication_factor: int | None,
    racks: Mapping[int, str | None],
    moving: Mapping[TopicPartition, PartitionReassignment],
) -> tuple[PartitionPlan | None, list[Problem]]:
    """Compare a topic's partitions with what the file wants: the plan (None: nothing to do)
    and the problems (fewer partitions, more replicas than brokers).

    Replicas move only when the file names a replication factor: then every partition gets
    it, also one whose count differs from the others' (a partition reassigned alone). A file
    that names none leaves every replica list as it is."""
    name = description.name
    resource = ConfigResource(ResourceType.TOPIC, name)
    current = {info.partition: info.replicas for info in description.partitions}
    in_progress = {
        key.partition: reassignment.target_replicas
        for key, reassignment in moving.items()
        if key.topic == name
    }
    # While replicas are added, a partition lists old and new ones: its factor is the target's.
    settled = {p: in_progress.get(p, replicas) for p, replicas in current.items()}
    counts = {len(replicas) for replicas in settled.values()}
    current_rf = max(counts, default=0)
    partitions = wanted_partitions or len(current)
    replication_factor = wanted_replication_factor or current_rf
    problems = []
    if partitions < len(current):
        problems.append(
            _problem(
                resource,
                "partitions",
                partitions,
                f"the topic has {len(current)} partitions; Kafka cannot remove partitions, "
                "and deleting and recreating the topic would lose its data: nothing is sent",
            )
        )
    if replication_factor > len(racks):
        problems.append(
            _problem(
                resource,
                "replication_factor",
                replication_factor,
                f"needs {replication_factor} brokers; the cluster has {len(racks)}",
            )
        )
    if problems:
        return None, problems
    plan = PartitionPlan(
        topic=name,
        current_partitions=len(current),
        wanted_partitions=partitions,
        current_replication_factor=current_rf,
        wanted_replication_factor=replication_factor,
        fewest_replicas=min(counts) if len(counts) > 1 else None,
        in_progress=in_progress,
    )
    if in_progress:  # a move under way: follow it, plan nothing more until it ends
        return plan, []
    if wanted_replication_factor is None:  # replicas are not the file's business
        return (plan if plan.has_changes else None), []
    leaders = {info.partition: info.leader for info in description.partitions}
    everyone = dict(current)
    if replication_factor != current_rf:  # the partitions to add are placed with the others
        everyone.update((p, ()) for p in range(len(current), partitions))
    changed = {
        p: replicas
        for p, replicas in place_replicas(everyone, leaders, replication_factor, racks).items()
        if replicas != everyone[p]
    }
    current_replicas = {p: current[p] for p in changed if p in current}
    plan = plan.model_copy(update={"reassignments": changed, "current_replicas": current_replicas})
    return (plan if plan.has_changes else None), []


def _problem(resource: ConfigResource, key: str, value: int, message: str) -> Problem:
    return Problem(
        resource=resource, key=key, value=str(value), expected_type=None, message=message
    )


def place_replicas(
    current: Mapping[int, Replicas],
    leaders: Mapping[int, int | None],
    replication_factor: int,
    racks: Mapping[int, str | None],
) -> dict[int, Replicas]:
    """Each partition's replica list at ``replication_factor`` (a partition to add: no
    replicas yet), spread evenly over the brokers ``racks`` lists.

    A partition that has as many replicas already keeps its list as it is (a leader that moved
    after a restart is no reason to move replicas). The others keep their current leader (their
    first replica when they have no leader) first, while its broker is below its even share of
    the topic's replicas; then they choose their other replicas one by one, preferring, in this
    order: a rack the partition does not use yet (when brokers report racks); a broker below
    its share; its other current replicas (no data to copy); the broker holding the fewest
    replicas. So the spread stays even when the leaders are not (after a restart, one broker
    may lead them all): a leader on a broker that holds its share already gives its place up.
    """
    brokers = sorted(racks)
    # The even share: ``floor`` replicas each, one more on ``extra`` of the brokers.
    floor, extra = divmod(replication_factor * len(current), max(len(brokers), 1))
    load: Counter[int] = Counter()

    def full(broker: int) -> bool:
        """Whether ``broker`` holds its share already."""
        if load[broker] > floor:
            return True
        return load[broker] == floor and sum(load[b] > floor for b in brokers) >= extra

    placed: dict[int, Replicas] = {}
    for partition, replicas in current.items():
        if len(replicas) == replication_factor:  # never moved only to reorder its replicas
            placed[partition] = tuple(replicas)
            load.update(replicas)
    to_place = sorted((p, r) for p, r in current.items() if p not in placed)
    # Every leader's place is kept before any other replica is chosen: chosen one partition at
    # a time, the other replicas of the first partitions could fill a broker's share before
    # the partitions it leads come, and evenly spread leaders would then move for nothing.
    kept: dict[int, int] = {}
    for partition, replicas in to_place:
        leader = leaders.get(partition)
        first = leader if leader in replicas else next(iter(replicas), None)
        if first is not None and not full(first):
            kept[partition] = first
            load[first] += 1
    for partition, replicas in to_place:
        first = kept.get(partition)
        candidates = [*brokers, *(b for b in replicas if b not in racks)]
        turn = {b: (i - partition) % len(candidates) for i, b in enumerate(candidates)}
        chosen: list[int] = [] if first is None else [first]
        while len(chosen) < replication_factor:
            added = min(
                (b for b in candidates if b not in chosen),
                key=lambda b: (
                    _rack_taken(b, chosen, racks),
                    full(b),
                    b not in replicas,
                    load[b],
                    turn[b],  # ties go round the brokers, so new partitions' leaders spread
                ),
            )
            chosen.append(added)
            load[added] += 1
        placed[partition] = tuple(chosen)
    _even_out(placed, [p for p, _ in to_place], load, brokers, racks)
    return placed


def _even_out(
    placed: dict[int, Replicas],
    movable: list[int],
    load: Counter[int],
    brokers: list[int],
    racks: Mapping[int, str | None],
) -> None:
    """Move replicas (never a partition's first) off the fullest broker until the brokers'
    counts differ by one at most, or no chain of moves can get there.

    Choosing one partition at a time can end in a corner: the partitions that could take a
    replica off the fullest broker may all hold one on the emptiest already. A chain of moves
    then does it (the fullest gives to a broker that gives to the emptiest), each broker on
    the way keeping its count.
    """
    while brokers:
        fullest = max(brokers, key=lambda b: (load[b], -b))
        chain = _moves_to_room(placed, movable, fullest, load, racks)
        if chain is None:
            return
        for partition, source, target in chain:
            placed[partition] = tuple(target if b == source else b for b in placed[partition])
        load[fullest] -= 1
        load[chain[-1][2]] += 1


def _moves_to_room(
    placed: Mapping[int, Replicas],
    movable: list[int],
    fullest: int,
    load: Counter[int],
    racks: Mapping[int, str | None],
) -> list[tuple[int, int, int]] | None:
    """The shortest chain of moves ``(partition, from, to)`` that takes one replica off
    ``fullest`` and puts one on a broker holding two fewer at least, or ``None``.

    Each move is one a partition can take by itself (the broker it moves to holds none of its
    replicas yet, and no second replica lands on a rack); each partition moves once at most.
    """
    reached: dict[int, list[tuple[int, int, int]]] = {fullest: []}
    frontier = [fullest]
    while frontier:
        following = []
        for source in frontier:
            chain = reached[source]
            used = {partition for partition, _, _ in chain}
            for partition in movable:
                replicas = placed[partition]
                if partition in used or source not in replicas[1:]:
                    continue
                others = [b for b in replicas if b != source]
                for target in sorted(racks):
                    if target in reached or target in replicas:
                        continue
                    if _rack_taken(target, others, racks) and not _rack_taken(
                        source, others, racks
                    ):
                        continue
                    reached[target] = [*chain, (partition, source, target)]
                    if load[target] <= load[fullest] - 2:
                        return reached[target]
                    following.append(target)
        frontier = following
    return None


def _rack_taken(broker: int, chosen: list[int], racks: Mapping[int, str | None]) -> bool:
    """Whether another replica of ``chosen`` is on ``broker``'s rack (no rack: never)."""
    rack = racks.get(broker)
    return rack is not None and any(racks.get(b) == rack for b in chosen if b != broker)
