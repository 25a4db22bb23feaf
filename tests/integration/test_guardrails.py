"""Guardrails on the real cluster: a change that breaks a rule is refused before anything is
sent, applied only when overridden (and said so), whether the rule is the file's or the
cluster's clusters-file entry's."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kafka_config_admin import AdminClient
from kafka_config_admin.changeset import RuleRefusedError, apply_plan
from kafka_config_admin.cli import _alter as cli_alter
from kafka_config_admin.desired import make_plan, parse_desired_state
from kafka_config_admin.state import OutcomeStatus, read_state

from .cli_helpers import make_topic, overrides, run_cli, run_process, settled, topic
from .helpers import new_topic, unique_name

pytestmark = pytest.mark.integration

RULES = """
rules:
  - name: min-isr
    check: "min.insync.replicas >= 2"
"""


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def test_a_change_breaking_a_files_rule_is_refused_and_applied_only_when_overridden(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = make_topic(kafka_bootstrap, {"min.insync.replicas": "2"})
    file = write(
        tmp_path / "kafka.yaml",
        f"topics:\n  - name: {named}\n    configs: {{min.insync.replicas: 1}}\n{RULES}",
    )

    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 4, ran.err
    assert f"refused by rule: topic {named!r}: min.insync.replicas = '1' (now '2')" in ran.err
    assert "breaks rule min-isr: min.insync.replicas >= 2" in ran.err
    assert "apply would refuse: the plan breaks rule(s) 'min-isr'" in ran.err
    found = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "-o", "json").json()["rules"]
    assert [(f["rule"], f["key"], f["after"], f["status"]) for f in found] == [
        ("min-isr", "min.insync.replicas", "1", "breaks")
    ]

    for dry_run in ((), ("--dry-run",)):
        ran = run_process("apply", file, "-b", kafka_bootstrap, "--yes", *dry_run)
        assert ran.code == 4, ran.err
        assert "refused by rule" in ran.err and "'min-isr'" in ran.err
        assert "nothing was sent" in ran.err and "Traceback" not in ran.err
        assert overrides(kafka_bootstrap, topic(named))["min.insync.replicas"] == "2"

    ran = run_process("apply", file, "-b", kafka_bootstrap, "--yes", "--override-rule", "mn-isr")
    assert ran.code == 2, ran.err
    assert "no rule named 'mn-isr' to override (rules: 'min-isr')" in ran.err
    assert overrides(kafka_bootstrap, topic(named))["min.insync.replicas"] == "2"

    overriding = ("--override-rule", "min-isr")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, *overriding)
    assert ran.code == 3, ran.err
    assert f"rule overridden: topic {named!r}: min.insync.replicas = '1'" in ran.err
    document = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "-o", "json", *overriding)
    assert [f["overridden"] for f in document.json()["rules"]] == [True]

    ran = run_process("apply", file, "-b", kafka_bootstrap, "--yes", *overriding)
    assert ran.code == 0, ran.err
    assert "rule overridden: " in ran.err
    assert f"applied: topic {named} [alter] (rule 'min-isr' overridden)" in ran.err
    assert overrides(kafka_bootstrap, topic(named))["min.insync.replicas"] == "1"


def test_a_clusters_file_entrys_rules_guard_changes_to_its_cluster(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = make_topic(kafka_bootstrap, {"min.insync.replicas": "2"})
    write(tmp_path / "prod-rules.yaml", f"{RULES}    match: {named}\n")
    clusters = write(
        tmp_path / "clusters.yaml",
        f"clusters:\n  prod:\n    bootstrap_servers: {kafka_bootstrap}\n"
        "    rules: prod-rules.yaml\n"
        f"  lab:\n    bootstrap_servers: {kafka_bootstrap}\n"
        "  down:\n    bootstrap_servers: 127.0.0.1:1\n    rules: prod-rules.yaml\n",
    )
    file = write(
        tmp_path / "kafka.yaml",
        f"topics:\n  - name: {named}\n    configs: {{min.insync.replicas: 1}}\n",
    )
    on_prod = ("--clusters-file", clusters, "--cluster", "prod")

    ran = run_process("apply", file, *on_prod, "--yes")
    assert ran.code == 4, ran.err
    assert "'min-isr'" in ran.err and "nothing was sent" in ran.err
    assert overrides(kafka_bootstrap, topic(named))["min.insync.replicas"] == "2"

    # The same file on a cluster whose entry names no rules: nothing stands in the way.
    ran = run_cli(capsys, "plan", file, "--clusters-file", clusters, "--cluster", "lab")
    assert ran.code == 3, ran.err
    assert "rule" not in ran.err

    ran = run_process("apply", file, *on_prod, "--yes", "--override-rule", "min-isr")
    assert ran.code == 0, ran.err
    assert "(rule 'min-isr' overridden)" in ran.err
    assert overrides(kafka_bootstrap, topic(named))["min.insync.replicas"] == "1"

    # audit of the cluster checks its entry's rules too.
    ran = run_process("audit", file, *on_prod, "-o", "json")
    assert ran.code == 3, ran.err
    assert [(v["resource"]["name"], v["key"], v["actual"]) for v in ran.json()["violations"]] == [
        (named, "min.insync.replicas", "1")
    ]

    # Broken now, but a change to another key neither breaks it further nor is refused.
    file = write(
        tmp_path / "kafka.yaml",
        f"topics:\n  - name: {named}\n    configs: {{min.insync.replicas: 1, retention.ms: 2h}}\n",
    )
    ran = run_process("apply", file, *on_prod, "--yes")
    assert ran.code == 0, ran.err
    assert overrides(kafka_bootstrap, topic(named))["retention.ms"] == "7200000"

    write(tmp_path / "prod-rules.yaml", "rules:\n  - check: min.insync.replicas >=\n")
    ran = run_process("plan", file, *on_prod)
    assert ran.code == 2, ran.err
    assert "1 error(s) in the rules file" in ran.err and "prod-rules.yaml:2: rules[0]" in ran.err
    assert "Traceback" not in ran.err
    # Said before connecting: a cluster nothing answers for gives the same line.
    down = run_process("plan", file, "--clusters-file", clusters, "--cluster", "down")
    assert (down.code, down.err) == (ran.code, ran.err)


async def test_apply_plan_refuses_before_sending_and_notes_an_override(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    named = await new_topic(admin_client, kafka_bootstrap, {"min.insync.replicas": "2"})
    desired = parse_desired_state(
        f"topics:\n  - name: {named}\n    configs: {{min.insync.replicas: 1}}\n{RULES}"
    )
    plan = make_plan(desired, await read_state(admin_client, desired))
    with pytest.raises(RuleRefusedError) as refused:
        await apply_plan(admin_client, plan, rules=desired.rules)
    assert [f.rule.label for f in refused.value.findings] == ["min-isr"]
    config = await admin_client.describe_configs([topic(named)]).values[topic(named)]
    assert config["min.insync.replicas"].value == "2"

    report = await apply_plan(admin_client, plan, rules=desired.rules, overrides=["min-isr"])
    (outcome,) = report.outcomes
    assert outcome.status is OutcomeStatus.APPLIED
    assert outcome.note == "rule 'min-isr' overridden"
    assert report.to_dict()["outcomes"][0]["message"] == "rule 'min-isr' overridden"


def test_plan_says_a_brokers_refusal_first_and_the_rules_beside_it(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = make_topic(kafka_bootstrap, {"min.insync.replicas": "2"})
    file = write(
        tmp_path / "kafka.yaml",
        f"topics:\n  - name: {named}\n    configs: {{min.insync.replicas: 1}}\n"
        f"  - name: {named}-wide\n    partitions: 1\n    replication_factor: 100\n{RULES}",
    )
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 2, ran.err
    assert f"refused by rule: topic {named!r}: min.insync.replicas = '1'" in ran.err
    assert f"refused by the broker: topic {named + '-wide'!r}" in ran.err
    assert "apply would refuse" not in ran.err


def _clusters_with_rules(tmp_path: Path, bootstrap: str, rules: str) -> tuple[str, ...]:
    """``--clusters-file FILE --cluster prod``: an entry naming a rules file of ``rules``."""
    write(tmp_path / "prod-rules.yaml", rules)
    clusters = write(
        tmp_path / "clusters.yaml",
        f"clusters:\n  prod:\n    bootstrap_servers: {bootstrap}\n    rules: prod-rules.yaml\n",
    )
    return ("--clusters-file", clusters, "--cluster", "prod")


def test_alter_is_refused_by_the_clusters_rules_and_applied_when_overridden(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = make_topic(kafka_bootstrap, {"min.insync.replicas": "2"})
    user = f"guarded-{unique_name()}"
    on_prod = _clusters_with_rules(
        tmp_path,
        kafka_bootstrap,
        f"{RULES}    match: {named}\n"
        f"  - {{name: producer-cap, resource: quota, entity: {{user: {user}}}, "
        "check: producer_byte_rate <= 1MiB}\n"
        f"  - {{name: strong-scram, resource: scram_user, match: {user},\n"
        "     check: iterations >= 8192}\n",
    )
    change = ("alter", named, "--set", "min.insync.replicas=1", *on_prod)
    for dry_run in ((), ("--dry-run",)):
        ran = run_process(*change, "--yes", *dry_run)
        assert ran.code == 4, ran.err
        assert f"refused by rule: topic {named!r}: min.insync.replicas = '1' (now '2')" in ran.err
        assert "the plan breaks rule(s) 'min-isr' (1 change(s)); nothing was sent" in ran.err
        assert "Traceback" not in ran.err
    assert overrides(kafka_bootstrap, topic(named))["min.insync.replicas"] == "2"

    ran = run_process(*change, "--yes", "--override-rule", "min-ir")
    assert ran.code == 2, ran.err
    assert (
        "no rule named 'min-ir' to override (rules: 'min-isr', 'producer-cap', 'strong-scram')"
        in ran.err
    )

    ran = run_cli(capsys, *change, "--dry-run", "--override-rule", "min-isr")
    assert ran.code == 0, ran.err
    assert "rule overridden: " in ran.err
    ran = run_cli(capsys, *change, "--yes", "--override-rule", "min-isr")
    assert ran.code == 0, ran.err
    assert f"applied: topic {named} [alter] (rule 'min-isr' overridden)" in ran.err
    assert overrides(kafka_bootstrap, topic(named))["min.insync.replicas"] == "1"

    # A quota change too: the entry's quota rule refuses it, the override lets it through.
    quota = ("alter", "--entity-type", "users", "--entity-name", user, *on_prod, "--yes")
    ran = run_cli(capsys, *quota, "--add-config", "producer_byte_rate=4194304")
    assert ran.code == 4, ran.err
    assert "refused by rule: " in ran.err and "'producer-cap'" in ran.err
    ran = run_cli(
        capsys,
        *quota,
        "--add-config",
        "producer_byte_rate=4194304",
        "--override-rule",
        "producer-cap",
    )
    assert ran.code == 0, ran.err
    assert f"applied: quotas of user {user!r} (rule 'producer-cap' overridden)" in ran.err

    # And a SCRAM credential: too few iterations for the entry's rule.
    weak = "SCRAM-SHA-256=[iterations=4096,password=pw-weak-secret]"
    ran = run_cli(capsys, *quota, "--add-config", weak)
    assert ran.code == 4, ran.err
    assert "refused by rule: " in ran.err and "'strong-scram'" in ran.err
    assert "pw-weak-secret" not in ran.err
    ran = run_cli(capsys, *quota, "--add-config", weak, "--override-rule", "strong-scram")
    assert ran.code == 0, ran.err
    assert "(rule 'strong-scram' overridden)" in ran.err


def test_alter_applies_nothing_when_a_key_moves_while_it_asks(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    named = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})

    def someone_else_changes_it(yes: bool, question: str) -> bool:
        moved = run_process(
            "alter", named, "-b", kafka_bootstrap, "--set", "retention.ms=60000", "--yes"
        )
        assert moved.code == 0, moved.err
        with ThreadPoolExecutor(1) as thread:  # this thread runs the command's event loop
            thread.submit(settled, kafka_bootstrap, topic(named), "retention.ms", "60000").result()
        return True

    monkeypatch.setattr(cli_alter, "confirmed", someone_else_changes_it)
    ran = run_cli(capsys, "alter", named, "-b", kafka_bootstrap, "--set", "retention.ms=7200000")
    assert ran.code == 5, ran.err
    stale = [line for line in ran.err.splitlines() if line.startswith("stale: ")]
    assert stale == [
        f"stale: topic {named!r}: retention.ms was 3600000 (TOPIC_CONFIG) when reviewed, "
        "is 60000 (TOPIC_CONFIG) now"
    ]
    assert "nothing applied: 1 key(s) changed on" in ran.err
    assert overrides(kafka_bootstrap, topic(named))["retention.ms"] == "60000"
