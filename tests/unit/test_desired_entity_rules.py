"""Audit rules about client quotas and SCRAM users: parsing and pure evaluation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from kafka_config_admin import ClientQuotaEntity, InvalidArgumentError
from kafka_config_admin.desired import (
    evaluate_quota_rules,
    evaluate_scram_rules,
    evaluate_state,
    parse_desired_state,
)
from kafka_config_admin.state import ClusterState, ResourceKind, Rule, RuleOperator


def rule(**data: Any) -> Rule:
    return Rule.model_validate(data)


def quota_rule(entity: dict[str, str | None], **data: Any) -> Rule:
    return rule(resource="quota", entity=entity, **data)


def scram_rule(**data: Any) -> Rule:
    return rule(resource="scram_user", **data)


ALICE = ClientQuotaEntity({"user": "alice"})
BOB = ClientQuotaEntity({"user": "bob"})
DEFAULT_USER = ClientQuotaEntity({"user": None})
APP = ClientQuotaEntity({"client-id": "app"})
ALICE_APP = ClientQuotaEntity({"user": "alice", "client-id": "app"})
QUOTAS = {
    ALICE: {"producer_byte_rate": 1048576.0, "consumer_byte_rate": 2097152.0},
    BOB: {"producer_byte_rate": 104857600.0},
    APP: {"request_percentage": 250.0},
    ALICE_APP: {"request_percentage": 50.0},
}


def test_quota_rules_parse_with_entity_selectors_and_size_units() -> None:
    r = quota_rule({"user": ".*"}, check="producer_byte_rate <= 50MiB")
    assert (r.resource, r.key, r.op, r.value) == (
        ResourceKind.QUOTA,
        "producer_byte_rate",
        RuleOperator.LE,
        str(50 * 1024**2),
    )
    assert quota_rule({"client-id": ".*"}, check="request_percentage <= 200").value == "200"
    assert quota_rule({"user": None}, check="producer_byte_rate required").op is (
        RuleOperator.REQUIRED
    )
    assert quota_rule({"ip": ".*"}, check="declared").key is None
    assert "quotas of user matching '.*'" in str(r)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"resource": "quota", "check": "producer_byte_rate <= 1"}, "needs entity"),
        (
            {"resource": "quota", "entity": {"user": ".*"}, "check": "producer_rate <= 1"},
            "'producer_rate' is not a quota key of user entities",
        ),
        (
            {"resource": "quota", "entity": {"ip": ".*"}, "check": "producer_byte_rate <= 1"},
            "not a quota key of ip entities",
        ),
        (
            {"resource": "quota", "entity": {"user": ".*"}, "check": "request_percentage == x"},
            "'x' is not a number",
        ),
        (
            {"resource": "quota", "entity": {"user": ".*"}, "check": "producer_byte_rate <= 1.5B"},
            "not a whole number of bytes",
        ),
        (
            {"resource": "quota", "entity": {"group": ".*"}, "check": "declared"},
            "unknown entity type 'group'",
        ),
        (
            {"resource": "quota", "entity": {"ip": None, "user": ".*"}, "check": "declared"},
            "cannot be combined",
        ),
        ({"resource": "quota", "entity": {"user": "("}, "check": "declared"}, "regular expr"),
        (
            {"resource": "quota", "entity": {"user": ".*"}, "match": "a", "check": "declared"},
            "not match",
        ),
        ({"resource": "topic", "entity": {"user": ".*"}, "check": "a == 1"}, "entity is for"),
        ({"resource": "topic", "check": "declared"}, "declared is for quota and scram_user"),
        ({"resource": "scram_user", "key": "iterations", "op": "declared"}, "takes no key"),
        ({"resource": "scram_user", "check": "salt == x"}, "not a scram_user rule key"),
        ({"resource": "scram_user", "check": "iterations >= many"}, "not a number"),
        ({"resource": "scram_user", "check": "iterations == 1.5"}, "not a whole number"),
        ({"resource": "scram_user", "check": "mechanism == MD5"}, "not a SCRAM mechanism"),
        ({"resource": "scram_user", "check": "mechanism >= 1"}, "mechanism takes =="),
        ({"resource": "scram_user", "check": "iterations required"}, "required is for"),
        ({"op": "==", "value": 1}, "needs a key"),
        (
            {"resource": "quota", "entity": {"user": None}, "check": "declared", "optional": True},
            "optional does not go with declared",
        ),
    ],
)
def test_bad_entity_rules_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        rule(**data)


def test_a_bad_rule_in_a_file_names_its_line() -> None:
    text = (
        "rules:\n"
        "  - {resource: quota, entity: {client-id: '.*'}, check: 'request_percentage <= 200'}\n"
        "  - {resource: quota, entity: {user: '.*'}, check: 'producer_rate <= 1'}\n"
    )
    with pytest.raises(InvalidArgumentError, match=r"kafka.yaml:3: rules\[1\]: 'producer_rate'"):
        parse_desired_state(text, source="kafka.yaml")


def test_every_user_has_a_bounded_producer_rate() -> None:
    rules = [
        quota_rule({"user": ".*"}, check="producer_byte_rate <= 50MiB"),
    ]
    # carol has SCRAM credentials and no quota at all: still a user that breaks the rule.
    found = evaluate_quota_rules(rules, QUOTAS, users=["alice", "carol"])
    assert [(v.entity, v.actual, v.reason) for v in found] == [
        ({"user": "bob"}, "104857600", "the value breaks the rule"),
        ({"user": "carol"}, None, "the entity has no such quota"),
    ]
    assert str(found[0]).startswith("quota of user 'bob': producer_byte_rate = '104857600' breaks")
    assert found[1].subject_dict() == {"type": "QUOTA", "entity": {"user": "carol"}}


def test_optional_checks_only_the_entities_that_have_the_key() -> None:
    strict = quota_rule({"client-id": ".*"}, check="request_percentage <= 200")
    optional = quota_rule({"client-id": ".*"}, check="request_percentage <= 200", optional=True)
    other = {ClientQuotaEntity({"client-id": "batch"}): {"producer_byte_rate": 1.0}}
    quotas = {**QUOTAS, **other}
    assert [v.entity for v in evaluate_quota_rules([optional], quotas)] == [{"client-id": "app"}]
    assert [v.entity for v in evaluate_quota_rules([strict], quotas)] == [
        {"client-id": "app"},
        {"client-id": "batch"},
    ]
    # A user/client-id entity is not a client-id entity.
    assert all(v.entity != dict(ALICE_APP) for v in evaluate_quota_rules([strict], quotas))


def test_a_rule_on_a_default_entity_sees_it_even_when_absent() -> None:
    required = quota_rule({"user": None}, check="producer_byte_rate required")
    [missing] = evaluate_quota_rules([required], QUOTAS)
    assert (missing.entity, missing.reason) == ({"user": None}, "the entity has no such quota")
    assert missing.subject == "quota of default user"
    with_default = {**QUOTAS, DEFAULT_USER: {"producer_byte_rate": 1.0}}
    assert evaluate_quota_rules([required], with_default) == []
    # A literal name is seen too; a pattern only sees what exists.
    assert (
        len(evaluate_quota_rules([quota_rule({"user": "dave"}, check="declared")], {}, declared=[]))
        == 1
    )
    assert (
        evaluate_quota_rules([quota_rule({"user": "d.*"}, check="declared")], {}, declared=[]) == []
    )


def test_declared_quota_entities_are_those_of_the_file() -> None:
    declared = quota_rule({"user": ".*"}, check="declared")
    found = evaluate_quota_rules([declared], QUOTAS, declared=[{"user": "alice"}])
    assert [(v.entity, v.key, v.reason) for v in found] == [
        ({"user": "bob"}, None, "not in the file's quotas")
    ]
    assert "quota of user 'bob': breaks declared in the file" in str(found[0])
    with pytest.raises(InvalidArgumentError, match="pass the desired state"):
        evaluate_quota_rules([declared], QUOTAS)


def test_ordering_and_membership_on_quota_values() -> None:
    def broken(**data: Any) -> list[str | None]:
        found = evaluate_quota_rules([quota_rule({"user": "alice"}, **data)], QUOTAS)
        return [v.actual for v in found]

    assert broken(check="consumer_byte_rate == 2MiB") == []
    assert broken(check="consumer_byte_rate != 2MiB") == ["2097152"]
    assert broken(check="producer_byte_rate between [1MiB, 2MiB]") == []
    assert broken(check="producer_byte_rate in [1, 2]") == ["1048576"]
    assert broken(check="producer_byte_rate > 1MiB") == ["1048576"]


CREDENTIALS = {
    "alice": {"SCRAM-SHA-512": 8192},
    "bob": {"SCRAM-SHA-256": 4096, "SCRAM-SHA-512": 16384},
    "svc-etl": {"SCRAM-SHA-512": 4096},
}


def test_each_credential_of_each_user_is_checked() -> None:
    rules = [
        scram_rule(check="mechanism == SCRAM-SHA-512"),
        scram_rule(check="iterations >= 8192"),
    ]
    found = evaluate_scram_rules(rules, CREDENTIALS)
    assert [(v.user, v.mechanism, v.key, v.actual) for v in found] == [
        ("bob", "SCRAM-SHA-256", "mechanism", "SCRAM-SHA-256"),
        ("bob", "SCRAM-SHA-256", "iterations", "4096"),
        ("svc-etl", "SCRAM-SHA-512", "iterations", "4096"),
    ]
    assert str(found[0]).startswith(
        "SCRAM user 'bob' (SCRAM-SHA-256): mechanism = 'SCRAM-SHA-256' breaks"
    )
    assert found[2].subject_dict() == {
        "type": "SCRAM_USER",
        "name": "svc-etl",
        "mechanism": "SCRAM-SHA-512",
    }
    matched = scram_rule(check="iterations >= 8192", match="svc-.*")
    assert [v.user for v in evaluate_scram_rules([matched], CREDENTIALS)] == ["svc-etl"]
    allowed = scram_rule(check="mechanism not in [SCRAM-SHA-256]")
    assert [v.user for v in evaluate_scram_rules([allowed], CREDENTIALS)] == ["bob"]


def test_a_user_without_credentials_breaks_rules_about_them() -> None:
    named = scram_rule(check="iterations >= 8192", match="carol")
    [missing] = evaluate_scram_rules([named], CREDENTIALS)
    assert (missing.user, missing.mechanism, missing.reason) == (
        "carol",
        None,
        "the user has no SCRAM credentials",
    )
    optional = scram_rule(check="iterations >= 8192", match="carol", optional=True)
    assert evaluate_scram_rules([optional], CREDENTIALS) == []


def test_declared_scram_users_and_mechanisms_are_those_of_the_file() -> None:
    declared = scram_rule(check="declared")
    found = evaluate_scram_rules(
        [declared], CREDENTIALS, declared={"alice": ["SCRAM-SHA-512"], "bob": ["SCRAM-SHA-512"]}
    )
    assert [(v.user, v.mechanism, v.reason) for v in found] == [
        ("bob", "SCRAM-SHA-256", "the file does not list this mechanism for the user"),
        ("svc-etl", "SCRAM-SHA-512", "the user is not in the file's scram_users"),
    ]
    with pytest.raises(InvalidArgumentError, match="pass the desired state"):
        evaluate_scram_rules([declared], CREDENTIALS)


def test_evaluate_state_runs_every_kind_of_rule_with_the_file() -> None:
    desired = parse_desired_state(
        "quotas:\n"
        "  - entity: {user: alice}\n"
        "    values: {producer_byte_rate: 1048576}\n"
        "rules:\n"
        "  - {resource: quota, entity: {user: '.*'}, check: declared}\n"
        "  - {resource: scram_user, check: 'iterations >= 8192'}\n",
        source="kafka.yaml",
    )
    state = ClusterState(
        quotas=QUOTAS, scram=CREDENTIALS, quotas_complete=True, scram_complete=True
    )
    found = evaluate_state(desired.rules, state, desired=desired)
    assert [v.subject for v in found] == [
        "quota of user 'bob'",
        "quota of user 'svc-etl'",  # a SCRAM user, and no quota entity in the file
        "SCRAM user 'bob' (SCRAM-SHA-256)",
        "SCRAM user 'svc-etl' (SCRAM-SHA-512)",
    ]


def test_evaluate_state_refuses_a_state_that_did_not_read_quotas_or_users() -> None:
    quota = quota_rule({"user": ".*"}, check="producer_byte_rate required")
    with pytest.raises(InvalidArgumentError, match="every client quota entity"):
        evaluate_state([quota], ClusterState(quotas=QUOTAS))
    scram = scram_rule(check="iterations >= 8192")
    with pytest.raises(InvalidArgumentError, match="every SCRAM user"):
        evaluate_state([scram], ClusterState(scram=CREDENTIALS, quotas_complete=True))
