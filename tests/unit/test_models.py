"""Models: enums absorb unknown ids, resources are dict keys, secrets never show."""

from __future__ import annotations

import pickle
import subprocess
import sys
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from kafka_config_admin import (
    AlterConfigOp,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigType,
    InvalidArgumentError,
    OpType,
    QuotaMatchType,
    ResourceType,
    ScramMechanism,
)
from kafka_config_admin.toolkit import is_sensitive_name


def test_enums_carry_protocol_ids_and_absorb_unknown_ones() -> None:
    assert (ResourceType.TOPIC.value, ResourceType.GROUP.value) == (2, 32)
    assert (ConfigSource.GROUP_CONFIG.value, ConfigType.PASSWORD.value) == (8, 9)
    assert [op.value for op in OpType] == [0, 1, 2, 3]
    assert ResourceType(77) is ResourceType.UNKNOWN
    assert ConfigSource(99) is ConfigSource.UNKNOWN
    assert ConfigType(42) is ConfigType.UNKNOWN


def test_resource_is_frozen_hashable_and_accepts_names() -> None:
    topic = ConfigResource(type=ResourceType.TOPIC, name="orders")
    assert {topic: 1}[ConfigResource(ResourceType.TOPIC, "orders")] == 1
    assert ConfigResource(type="topic", name="orders") == topic
    with pytest.raises(FrozenInstanceError):
        topic.name = "other"
    with pytest.raises(InvalidArgumentError, match="'nonsense' is not a ResourceType"):
        ConfigResource(type="nonsense", name="x")
    assert str(ConfigResource(ResourceType.BROKER, "")) == "cluster-wide broker default"
    assert repr(topic) == "ConfigResource(type=ResourceType.TOPIC, name='orders')"


def test_resource_copies_hash_by_their_own_values() -> None:
    topic = ConfigResource(ResourceType.TOPIC, "orders")
    renamed = topic.model_copy(update={"name": "payments"})
    assert hash(renamed) == hash(ConfigResource(ResourceType.TOPIC, "payments")) != hash(topic)
    unpickled = pickle.loads(pickle.dumps(topic))
    assert unpickled == topic and {topic: 1}[unpickled] == 1
    assert ConfigResource(2, "orders").model_fields_set == topic.model_fields_set


def test_a_resource_made_by_position_or_by_keyword_builds_no_validator() -> None:
    """What validation would make is taken as it is: the first describe of a program, its
    resources made as the docs make them, pays for no validator (nor pydantic's plugin scan,
    ``importlib.metadata``); a bad or mixed argument is still validated, as before."""
    script = (
        "import sys; from kafka_config_admin import ConfigResource, ResourceType; "
        "made = [ConfigResource(type=ResourceType.TOPIC, name='a'), "
        "ConfigResource(name='b', type=ResourceType.BROKER), "
        "ConfigResource(ResourceType.GROUP, 'c')]; "
        "print(ConfigResource.__pydantic_complete__, 'importlib.metadata' in sys.modules, "
        "[r.model_fields_set == {'type', 'name'} for r in made])"
    )
    said = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    assert said.strip() == "False False [True, True, True]"
    keyword = ConfigResource(type=ResourceType.TOPIC, name="orders")
    assert keyword == ConfigResource(ResourceType.TOPIC, "orders")
    assert hash(keyword) == hash(ConfigResource(ResourceType.TOPIC, "orders"))
    with pytest.raises(TypeError, match="missing required argument: 'name'"):
        ConfigResource(type=ResourceType.TOPIC)
    with pytest.raises(TypeError, match="unexpected keyword argument 'extra'"):
        ConfigResource(type=ResourceType.TOPIC, name="x", extra=1)
    with pytest.raises(InvalidArgumentError, match="name must be a valid string, got None"):
        ConfigResource(type=ResourceType.TOPIC, name=None)
    assert ConfigResource(ResourceType.TOPIC, name="x") == ConfigResource(ResourceType.TOPIC, "x")


def test_config_is_a_read_only_mapping() -> None:
    entries = (ConfigEntry(name="a", value="1"), ConfigEntry(name="b", value="2"))
    config = Config(entries=entries)
    assert list(config) == ["a", "b"] and len(config) == 2 and "a" in config
    assert config["b"].value == "2"
    assert dict(config) == {"a": entries[0], "b": entries[1]}
    with pytest.raises(TypeError):
        config["c"] = entries[0]  # type: ignore[index]


