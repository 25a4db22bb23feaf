"""``plan`` asks the broker (validate_only): its verdict, ``--offline``, exit codes, messages.

The session cluster runs the test AlterConfigPolicy (a topic's ``retention.ms`` below 60 s is
refused with POLICY_VIOLATION): a refusal no client-side check can know of.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_config_admin.testing import POLICY_MIN_RETENTION_MS

from .cli_helpers import make_topic, overrides, run_cli, topic
from .helpers import unique_name

pytestmark = [pytest.mark.integration, pytest.mark.kafka(policy=True)]

TOO_SHORT = POLICY_MIN_RETENTION_MS // 60  # 1 s: the policy refuses it


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "kafka.yaml"
    path.write_text(text)
    return str(path)


def test_plan_refuses_what_the_broker_refuses_naming_resource_key_value_and_reason(
    kafka_bootstrap: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A terminal wide enough for every row on one line: the rows are parsed below, and the
    # topics' names grow with the session (a folded cell split a row across lines in CI).
    monkeypatch.setenv("COLUMNS", "250")
    refused, accepted = make_topic(kafka_bootstrap), make_topic(kafka_bootstrap)
    file = write(
        tmp_path,
        f"""
topics:
  - name: {refused}
    configs: {{retention.ms: {TOO_SHORT}, segment.ms: 2h}}
  - name: {accepted}
    configs: {{retention.ms: 2h}}
""",
    )
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 2, ran.err
    # Only the key the broker refuses alone is named (segment.ms passes on its own).
    assert (
        f"refused by the broker: topic '{refused}', retention.ms = '{TOO_SHORT}': "
        "PolicyViolationError: " in ran.err
    )
    assert "segment.ms = " not in ran.err
    assert "below the test policy minimum" in ran.err
    assert "the brokers refuse 1 change(s)" in ran.err
    assert "as wanted" not in ran.err and "changes needed" not in ran.err
    # Beside each change in the table: the broker's verdict.
    rows = {
        (line.split("│")[1].strip(), line.split("│")[3].strip()): line.split("│")[-2].strip()
        for line in ran.err.splitlines()
        if line.startswith("│")
    }
    assert rows[(f"topic {refused}", "retention.ms")] == "REFUSES"
    assert rows[(f"topic {refused}", "segment.ms")] == "accepts"
    assert rows[(f"topic {accepted}", "retention.ms")] == "accepts"
    # Nothing was changed.
    assert overrides(kafka_bootstrap, topic(refused)) == {}
    assert overrides(kafka_bootstrap, topic(accepted)) == {}

    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--output", "json")
    assert ran.code == 2, ran.err
    broker = ran.json()["broker"]
    assert broker["asked"] is True and broker["unknown"] == []
    [refusal] = broker["refused"]
    assert refusal["subject"] == f"topic '{refused}'"
    assert refusal["keys"] == [{"key": "retention.ms", "value": f"'{TOO_SHORT}'"}]
    assert refusal["error"]["type"] == "PolicyViolationError"


def test_offline_plans_without_asking_and_says_so(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    file = write(tmp_path, f"topics: [{{name: {name}, configs: {{retention.ms: {TOO_SHORT}}}}}]\n")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--offline")
    assert ran.code == 3, ran.err
    assert "offline: planned from the file and the cluster's state alone" in ran.err
    assert "refused" not in ran.err and "REFUSES" not in ran.err
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--offline", "-o", "json")
    assert ran.code == 3, ran.err
    assert ran.json()["broker"] == {"asked": False, "refused": [], "unknown": []}


def test_a_file_the_broker_accepts_plans_changes_with_exit_3_and_apply_makes_them(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    file = write(tmp_path, f"topics: [{{name: {name}, configs: {{retention.ms: 2h}}}}]\n")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 3, ran.err
    assert f"changes needed on {kafka_bootstrap} (the brokers accept every change)" in ran.err
    assert run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--yes").code == 0
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err
    assert f"no changes: cluster {kafka_bootstrap} is as wanted" in ran.err


def test_broker_side_rules_the_client_leaves_to_the_broker_are_refused_by_plan(
    kafka_bootstrap: str,
    kafka_broker_ids: list[int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Rules only the broker applies, which no catalog states: tiered storage for a topic
    needs it on in the broker; a topic to create cannot have more replicas than there are
    brokers."""
    existing = make_topic(kafka_bootstrap)
    created = f"verdict-{unique_name()}"
    file = write(
        tmp_path,
        f"""
topics:
  - {{name: {existing}, configs: {{remote.storage.enable: true}}}}
  - {{name: {created}, partitions: 1, replication_factor: {len(kafka_broker_ids) + 5}}}
""",
    )
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 2, ran.err
    refused = [line for line in ran.err.splitlines() if line.startswith("refused by the broker")]
    assert len(refused) == 2, ran.err
    assert f"refused by the broker: topic '{existing}', remote.storage.enable = 'true': " in ran.err
    assert (
        f"refused by the broker: topic '{created}' (to create): InvalidReplicationFactorError"
        in ran.err
    )
    assert overrides(kafka_bootstrap, topic(existing)) == {}


