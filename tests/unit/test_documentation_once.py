"""The documentation a client holds per broker process and resource type (``_ops.documentation``).

Pure logic: which keys a describe must still ask for, of which node, and entries filled from
what was learned. Against a broker: tests/integration/test_documentation_once.py.
"""

from __future__ import annotations

from kafka_config_admin import ConfigEntry, ConfigResource, ConfigSource, ConfigType, ResourceType
from kafka_config_admin._models.configs import Config, config_of
from kafka_config_admin._ops.configs import DescribeConfigs, Withheld
from kafka_config_admin._ops.documentation import Documentation, FollowUp
from kafka_config_admin._protocol import ANSWERED_BY, Answerer

TOPIC = ResourceType.TOPIC
BROKER_1 = Answerer(node_id=1, session=10)
BROKER_2 = Answerer(node_id=2, session=11)
DOCS: dict[str, str | None] = {
    "retention.ms": "How long to keep a log.",
    "cleanup.policy": "delete or compact.",
}


def config(
    docs: dict[str, str | None] | None = None, names: tuple[str, ...] = tuple(DOCS)
) -> Config:
    """A topic's config as a broker sends it, with ``docs`` or without documentation."""
    return config_of(
        tuple(
            ConfigEntry(
                name=name,
                value="1",
                source=ConfigSource.DEFAULT_CONFIG,
                is_default=True,
                type=ConfigType.STRING,
                documentation=None if docs is None else docs[name],
            )
            for name in names
        )
    )


def topic(name: str) -> ConfigResource:
    return ConfigResource(TOPIC, name)


def test_nothing_held_asks_one_resource_of_the_broker_that_answered_for_every_key() -> None:
    held = Documentation()
    answers = {topic(f"t{i}"): (BROKER_1, config()) for i in range(50)}
    assert held.fill(BROKER_1, TOPIC, config()) is None
    asks = held.follow_ups(answers)
    assert list(asks.values()) == [FollowUp(1, sorted(DOCS))]


def test_filled_entries_equal_the_documented_answer_and_are_shared() -> None:
    held = Documentation()
    held.learn(BROKER_1, TOPIC, config(DOCS))
    plain = config()
    filled = held.fill(BROKER_1, TOPIC, plain)
    assert filled == config(DOCS)
    assert held.fill(BROKER_1, TOPIC, plain) is filled  # one model for a repeated config
    assert held.follow_ups({topic("a"): (BROKER_1, plain)}) == {}


def test_a_key_documented_as_none_is_held_as_none() -> None:
    held = Documentation()
    held.learn(BROKER_1, TOPIC, config({"retention.ms": None}, names=("retention.ms",)))
    filled = held.fill(BROKER_1, TOPIC, config(names=("retention.ms",)))
    assert filled is not None and filled["retention.ms"].documentation is None


def test_a_new_key_is_asked_alone() -> None:
    held = Documentation()
    held.learn(BROKER_1, TOPIC, config(DOCS))
    with_new_key = config(names=(*DOCS, "new.key"))
    assert held.fill(BROKER_1, TOPIC, with_new_key) is None
    asks = held.follow_ups({topic("a"): (BROKER_1, config()), topic("b"): (BROKER_1, with_new_key)})
    assert asks == {topic("b"): FollowUp(1, ["new.key"])}


def test_another_broker_is_asked_for_itself() -> None:
    held = Documentation()
    held.learn(BROKER_1, TOPIC, config(DOCS))
    assert held.fill(BROKER_2, TOPIC, config()) is None
    assert held.follow_ups({topic("a"): (BROKER_2, config())}) == {
        topic("a"): FollowUp(2, sorted(DOCS))
    }


def test_a_restarted_broker_is_asked_again_and_its_old_documentation_dropped() -> None:
    held = Documentation()
    held.learn(BROKER_1, TOPIC, config(DOCS))
    restarted = BROKER_1._replace(session=99)  # a new connection to node 1
    assert held.fill(restarted, TOPIC, config()) is None
    held.learn(restarted, TOPIC, config({**DOCS, "retention.ms": "Another release's text."}))
    filled = held.fill(restarted, TOPIC, config())
    assert filled is not None and filled["retention.ms"].documentation == "Another release's text."
    assert held.fill(BROKER_1, TOPIC, config()) is None  # the old process's answers: not filled


def test_each_resource_type_is_held_apart() -> None:
    held = Documentation()
    held.learn(BROKER_1, TOPIC, config(DOCS))
    assert held.fill(BROKER_1, ResourceType.BROKER, config()) is None
    broker = ConfigResource(ResourceType.BROKER, "1")
    assert held.follow_ups({broker: (BROKER_1, config())}) == {broker: FollowUp(1, sorted(DOCS))}


