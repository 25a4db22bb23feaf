"""``plan --out PLAN`` then ``apply PLAN``: exactly the plan saved, on its cluster, and no
key that moved since, against the real cluster."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from kafka_config_admin import AdminClient, AlterConfigOp, ClientQuotaEntity, NewTopic, OpType
from kafka_config_admin.desired import Plan

from .cli_helpers import make_topic, overrides, run_cli, settled, topic, with_admin
from .helpers import unique_name, wait_until_described

pytestmark = pytest.mark.integration


def saved_plan(
    bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[str, str, Path, Path]:
    """Two new topics, a file setting retention.ms on both, and its plan saved."""
    stale, fine = make_topic(bootstrap), make_topic(bootstrap)
    file = tmp_path / "kafka.yaml"
    file.write_text(
        "version: 1\ntopics:\n"
        f"  - {{name: {stale}, configs: {{retention.ms: 2h}}}}\n"
        f"  - {{name: {fine}, configs: {{retention.ms: 2h}}}}\n"
    )
    out = tmp_path / "plan.json"
    ran = run_cli(capsys, "plan", str(file), "-b", bootstrap, "--out", str(out), "-o", "json")
    assert ran.code == 3, ran.err
    assert f"plan saved to {out}" in ran.err
    document = json.loads(out.read_text())
    assert document["kind"] == "kafka-config-admin-saved-plan" and document["format"] == 1
    shown = ran.json()  # the plan printed is the plan saved
    assert shown["digest"] == document["digest"] and shown["cluster_id"] is not None
    return stale, fine, file, out


def change_behind_its_back(bootstrap: str, name: str) -> None:
    op = AlterConfigOp(name="retention.ms", value="120000", op=OpType.SET)

    async def alter(admin: AdminClient) -> None:
        await admin.incremental_alter_configs({topic(name): [op]}).all()

    with_admin(bootstrap, alter)
    settled(bootstrap, topic(name), "retention.ms", "120000")


def test_apply_of_a_saved_plan_refuses_a_stale_key_and_applies_the_rest_only_if_told(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale, fine, file, out = saved_plan(kafka_bootstrap, tmp_path, capsys)
    change_behind_its_back(kafka_bootstrap, stale)
    file.write_text("version: 1\ntopics: []\n")  # the file moved on: the plan is what applies

    ran = run_cli(capsys, "apply", str(out), "-b", kafka_bootstrap, "--yes")
    assert ran.code == 5, ran.err
    assert (
        f"stale: topic {stale}: retention.ms was 604800000 (DEFAULT_CONFIG) when planned, "
        "is 120000 (TOPIC_CONFIG) now"
    ) in ran.err
    assert "nothing applied: 1 key(s) changed" in ran.err and fine not in ran.err
    assert overrides(kafka_bootstrap, topic(stale)) == {"retention.ms": "120000"}
    assert overrides(kafka_bootstrap, topic(fine)) == {}

    ran = run_cli(capsys, "apply", str(out), "-b", kafka_bootstrap, "--yes", "--skip-stale")
    assert ran.code == 5, ran.err
    assert f"stale: topic {stale}: retention.ms" in ran.err
    assert f"applied: topic {fine} [alter]" in ran.err
    assert overrides(kafka_bootstrap, topic(fine)) == {"retention.ms": "7200000"}
    assert overrides(kafka_bootstrap, topic(stale)) == {"retention.ms": "120000"}


def test_apply_of_a_saved_plan_with_nothing_stale_applies_it_all(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale, fine, _, out = saved_plan(kafka_bootstrap, tmp_path, capsys)
    ran = run_cli(capsys, "apply", str(out), "-b", kafka_bootstrap, "--yes")
    assert ran.code == 0, ran.err
    for name in (stale, fine):
        assert overrides(kafka_bootstrap, topic(name)) == {"retention.ms": "7200000"}
    # applied once: its keys now differ from what it was made against, so never again
    again = run_cli(capsys, "apply", str(out), "-b", kafka_bootstrap, "--yes")
    assert again.code == 5 and "nothing applied: 2 key(s) changed" in again.err, again.err


def test_a_saved_plan_edited_by_hand_or_for_another_cluster_is_refused(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale, fine, file, out = saved_plan(kafka_bootstrap, tmp_path, capsys)
    document = json.loads(out.read_text())

    edited = tmp_path / "edited.json"
    tampered = json.loads(json.dumps(document))
    tampered["plan"]["resources"][0]["changes"][0]["value"] = "1"
    edited.write_text(json.dumps(tampered))
    ran = run_cli(capsys, "apply", str(edited), "-b", kafka_bootstrap, "--yes")
    assert ran.code == 2, ran.err
    assert "was changed after it was saved" in ran.err

    # a plan made on another cluster: its own digest is right, its cluster id is not ours
    made = Plan.model_validate(document["plan"])
    elsewhere = made.model_copy(update={"cluster_id": "AnotherClusterIdAAAAA"})
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps(
            {**document, "digest": elsewhere.digest, "plan": elsewhere.model_dump(mode="json")}
        )
    )
    ran = run_cli(capsys, "apply", str(other), "-b", kafka_bootstrap, "--yes")
    assert ran.code == 2, ran.err
    assert "made for the cluster with id AnotherClusterIdAAAAA" in ran.err
    assert f"has id {made.cluster_id}: nothing was applied" in ran.err

    printed = tmp_path / "printed.json"
    printed.write_text(made.to_json())
    ran = run_cli(capsys, "apply", str(printed), "-b", kafka_bootstrap, "--yes")
    assert ran.code == 2 and "not a saved plan" in ran.err, ran.err

    ran = run_cli(capsys, "apply", str(out), "-b", kafka_bootstrap, "--yes", "--prune")
    assert ran.code == 2 and "--prune is decided when a plan is saved" in ran.err, ran.err
    ran = run_cli(capsys, "apply", str(file), "-b", kafka_bootstrap, "--yes", "--skip-stale")
    assert ran.code == 2 and "--skip-stale is for a saved plan" in ran.err, ran.err
    for name in (stale, fine):
        assert overrides(kafka_bootstrap, topic(name)) == {}


def test_a_plan_with_a_refused_value_is_not_saved(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    file = tmp_path / "kafka.yaml"
    file.write_text(f"version: 1\ntopics:\n  - {{name: {name}, configs: {{retention.ms: soon}}}}\n")
    out = tmp_path / "plan.json"
    ran = run_cli(capsys, "plan", str(file), "-b", kafka_bootstrap, "--out", str(out))
    assert ran.code == 2, ran.err
    assert not out.exists() and "plan saved" not in ran.err


def test_a_saved_plans_topic_created_meanwhile_fails_to_be_created(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = unique_name()
    file = tmp_path / "kafka.yaml"
    file.write_text(
        "version: 1\ntopics:\n"
        f"  - {{name: {name}, partitions: 1, replication_factor: 1,\n"
        "     configs: {retention.ms: 2h}}\n"
    )
    out = tmp_path / "plan.json"
    ran = run_cli(capsys, "plan", str(file), "-b", kafka_bootstrap, "--out", str(out))
    assert ran.code == 3, ran.err

    async def create(admin: AdminClient) -> None:
        await admin.create_topics([NewTopic(name, 1, 1)]).all()
        await wait_until_described(admin, name)

    with_admin(kafka_bootstrap, create)
    ran = run_cli(capsys, "apply", str(out), "-b", kafka_bootstrap, "--yes")
    assert ran.code == 1, ran.err
    assert "TopicAlreadyExistsError" in ran.err
    assert overrides(kafka_bootstrap, topic(name)) == {}


def test_a_saved_plans_quota_changed_meanwhile_is_stale(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    user = unique_name()
    entity = ClientQuotaEntity({"user": user})
    file = tmp_path / "kafka.yaml"
    file.write_text(
        f"version: 1\nquotas:\n  - entity: {{user: {user}}}\n"
        "    values: {producer_byte_rate: 1048576}\n"
    )
    out = tmp_path / "plan.json"
    ran = run_cli(capsys, "plan", str(file), "-b", kafka_bootstrap, "--out", str(out))
    assert ran.code == 3, ran.err

    async def quotas(admin: AdminClient) -> dict[str, float]:
        await admin.alter_client_quotas({entity: {"producer_byte_rate": 2048.0}}).all()
        for _ in range(300):  # until the broker describing quotas has seen it (30 s)
            seen = (await admin.describe_client_quotas().all()).get(entity)
            if seen == {"producer_byte_rate": 2048.0}:
                break
            await anyio.sleep(0.1)
        return dict((await admin.describe_client_quotas().all()).get(entity, {}))

    assert with_admin(kafka_bootstrap, quotas) == {"producer_byte_rate": 2048.0}
    ran = run_cli(capsys, "apply", str(out), "-b", kafka_bootstrap, "--yes")
    assert ran.code == 5, ran.err
    assert "producer_byte_rate was none when planned, is 2048 now" in ran.err
    ran = run_cli(capsys, "apply", str(out), "-b", kafka_bootstrap, "--yes", "--skip-stale")
    assert ran.code == 5 and "nothing left to apply" in ran.err, ran.err

    async def now(admin: AdminClient) -> dict[str, float]:
        return dict((await admin.describe_client_quotas().all()).get(entity, {}))

    assert with_admin(kafka_bootstrap, now) == {"producer_byte_rate": 2048.0}
