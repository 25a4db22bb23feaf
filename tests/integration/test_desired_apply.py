"""Desired state against the real cluster: read, plan, apply, read back, plan again."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    ConfigSource,
    ConfigType,
    OpType,
    PolicyViolationError,
    ResourceType,
)
from kafka_config_admin.changeset import PlanRejectedError, apply_plan
from kafka_config_admin.desired import (
    ResourceAction,
    evaluate_state,
    make_plan,
    parse_desired_state,
)
from kafka_config_admin.state import OutcomeStatus, check_ops, read_state

from .helpers import new_topic, settled_entry

pytestmark = pytest.mark.integration

_groups = itertools.count()
#: A logger every release has (Kafka 4.4 moved AppInfoParser, the logger used before, to
#: org.apache.kafka.common.utils.internals, and a broker refuses a logger it does not have).
LOGGER = "kafka.server.ReplicaManager"


def topic(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


async def current_values(
    admin: AdminClient, resource: ConfigResource, *keys: str
) -> dict[str, tuple[str | None, ConfigSource]]:
    config = await admin.describe_configs({resource: list(keys)}).values[resource]
    return {key: (config[key].value, config[key].source) for key in keys if key in config}


@pytest.fixture
async def shared_resources(
    admin_client: AdminClient, kafka_broker_ids: list[int]
) -> AsyncIterator[tuple[str, str]]:
    """A broker id and a group name whose configs the test may change; restored afterwards."""
    broker_id = str(kafka_broker_ids[0])
    group = f"g{os.getpid()}-{next(_groups)}"
    yield broker_id, group
    await admin_client.incremental_alter_configs(
        {
            ConfigResource(ResourceType.BROKER, broker_id): [
                AlterConfigOp("log.cleaner.backoff.ms", op=OpType.DELETE)
            ],
            ConfigResource(ResourceType.BROKER, ""): [
                AlterConfigOp("log.message.timestamp.after.max.ms", op=OpType.DELETE)
            ],
            ConfigResource(ResourceType.BROKER_LOGGER, broker_id): [AlterConfigOp(LOGGER, "INFO")],
            ConfigResource(ResourceType.GROUP, group): [
                AlterConfigOp("consumer.session.timeout.ms", op=OpType.DELETE)
            ],
        }
    ).all()


async def test_plan_apply_read_back_and_a_second_plan_is_empty(
    admin_client: AdminClient, kafka_bootstrap: str, shared_resources: tuple[str, str]
) -> None:
    broker_id, group = shared_resources
    plain = await new_topic(admin_client, kafka_bootstrap)
    compacted = await new_topic(admin_client, kafka_bootstrap, {"cleanup.policy": "delete"})
    desired = parse_desired_state(
        f"""
topics:
  - name: {plain}
    configs:
      retention.ms: 2d
      max.message.bytes: 2MiB
      min.insync.replicas: 1          # the default already: no change
  - name: {compacted}
    configs:
      cleanup.policy: [delete, compact]
      segment.ms: 7d                  # the default already: no change
brokers:
  {broker_id}:
    configs:
      log.cleaner.backoff.ms: 20s
cluster_default:
  configs:
    log.message.timestamp.after.max.ms: 2h
broker_loggers:
  {broker_id}:
    configs:
      {LOGGER}: WARN
groups:
  {group}:
    configs:
      consumer.session.timeout.ms: 50s
