"""The broker's verdict without a broker: what a plan proposes, how a refusal reads, and which
errors are a verdict. Asking a real broker: tests/integration/test_cli_plan_verdict.py."""

from __future__ import annotations

from typing import Any

from kafka_config_admin import (
    HIDDEN,
    ClientQuotaEntity,
    ConfigResource,
    InvalidArgumentError,
    InvalidConfigError,
    KafkaConnectionError,
    KafkaTimeoutError,
    NotControllerError,
    PolicyViolationError,
    ResourceType,
)
from kafka_config_admin.changeset import BrokerVerdict, Proposal, is_refusal
from kafka_config_admin.changeset._verdict import _refusal
from kafka_config_admin.desired import make_plan
from kafka_config_admin.state import ClusterState, DesiredState

from .desired_helpers import TOPIC, topic_config


def desired(**data: Any) -> DesiredState:
    return DesiredState.model_validate(data)


def test_a_plans_proposal_holds_every_change_the_broker_can_validate() -> None:
    file = desired(
        topics=[
            {"name": "orders", "configs": {"retention.ms": "2h"}},
            {"name": "new", "partitions": 3, "replication_factor": 1, "configs": {"a.b": "1"}},
        ],
        quotas=[{"entity": {"user": "alice"}, "values": {"producer_byte_rate": 1024}}],
    )
    state = ClusterState(
        topics=frozenset({"orders"}),
        configs={TOPIC: topic_config()},
        schemas={ResourceType.TOPIC: topic_config()},
    )
    plan = make_plan(file, state)
    proposal = Proposal.of_plan(plan)
    assert {r: [(op.name, op.value) for op in ops] for r, ops in proposal.configs.items()} == {
        TOPIC: [("retention.ms", "7200000")]
    }
    assert [(t.name, t.partitions, t.replication_factor) for t in proposal.topics] == [
        ("new", 3, 1)
    ]
    assert proposal.quotas == {ClientQuotaEntity({"user": "alice"}): {"producer_byte_rate": 1024}}


def test_a_refusal_names_keys_and_values_cut_short_and_hides_secrets() -> None:
    long_value = "x" * 10_000
    error = InvalidConfigError(f"Invalid value {long_value} for configuration segment.ms")
    refusal = _refusal(
        "topic 'orders'",
        [("segment.ms", long_value, False), ("ssl.key.password", "s3cret", True)],
        error,
    )
    text = str(refusal)
    assert text.startswith("topic 'orders', segment.ms = 'xxxxx")
    assert "... (10000 characters)" in text and len(text) < 400
    assert f"ssl.key.password = {HIDDEN}" in text and "s3cret" not in text
    assert "Invalid value 'xxx" in refusal.reason and len(refusal.reason) < 250
    assert refusal.to_dict()["error"]["type"] == "InvalidConfigError"


def test_a_reason_of_any_length_is_cut_short() -> None:
    refusal = _refusal("topic 'orders'", [], PolicyViolationError("no " * 10_000))
    assert len(refusal.reason) < 600 and refusal.reason.endswith("characters)")


def test_a_verdict_is_the_brokers_answer_or_input_it_cannot_take_never_a_lost_answer() -> None:
    assert is_refusal(PolicyViolationError("no"))
    assert is_refusal(InvalidArgumentError("too long"))
    assert not is_refusal(KafkaTimeoutError("deadline"))
    assert not is_refusal(KafkaConnectionError("gone"))
    assert not is_refusal(NotControllerError("retriable"))
    refused = _refusal("topic 'a'", [("retention.ms", "1", False)], PolicyViolationError("no"))
    lost = _refusal("topic 'b'", [("retention.ms", "1", False)], KafkaTimeoutError("late"))
    a, b = (ConfigResource(ResourceType.TOPIC, name) for name in "ab")
    verdict = BrokerVerdict(configs={a: refused, b: lost})
    assert verdict.refusals() == [refused] and verdict.unknown() == [lost]
    assert not verdict.accepted and BrokerVerdict().accepted
    assert verdict.to_dict()["refused"][0]["keys"] == [{"key": "retention.ms", "value": "'1'"}]