@pytest.mark.parametrize(
    ("config_type", "value", "parsed"),
    [
        (ConfigType.BOOLEAN, "true", True),
        (ConfigType.BOOLEAN, "false", False),
        (ConfigType.INT, "42", 42),
        (ConfigType.LONG, "604800000", 604800000),
        (ConfigType.SHORT, "-1", -1),
        (ConfigType.DOUBLE, "0.5", 0.5),
        (ConfigType.LIST, "compact, delete", ["compact", "delete"]),
        (ConfigType.LIST, "", []),
        (ConfigType.STRING, "producer", "producer"),
        (ConfigType.CLASS, "org.Foo", "org.Foo"),
        (ConfigType.UNKNOWN, "12", "12"),
        (ConfigType.LONG, "not-a-number", "not-a-number"),
    ],
)
def test_parsed_value_follows_the_type(config_type: ConfigType, value: str, parsed: object) -> None:
    assert ConfigEntry(name="k", value=value, type=config_type).parsed_value == parsed


def test_parsed_value_of_a_missing_value_is_none() -> None:
    assert ConfigEntry(name="k", value=None, type=ConfigType.INT).parsed_value is None


def test_sensitive_values_never_show() -> None:
    entry = ConfigEntry(name="ssl.key.password", value="hunter2", is_sensitive=True)
    op = AlterConfigOp(name="listener.name.x.ssl.keystore.password", value="hunter2")
    explicit = AlterConfigOp(name="my.custom.key", value="hunter2", sensitive=True)
    for shown in (repr(entry), str(entry), repr(op), str(op), repr(explicit), f"{[op]}"):
        assert "hunter2" not in shown
        assert "[hidden]" in shown
    assert op.sensitive and not AlterConfigOp(name="retention.ms", value="1").sensitive


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("retention.ms", "1"), {}),
        (("retention.ms",), {}),
        (("ssl.key.password", "x"), {}),
        (("cleanup.policy", "compact", OpType.APPEND), {}),
        ((), {"name": "retention.ms", "value": "1", "op": OpType.SET}),
        ((), {"name": "retention.ms"}),
        ((), {"name": "retention.ms", "value": None}),
        ((), {"op": OpType.DELETE, "name": "retention.ms"}),
    ],
)
def test_an_alter_op_of_strings_is_what_validation_makes(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    op = AlterConfigOp(*args, **kwargs)
    data = dict(zip(("name", "value", "op"), args, strict=False)) | kwargs
    data = {key: value for key, value in data.items() if key in kwargs or value is not None}
    validated = AlterConfigOp.model_validate(
        {**data, "sensitive": is_sensitive_name(str(data["name"]))}
    )
    assert op.__dict__ == validated.__dict__ and op == validated
    assert op.model_fields_set == validated.model_fields_set
    assert repr(op) == repr(validated)


def test_a_first_alter_op_of_strings_builds_no_validator() -> None:
    script = (
        "import sys; from kafka_config_admin import AlterConfigOp, OpType; "
        "AlterConfigOp('retention.ms', '1'); "
        "AlterConfigOp(name='cleanup.policy', value='compact', op=OpType.APPEND); "
        "print(AlterConfigOp.__pydantic_complete__, 'importlib.metadata' in sys.modules)"
    )
    said = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    assert said.strip() == "False False"


def test_alter_op_turns_python_values_into_kafka_strings() -> None:
    assert AlterConfigOp("retention.ms", 86400000).value == "86400000"
    assert AlterConfigOp("unclean.leader.election.enable", True).value == "true"
    assert (
        AlterConfigOp("cleanup.policy", ["compact", "delete"], "append").value == "compact,delete"
    )
    assert AlterConfigOp("cleanup.policy", "compact", OpType.SUBTRACT).op is OpType.SUBTRACT
    assert AlterConfigOp(name="retention.ms", op=OpType.DELETE).value is None


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ConfigResource("nope", "x"), "'nope' is not a ResourceType: use one of TOPIC"),
        (lambda: AlterConfigOp("a", "1", "bogus"), "'bogus' is not a OpType: use one of SET"),
        (lambda: AlterConfigOp("a", "1", 9), "9 is not a OpType"),  # type: ignore[arg-type]
    ],
)
def test_unknown_enum_names_say_which_names_exist(make: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    ("member", "name"),
    [
        (ConfigType.LONG, "LONG"),
        (ConfigSource.DEFAULT_CONFIG, "DEFAULT_CONFIG"),
        (OpType.APPEND, "APPEND"),
        (ResourceType.BROKER_LOGGER, "BROKER_LOGGER"),
        (ScramMechanism.SCRAM_SHA_512, "SCRAM_SHA_512"),
        (QuotaMatchType.DEFAULT, "DEFAULT"),
    ],
)
def test_enums_print_their_names(member: Any, name: str) -> None:
    assert str(member) == f"{member}" == name
    assert f"[{member:>16}]" == f"[{name:>16}]"
    assert f"{member:d}" == str(member.value)  # a numeric format still gives the number
    assert member == member.value  # still the protocol's int


def test_config_values_given_as_int_enums_are_sent_as_numbers() -> None:
    assert AlterConfigOp("x", ConfigType.LONG).value == "5"
