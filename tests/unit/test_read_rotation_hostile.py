"""``ReadRotation`` under resources that come, go and keep failing between bounded polls.

The promise (docs/change-feed.md, "Freshness or cost"): with T resources and a bound of N a
change is seen within ceil(T / N) polls, and new or failed resources are read "past the
bound". Each case below runs polls and checks that every held resource is described again
within that many polls.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

from kafka_config_admin import ConfigResource, ResourceType
from kafka_config_admin.feed import ObservedState, ObservedValue, ReadRotation, ResourceObservation

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def topics(*names: str) -> list[ConfigResource]:
    return [ConfigResource(ResourceType.TOPIC, name) for name in names]


def state(resources: list[ConfigResource], *, failed: tuple[str, ...] = ()) -> ObservedState:
    values = {"retention.ms": ObservedValue("1", "TOPIC_CONFIG", "LONG", False)}
    return ObservedState(
        "c",
        NOW,
        {
            ("TOPIC", r.name): ResourceObservation(
                None if r.name in failed else values,
                ("TopicAuthorizationFailedError", "denied") if r.name in failed else None,
            )
            for r in resources
        },
    )


def longest_wait(polls: list[tuple[list[ConfigResource], ObservedState]], bound: int) -> int:
    """Run the polls (what is listed, what the feed holds before it) on one rotation: the most
    polls from one description of a resource to its next (a change made just after the first
    is seen at the second), the next poll counted for a resource still waiting at the end."""
    rotation = ReadRotation(bound)
    last_read: dict[str, int] = {}
    worst = 0
    for number, (listed, before) in enumerate(polls):
        for resource in rotation.pick(listed, before):
            worst = max(worst, number - last_read.get(resource.name, number))
            last_read[resource.name] = number
    for resource in polls[-1][0]:
        worst = max(worst, len(polls) - last_read.get(resource.name, 0))
    return worst


def test_with_the_same_resources_each_waits_at_most_ceil_t_over_n_polls() -> None:
    # The measure the cases below use, on what the promise is about: it is met exactly.
    listed = topics("a", "b", "c", "d", "e")
    polls = [(listed, state([])), *[(listed, state(listed))] * 7]
    assert longest_wait(polls, 2) == math.ceil(5 / 2)


def test_a_bound_larger_than_the_resources_reads_each_at_every_poll() -> None:
    listed = topics("a", "b", "c")
    rotation = ReadRotation(10**9)
    assert rotation.pick(listed, None) == listed
    for _ in range(3):
        assert rotation.pick(listed, state(listed)) == listed
        assert rotation.last_read == 3


def test_resources_all_gone_then_back_never_divide_by_zero() -> None:
    rotation, listed = ReadRotation(2), topics("a", "b", "c")
    rotation.pick(listed, None)
    assert rotation.pick([], state(listed)) == []
    assert rotation.last_read == 0
    assert rotation.pick(listed, state([])) == listed  # all new again: past the bound


def test_a_resource_failing_at_every_poll_does_not_starve_the_others() -> None:
    # A topic the client may list but not describe (an ACL) fails at every poll.
    listed = topics("denied", "b", "c", "d")
    before = state(listed, failed=("denied",))
    polls = [(listed, before)] * 8
    bound = 1
    assert longest_wait([(listed, state([])), *polls], bound) <= math.ceil(len(listed) / bound)


def test_a_topic_created_between_polls_does_not_delay_the_others_past_the_promise() -> None:
    old = topics("b", "c", "d", "e")
    new = topics("a", "b", "c", "d", "e")
    bound = 2
    polls = [
        (old, state([])),  # the baseline: everything
        (old, state(old)),  # b, c
        (new, state(old)),  # a (new) and the turn
        (new, state(new)),
        (new, state(new)),
        (new, state(new)),
    ]
    assert longest_wait(polls, bound) <= math.ceil(len(new) / bound)


def test_a_topic_deleted_between_polls_does_not_delay_the_others_past_the_promise() -> None:
    old = topics("a", "b", "c", "d")
    now = topics("b", "c", "d")
    bound = 2
    polls = [
        (old, state([])),
        (old, state(old)),  # a, b
        (now, state(old)),
        (now, state(now)),
    ]
    assert longest_wait(polls, bound) <= math.ceil(len(old) / bound)