def test_alter_dry_run_gives_the_same_verdict_as_plan(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    file = write(tmp_path, f"topics: [{{name: {name}, configs: {{retention.ms: {TOO_SHORT}}}}}]\n")
    planned = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    altered = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        name,
        "--set",
        f"retention.ms={TOO_SHORT}",
        "--dry-run",
    )
    assert planned.code == altered.code == 2
    line = f"refused by the broker: topic '{name}', retention.ms = '{TOO_SHORT}': "
    [in_plan] = [text for text in planned.err.splitlines() if text.startswith(line)]
    [in_alter] = [text for text in altered.err.splitlines() if text.startswith(line)]
    assert in_plan == in_alter
    assert overrides(kafka_bootstrap, topic(name)) == {}


def test_a_missing_topic_the_file_cannot_create_is_a_problem_with_its_line(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = f"missing-{unique_name()}"
    file = write(tmp_path, f"topics:\n  - name: {missing}\n    configs: {{retention.ms: 2h}}\n")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 2, ran.err
    assert (
        f"refused: topic '{missing}': the topic does not exist; give partitions and "
        "replication_factor to create it" in ran.err
    )
    assert "no changes" not in ran.err and "as wanted" not in ran.err


def test_file_messages_stay_short_and_point_at_the_entry_at_fault(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    # A topic named twice: the second entry's line.
    twice = write(tmp_path, f"topics:\n  - name: {name}\n  - name: other\n  - name: {name}\n")
    ran = run_cli(capsys, "plan", twice, "-b", kafka_bootstrap)
    assert ran.code == 2
    assert f"kafka.yaml:4: topics[2]: topic '{name}' is named twice (first in topics[0])" in (
        ran.err
    )
    # A 5,000-digit number: no Python internals, the number cut short.
    digits = "9" * 5000
    for value in (digits, f"{digits}d"):
        file = write(tmp_path, f"topics: [{{name: {name}, configs: {{retention.ms: {value}}}}}]\n")
        ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
        assert ran.code == 2, ran.err
        assert "set_int_max_str_digits" not in ran.err and "4300" not in ran.err
        assert "(5000 characters)" in ran.err or "(5001 characters)" in ran.err
        assert len(ran.err) < 2000
    # A 10 MB value: quoted by its start and its length, never whole.
    huge = "x" * 10_000_000
    file = write(tmp_path, f"topics: [{{name: {name}, configs: {{retention.ms: '{huge}'}}}}]\n")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 2
    assert "(10000000 characters)" in ran.err
    assert len(ran.err) < 2000
    assert overrides(kafka_bootstrap, topic(name)) == {}