def test_keys_spread_over_resources_are_covered_by_the_fewest() -> None:
    held = Documentation()
    answers = {
        topic("a"): (BROKER_1, config(names=("x",))),
        topic("b"): (BROKER_1, config(names=("x", "y", "z"))),
        topic("c"): (BROKER_1, config(names=("w", "x"))),
    }
    assert held.follow_ups(answers) == {
        topic("b"): FollowUp(1, ["x", "y", "z"]),
        topic("c"): FollowUp(1, ["w"]),
    }


def test_two_clients_never_share_what_they_hold() -> None:
    one, other = Documentation(), Documentation()
    one.learn(BROKER_1, TOPIC, config(DOCS))
    assert other.fill(BROKER_1, TOPIC, config()) is None


def test_past_the_limit_filled_copies_start_again_and_stay_correct() -> None:
    held = Documentation(limit=1)
    held.learn(BROKER_1, TOPIC, config(DOCS))
    for _ in range(3):
        assert held.fill(BROKER_1, TOPIC, config()) == config(DOCS)


def test_types_are_those_any_broker_documented() -> None:
    held = Documentation()
    assert TOPIC not in held.types
    held.learn(BROKER_1, TOPIC, config(DOCS))
    assert TOPIC in held.types
    assert ResourceType.BROKER not in held.types


def test_configs_with_the_same_keys_missing_are_asked_once_whatever_their_number() -> None:
    held = Documentation()
    shared = config()
    answers = {topic(f"t{i}"): (BROKER_1, shared) for i in range(2000)}
    answers[topic("other")] = (BROKER_1, config(names=("retention.ms",)))
    assert list(held.follow_ups(answers).values()) == [FollowUp(1, sorted(DOCS))]


def _raw_entry(name: str, documentation: str | None) -> dict[str, object]:
    """One entry of a DescribeConfigs answer, as the decoder hands it over."""
    return {
        "name": name,
        "value": "1",
        "read_only": False,
        "is_default": True,
        "config_source": 5,  # DEFAULT_CONFIG
        "is_sensitive": False,
        "synonyms": [],
        "config_type": 2,  # STRING
        "documentation": documentation,
    }


def _answer(names: list[str], documented: bool, answerer: Answerer) -> dict[str, object]:
    """A broker's answer for the topics ``names``, with or without documentation."""
    configs = [_raw_entry(name, DOCS[name] if documented else None) for name in DOCS]
    return {
        "results": [
            {
                "error_code": 0,
                "error_message": None,
                "resource_type": TOPIC,
                "resource_name": name,
                "configs": configs,
            }
            for name in names
        ],
        ANSWERED_BY: answerer,
    }


def test_a_describe_fills_held_answers_and_withholds_the_rest() -> None:
    # ``DescribeConfigs`` with documentation: what the broker process that answered is held
    # for settles at once, equal to the answer sent with documentation; the rest is handed
    # to ``withhold`` with who answered, and never settled by the engine.
    held = Documentation()
    withheld: list[Withheld] = []
    topics = [ConfigResource(TOPIC, "a"), ConfigResource(TOPIC, "b")]

    def describe(documentation: Documentation | None = held) -> DescribeConfigs:
        return DescribeConfigs.build(
            topics,
            include_synonyms=True,
            include_documentation=documentation is None,
            documentation=documentation,
            withhold=lambda asked, answers: withheld.append(answers),
        )

    documented = dict(describe(None).outcomes(topics, _answer(["a", "b"], True, BROKER_1)))
    first = dict(describe().outcomes(topics, _answer(["a", "b"], False, BROKER_1)))
    assert first == {} and set(withheld[0]) == set(topics)
    answerer, first_config = withheld[0][topics[0]]
    assert answerer == BROKER_1 and first_config["retention.ms"].documentation is None
    taught = documented[topics[0]]
    assert (
        isinstance(taught, Config) and taught["retention.ms"].documentation == DOCS["retention.ms"]
    )
    held.learn(BROKER_1, TOPIC, taught)
    again = dict(describe().outcomes(topics, _answer(["a", "b"], False, BROKER_1)))
    assert again == documented and len(withheld) == 1
    # Another broker process is not filled from what BROKER_1 said, nor an unnamed one.
    for answerer in (BROKER_2, Answerer(node_id=1, session=99), None):
        answer = _answer(["a", "b"], False, BROKER_1)
        if answerer is None:
            del answer[ANSWERED_BY]
        else:
            answer[ANSWERED_BY] = answerer
        assert dict(describe().outcomes(topics, answer)) == {}
        assert withheld[-1][topics[1]] == (answerer, first_config)
