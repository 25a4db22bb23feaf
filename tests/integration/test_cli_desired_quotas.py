"""The ``quotas:`` section of a desired-state file: plan, apply, read back, dry run, refusal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kafka_config_admin import AdminClient, ClientQuotaEntity
from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import logs_in, run_cli, with_admin
from .helpers import unique_name

pytestmark = pytest.mark.integration


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "quotas.yaml"
    path.write_text(text)
    return str(path)


def quotas(bootstrap: str) -> dict[ClientQuotaEntity, dict[str, float]]:
    async def read(admin: AdminClient) -> Any:
        return await admin.describe_client_quotas().all()

    described: dict[ClientQuotaEntity, dict[str, float]] = with_admin(bootstrap, read)
    return described


def test_plan_apply_then_nothing_left_to_plan(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user = f"dq-{unique_name()}"
    file = write(
        tmp_path,
        f"""
version: 1
quotas:
  - entity: {{user: {user}}}
    values: {{producer_byte_rate: 1048576, consumer_byte_rate: 2097152}}
  - entity: {{user: {user}, client-id: null}}
    values: {{request_percentage: 25.5}}
""",
    )
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--output", "json")
    assert ran.code == 3, ran.err
    plan = ran.json()
    assert plan["has_changes"] is True
    assert [item["entity"] for item in plan["quotas"]] == [
        {"user": user},
        {"user": user, "client-id": None},
    ]
    assert plan["quotas"][0]["changes"] == [
        {"key": "producer_byte_rate", "current": None, "wanted": 1048576.0},
        {"key": "consumer_byte_rate", "current": None, "wanted": 2097152.0},
    ]

    dry = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--dry-run")
    assert dry.code == 0, dry.err
    assert f"validated: quotas of user '{user}'" in dry.err
    assert ClientQuotaEntity({"user": user}) not in quotas(kafka_bootstrap)

    ran = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--yes")
    assert ran.code == 0, ran.err
    assert f"applied: quotas of user '{user}'" in ran.err
    assert "quotas of 2 entities applied, 0 failed" in ran.err
    now = quotas(kafka_bootstrap)
    assert now[ClientQuotaEntity({"user": user})] == {
        "producer_byte_rate": 1048576.0,
        "consumer_byte_rate": 2097152.0,
    }
    assert now[ClientQuotaEntity({"user": user, "client-id": None})] == {"request_percentage": 25.5}
    again = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert again.code == 0, again.err
    assert "no changes" in again.err
    exported = run_cli(
        capsys, "export", "-b", kafka_bootstrap, "--match", "none^", "--no-brokers", "-o", "json"
    )
    assert exported.code == 0, exported.err
    assert {
        "entity": {"user": user, "client-id": None},
        "values": {"request_percentage": 25.5},
    } in exported.json()["quotas"]

    pruned = write(
        tmp_path,
        f"quotas:\n  - entity: {{user: {user}}}\n    values: {{producer_byte_rate: 1048576}}\n",
    )
    ran = run_cli(capsys, "apply", pruned, "-b", kafka_bootstrap, "--yes", "--prune")
    assert ran.code == 0, ran.err
    assert quotas(kafka_bootstrap)[ClientQuotaEntity({"user": user})] == {
        "producer_byte_rate": 1048576.0
    }


def test_a_value_the_broker_refuses_fails_its_entity_alone(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = f"dq-{unique_name()}", f"dq-{unique_name()}"
    file = write(
        tmp_path,
        f"""
quotas:
  - entity: {{user: {good}}}
    values: {{consumer_byte_rate: 4096}}
  - entity: {{user: {bad}}}
    values: {{producer_byte_rate: 1.5}}
""",
    )
    ran = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--yes")
    assert ran.code == 1, ran.err
    assert f"failed: quotas of user '{bad}': InvalidRequestError" in ran.err
    assert f"applied: quotas of user '{good}'" in ran.err
    now = quotas(kafka_bootstrap)
    assert now[ClientQuotaEntity({"user": good})] == {"consumer_byte_rate": 4096.0}
    assert ClientQuotaEntity({"user": bad}) not in now


def test_a_bad_quota_entry_is_refused_with_its_line(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path, "quotas:\n  - entity: {ip: 10.0.0.1}\n    values: {x_rate: 1}\n")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 2
    assert "quotas.yaml:2" in ran.err and "x_rate not a quota key" in ran.err


# --- SCRAM users ---------------------------------------------------------------------------


def scram_of(bootstrap: str, user: str) -> dict[str, int]:
    async def read(admin: AdminClient) -> dict[str, int]:
        result = admin.describe_user_scram_credentials([user])
        if user not in await result.users():
            return {}
        description = await result.description(user)
        return {i.mechanism.mechanism_name: i.iterations for i in description.credential_infos}

    described: dict[str, int] = with_admin(bootstrap, read)
    return described


@pytest.mark.kafka(sasl=True)
def test_scram_users_with_the_password_from_the_environment(
    kafka_bootstrap: str,
    kafka_cluster: KafkaCluster,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user, password = f"ds-{unique_name()}", f"pw-{unique_name()}-secret"
    variable = f"PW_{unique_name().replace('-', '_')}"
    file = write(
        tmp_path,
        f"""
scram_users:
  {user}:
    - {{mechanism: SCRAM-SHA-256, iterations: 8192, password_env: {variable}}}
""",
    )
    missing = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--yes")
    assert missing.code == 2, missing.err
    assert f"{variable} that holds its password is not set; nothing was sent" in missing.err
    assert scram_of(kafka_bootstrap, user) == {}

    monkeypatch.setenv(variable, password)
    plan = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--output", "json")
    assert plan.code == 3, plan.err
    assert plan.json()["scram"][0]["changes"][0]["op"] == "UPSERT"
    dry = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--dry-run")
    assert dry.code == 0, dry.err
    assert scram_of(kafka_bootstrap, user) == {}

    ran = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--yes")
    assert ran.code == 0, ran.err
    assert f"applied: SCRAM credentials of user '{user}'" in ran.err
    assert password not in ran.out + ran.err + plan.out + plan.err
    assert scram_of(kafka_bootstrap, user) == {"SCRAM-SHA-256": 8192}
    assert logs_in(kafka_cluster, user, password)
    again = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert again.code == 0, again.err
