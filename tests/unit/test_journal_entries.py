"""The journal's rows of an applied plan (``journal._entries``: the rows planned, then their
outcomes): pure, no broker."""

from __future__ import annotations

from datetime import UTC, datetime

from kafka_config_admin import ClientQuotaEntity, ConfigSource, OpType
from kafka_config_admin.changeset import ApplyReport, QuotaOutcome, ResourceOutcome
from kafka_config_admin.desired import ConfigChange, Plan, ResourceAction, ResourcePlan
from kafka_config_admin.journal import Origin
from kafka_config_admin.journal._entries import entries_of, planned_rows
from kafka_config_admin.state import OutcomeStatus, QuotaChange, QuotaPlan

from .desired_helpers import TOPIC

TIME = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)


def test_each_change_sent_is_one_row_with_its_origin_and_outcome() -> None:
    entity = ClientQuotaEntity({"user": "alice"})
    plan = Plan(
        resources=(
            ResourcePlan(
                resource=TOPIC,
                action=ResourceAction.ALTER,
                changes=(
                    ConfigChange(
                        key="retention.ms",
                        op=OpType.SET,
                        value="3600000",
                        wanted="3600000",
                        current="86400000",
                        current_source=ConfigSource.TOPIC_CONFIG,
                    ),
                ),
            ),
        ),
        quotas=(
            QuotaPlan(
                entity=dict(entity),
                changes=(QuotaChange(key="producer_byte_rate", current=None, wanted=1024.0),),
            ),
        ),
    )
    report = ApplyReport(
        outcomes=(ResourceOutcome(TOPIC, ResourceAction.ALTER, OutcomeStatus.APPLIED, note="n"),),
        quotas=(QuotaOutcome(entity, OutcomeStatus.FAILED, error=ValueError("no")),),
    )
    origin = Origin(face="cli", user="alice", cluster="prod", note="undo of change set x")

    config, quota = entries_of(
        planned_rows(plan), report, origin=origin, cluster_id="abc", change_set="cs1", time=TIME
    )

    assert config.to_dict() == {
        "id": None,
        "change_set": "cs1",
        "time": TIME.isoformat(),
        "user": "alice",
        "face": "cli",
        "application": None,
        "cluster": "prod",
        "cluster_id": "abc",
        "resource_type": "topic",
        "resource_name": TOPIC.name,
        "entity": None,
        "key": "retention.ms",
        "op": "SET",
        "old_value": "86400000",
        "old_set": True,
        "new_value": "3600000",
        "new_set": True,
        "sensitive": False,
        "outcome": "applied",
        "message": "",
        "note": "n; undo of change set x",
        "resource": f"topic:{TOPIC.name}",
    }
    assert (quota.resource, quota.key, quota.old_set, quota.new_set) == (
        "quota:user=alice",
        "producer_byte_rate",
        False,
        True,
    )
    assert (quota.outcome, quota.message) == ("failed", "no")
