"""Quotas in a desired-state file: the ``quotas:`` section, its checks and its diff."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kafka_config_admin import ClientQuotaEntity, OpType
from kafka_config_admin.desired import DesiredStateError, make_plan, parse_desired_state
from kafka_config_admin.state import ClusterState, QuotaChange

FILE = """
version: 1
quotas:
  - entity: {user: alice}
    values: {producer_byte_rate: 1048576, consumer_byte_rate: 2097152}
  - entity: {user: alice, client-id: null}
    values: {request_percentage: 25.5, controller_mutation_rate: null}
  - entity: {ip: 10.1.2.3}
    values: {connection_creation_rate: 5}
"""

ALICE = ClientQuotaEntity({"user": "alice"})
ALICE_DEFAULT_CLIENT = ClientQuotaEntity({"user": "alice", "client-id": None})
IP = ClientQuotaEntity({"ip": "10.1.2.3"})


def test_the_section_reads_entities_and_numbers() -> None:
    desired = parse_desired_state(FILE)
    assert [spec.quota_entity for spec in desired.quotas] == [ALICE, ALICE_DEFAULT_CLIENT, IP]
    assert desired.quotas[0].values == {
        "producer_byte_rate": 1048576.0,
        "consumer_byte_rate": 2097152.0,
    }
    assert desired.quotas[1].values["controller_mutation_rate"] is None


def test_an_empty_cluster_needs_every_value_and_no_removal() -> None:
    plan = make_plan(parse_desired_state(FILE), ClusterState())
    assert plan.has_changes
    assert [quota.quota_entity for quota in plan.quotas] == [ALICE, ALICE_DEFAULT_CLIENT, IP]
    assert plan.quotas[1].changes == (
        QuotaChange(key="request_percentage", current=None, wanted=25.5),
    )
    assert plan.quotas[0].alteration() == {
        "producer_byte_rate": 1048576.0,
        "consumer_byte_rate": 2097152.0,
    }


def test_values_as_wanted_are_no_change_and_others_are_left_alone_unless_pruned() -> None:
    current = {
        ALICE: {"producer_byte_rate": 1048576.0, "consumer_byte_rate": 2097152.0,
                "request_percentage": 10.0},
        ALICE_DEFAULT_CLIENT: {"request_percentage": 25.5, "controller_mutation_rate": 3.0},
        IP: {"connection_creation_rate": 5.0},
    }  # fmt: skip
    desired = parse_desired_state(FILE)
    plan = make_plan(desired, ClusterState(quotas=current))
    assert [quota.to_dict() for quota in plan.quotas] == [
        {
            "entity": {"user": "alice", "client-id": None},
            "changes": [{"key": "controller_mutation_rate", "current": 3.0, "wanted": None}],
        }
    ]
    pruned = make_plan(desired, ClusterState(quotas=current), prune=True)
    assert pruned.quotas[0].changes == (
        QuotaChange(key="request_percentage", current=10.0, wanted=None),
    )
    assert json.loads(pruned.to_json())["quotas"][0]["entity"] == {"user": "alice"}
    assert pruned.quotas[0].shown_by({"producer_byte_rate": 1048576.0})
    assert not pruned.quotas[0].shown_by({"request_percentage": 10.0})


def test_a_cluster_as_wanted_has_no_changes() -> None:
    current = {ALICE: {"producer_byte_rate": 1048576.0, "consumer_byte_rate": 2097152.0}}
    text = "quotas:\n  - entity: {user: alice}\n    values: {producer_byte_rate: 1048576, consumer_byte_rate: 2097152}\n"  # noqa: E501
    plan = make_plan(parse_desired_state(text), ClusterState(quotas=current))
    assert not plan.has_changes and plan.to_dict()["quotas"] == []


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("{entity: {user: a}, values: {retention.ms: 1}}", "retention.ms not a quota key"),
        ("{entity: {ip: 10.0.0.1}, values: {producer_byte_rate: 1}}", "connection_creation_rate"),
        ("{entity: {user: a, ip: 10.0.0.1}, values: {}}", "cannot be combined"),
        ("{entity: {group: g}, values: {}}", "unknown entity type"),
        ("{entity: {}, values: {}}", "needs a non-empty mapping"),
        ("{entity: {user: a}, values: {producer_byte_rate: -1}}", "finite number above 0"),
        ("{entity: {user: a}, values: {producer_byte_rate: 0}}", "Kafka refuses 0 and below"),
        ("{entity: {user: a}, values: {producer_byte_rate: fast}}", "finite number above 0"),
        ("{entity: {user: a}, values: {producer_byte_rate: true}}", "finite number above 0"),
        ("{entity: {user: a}, password: x}", "password"),
    ],
)
def test_bad_entries_name_the_problem_and_the_line(entry: str, problem: str) -> None:
    with pytest.raises(DesiredStateError, match=problem) as refused:
        parse_desired_state(f"version: 1\nquotas:\n  - {entry}\n", source="q.yaml")
    assert "q.yaml" in str(refused.value)


def test_an_entity_twice_is_refused() -> None:
    text = "quotas:\n  - {entity: {user: a}}\n  - {entity: {user: a}}\n"
    with pytest.raises(DesiredStateError, match="named twice"):
        parse_desired_state(text)


# --- SCRAM users -----------------------------------------------------------------------------

SCRAM_FILE = """
scram_users:
  alice:
    - {mechanism: SCRAM-SHA-256, iterations: 8192, password_env: ALICE_PASSWORD}
    - {mechanism: SCRAM-SHA-512, password_env: ALICE_PASSWORD}
