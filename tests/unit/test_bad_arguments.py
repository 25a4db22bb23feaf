"""Every public constructor refuses a bad argument with InvalidArgumentError (issue 25 item 3).

The error names the argument, what was given (its type only where it may be a secret) and what
is allowed; pydantic's own error never escapes. A call of the wrong shape (an argument missing,
or one the constructor does not have) raises TypeError, as any Python function does.
"""

from __future__ import annotations

import inspect
import re
from typing import Any, cast

import pytest

import kafka_config_admin
from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ClientQuotaAlteration,
    ClientQuotaEntity,
    ClientQuotaFilter,
    ClientQuotaFilterComponent,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigSynonym,
    ConfigType,
    InvalidArgumentError,
    KafkaConfigAdminError,
    NewPartitions,
    NewTopic,
    OpType,
    QuotaEntityType,
    QuotaMatchType,
    ResourceType,
    ScramMechanism,
    TopicPartition,
    UpdateMode,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)

#: The package as a caller without type checking sees it.
untyped = cast(Any, kafka_config_admin)


class Odd:
    """A value no constructor takes."""

    def __repr__(self) -> str:
        return "<odd>"


#: Good arguments for each constructor a user calls; each test replaces one of them.
GOOD: dict[type, dict[str, Any]] = {
    AdminClient: {"bootstrap_servers": "127.0.0.1:9092"},
    AlterConfigOp: {"name": "retention.ms", "value": "1", "op": OpType.SET, "sensitive": False},
    ClientQuotaAlteration: {
        "entity": ClientQuotaEntity({"user": "alice"}),
        "ops": {"producer_byte_rate": 1024},
    },
    ClientQuotaEntity: {"entries": {"user": "alice"}},
    ClientQuotaFilter: {"components": [ClientQuotaFilterComponent.any("user")], "strict": False},
    ClientQuotaFilterComponent: {"entity_type": "user", "match_type": 0, "match": "alice"},
    Config: {"entries": (ConfigEntry(name="retention.ms", value="1"),)},
    ConfigEntry: {
        "name": "retention.ms",
        "value": "1",
        "source": ConfigSource.TOPIC_CONFIG,
        "is_default": False,
        "is_sensitive": False,
        "is_read_only": False,
        "synonyms": (),
        "type": ConfigType.LONG,
        "documentation": None,
    },
    ConfigResource: {"type": ResourceType.TOPIC, "name": "orders"},
    ConfigSynonym: {"name": "retention.ms", "value": "1", "source": ConfigSource.TOPIC_CONFIG},
    NewPartitions: {"total_count": 2, "assignments": [[1, 2]]},
    NewTopic: {"name": "orders", "num_partitions": 1, "replication_factor": 1, "configs": {}},
    TopicPartition: {"topic": "orders", "partition": 0},
    UserScramCredentialDeletion: {"user": "alice", "mechanism": "SCRAM-SHA-256"},
    UserScramCredentialUpsertion: {
        "user": "alice",
        "mechanism": "SCRAM-SHA-256",
        "password": "pw",
        "iterations": 4096,
        "salt": b"salt",
    },
}

#: Public classes a user does not build: the library's answers, errors and bases.
ANSWERS = {
    "CatalogKey",
    "CatalogMatch",
    "ClusterDescription",
    "ClusterNode",
    "ConfigCatalog",
    "ConfigResourceListing",
    "CreatedTopic",
    "GroupListing",
    "ListGroupsResult",
    "PartitionInfo",
    "PartitionReassignment",
    "ResourceFuture",
    "ScramCredentialInfo",
    "TokenProvider",
    "TopicDescription",
    "TopicListing",
    "UserScramCredentialsDescription",
    "ValidValues",
    "ValueRule",
    "WireTraffic",
}
ENUMS = [ConfigSource, ConfigType, OpType, QuotaEntityType, QuotaMatchType, ResourceType]
ENUMS += [ScramMechanism, UpdateMode]
#: Arguments whose value may be a secret: the error gives its type only.
SECRETS = {"password", "sasl_plain_password", "value"}


