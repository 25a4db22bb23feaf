"""The feed's fast paths give what the slow ones give: a diff that compares a resource's values
as a whole before going key by key reports the same rows, on generated states (changes,
additions, removals, errors, resources appearing and going, rotation's values carried over);
values made as tuples read as the ones made by name."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from kafka_config_admin import Config, ConfigEntry, ConfigSource, ConfigType, ResourceType
from kafka_config_admin.feed import (
    ObservedState,
    ObservedValue,
    ResourceObservation,
    diff_states,
    next_state,
    observed_values,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
#: The resources a generated cluster may hold: topics, brokers, the cluster default, loggers,
#: quota entities and SCRAM users (each kind's own source differs).
NAMES = [("TOPIC", f"t{i}") for i in range(12)] + [
    ("BROKER", "1"),
    ("BROKER", "2"),
    ("BROKER", ""),
    ("BROKER_LOGGER", "1"),
    ("QUOTA", "user=a"),
    ("SCRAM_USER", "alice"),
]
KEYS = [f"k{i}" for i in range(6)]
SOURCES = {
    "TOPIC": ("TOPIC_CONFIG", "DEFAULT_CONFIG", "DYNAMIC_DEFAULT_BROKER_CONFIG"),
    "BROKER": ("DYNAMIC_BROKER_CONFIG", "DYNAMIC_DEFAULT_BROKER_CONFIG", "STATIC_BROKER_CONFIG"),
    "BROKER_LOGGER": ("DYNAMIC_BROKER_LOGGER_CONFIG",),
    "QUOTA": ("ENTITY",),
    "SCRAM_USER": ("ENTITY",),
}


class _NeverEqual(dict[str, ObservedValue]):
    """Values that never compare equal as a whole: the diff must go key by key."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None


def _value(rng: random.Random, kind: str) -> ObservedValue:
    sensitive = rng.random() < 0.1
    value = None if sensitive else rng.choice(("1", "2", "compact", "delete"))
    return ObservedValue(
        value, rng.choice(SOURCES[kind]), rng.choice(("LONG", "STRING")), sensitive
    )


def _configs(rng: random.Random, kind: str) -> dict[str, ObservedValue]:
    return {key: _value(rng, kind) for key in rng.sample(KEYS, rng.randint(0, len(KEYS)))}


def _changed(
    rng: random.Random, kind: str, configs: Mapping[str, ObservedValue]
) -> dict[str, ObservedValue]:
    """``configs`` with a few keys changed in value, source, type or sensitivity, added or
    removed (or none at all: an equal copy)."""
    changed = dict(configs)
    for _ in range(rng.randint(0, 3)):
        key = rng.choice(KEYS)
        move = rng.random()
        if move < 0.3 and key in changed:
            del changed[key]
        elif move < 0.6 or key not in changed:
            changed[key] = _value(rng, kind)
        else:
            old = changed[key]
            changed[key] = rng.choice(
                (
                    old._replace(value=rng.choice(("1", "9", None))),
                    old._replace(source=rng.choice(SOURCES[kind])),
                    old._replace(config_type=rng.choice(("LONG", "INT"))),
                    old._replace(sensitive=not old.sensitive),
                )
            )
    return changed


def _observation(rng: random.Random, kind: str) -> ResourceObservation:
    if rng.random() < 0.1:
        return ResourceObservation(None, ("TimeoutError", "no answer"))
    return ResourceObservation(_configs(rng, kind))


def _next_observation(
    rng: random.Random, kind: str, before: ResourceObservation
) -> ResourceObservation | None:
    """What a later poll reads of a resource: the very same observation (its turn not come,
    with a rotation), an equal copy, changed values, an error, or nothing (gone)."""
    move = rng.random()
    if move < 0.2:
        return before  # a rotation's resource not described: its values carried over
    if move < 0.3:
        return ResourceObservation(None, ("TimeoutError", "no answer"))
    if move < 0.4:
        return None
    if before.configs is None:
        return ResourceObservation(_configs(rng, kind))
    if move < 0.65:
        return ResourceObservation(dict(before.configs))
    return ResourceObservation(_changed(rng, kind, before.configs))


def _states(seed: int) -> tuple[ObservedState, ObservedState]:
    rng = random.Random(seed)
    first = {name: _observation(rng, name[0]) for name in rng.sample(NAMES, rng.randint(0, 10))}
    later: dict[tuple[str, str], ResourceObservation] = {}
    for name, observation in first.items():
        seen = _next_observation(rng, name[0], observation)
        if seen is not None:
            later[name] = seen
    for name in rng.sample(NAMES, 3):  # resources that appear
        later.setdefault(name, _observation(rng, name[0]))
    before = ObservedState("c", T0, first)
    type_errors = {"QUOTA": ("UnsupportedVersionError", "old")} if rng.random() < 0.1 else {}
    observed = ObservedState("c", T0 + timedelta(seconds=10), later, type_errors=type_errors)
    return before, next_state(before, observed)


