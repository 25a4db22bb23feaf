"""The quota and SCRAM operations: checks before sending, request bodies, typed outcomes.

Bodies go through the real codecs, so a body the wire cannot carry fails here too.
"""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import (
    BrokerError,
    ClientQuotaAlteration,
    ClientQuotaEntity,
    ClientQuotaFilter,
    ClientQuotaFilterComponent,
    ClusterAuthorizationFailedError,
    InvalidArgumentError,
    InvalidRequestError,
    ResourceNotFoundError,
    ScramCredentialInfo,
    ScramMechanism,
    UnacceptableCredentialError,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from kafka_config_admin._ops.quotas import (
    AlterClientQuotas,
    AlterClientQuotasResult,
    DescribeClientQuotas,
    DescribeClientQuotasResult,
)
from kafka_config_admin._ops.scram import (
    AlterUserScramCredentials,
    DescribeUserScramCredentials,
    DescribeUserScramCredentialsResult,
    ScramUsers,
)

from .test_protocol_scram import describe_response

ALICE = ClientQuotaEntity({"user": "alice"})
APP = ClientQuotaEntity({"user": "alice", "client-id": "app"})
DEFAULT_IP = ClientQuotaEntity({"ip": None})


def wire(entity: dict[str, str | None]) -> list[dict[str, Any]]:
    return [{"entity_type": kind, "entity_name": name} for kind, name in entity.items()]


def encoded(operation: Any, keys: list[Any], version: int) -> dict[str, Any]:
    """The body as the broker would read it: encoded and decoded by the real codec."""
    body = operation.body(keys, version)
    return dict(
        operation.codec.decode_request(version, operation.codec.encode_request(version, body))
    )


# --- DescribeClientQuotas -------------------------------------------------------------------


@pytest.mark.parametrize("version", [0, 1])
def test_describe_quotas_body(version: int) -> None:
    quota_filter = ClientQuotaFilter.contains_only(
        [
            ClientQuotaFilterComponent.exact("user", "alice"),
            ClientQuotaFilterComponent.default("client-id"),
            ClientQuotaFilterComponent.any("ip"),
        ]
    )
    operation = DescribeClientQuotas.build(quota_filter)
    assert operation.resources == [quota_filter]
    assert encoded(operation, [quota_filter], version) == {
        "components": [
            {"entity_type": "user", "match_type": 0, "match": "alice"},
            {"entity_type": "client-id", "match_type": 1, "match": None},
            {"entity_type": "ip", "match_type": 2, "match": None},
        ],
        "strict": True,
    }
    every = DescribeClientQuotas.build(None)
    assert encoded(every, every.resources, version) == {"components": [], "strict": False}


def test_describe_quotas_outcome_maps_entities_to_values() -> None:
    operation = DescribeClientQuotas.build(None)
    response = {
        "error_code": 0,
        "error_message": None,
        "entries": [
            {
                "entity": wire({"user": "alice"}),
                "values": [{"key": "producer_byte_rate", "value": 5.0}],
            },
            {
                "entity": wire({"client-id": "app", "user": "alice"}),
                "values": [{"key": "a", "value": 1.5}, {"key": "b", "value": 2.0}],
            },
            {"entity": wire({"tenant": "t"}), "values": []},  # a type this client does not know
        ],
    }
    [(key, value)] = operation.outcomes(operation.resources, response)
    assert key is operation.filter
    assert value == {
        ALICE: {"producer_byte_rate": 5.0},
        APP: {"a": 1.5, "b": 2.0},
        ClientQuotaEntity._decoded([("tenant", "t")]): {},
    }


def test_describe_quotas_error_is_typed_and_names_the_filter() -> None:
    operation = DescribeClientQuotas.build(None)
    response = {"error_code": 31, "error_message": "denied", "entries": None}
    [(_, error)] = operation.outcomes(operation.resources, response)
    assert isinstance(error, ClusterAuthorizationFailedError)
    assert error.resource == ClientQuotaFilter() and "every quota entity" in str(error)
    empty = {"error_code": 0, "error_message": None, "entries": None}
    assert list(operation.outcomes(operation.resources, empty)) == [(ClientQuotaFilter(), {})]


async def test_describe_quotas_result_all() -> None:
    result = DescribeClientQuotasResult([ClientQuotaFilter()])
    result.values[ClientQuotaFilter()]._set_result({ALICE: {"k": 1.0}})
    assert await result.all() == {ALICE: {"k": 1.0}}


def test_describe_quotas_refuses_what_is_not_a_filter() -> None:
    with pytest.raises(InvalidArgumentError, match="expected a ClientQuotaFilter"):
        DescribeClientQuotas.build([ClientQuotaFilterComponent.any("user")])  # type: ignore[arg-type]


# --- AlterClientQuotas ----------------------------------------------------------------------


@pytest.mark.parametrize("version", [0, 1])
def test_alter_quotas_body_sets_and_removes(version: int) -> None:
    operation = AlterClientQuotas.build(
        [
            ClientQuotaAlteration(APP, {"producer_byte_rate": 1024, "consumer_byte_rate": None}),
            ClientQuotaAlteration(DEFAULT_IP, {"connection_creation_rate": 25}),
        ],
        validate_only=True,
    )
    assert operation.resources == [APP, DEFAULT_IP]
    assert encoded(operation, operation.resources, version) == {
        "entries": [
            {
                "entity": wire({"user": "alice", "client-id": "app"}),
                "ops": [
                    {"key": "producer_byte_rate", "value": 1024.0, "remove": False},
                    {"key": "consumer_byte_rate", "value": 0.0, "remove": True},
                ],
            },
            {
                "entity": wire({"ip": None}),
                "ops": [{"key": "connection_creation_rate", "value": 25.0, "remove": False}],
            },
        ],
        "validate_only": True,
    }


def test_alter_quotas_from_a_mapping() -> None:
    operation = AlterClientQuotas.build({ALICE: {"k": 1}}, validate_only=False)
    assert operation.alterations == {ALICE: (("k", 1.0),)} and not operation.validate_only


def test_alter_quotas_outcomes_match_entities_in_any_order() -> None:
    operation = AlterClientQuotas.build({ALICE: {"k": 1}, APP: {"k": 2}}, validate_only=False)
    response = {
        "entries": [
            {
                "error_code": 42,
                "error_message": "Invalid key k",
                "entity": wire({"client-id": "app", "user": "alice"}),
            },
            {"error_code": 0, "error_message": None, "entity": wire({"user": "alice"})},
        ]
    }
    outcomes = dict(operation.outcomes(operation.resources, response))
    assert outcomes[ALICE] is None
    error = outcomes[APP]
    assert isinstance(error, InvalidRequestError) and error.resource == APP
    assert (
        str(error)
        == "INVALID_REQUEST (error code 42) for user 'alice', client-id 'app': Invalid key k"
    )


def test_an_entity_left_unanswered_is_an_error() -> None:
    operation = AlterClientQuotas.build({ALICE: {"k": 1}, APP: {"k": 2}}, validate_only=False)
    response = {
        "entries": [{"error_code": 0, "error_message": None, "entity": wire({"user": "alice"})}]
    }
    outcomes = dict(operation.outcomes(operation.resources, response))
    assert outcomes[ALICE] is None and type(outcomes[APP]) is BrokerError


@pytest.mark.parametrize(
    ("alterations", "message"),
    [
        (
            [ClientQuotaAlteration(ALICE, {"a": 1}), ClientQuotaAlteration(ALICE, {"b": 1})],
            "appears twice",
        ),
        ({ClientQuotaEntity({"user": "u", "ip": "1.2.3.4"}): {"a": 1}}, "cannot be combined"),
        ({ALICE: {"a": "1"}}, "finite number"),
        ({"alice": {"a": 1}}, "expected a ClientQuotaEntity"),
        (ClientQuotaAlteration(ALICE, {"a": 1}), "collection of ClientQuotaAlteration"),
        ([ALICE], "expected a ClientQuotaAlteration"),
        (5, "collection of ClientQuotaAlteration"),
    ],
)
def test_bad_quota_alterations_are_refused(alterations: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        AlterClientQuotas.build(alterations, validate_only=False)


async def test_alter_quotas_result_raises_the_first_error() -> None:
    result = AlterClientQuotasResult([ALICE, APP])
    result.values[ALICE]._set_result(None)
    result.values[APP]._set_exception(InvalidRequestError("no", resource=APP))
    with pytest.raises(InvalidRequestError):
        await result.all()
    assert result.errors().keys() == {APP}


# --- DescribeUserScramCredentials -----------------------------------------------------------


def test_describe_scram_body_asks_every_user_with_an_empty_list() -> None:
    every = DescribeUserScramCredentials.build(None)
    assert every.resources == [ScramUsers(None)]
    assert encoded(every, every.resources, 0) == {"users": []}
    named = DescribeUserScramCredentials.build(["alice", "bob"])
    assert encoded(named, named.resources, 0) == {"users": [{"name": "alice"}, {"name": "bob"}]}


@pytest.mark.parametrize(
    ("users", "message"),
    [
        ("alice", "collection of user names"),
        ([], "users is empty"),
        (["a", "a"], "'a' appears twice"),
        ([""], "non-empty str"),
    ],
)
def test_bad_describe_scram_users_are_refused(users: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        DescribeUserScramCredentials.build(users)


def scram_response() -> dict[str, Any]:
    """Alice with both mechanisms, and a user without credentials (the codec test's body)."""
    return describe_response()[0]


async def test_describe_scram_each_user_fails_on_its_own() -> None:
    operation = DescribeUserScramCredentials.build(["nobody", "alice"])
    [(key, answer)] = operation.outcomes(operation.resources, scram_response())
    result = DescribeUserScramCredentialsResult([key])
    result.values[key]._set_result(answer)  # type: ignore[arg-type]
    alice = await result.description("alice")
    assert alice.credential_infos == (
        ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
        ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192),
    )
    with pytest.raises(ResourceNotFoundError, match="user 'nobody'"):
        await result.description("nobody")
    with pytest.raises(ResourceNotFoundError, match="does not describe this user"):
        await result.description("carol")
    assert await result.users() == ["alice"]
    with pytest.raises(ResourceNotFoundError, match="nobody"):  # the first user asked failed
        await result.all()


async def test_describe_scram_of_every_user() -> None:
    operation = DescribeUserScramCredentials.build(None)
    response: dict[str, Any] = scram_response()
    response["results"] = response["results"][:1]
    [(key, answer)] = operation.outcomes(operation.resources, response)
    result = DescribeUserScramCredentialsResult([key])
    result.values[key]._set_result(answer)  # type: ignore[arg-type]
    assert list(await result.all()) == ["alice"]


def test_describe_scram_top_level_error_fails_the_call() -> None:
    operation = DescribeUserScramCredentials.build(None)
    response: dict[str, Any] = {"error_code": 31, "error_message": None, "results": []}
    [(_, error)] = operation.outcomes(operation.resources, response)
    assert isinstance(error, ClusterAuthorizationFailedError)
    assert "SCRAM credentials of every user" in str(error)


# --- AlterUserScramCredentials --------------------------------------------------------------


def test_alter_scram_body_carries_the_salted_password_only() -> None:
    upsert = UserScramCredentialUpsertion("alice", "SCRAM-SHA-512", "hunter2-pw", salt=b"salt")
    delete = UserScramCredentialDeletion("bob", "SCRAM-SHA-256")
    operation = AlterUserScramCredentials.build([upsert, delete])
    assert operation.resources == ["alice", "bob"]
    data = operation.codec.encode_request(0, operation.body(operation.resources, 0))
    assert b"hunter2" not in data and upsert.salted_password in data
    assert operation.codec.decode_request(0, data) == {
        "deletions": [{"name": "bob", "mechanism": 1}],
        "upsertions": [
            {
                "name": "alice",
                "mechanism": 2,
                "iterations": 4096,
                "salt": b"salt",
                "salted_password": upsert.salted_password,
            }
        ],
    }


def test_alter_scram_outcomes_per_user() -> None:
    operation = AlterUserScramCredentials.build(
        [UserScramCredentialDeletion("bob", 1), UserScramCredentialDeletion("carol", 2)]
    )
    response = {
        "results": [
            {"user": "carol", "error_code": 93, "error_message": "Too few iterations"},
            {"user": "bob", "error_code": 0, "error_message": None},
        ]
    }
    outcomes = dict(operation.outcomes(operation.resources, response))
    assert outcomes["bob"] is None
    error = outcomes["carol"]
    assert isinstance(error, UnacceptableCredentialError)
    assert (
        str(error) == "UNACCEPTABLE_CREDENTIAL (error code 93) for user 'carol': Too few iterations"
    )


@pytest.mark.parametrize(
    ("alterations", "message"),
    [
        (
            [UserScramCredentialDeletion("u", 1), UserScramCredentialDeletion("u", 2)],
            "'u' appears twice",
        ),
        (["u"], "expected a UserScramCredentialUpsertion"),
        ({"u": 1}, "must be a collection"),
        ("u", "must be a collection"),
    ],
)
def test_bad_scram_alterations_are_refused(alterations: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        AlterUserScramCredentials.build(alterations)


def test_one_alteration_alone_is_a_call_of_one() -> None:
    operation = AlterUserScramCredentials.build(UserScramCredentialDeletion("u", 1))  # type: ignore[arg-type]
    assert operation.resources == ["u"]
