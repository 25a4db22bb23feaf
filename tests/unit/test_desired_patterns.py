"""Users' patterns in desired-state files: matched as Python's re would, and, within a time
budget, stopped with a typed error naming the pattern when they backtrack without end."""

from __future__ import annotations

import pickle

import anyio
import pytest

from kafka_config_admin import ConfigResource, InvalidArgumentError, ResourceType
from kafka_config_admin.desired import evaluate_state, make_plan, parse_desired_state
from kafka_config_admin.state import (
    ClusterState,
    PatternTimeoutError,
    UserPattern,
    find_matching,
    match_budget,
)

from .desired_helpers import T, entry, topic_config

#: On a name of 80 'a's this pattern needs about 2**50 steps: no budget would ever end it.
CATASTROPHIC = r"(a|aa)+z"
LONG_NAME = "a" * 80


def test_a_pattern_matches_as_re_does() -> None:
    pattern = UserPattern(r"orders\..*")
    assert pattern.fullmatch("orders.eu") is not None
    assert pattern.fullmatch("audit.orders.eu") is None
    assert pattern.search("audit.orders.eu") is not None
    with match_budget():
        assert pattern.fullmatch("orders.us") is not None


def test_a_pattern_that_is_not_a_regular_expression_names_where_it_comes_from() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^ignore '\(' is not a regular expression"):
        UserPattern("(", "ignore")


def test_a_catastrophic_pattern_is_stopped_by_the_budget() -> None:
    pattern = UserPattern(CATASTROPHIC)
    with pytest.raises(PatternTimeoutError) as stopped, match_budget(0.2):
        pattern.fullmatch(LONG_NAME)
    assert isinstance(stopped.value, InvalidArgumentError)
    assert stopped.value.pattern == CATASTROPHIC
    assert "takes too long to match" in str(stopped.value)


def test_one_budget_covers_every_match_and_an_inner_one_cannot_extend_it() -> None:
    slow = UserPattern(CATASTROPHIC)
    fast = UserPattern("a+")
    with match_budget(0.2):
        with pytest.raises(PatternTimeoutError), match_budget(60):
            slow.fullmatch(LONG_NAME)
        # the budget is spent: even a quick match is refused now, before it runs
        with pytest.raises(PatternTimeoutError):
            fast.fullmatch("aaa")
    with match_budget(0.2):  # a new budget
        assert fast.fullmatch("aaa") is not None


def test_a_budget_per_match_gives_each_match_the_whole_budget() -> None:
    slow = UserPattern(CATASTROPHIC)
    fast = UserPattern("a+")
    with match_budget(0.2, per_match=True):
        for _ in range(3):  # more than 0.2 s in all, each match well within it
            assert fast.fullmatch("a" * 10_000) is not None
        with pytest.raises(PatternTimeoutError):
            slow.fullmatch(LONG_NAME)


async def test_a_server_finds_matches_off_the_event_loop() -> None:
    names = ["orders", "orders-eu", "audit.orders"]
    pattern = UserPattern("orders.*")
    assert await find_matching(pattern, names, whole=True) == ["orders", "orders-eu"]
    with match_budget():
        assert await find_matching(pattern, names, whole=False) == names


async def test_a_server_keeps_serving_while_a_catastrophic_match_runs() -> None:
    """Matched on the event loop, a pattern that backtracks would hold every other task until
    its budget ran out; find_matching matches in a worker thread, so they go on, and its
    caller has the error when the budget's seconds of wall clock pass."""
    finished = anyio.Event()

    async def hostile() -> None:
        with pytest.raises(PatternTimeoutError) as stopped, match_budget(1.5):
            await find_matching(UserPattern(CATASTROPHIC), [LONG_NAME], whole=False)
        assert stopped.value.pattern == CATASTROPHIC
        finished.set()

    async with anyio.create_task_group() as group:
        group.start_soon(hostile)
        await anyio.sleep(0.05)
        assert not finished.is_set()  # this task ran while the match went on
        await finished.wait()


def test_patterns_pickle_and_compare_by_their_text() -> None:
    pattern = UserPattern("orders.*", "pattern")
    copied = pickle.loads(pickle.dumps(pattern))
    assert copied == pattern and hash(copied) == hash(pattern)
    assert copied.fullmatch("orders-eu") is not None
    assert UserPattern("a") != UserPattern("b")


def test_equal_files_are_equal_desired_states() -> None:
    text = "topics:\n  - pattern: 'orders.*'\n    configs: {retention.ms: 1d}\n"
    assert parse_desired_state(text) == parse_desired_state(text)


def _state(*names: str) -> ClusterState:
    # every topic also has an override named with 80 'a's (for the ignore entries to meet)
    hostile_key = entry(LONG_NAME, "x", T)
    configs = {
        ConfigResource(ResourceType.TOPIC, name): topic_config(hostile=hostile_key)
        for name in names
    }
    return ClusterState(configs=configs, topics=frozenset(names))


@pytest.mark.parametrize(
    "text",
    [
        f"topics:\n  - pattern: '{CATASTROPHIC}'\n    configs: {{retention.ms: 1d}}\n",
        f"topics:\n  - name: orders\n    configs: {{retention.ms: 1d}}\n"
        f"ignore:\n  topics: ['{CATASTROPHIC}']\n",
    ],
    ids=["topic pattern", "ignore entry"],
)
def test_a_file_whose_pattern_backtracks_without_end_is_refused_within_the_budget(
    text: str,
) -> None:
    desired = parse_desired_state(text, source="hostile.yaml")
    with pytest.raises(PatternTimeoutError) as stopped, match_budget(0.3):
        make_plan(desired, _state("orders", LONG_NAME), prune=True)
    assert CATASTROPHIC in str(stopped.value)


def test_a_rule_whose_match_backtracks_without_end_is_refused_within_the_budget() -> None:
    text = f"rules:\n  - check: retention.ms >= 1d\n    match: '{CATASTROPHIC}'\n"
    desired = parse_desired_state(text, source="hostile.yaml")
    with pytest.raises(PatternTimeoutError), match_budget(0.3):
        evaluate_state(desired.rules, _state(LONG_NAME), desired=desired)


def test_the_file_knows_whether_it_deletes_a_key() -> None:
    sets = parse_desired_state("topics:\n  - name: orders\n    configs: {retention.ms: 1d}\n")
    resets = parse_desired_state("brokers:\n  1:\n    configs: {log.cleaner.threads: null}\n")
    assert not sets.deletes_keys
    assert resets.deletes_keys