def _key_by_key(state: ObservedState) -> ObservedState:
    resources = {
        name: replace(o, configs=None if o.configs is None else _NeverEqual(o.configs))
        for name, o in state.resources.items()
    }
    return replace(state, resources=resources)


@pytest.mark.parametrize("seed", range(400))
def test_the_whole_resource_comparison_reports_what_key_by_key_reports(seed: int) -> None:
    before, after = _states(seed)
    assert diff_states(before, after) == diff_states(_key_by_key(before), _key_by_key(after))


def test_the_generated_states_cover_every_kind_of_row() -> None:
    """The generator makes what the equivalence must hold for: every kind of row, and
    resources whose values are the same object or an equal copy."""
    changes = {row.change.value for seed in range(400) for row in diff_states(*_states(seed))}
    resource_rows = {
        (row.change.value, row.key is None)
        for seed in range(400)
        for row in diff_states(*_states(seed))
    }
    assert changes == {"added", "removed", "changed", "error"}
    assert {("added", True), ("removed", True), ("added", False), ("removed", False)} <= (
        resource_rows
    )


def _entry(
    name: str,
    value: str | None,
    source: ConfigSource,
    type: ConfigType = ConfigType.UNKNOWN,
    sensitive: bool = False,
) -> ConfigEntry:
    return ConfigEntry(name=name, value=value, source=source, type=type, is_sensitive=sensitive)


def test_values_made_as_tuples_read_as_values_made_by_name() -> None:
    config = Config(
        entries=(
            _entry(
                "log.retention.ms", "1000", ConfigSource.DYNAMIC_BROKER_CONFIG, type=ConfigType.LONG
            ),
            _entry(
                "ssl.keystore.password", None, ConfigSource.DYNAMIC_BROKER_CONFIG, sensitive=True
            ),
            _entry(
                "sasl.jaas.config", "x", ConfigSource.STATIC_BROKER_CONFIG, type=ConfigType.PASSWORD
            ),
        ),
    )
    values = observed_values(config, ResourceType.BROKER)
    assert values == {
        "log.retention.ms": ObservedValue("1000", "DYNAMIC_BROKER_CONFIG", "LONG", False),
        "ssl.keystore.password": ObservedValue(None, "DYNAMIC_BROKER_CONFIG", "UNKNOWN", True),
        "sasl.jaas.config": ObservedValue(None, "STATIC_BROKER_CONFIG", "PASSWORD", True),
    }
    secret = values["sasl.jaas.config"]
    assert type(secret) is ObservedValue and secret.sensitive and secret.value is None
    assert (
        ObservedState.from_json(
            ObservedState("c", T0, {("BROKER", "1"): ResourceObservation(values)}).to_json()
        )
        .resources[("BROKER", "1")]
        .configs
        == values
    )


def test_a_state_is_kept_as_the_same_json_text_and_read_back() -> None:
    """The stream's kept states keep their text: values written as arrays, as before the
    values were tuples, so a state location written by an earlier release reads back."""
    state = ObservedState(
        "c",
        T0,
        {
            ("TOPIC", "a"): ResourceObservation(
                {
                    "k": ObservedValue("1", "TOPIC_CONFIG", "LONG"),
                    "p": ObservedValue(None, "DYNAMIC_BROKER_CONFIG", "PASSWORD", True),
                }
            ),
            ("TOPIC", "b"): ResourceObservation(None, ("TimeoutError", "no answer")),
        },
    )
    text = (
        '{"cluster":"c","time":"2026-01-01T00:00:00+00:00","error":null,"type_errors":{},'
        '"known":true,"resources":[["TOPIC","a",{"k":["1","TOPIC_CONFIG","LONG",false],'
        '"p":[null,"DYNAMIC_BROKER_CONFIG","PASSWORD",true]},null,null],'
        '["TOPIC","b",null,["TimeoutError","no answer"],null]]}'
    )
    assert state.to_json() == text
    assert ObservedState.from_json(text) == state


def test_a_states_repr_is_a_summary_whatever_its_size() -> None:
    """asyncio.run reprs its main task, result included, as it ends (Python 3.11): a poll run
    with it that returns its state must not pay for a repr of every value."""
    values = {key: ObservedValue("1", "DEFAULT_CONFIG", "LONG") for key in KEYS}
    resources = {("TOPIC", f"t{i}"): ResourceObservation(values) for i in range(20000)}
    state = ObservedState("c", T0, resources)
    assert repr(state) == (
        "ObservedState(cluster='c', time='2026-01-01T00:00:00+00:00', "
        "resources=<20000 resources>, error=None, type_errors={}, known=True)"
    )