"""
    )
    state = await read_state(admin_client, desired)
    plan = make_plan(desired, state)
    assert plan.problems == ()
    changes = {
        (p.resource.type, p.resource.name): [(c.key, c.op, c.value) for c in p.changes]
        for p in plan.resources
    }
    assert changes == {
        (ResourceType.TOPIC, plain): [
            ("retention.ms", OpType.SET, "172800000"),
            ("max.message.bytes", OpType.SET, "2097152"),
        ],
        (ResourceType.TOPIC, compacted): [("cleanup.policy", OpType.APPEND, "compact")],
        (ResourceType.BROKER, broker_id): [("log.cleaner.backoff.ms", OpType.SET, "20000")],
        (ResourceType.BROKER, ""): [("log.message.timestamp.after.max.ms", OpType.SET, "7200000")],
        (ResourceType.BROKER_LOGGER, broker_id): [(LOGGER, OpType.SET, "WARN")],
        (ResourceType.GROUP, group): [("consumer.session.timeout.ms", OpType.SET, "50000")],
    }

    report = await apply_plan(admin_client, plan)
    assert report.ok, report
    assert {o.status for o in report.outcomes} == {OutcomeStatus.APPLIED}
    assert len(report.outcomes) == 6
    # The read back already saw every value; a describe now shows them too.
    assert await current_values(admin_client, topic(compacted), "cleanup.policy") == {
        "cleanup.policy": ("delete,compact", ConfigSource.TOPIC_CONFIG)
    }

    again = make_plan(desired, await read_state(admin_client, desired))
    assert not again.has_changes and again.resources == () and again.problems == ()


async def test_prune_deletes_only_overrides_of_the_files_resources(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    named = await new_topic(
        admin_client, kafka_bootstrap, {"retention.ms": "86400000", "max.message.bytes": "2000000"}
    )
    other = await new_topic(admin_client, kafka_bootstrap, {"max.message.bytes": "2000000"})
    desired = parse_desired_state(
        f"topics:\n  - name: {named}\n    configs: {{retention.ms: 2d}}\n"
    )
    state = await read_state(admin_client, desired)

    kept = make_plan(desired, state)
    assert [(c.key, c.op) for c in kept.resources[0].changes] == [("retention.ms", OpType.SET)]
    pruned = make_plan(desired, state, prune=True)
    assert [(c.key, c.op) for c in pruned.resources[0].changes] == [
        ("retention.ms", OpType.SET),
        ("max.message.bytes", OpType.DELETE),
    ]
    assert (await apply_plan(admin_client, pruned)).ok

    after = await current_values(admin_client, topic(named), "retention.ms", "max.message.bytes")
    assert after["retention.ms"] == ("172800000", ConfigSource.TOPIC_CONFIG)
    assert after["max.message.bytes"][1] is ConfigSource.DEFAULT_CONFIG
    untouched = await current_values(admin_client, topic(other), "max.message.bytes")
    assert untouched == {"max.message.bytes": ("2000000", ConfigSource.TOPIC_CONFIG)}
    assert not make_plan(desired, await read_state(admin_client, desired), prune=True).has_changes


async def test_bad_values_are_refused_before_anything_is_sent(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    resource = topic(name)
    desired = parse_desired_state(
        f"""
topics:
  - name: {name}
    configs:
      retention.ms: 2d                    # fine, but must not be sent either
      min.insync.replicas: two            # wrong type
      unclean.leader.election.enable: yes # wrong type (BOOLEAN)
      no.such.config: 1                   # unknown key
"""
    )
    state = await read_state(admin_client, desired)
    plan = make_plan(desired, state)
    assert {(p.key, p.expected_type) for p in plan.problems} == {
        ("min.insync.replicas", ConfigType.INT),
        ("unclean.leader.election.enable", ConfigType.BOOLEAN),
        ("no.such.config", ConfigType.UNKNOWN),
    }
    with pytest.raises(PlanRejectedError, match="3 problem") as caught:
        await apply_plan(admin_client, plan)
    assert len(caught.value.problems) == 3

    append = check_ops({resource: [AlterConfigOp("retention.ms", "1", OpType.APPEND)]}, state)
    assert [p.message for p in append] == ["APPEND needs a LIST config, and this one is LONG"]

    await settled_entry(admin_client, resource, "retention.ms", "604800000")
    keys = ("retention.ms", "unclean.leader.election.enable")
    assert await current_values(admin_client, resource, *keys) == {
        "retention.ms": ("604800000", ConfigSource.DEFAULT_CONFIG),
        "unclean.leader.election.enable": ("false", ConfigSource.DEFAULT_CONFIG),
    }


async def test_a_resource_the_policy_rejects_fails_while_the_others_apply(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    rejected = await new_topic(admin_client, kafka_bootstrap)
    accepted = await new_topic(admin_client, kafka_bootstrap)
    desired = parse_desired_state(
        f"""
topics:
  - name: {rejected}
    configs: {{retention.ms: 30s, max.message.bytes: 2MiB}}   # the policy wants >= 60 s
  - name: {accepted}
    configs: {{retention.ms: 2d}}
