"""Config provider references (KIP-297/421) and values a coming Kafka release will refuse
(KIP-1030's 5.0 minimums), against the real broker: a reference is planned and applied as it is
written, never parsed nor resolved; a 5.0 refusal is a warning in plan, apply, audit and docs,
never a refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    InvalidConfigError,
    OpType,
    ResourceType,
)
from kafka_config_admin.changeset import apply_plan
from kafka_config_admin.desired import make_plan, parse_desired_state
from kafka_config_admin.state import OutcomeStatus, read_state

from .cli_helpers import make_topic, run_cli, settled, topic
from .helpers import new_topic, unique_name

pytestmark = pytest.mark.integration

#: A secret every broker describes (a PASSWORD): the test cluster's listeners read their own
#: listener-prefixed JAAS configs, so a broker stores this one and nothing reconfigures.
SECRET_KEY = "sasl.jaas.config"
SECRET_REF = "${file:/etc/kafka/secrets.properties:jaas}"
DLQ_REF = "${file:/etc/kafka/dlq.properties:topic}"


@pytest.mark.kafka(since="4.4")  # the group's errors.deadletterqueue.topic.name came in 4.4
async def test_a_provider_reference_is_planned_and_applied_untouched(
    admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    broker = ConfigResource(ResourceType.BROKER, str(kafka_broker_ids[0]))
    group = ConfigResource(ResourceType.GROUP, "refs-" + unique_name())
    desired = parse_desired_state(
        f"""
brokers:
  {broker.name}: {{configs: {{{SECRET_KEY}: "{SECRET_REF}"}}}}
groups:
  {group.name}: {{configs: {{errors.deadletterqueue.topic.name: "{DLQ_REF}"}}}}
""",
        source="refs.yaml",
    )
    try:
        state = await read_state(admin_client, desired)
        plan = make_plan(desired, state, include_sensitive=True)
        assert plan.problems == () and plan.warnings == ()
        [secret] = plan.get(broker).changes  # type: ignore[union-attr]
        assert secret.sensitive and secret.value == SECRET_REF
        # shown as the reference it is: it names where the secret is, not the secret
        assert secret.to_dict()["wanted"] == SECRET_REF and SECRET_REF in plan.to_json()
        [dlq] = plan.get(group).changes  # type: ignore[union-attr]
        assert dlq.value == DLQ_REF
        report = await apply_plan(admin_client, plan)
        assert {o.status for o in report.outcomes} == {OutcomeStatus.APPLIED}, report.outcomes
        described = await admin_client.describe_configs([broker, group]).all()
        assert described[group]["errors.deadletterqueue.topic.name"].value == DLQ_REF
        assert described[broker][SECRET_KEY].is_sensitive  # stored; the broker hides it
        again = make_plan(desired, await read_state(admin_client, desired))
        assert again.get(group) is None  # the same text: nothing left to plan
    finally:
        await admin_client.incremental_alter_configs(
            {
                broker: [AlterConfigOp(SECRET_KEY, op=OpType.DELETE)],
                group: [AlterConfigOp("errors.deadletterqueue.topic.name", op=OpType.DELETE)],
            }
        ).all()


async def test_a_reference_on_a_typed_key_is_left_to_the_broker_which_refuses_it(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    """Not parsed as a LONG here (its resolved value's type is unknown): the broker, with no
    provider configured, parses the text itself and refuses it in the dry run."""
    name = await new_topic(admin_client, kafka_bootstrap)
    desired = parse_desired_state(
        f"""
topics:
  - name: {name}
    configs: {{retention.ms: "${{file:/etc/kafka/topics.properties:retention}}"}}
""",
        source="typed.yaml",
    )
    plan = make_plan(desired, await read_state(admin_client, desired))
    assert plan.problems == ()
    report = await apply_plan(admin_client, plan)
    [outcome] = report.outcomes
    assert outcome.status is OutcomeStatus.FAILED
    assert isinstance(outcome.error, InvalidConfigError)
    assert "Not a number of type LONG" in str(outcome.error)
    config = await admin_client.describe_configs([topic(name)]).all()
    assert config[topic(name)]["retention.ms"].value == "604800000"  # nothing applied


def _file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "kafka.yaml"
    path.write_text(text)
    return str(path)


def test_segment_ms_below_the_5_0_minimum_is_a_warning_in_plan_apply_audit_and_docs(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    file = _file(tmp_path, f"topics:\n  - name: {name}\n    configs: {{segment.ms: 1000}}\n")
    warning = f"warning: topic '{name}', segment.ms = '1000': Kafka 5.0 will refuse values below"
    planned = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert planned.code == 3 and warning in planned.err, planned.err  # changes, no refusal
    as_json = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--output", "json").json()
    assert as_json["problems"] == []
    [found] = as_json["warnings"]
    assert (found["key"], found["value"], found["source"]) == ("segment.ms", "1000", "KIP-1030")
    applied = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--yes")
    assert applied.code == 0 and warning in applied.err, applied.err
    assert settled(kafka_bootstrap, topic(name), "segment.ms", "1000").value == "1000"
    audited = run_cli(capsys, "audit", file, "-b", kafka_bootstrap)
    assert audited.code == 0 and warning in audited.err, audited.err  # no violation
    report = run_cli(capsys, "audit", file, "-b", kafka_bootstrap, "--output", "json").json()
    assert [(w["key"], w["release"]) for w in report["warnings"]] == [("segment.ms", "5.0")]
    assert report["violations"] == []
    docs = run_cli(capsys, "docs", "segment.ms", "-b", kafka_bootstrap)
    assert docs.code == 0
    assert "warning: Kafka 5.0 will refuse values below 60000 (KIP-1030)" in docs.out


def test_an_audit_rule_requires_sensitive_keys_to_be_references(
    kafka_bootstrap: str,
    kafka_broker_ids: list[int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    broker = kafka_broker_ids[0]
    rules = "rules:\n  - {resource: broker, check: sensitive reference}\n"
    plain = _file(
        tmp_path, f"brokers:\n  {broker}: {{configs: {{{SECRET_KEY}: hunter2}}}}\n{rules}"
    )
    ran = run_cli(capsys, "audit", plain, "-b", kafka_bootstrap, "--output", "json")
    assert ran.code == 3, ran.err  # a violation
    [violation] = ran.json()["violations"]
    assert (violation["resource"], violation["key"]) == (
        {"type": "BROKER", "name": str(broker)},
        SECRET_KEY,
    )
    assert "not a config provider reference" in violation["message"]
    assert violation["actual"] is None and "hunter2" not in ran.out + ran.err  # never shown
    referenced = _file(
        tmp_path, f'brokers:\n  {broker}: {{configs: {{{SECRET_KEY}: "{SECRET_REF}"}}}}\n{rules}'
    )
    assert run_cli(capsys, "audit", referenced, "-b", kafka_bootstrap).code == 0
