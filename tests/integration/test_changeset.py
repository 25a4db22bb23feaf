"""The change pipeline (``kafka_config_admin.changeset``) against the real cluster: a change
set reviewed (current values, client checks, the broker's dry run), then applied and read back,
one outcome per resource, quota entity, SCRAM user and growing topic."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ClientQuotaEntity,
    ClientQuotaFilter,
    ClientQuotaFilterComponent,
    ConfigResource,
    ConfigSource,
    OpType,
    PolicyViolationError,
    ResourceType,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from kafka_config_admin.changeset import (
    ChangeSet,
    OutcomeStatus,
    PlanRejectedError,
    RuleRefusedError,
    StaleChangeError,
    UnknownRuleError,
    apply,
    apply_plan,
    review,
)
from kafka_config_admin.desired import parse_desired_state
from kafka_config_admin.state import read_scram_credentials

from .helpers import new_topic, unique_name

pytestmark = pytest.mark.integration


def topic(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


async def overrides(admin: AdminClient, resource: ConfigResource) -> dict[str, str | None]:
    config = await admin.describe_configs([resource]).values[resource]
    return {e.name: e.value for e in config.values() if e.source is ConfigSource.TOPIC_CONFIG}


async def test_config_ops_are_reviewed_with_current_values_then_applied_and_read_back(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap, {"max.message.bytes": "2000000"})
    changes = ChangeSet(
        configs={
            topic(name): [
                AlterConfigOp("retention.ms", "604800000"),
                AlterConfigOp("cleanup.policy", "compact", OpType.APPEND),
                AlterConfigOp("max.message.bytes", None, OpType.DELETE),
            ]
        }
    )
    reviewed = await review(admin_client, changes)
    assert not reviewed.problems and not reviewed.refused
    assert reviewed.verdict is not None  # the broker was asked
    [item] = reviewed.plan.resources
    by_key = {change.key: change for change in item.changes}
    assert by_key["cleanup.policy"].current == "delete"
    assert by_key["cleanup.policy"].wanted == "delete,compact"
    assert by_key["max.message.bytes"].current == "2000000"
    assert by_key["max.message.bytes"].current_source is ConfigSource.TOPIC_CONFIG
    assert by_key["max.message.bytes"].wanted is None
    assert await overrides(admin_client, topic(name)) == {"max.message.bytes": "2000000"}

    report = await apply(admin_client, reviewed)
    assert [o.status for o in report.outcomes] == [OutcomeStatus.APPLIED]
    assert report.ok
    assert await overrides(admin_client, topic(name)) == {
        "retention.ms": "604800000",
        "cleanup.policy": "delete,compact",
    }


async def test_a_bad_value_is_a_problem_and_apply_sends_nothing(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    changes = ChangeSet(
        configs={
            topic(name): [
                AlterConfigOp("retention.ms", "not-a-number"),
                AlterConfigOp("segment.ms", "3600000"),
            ]
        }
    )
    reviewed = await review(admin_client, changes)
    assert [problem.key for problem in reviewed.problems] == ["retention.ms"]
    assert reviewed.verdict is None  # nothing asked of the broker either
    with pytest.raises(PlanRejectedError, match="nothing was sent"):
        await apply(admin_client, reviewed)
    assert await overrides(admin_client, topic(name)) == {}


async def test_deleting_a_key_the_resource_does_not_set_is_a_problem(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    changes = ChangeSet(configs={topic(name): [AlterConfigOp("retention.ms", None, OpType.DELETE)]})
    [problem] = (await review(admin_client, changes)).problems
    assert "nothing to delete" in problem.message


async def test_the_broker_refuses_one_resource_and_the_other_is_applied(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    refused = await new_topic(admin_client, kafka_bootstrap)
    accepted = await new_topic(admin_client, kafka_bootstrap)
    changes = ChangeSet(
        configs={
            topic(refused): [AlterConfigOp("retention.ms", "30000")],  # the test policy's no
            topic(accepted): [AlterConfigOp("retention.ms", "7200000")],
        }
    )
    reviewed = await review(admin_client, changes)
    assert not reviewed.problems and reviewed.refused
    assert reviewed.verdict is not None and set(reviewed.verdict.configs) == {topic(refused)}
    report = await apply(admin_client, reviewed)
    statuses = {o.resource.name: o.status for o in report.outcomes}
    assert statuses == {refused: OutcomeStatus.FAILED, accepted: OutcomeStatus.APPLIED}
    assert isinstance(report.failed[0].error, PolicyViolationError)
    assert await overrides(admin_client, topic(refused)) == {}
    assert await overrides(admin_client, topic(accepted)) == {"retention.ms": "7200000"}


async def test_a_dry_run_validates_and_changes_nothing(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    changes = ChangeSet(configs={topic(name): [AlterConfigOp("retention.ms", "7200000")]})
    report = await apply(admin_client, await review(admin_client, changes), dry_run=True)
    assert [o.status for o in report.outcomes] == [OutcomeStatus.VALIDATED]
    assert await overrides(admin_client, topic(name)) == {}


async def test_a_partition_increase_is_applied_and_a_decrease_is_a_problem(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    reviewed = await review(admin_client, ChangeSet(partitions={name: 3}))
    assert not reviewed.problems
    [grows] = reviewed.plan.partition_plans()
    assert (grows.current_partitions, grows.wanted_partitions) == (1, 3)
    report = await apply(admin_client, reviewed)
    assert [o.status for o in report.partitions] == [OutcomeStatus.APPLIED], report.to_dict()
    described = await admin_client.describe_topics([name]).values[name]
    assert len(described.partitions) == 3
    [problem] = (await review(admin_client, ChangeSet(partitions={name: 2}))).problems
    assert "cannot remove partitions" in problem.message
    missing = unique_name()
    [problem] = (await review(admin_client, ChangeSet(partitions={missing: 2}))).problems
    assert problem.resource == topic(missing) and "could not be described" in problem.message


async def test_quotas_are_set_read_back_and_removed(admin_client: AdminClient) -> None:
    entity = ClientQuotaEntity({"user": f"pipe-{unique_name()}"})
    set_them = ChangeSet(quotas={entity: {"producer_byte_rate": 1024.0}})
    reviewed = await review(admin_client, set_them)
    assert reviewed.plan.quotas[0].changes[0].current is None
    report = await apply(admin_client, reviewed)
    assert [q.status for q in report.quotas] == [OutcomeStatus.APPLIED]
    remove = await review(admin_client, ChangeSet(quotas={entity: {"producer_byte_rate": None}}))
    assert remove.plan.quotas[0].changes[0].current == 1024.0
    report = await apply(admin_client, remove)
    assert [q.status for q in report.quotas] == [OutcomeStatus.APPLIED]
    assert entity not in await admin_client.describe_client_quotas().all()


async def test_scram_credentials_are_upserted_read_back_and_deleted(
    admin_client: AdminClient,
) -> None:
    user = f"pipe-{unique_name()}"
    upsert = UserScramCredentialUpsertion(user, "SCRAM-SHA-256", "pw-secret", iterations=8192)
    reviewed = await review(admin_client, ChangeSet(scram=[upsert]))
    assert "pw-secret" not in repr(reviewed)
    dry = await apply(admin_client, reviewed, dry_run=True)
    assert [s.status for s in dry.scram] == [OutcomeStatus.VALIDATED]
    assert await read_scram_credentials(admin_client, [user]) == {user: {}}
    report = await apply(admin_client, reviewed)
    assert [s.status for s in report.scram] == [OutcomeStatus.APPLIED]
    assert await read_scram_credentials(admin_client, [user]) == {user: {"SCRAM-SHA-256": 8192}}
    again = await review(admin_client, ChangeSet(scram=[upsert]))  # a new password, say
    assert again.plan.scram[0].changes[0].current_iterations == 8192  # sent all the same
    deletion = ChangeSet(scram=[UserScramCredentialDeletion(user, "SCRAM-SHA-256")])
    report = await apply(admin_client, await review(admin_client, deletion))
    assert [s.status for s in report.scram] == [OutcomeStatus.APPLIED]
    assert await read_scram_credentials(admin_client, [user]) == {user: {}}


async def test_apply_refuses_a_key_changed_since_the_review_unless_told_to_skip_it(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    named = await new_topic(admin_client, kafka_bootstrap, {"retention.ms": "3600000"})
    other = await new_topic(admin_client, kafka_bootstrap)
    entity = ClientQuotaEntity({"user": unique_name()})
    changes = ChangeSet(
        configs={
            topic(named): [AlterConfigOp("retention.ms", "7200000")],
            topic(other): [AlterConfigOp("retention.ms", "5400000")],
        },
        quotas={entity: {"producer_byte_rate": 1024.0}},
    )
    reviewed = await review(admin_client, changes)
    # Someone else changes a reviewed key, and a quota, between the review and the apply.
    moved = [AlterConfigOp("retention.ms", "60000")]
    await admin_client.incremental_alter_configs({topic(named): moved}).all()
    await admin_client.alter_client_quotas({entity: {"producer_byte_rate": 2048.0}}).all()
    await _until_seen(admin_client, topic(named), entity)  # brokers apply it ms apart

    with pytest.raises(StaleChangeError) as stale:
        await apply(admin_client, reviewed)
    assert stale.value.lines() == [
        f"topic {named!r}: retention.ms was 3600000 (TOPIC_CONFIG) when reviewed, "
        "is 60000 (TOPIC_CONFIG) now",
        f"quotas of {entity}: producer_byte_rate was none when reviewed, is 2048 now",
    ]
    assert "2 key(s) changed since the review; nothing was sent" in str(stale.value)
    assert (await overrides(admin_client, topic(named)))["retention.ms"] == "60000"
    assert (await overrides(admin_client, topic(other))).get("retention.ms") is None

    report = await apply(admin_client, reviewed, skip_stale=True)
    assert [(o.resource, o.status) for o in report.outcomes] == [
        (topic(other), OutcomeStatus.APPLIED)
    ]
    assert report.quotas == ()
    assert [k.key for k in report.stale[topic(named)]] == ["retention.ms"]
    assert report.to_dict()["stale"][0]["now"] == "60000"
    assert [k.now for k in report.stale_quotas[entity]] == ["2048"]
    assert (await overrides(admin_client, topic(named)))["retention.ms"] == "60000"
    assert (await overrides(admin_client, topic(other)))["retention.ms"] == "5400000"


async def test_apply_refuses_a_change_breaking_a_rule_unless_the_review_overrides_it(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    named = await new_topic(admin_client, kafka_bootstrap, {"min.insync.replicas": "2"})
    rules = parse_desired_state(
        "rules:\n  - name: min-isr\n    check: 'min.insync.replicas >= 2'\n"
    ).rules
    changes = ChangeSet(configs={topic(named): [AlterConfigOp("min.insync.replicas", "1")]})
    reviewed = await review(admin_client, changes, rules=rules)
    assert [f.rule.label for f in reviewed.guard.refusing] == ["min-isr"]
    assert reviewed.rule_refused
    with pytest.raises(RuleRefusedError, match="'min-isr'"):
        await apply(admin_client, reviewed)
    assert (await overrides(admin_client, topic(named)))["min.insync.replicas"] == "2"
    with pytest.raises(UnknownRuleError, match="no rule named 'min-ir'"):
        await review(admin_client, changes, rules=rules, overrides=["min-ir"])

    reviewed = await review(admin_client, changes, rules=rules, overrides=["min-isr"])
    assert not reviewed.rule_refused and [f.overridden for f in reviewed.guard.findings] == [True]
    (outcome,) = (await apply(admin_client, reviewed)).outcomes
    assert (outcome.status, outcome.note) == (OutcomeStatus.APPLIED, "rule 'min-isr' overridden")
    assert (await overrides(admin_client, topic(named)))["min.insync.replicas"] == "1"


async def _until_seen(
    admin: AdminClient, resource: ConfigResource, entity: ClientQuotaEntity
) -> None:
    """Wait until a describe shows the topic's retention.ms and the entity's quota as changed."""
    quota_filter = ClientQuotaFilter.contains_only(
        [ClientQuotaFilterComponent.exact(kind, name) for kind, name in entity.items() if name]
    )
    with anyio.fail_after(10):
        while True:
            retention = (await overrides(admin, resource)).get("retention.ms")
            quotas = await admin.describe_client_quotas(quota_filter).all()
            if retention == "60000" and quotas.get(entity):
                return
            await anyio.sleep(0.05)


class DryRunCounter:
    """Counts the calls the real client makes with ``validate_only`` (the broker's dry run),
    by wrapping its four validating methods on the instance."""

    METHODS = (
        "incremental_alter_configs",
        "create_topics",
        "create_partitions",
        "alter_client_quotas",
    )

    def __init__(self, admin: AdminClient, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        for name in self.METHODS:
            monkeypatch.setattr(admin, name, self._counting(name, getattr(admin, name)))

    def _counting(self, name: str, method: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("validate_only"):
                self.calls.append(name)
            return method(*args, **kwargs)

        return call

    def taken(self) -> list[str]:
        calls, self.calls = self.calls, []
        return calls


async def test_apply_of_a_fresh_review_asks_the_brokers_dry_run_once_and_still_refuses(
    admin_client: AdminClient, kafka_bootstrap: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review asks the broker's dry run; an apply of it whose keys did not move uses that
    verdict (no validate_only call) and fails what the broker refused, sending it nothing.
    When the plan changed since (a stale key left out), or for ``apply_plan`` without a
    review, the broker is asked before anything changes."""
    refused = await new_topic(admin_client, kafka_bootstrap)
    accepted = await new_topic(admin_client, kafka_bootstrap, {"retention.ms": "3600000"})
    entity = ClientQuotaEntity({"user": unique_name()})
    changes = ChangeSet(
        configs={
            topic(refused): [AlterConfigOp("retention.ms", "30000")],  # the test policy's no
            topic(accepted): [AlterConfigOp("retention.ms", "7200000")],
        },
        quotas={entity: {"producer_byte_rate": 1024.0}},
    )
    counter = DryRunCounter(admin_client, monkeypatch)
    reviewed = await review(admin_client, changes)
    assert sorted(counter.taken()) == ["alter_client_quotas", "incremental_alter_configs"]
    assert reviewed.verdict is not None and set(reviewed.verdict.configs) == {topic(refused)}

    report = await apply(admin_client, reviewed)
    assert counter.taken() == []  # the review's verdict stands: not asked again
    statuses = {o.resource.name: o.status for o in report.outcomes}
    assert statuses == {refused: OutcomeStatus.FAILED, accepted: OutcomeStatus.APPLIED}
    assert isinstance(report.failed[0].error, PolicyViolationError)
    assert [q.status for q in report.quotas] == [OutcomeStatus.APPLIED]
    assert await overrides(admin_client, topic(refused)) == {}
    assert await overrides(admin_client, topic(accepted)) == {"retention.ms": "7200000"}

    # A key moved since the review: the rest is a new plan, and the broker is asked again.
    changes = ChangeSet(
        configs={
            topic(accepted): [AlterConfigOp("retention.ms", "5400000")],
            topic(refused): [AlterConfigOp("segment.ms", "7200000")],
        }
    )
    reviewed = await review(admin_client, changes)
    counter.taken()
    await admin_client.incremental_alter_configs(
        {topic(accepted): [AlterConfigOp("retention.ms", "60000")]}
    ).all()
    await _until_seen(admin_client, topic(accepted), entity)
    report = await apply(admin_client, reviewed, skip_stale=True)
    assert counter.taken() == ["incremental_alter_configs"]
    assert [(o.resource, o.status) for o in report.outcomes] == [
        (topic(refused), OutcomeStatus.APPLIED)
    ]

    # apply_plan without a review asks the broker itself, and fails what it refuses.
    reviewed = await review(
        admin_client, ChangeSet(configs={topic(accepted): [AlterConfigOp("retention.ms", "30000")]})
    )
    counter.taken()
    report = await apply_plan(admin_client, reviewed.plan)
    assert counter.taken() == ["incremental_alter_configs"]
    assert [o.status for o in report.outcomes] == [OutcomeStatus.FAILED]
    assert (await overrides(admin_client, topic(accepted)))["retention.ms"] == "60000"


class _WatchedRecorder:
    """An ``ApplyRecorder`` that notes what the apply asked of it, and when."""

    def __init__(self, admin: AdminClient, *, prepared: anyio.Event | None = None) -> None:
        self.admin = admin
        self.events: list[str] = []
        #: Set: prepare returns at once; else it waits for it (and notes if it was cancelled).
        self.prepared = prepared

    async def prepare(self, admin: AdminClient, plan: Any) -> _WatchedRecording:
        self.events.append(f"prepare: {admin.traffic().requests} requests sent")
        try:
            if self.prepared is not None:
                await self.prepared.wait()
        except BaseException:
            self.events.append("prepare cancelled")
            raise
        return _WatchedRecording(self)


class _WatchedRecording:
    def __init__(self, recorder: _WatchedRecorder) -> None:
        self.recorder = recorder

    async def record(self, report: Any) -> Any:
        requests = self.recorder.admin.traffic().requests
        self.recorder.events.append(f"record: {requests} requests sent")
        return report


async def test_a_recorder_prepares_while_the_changes_are_sent_and_records_before_the_return(
    kafka_bootstrap: str,
) -> None:
    async with AdminClient(kafka_bootstrap, timeout=30) as admin:  # its own requests counted
        name = await new_topic(admin, kafka_bootstrap, {})
        reviewed = await review(
            admin, ChangeSet(configs={topic(name): [AlterConfigOp("retention.ms", "3600000")]})
        )
        before = admin.traffic().requests
        recorder = _WatchedRecorder(admin)
        report = await apply(admin, reviewed, recorder=recorder)
        assert report.ok
        prepared, recorded = recorder.events  # in this order, once each
        at_prepare, at_record = int(prepared.split()[1]), int(recorded.split()[1])
        # Prepared once the apply had started, recorded after its read back had been sent.
        assert before <= at_prepare < at_record

        # An apply waits for its recorder; cancelled, it leaves no preparation running.
        again = await review(
            admin, ChangeSet(configs={topic(name): [AlterConfigOp("retention.ms", "7200000")]})
        )
        stuck = _WatchedRecorder(admin, prepared=anyio.Event())
        with anyio.move_on_after(5):
            await apply(admin, again, recorder=stuck)
        assert stuck.events[-1] == "prepare cancelled"
