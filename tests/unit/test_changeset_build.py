"""A change set as the plan apply sends (``changeset._build``): pure, no broker."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kafka_config_admin import (
    AlterConfigOp,
    ClientQuotaEntity,
    ConfigSource,
    ConfigType,
    InvalidArgumentError,
    OpType,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from kafka_config_admin.changeset import ChangeSet, UnsetDeletes
from kafka_config_admin.changeset._build import build_plan
from kafka_config_admin.desired import ConfigChange, Plan
from kafka_config_admin.state import ClusterState

from .desired_helpers import BROKER, TOPIC, T, broker_config, entry, topic_config

STATE = ClusterState(
    configs={
        TOPIC: topic_config(
            policy=entry("cleanup.policy", "delete,compact", T, ConfigType.LIST),
            retention=entry("retention.ms", "86400000", T, ConfigType.LONG),
        ),
        BROKER: broker_config(),
    }
)


def plan_of(changes: ChangeSet, state: ClusterState = STATE) -> Plan:
    return build_plan(changes, state, {}, {}, {})[0]


def changes_of(plan: Plan) -> dict[str, ConfigChange]:
    [item] = plan.resources
    return {change.key: change for change in item.changes}


def test_each_op_carries_the_current_value_its_source_and_the_whole_value_wanted() -> None:
    plan = plan_of(
        ChangeSet(
            configs={
                TOPIC: [
                    AlterConfigOp("cleanup.policy", "compact,delete", OpType.SUBTRACT),
                    AlterConfigOp("retention.ms", None, OpType.DELETE),
                    AlterConfigOp("max.message.bytes", "2000000"),
                ]
            }
        )
    )
    assert not plan.problems
    changes = changes_of(plan)
    policy = changes["cleanup.policy"]
    assert (policy.current, policy.current_source, policy.wanted) == ("delete,compact", T, "")
    retention = changes["retention.ms"]
    assert (retention.current, retention.wanted) == ("86400000", None)
    size = changes["max.message.bytes"]
    assert size.current_source is ConfigSource.DEFAULT_CONFIG and size.wanted == "2000000"


def test_append_adds_only_the_members_the_list_lacks_at_its_end() -> None:
    append = AlterConfigOp("cleanup.policy", "compact,delete,x", OpType.APPEND)
    [change] = changes_of(plan_of(ChangeSet(configs={TOPIC: [append]}))).values()
    assert change.wanted == "delete,compact,x"


def test_a_client_check_refusal_is_a_problem_and_a_delete_of_a_key_not_set_is_one() -> None:
    plan = plan_of(
        ChangeSet(
            configs={
                TOPIC: [
                    AlterConfigOp("retention.ms", "soon"),
                    AlterConfigOp("min.insync.replicas", None, OpType.DELETE),
                ]
            }
        )
    )
    assert [problem.key for problem in plan.problems] == ["retention.ms", "min.insync.replicas"]


def test_a_change_set_that_skips_a_delete_of_a_key_not_set_leaves_it_out_with_its_reason() -> None:
    unset = AlterConfigOp("min.insync.replicas", None, OpType.DELETE)
    changes = ChangeSet(
        configs={
            TOPIC: [unset, AlterConfigOp("max.message.bytes", "2000000")],
            BROKER: [AlterConfigOp("log.cleaner.threads", None, OpType.DELETE)],
        },
        unset_deletes=UnsetDeletes.SKIP,
    )
    plan, skipped = build_plan(changes, STATE, {}, {}, {})
    assert not plan.problems
    # the broker, all of whose ops are left out, sends nothing; the topic sends the rest
    [item] = plan.resources
    assert item.resource == TOPIC and [c.key for c in item.changes] == ["max.message.bytes"]
    assert [(s.resource, s.key) for s in skipped] == [
        (TOPIC, "min.insync.replicas"),
        (BROKER, "log.cleaner.threads"),
    ]
    reason = skipped[0].reason
    assert reason.startswith("not sent: min.insync.replicas is not set on it")
    assert "DEFAULT_CONFIG" in reason
    # refused by default, as kafka-configs.sh: a problem, nothing skipped
    refused, none = build_plan(
        replace(changes, unset_deletes=UnsetDeletes.REFUSE), STATE, {}, {}, {}
    )
    assert [p.key for p in refused.problems] == ["min.insync.replicas", "log.cleaner.threads"]
    assert none == ()
    assert ChangeSet().unset_deletes is UnsetDeletes.REFUSE


def test_a_skipped_delete_never_hides_a_problem_of_the_same_key() -> None:
    unknown = AlterConfigOp("retention.msx", None, OpType.DELETE)
    changes = ChangeSet(configs={TOPIC: [unknown]}, unset_deletes=UnsetDeletes.SKIP)
    plan, skipped = build_plan(changes, STATE, {}, {}, {})
    assert [p.key for p in plan.problems] == ["retention.msx"] and skipped == ()


def test_a_sensitive_key_is_hidden_in_the_plan() -> None:
    op = AlterConfigOp("listener.name.x.ssl.key.password", "s3cret-pw")
    plan = plan_of(ChangeSet(configs={BROKER: [op]}))
    [change] = changes_of(plan).values()
    assert change.sensitive
    assert "s3cret-pw" not in plan.to_json() and "s3cret-pw" not in repr(plan)


def test_quotas_are_sent_as_asked_even_when_equal_to_what_the_entity_has() -> None:
    alice = ClientQuotaEntity({"user": "alice"})
    changes = ChangeSet(quotas={alice: {"producer_byte_rate": 1024.0, "consumer_byte_rate": None}})
    plan, _ = build_plan(changes, STATE, {}, {alice: {"producer_byte_rate": 1024.0}}, {})
    [quota] = plan.quotas
    assert quota.alteration() == {"producer_byte_rate": 1024.0, "consumer_byte_rate": None}
    assert [change.current for change in quota.changes] == [1024.0, None]


def test_scram_changes_are_planned_per_user_and_no_password_shows() -> None:
    upsert = UserScramCredentialUpsertion("alice", "SCRAM-SHA-256", "pw-secret", iterations=8192)
    changes = ChangeSet(scram=[upsert, UserScramCredentialDeletion("alice", "SCRAM-SHA-512")])
    plan, _ = build_plan(changes, STATE, {}, {}, {"alice": {"SCRAM-SHA-256": 8192}})
    [user] = plan.scram
    assert [(c.op, c.current_iterations, c.iterations) for c in user.changes] == [
        ("UPSERT", 8192, 8192),  # sent all the same: the password may be new
        ("DELETE", None, None),
    ]
    assert "pw-secret" not in plan.to_json()


def test_a_change_set_refuses_what_is_certain_at_once() -> None:
    user = ClientQuotaEntity({"user": "alice"})
    with pytest.raises(InvalidArgumentError, match="not a quota key"):
        ChangeSet(quotas={user: {"connection_creation_rate": 5.0}})
    with pytest.raises(InvalidArgumentError, match="above 0"):
        ChangeSet(quotas={user: {"producer_byte_rate": 0.0}})
    with pytest.raises(InvalidArgumentError, match="at least 1"):
        ChangeSet(partitions={"orders": 0})
    twice = [AlterConfigOp("retention.ms", "1"), AlterConfigOp("retention.ms", None, OpType.DELETE)]
    with pytest.raises(InvalidArgumentError, match=r"retention\.ms changed twice"):
        ChangeSet(configs={TOPIC: twice})
    with pytest.raises(InvalidArgumentError, match="changed twice"):
        ChangeSet(
            scram=[
                UserScramCredentialDeletion("alice", "SCRAM-SHA-256"),
                UserScramCredentialDeletion("alice", "SCRAM-SHA-256"),
            ]
        )


def test_apply_keeps_the_reviews_verdict_only_for_the_plan_reviewed_and_fully_answered() -> None:
    """``changeset.apply`` hands ``apply_plan`` the review's verdict (no second dry run) only
    when it judges what is sent: the very plan reviewed, every change answered by the broker.
    A change the broker could not be asked about (a timeout) is asked again."""
    from kafka_config_admin.changeset import BrokerVerdict, Refusal
    from kafka_config_admin.changeset._review import Review, _fresh_verdict

    changes = ChangeSet(configs={TOPIC: [AlterConfigOp("max.message.bytes", "2000000")]})
    plan = plan_of(changes)
    refused = BrokerVerdict(configs={TOPIC: Refusal("topic", (), InvalidArgumentError("no"), "no")})
    timed_out = BrokerVerdict(configs={TOPIC: Refusal("topic", (), TimeoutError(), "late")})
    assert _fresh_verdict(Review(changes, plan, STATE, refused), plan) is refused
    assert _fresh_verdict(Review(changes, plan, STATE, BrokerVerdict()), plan_of(changes)) is None
    assert _fresh_verdict(Review(changes, plan, STATE, timed_out), plan) is None
    assert _fresh_verdict(Review(changes, plan, STATE, None), plan) is None