def public_classes() -> set[str]:
    return {
        name
        for name in kafka_config_admin.__all__
        if isinstance(cls := getattr(kafka_config_admin, name), type)
        and not issubclass(cls, BaseException)
        and not name.endswith("Result")
    }


def test_every_public_constructor_is_tried() -> None:
    tried = {cls.__name__ for cls in [*GOOD, *ENUMS]}
    assert public_classes() - ANSWERS == tried


def build(cls: type, arguments: dict[str, Any]) -> Any:
    """Call ``cls`` as its signature asks: positional-only arguments by position."""
    signature = inspect.signature(cls)
    positional = [
        arguments.pop(parameter.name)
        for parameter in signature.parameters.values()
        if parameter.kind is parameter.POSITIONAL_ONLY and parameter.name in arguments
    ]
    return cls(*positional, **arguments)


@pytest.mark.parametrize("cls", list(GOOD), ids=lambda cls: cls.__name__)
def test_the_good_arguments_are_good(cls: type) -> None:
    build(cls, dict(GOOD[cls]))


CASES = [(cls, name) for cls, arguments in GOOD.items() for name in arguments]


@pytest.mark.parametrize(
    ("cls", "argument"), CASES, ids=[f"{cls.__name__}.{name}" for cls, name in CASES]
)
def test_a_bad_argument_is_named_with_what_was_given(cls: type, argument: str) -> None:
    arguments = {**GOOD[cls], argument: Odd()}
    if cls is ClientQuotaFilterComponent and argument == "match_type":
        arguments["match"] = None  # else the name would be what is wrong
    with pytest.raises(InvalidArgumentError) as caught:
        build(cls, arguments)
    message = str(caught.value)
    assert argument.replace("_", " ") in message.replace("_", " "), message
    assert ("Odd" if argument in SECRETS else "<odd>") in message, message
    assert "pydantic" not in message and "validation error" not in message


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (
            lambda: untyped.AlterConfigOp("retention.ms", "1", 7),
            "7 is not a OpType: use one of SET",
        ),
        (lambda: untyped.AlterConfigOp("retention.ms", "1", "MERGE"), "'MERGE' is not a OpType"),
        (lambda: untyped.AlterConfigOp(5, "1"), "AlterConfigOp name must be a valid string, got 5"),
        (
            lambda: untyped.AlterConfigOp("x", "1", sensitive="yes"),
            "sensitive must be a valid boolean",
        ),
        (
            lambda: untyped.ConfigResource("TOPICS", "x"),
            "'TOPICS' is not a ResourceType: use one of",
        ),
        (lambda: untyped.ConfigResource(True, "x"), "True is not a ResourceType"),
        (
            lambda: untyped.ConfigResource(ResourceType.TOPIC, 5),
            "ConfigResource name must be a valid",
        ),
        (lambda: untyped.ConfigEntry(name="x", source="bogus"), "'bogus' is not a ConfigSource"),
        (
            lambda: untyped.ConfigSynonym(name="x", value="1", source=1.5),
            "1.5 is not a ConfigSource",
        ),
        (lambda: untyped.Config(entries=[1]), "Config entries.0 must be a valid dictionary"),
        (lambda: untyped.ResourceType("TOPICS"), "use one of TOPIC, BROKER"),
        (lambda: untyped.OpType(7), "7 is not a OpType"),
        (lambda: untyped.ScramMechanism("MD5"), "use one of SCRAM_SHA_256, SCRAM_SHA_512"),
        (lambda: untyped.QuotaEntityType("users"), "use one of user, client-id, ip"),
        (lambda: untyped.QuotaMatchType(9), "use one of EXACT, DEFAULT, ANY"),
        (
            lambda: untyped.UserScramCredentialUpsertion("alice", "SCRAM-SHA-256", "pw\ud800"),
            "the password cannot be encoded as UTF-8",
        ),
    ],
)
def test_bad_values_say_what_is_allowed(call: Any, says: str) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        call()
    assert says in str(caught.value)
    assert isinstance(caught.value, KafkaConfigAdminError | ValueError)