"""


def test_scram_users_upsert_what_is_missing_or_has_other_iterations() -> None:
    desired = parse_desired_state(SCRAM_FILE)
    assert desired.scram_users["alice"][1].iterations == 4096
    current = {"alice": {"SCRAM-SHA-256": 4096, "SCRAM-SHA-512": 4096}}
    plan = make_plan(desired, ClusterState(scram=current))
    assert plan.has_changes
    assert plan.to_dict()["scram"] == [
        {
            "user": "alice",
            "changes": [
                {
                    "mechanism": "SCRAM-SHA-256",
                    "op": "UPSERT",
                    "current_iterations": 4096,
                    "iterations": 8192,
                    "password_env": "ALICE_PASSWORD",
                }
            ],
        }
    ]
    same = {"alice": {"SCRAM-SHA-256": 8192, "SCRAM-SHA-512": 4096}}
    assert not make_plan(desired, ClusterState(scram=same)).has_changes


def test_scram_mechanisms_the_file_leaves_out_are_deleted_only_when_pruning() -> None:
    text = "scram_users:\n  bob:\n    - {mechanism: SCRAM-SHA-256, password_env: BOB}\n"
    current = {"bob": {"SCRAM-SHA-256": 4096, "SCRAM-SHA-512": 8192}}
    desired = parse_desired_state(text)
    assert not make_plan(desired, ClusterState(scram=current)).has_changes
    [user] = make_plan(desired, ClusterState(scram=current), prune=True).scram
    [change] = user.changes
    assert (change.mechanism, change.op, change.current_iterations) == (
        "SCRAM-SHA-512",
        "DELETE",
        8192,
    )
    assert user.shown_by({"SCRAM-SHA-256": 4096})
    assert not user.shown_by({"SCRAM-SHA-256": 4096, "SCRAM-SHA-512": 8192})


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("{mechanism: SCRAM-SHA-256, password: hunter2}", "never written in the file"),
        ("{mechanism: SCRAM-SHA-1, password_env: P}", "SCRAM-SHA-256"),
        ("{mechanism: SCRAM-SHA-256, password_env: 'not a name'}", "not an environment variable"),
        ("{mechanism: SCRAM-SHA-256, iterations: 100, password_env: P}", "4096"),
        ("{mechanism: SCRAM-SHA-256}", "password_env"),
    ],
)
def test_bad_scram_entries_are_refused(entry: str, problem: str) -> None:
    with pytest.raises(DesiredStateError, match=problem) as refused:
        parse_desired_state(f"scram_users:\n  alice:\n    - {entry}\n")
    assert "hunter2" not in str(refused.value)


def test_a_mechanism_twice_for_one_user_is_refused() -> None:
    entry = "{mechanism: SCRAM-SHA-256, password_env: P}"
    with pytest.raises(DesiredStateError, match="lists a mechanism twice"):
        parse_desired_state(f"scram_users:\n  alice:\n    - {entry}\n    - {entry}\n")


def test_a_quota_change_says_its_op_and_values_one_way() -> None:
    """The CLI's tables, the web editor's change log and the plan read a quota change's op and
    values from QuotaChange, never each its own way."""
    removed = QuotaChange(key="producer_byte_rate", current=1048576.0, wanted=None)
    assert removed.op is OpType.DELETE and removed.shown() == ("1048576", None)
    added = QuotaChange(key="request_percentage", current=None, wanted=12.5)
    assert added.op is OpType.SET and added.shown() == (None, "12.5")
    package = Path(__file__).parents[2] / "kafka_config_admin"
    own_way = re.compile(r"\"DELETE\" if \w+\.wanted is None|\"SET\" if \w+\.wanted is not None")
    assert [p for p in package.rglob("*.py") if own_way.search(p.read_text("utf-8"))] == []