"""
    )
    plan = make_plan(desired, await read_state(admin_client, desired))
    report = await apply_plan(admin_client, plan)
    assert not report.ok
    by_name = {outcome.resource.name: outcome for outcome in report.outcomes}
    assert by_name[accepted].status is OutcomeStatus.APPLIED
    assert by_name[rejected].status is OutcomeStatus.FAILED
    assert isinstance(by_name[rejected].error, PolicyViolationError)
    assert report.failed == [by_name[rejected]]
    assert report.to_dict()["outcomes"][0]["error"] == "PolicyViolationError"

    await settled_entry(admin_client, topic(accepted), "retention.ms", "172800000")
    assert await current_values(
        admin_client, topic(rejected), "retention.ms", "max.message.bytes"
    ) == {
        "retention.ms": ("604800000", ConfigSource.DEFAULT_CONFIG),
        "max.message.bytes": ("1048588", ConfigSource.DEFAULT_CONFIG),
    }


async def test_dry_run_validates_on_the_broker_and_changes_nothing(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    desired = parse_desired_state(f"topics:\n  - name: {name}\n    configs: {{retention.ms: 2d}}\n")
    plan = make_plan(desired, await read_state(admin_client, desired))
    report = await apply_plan(admin_client, plan, dry_run=True)
    assert report.dry_run and report.ok
    assert [o.status for o in report.outcomes] == [OutcomeStatus.VALIDATED]
    assert make_plan(desired, await read_state(admin_client, desired)) == plan


async def test_missing_named_topic_is_a_problem_and_nothing_is_sent(
    admin_client: AdminClient,
) -> None:
    name = f"missing-{os.getpid()}"
    desired = parse_desired_state(f"topics:\n  - name: {name}\n    configs: {{retention.ms: 2d}}\n")
    plan = make_plan(desired, await read_state(admin_client, desired))
    assert [(p.resource, p.action) for p in plan.resources] == [
        (topic(name), ResourceAction.MISSING)
    ]
    [problem] = plan.problems
    assert (problem.resource, problem.key) == (topic(name), None)
    assert "give partitions and replication_factor to create it" in problem.message
    with pytest.raises(PlanRejectedError):
        await apply_plan(admin_client, plan)


async def test_rules_audit_the_described_state(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    weak = await new_topic(admin_client, kafka_bootstrap)
    strong = await new_topic(admin_client, kafka_bootstrap, {"retention.ms": "172800000"})
    desired = parse_desired_state(
        f"""
topics:
  - name: {weak}
  - name: {strong}
rules:
  - check: retention.ms <= 2d
  - check: retention.ms required
    match: {strong}
"""
    )
    violations = evaluate_state(desired.rules, await read_state(admin_client, desired))
    assert [(v.resource, v.key, v.actual) for v in violations] == [
        (ConfigResource(ResourceType.TOPIC, weak), "retention.ms", "604800000")
    ]


async def test_topics_are_created_with_configs_and_patterns_match_listed_topics(
    admin_client: AdminClient,
) -> None:
    prefix = f"d{os.getpid()}-{next(_groups)}"
    name = f"{prefix}.orders"
    create = parse_desired_state(
        f"""
topics:
  - name: {name}
    partitions: 2
    replication_factor: 1
    configs: {{retention.ms: 2d, cleanup.policy: [delete, compact]}}
"""
    )
    plan = make_plan(create, await read_state(admin_client, create))
    [resource_plan] = plan.resources
    assert resource_plan.action is ResourceAction.CREATE and plan.problems == ()

    dry = await apply_plan(admin_client, plan, dry_run=True)
    assert [o.status for o in dry.outcomes] == [OutcomeStatus.VALIDATED]
    assert name not in {listing.name for listing in await admin_client.list_topics(f"{prefix}.*")}

    report = await apply_plan(admin_client, plan)
    assert [o.status for o in report.outcomes] == [OutcomeStatus.APPLIED], report
    [listing] = await admin_client.list_topics(f"{prefix}.*")
    assert (listing.name, listing.num_partitions) == (name, 2)
    assert await current_values(admin_client, topic(name), "retention.ms", "cleanup.policy") == {
        "retention.ms": ("172800000", ConfigSource.TOPIC_CONFIG),
        "cleanup.policy": ("delete,compact", ConfigSource.TOPIC_CONFIG),
    }
    assert not make_plan(create, await read_state(admin_client, create)).has_changes

    by_pattern = parse_desired_state(
        f"topics:\n  - pattern: '{prefix}\\..*'\n    configs: {{max.message.bytes: 2MiB}}\n"
    )
    plan = make_plan(by_pattern, await read_state(admin_client, by_pattern))
    assert [(p.resource, [c.key for c in p.changes]) for p in plan.resources] == [
        (topic(name), ["max.message.bytes"])
    ]
    assert (await apply_plan(admin_client, plan)).ok
    assert not make_plan(by_pattern, await read_state(admin_client, by_pattern)).has_changes