def test_an_unknown_id_from_a_broker_still_reads_as_unknown() -> None:
    assert ResourceType(77) is ResourceType.UNKNOWN
    assert ConfigSource(99) is ConfigSource.UNKNOWN
    assert untyped.OpType("append") is OpType.APPEND
    assert untyped.QuotaMatchType("any") is QuotaMatchType.ANY


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda: untyped.ConfigResource(ResourceType.TOPIC), "missing required argument: 'name'"),
        (lambda: untyped.AlterConfigOp(), "missing required argument: 'name'"),
        (
            lambda: untyped.AlterConfigOp("x", "1", sensitiv=True),
            "unexpected keyword argument 'sensitiv'",
        ),
        (lambda: untyped.ConfigEntry(name="x", bogus=1), "unexpected keyword argument 'bogus'"),
    ],
)
def test_a_call_of_the_wrong_shape_is_a_type_error(call: Any, says: str) -> None:
    with pytest.raises(TypeError, match=says):
        call()


def test_a_secret_value_is_never_quoted() -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        AlterConfigOp("ssl.key.password", {"pw": "s3cret"})
    assert "s3cret" not in str(caught.value) and "dict" in str(caught.value)
    with pytest.raises(InvalidArgumentError) as caught:
        UserScramCredentialUpsertion("alice", "SCRAM-SHA-256", "s3cret\ud800")
    assert "s3cret" not in str(caught.value)


@pytest.mark.parametrize(
    ("cls", "argument"), CASES, ids=[f"{cls.__name__}.{name}" for cls, name in CASES]
)
@pytest.mark.parametrize("bad", [None, Odd(), float("nan"), "x" * 100_000, -1, b"\xff"])
def test_any_value_for_any_argument_is_taken_or_refused_with_our_error(
    cls: type, argument: str, bad: object
) -> None:
    """Every public constructor, every argument, values of every wrong kind (None given by
    position or by name too): the object is made, or InvalidArgumentError says why in a
    short message; never TypeError, pydantic's error or another exception."""
    message = ""
    try:
        build(cls, {**GOOD[cls], argument: bad})
    except InvalidArgumentError as error:
        message = str(error)
    assert len(message) < 1_000, message[:300]


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (
            lambda: untyped.ConfigResource(ResourceType.TOPIC, None),
            "ConfigResource name must be a valid string, got None",
        ),
        (lambda: untyped.ConfigResource(None, "x"), "None is not a ResourceType"),
        (lambda: untyped.TopicPartition(None, 0), "a topic name must be a str, got NoneType"),
        (lambda: untyped.NewTopic(None), "a topic name must be a str, got NoneType"),
    ],
)
def test_none_given_by_position_is_a_bad_value_not_a_missing_argument(call: Any, says: str) -> None:
    with pytest.raises(InvalidArgumentError, match=re.escape(says)):
        call()


CONNECT_GOOD: dict[str, dict[str, Any]] = {
    "Connection": {"name": "dev", "bootstrap_servers": "k:9092", "timeout": 5.0},
    "ClustersFile": {"clusters": {"dev": {"bootstrap_servers": "k:9092"}}, "default": "dev"},
}


@pytest.mark.parametrize(
    ("cls", "argument"),
    [(cls, argument) for cls, arguments in CONNECT_GOOD.items() for argument in arguments],
)
@pytest.mark.parametrize("bad", [None, Odd(), float("nan"), "x" * 100_000, -1, b"\xff", [1]])
def test_connect_models_take_or_refuse_any_value_with_their_error(
    cls: str, argument: str, bad: object
) -> None:
    from kafka_config_admin import connect

    model = getattr(connect, cls)
    message = ""
    try:
        model(**{**CONNECT_GOOD[cls], argument: bad})
    except connect.ConnectionConfigError as error:
        message = str(error)
    assert len(message) < 1_000, message[:300]
