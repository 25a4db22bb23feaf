"""Prune on the real cluster: keys the broker keeps, keys the file ignores, replication
throttles, and cluster-default values a broker overrides for itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType

from .cli_helpers import make_topic, overrides, run_cli, settled, topic, with_admin

pytestmark = pytest.mark.integration

DEFAULT = ConfigResource(ResourceType.BROKER, "")
THROTTLES = {
    "leader.replication.throttled.replicas": "0:1",
    "follower.replication.throttled.replicas": "0:2",
}


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "kafka.yaml"
    path.write_text(text)
    return str(path)


def alter(bootstrap: str, changes: dict[ConfigResource, list[AlterConfigOp]]) -> None:
    async def send(admin: AdminClient) -> None:
        await admin.incremental_alter_configs(changes).all()

    with_admin(bootstrap, send)


@pytest.fixture
def cluster_default_restored(kafka_bootstrap: str, kafka_broker_ids: list[int]) -> Iterator[None]:
    """The keys these tests set on the cluster default and on brokers are removed afterwards."""
    yield
    keys = ["log.cleaner.backoff.ms", "log.cleaner.io.buffer.load.factor"]
    delete = [AlterConfigOp(key, op=OpType.DELETE) for key in keys]
    brokers = [ConfigResource(ResourceType.BROKER, str(b)) for b in kafka_broker_ids]
    alter(kafka_bootstrap, {resource: delete for resource in [DEFAULT, *brokers]})


@pytest.mark.usefixtures("cluster_default_restored")
def test_apply_prune_then_plan_prune_is_empty_on_the_cluster_default(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alter(kafka_bootstrap, {DEFAULT: [AlterConfigOp("log.cleaner.io.buffer.load.factor", "0.8")]})
    settled(kafka_bootstrap, DEFAULT, "log.cleaner.io.buffer.load.factor", "0.8")
    before = overrides(kafka_bootstrap, DEFAULT)
    file = write(tmp_path, "cluster_default: {configs: {log.cleaner.backoff.ms: 16s}}\n")

    ran = run_cli(capsys, "plan", file, "--prune", "-b", kafka_bootstrap, "-o", "json")
    assert ran.code == 3, ran.err
    [cluster] = ran.json()["resources"]
    planned = {change["key"]: change["op"] for change in cluster["changes"]}
    assert planned["log.cleaner.backoff.ms"] == "SET"
    assert planned["log.cleaner.io.buffer.load.factor"] == "DELETE"
    kept = {item["key"]: item["reason"] for item in cluster["kept"]}
    # Kafka 4's controller sets the cluster-level min.insync.replicas itself while Eligible
    # Leader Replicas is on, and refuses to remove it: kept, never planned as a DELETE.
    if "min.insync.replicas" in before:
        assert "min.insync.replicas" not in planned
        assert "cannot be removed" in kept["min.insync.replicas"]

    ran = run_cli(capsys, "apply", file, "--prune", "--yes", "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err
    after = overrides(kafka_bootstrap, DEFAULT)
    assert after["log.cleaner.backoff.ms"] == "16000"
    assert "log.cleaner.io.buffer.load.factor" not in after
    assert set(after) == {"log.cleaner.backoff.ms", *kept}

    ran = run_cli(capsys, "plan", file, "--prune", "-b", kafka_bootstrap, "-o", "json")
    assert ran.code == 0, ran.out
    assert ran.json()["has_changes"] is False


def test_prune_leaves_replication_throttles_and_ignored_keys_alone(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = make_topic(
        kafka_bootstrap, {**THROTTLES, "retention.ms": "3600000", "segment.ms": "3600000"}
    )
    file = write(
        tmp_path,
        f"""
ignore:
  topics: ['retention\\..*']
topics:
  - name: {named}
    configs: {{max.message.bytes: 2000000}}
""",
    )
    ran = run_cli(capsys, "apply", file, "--prune", "--yes", "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err
    assert overrides(kafka_bootstrap, topic(named)) == {
        **THROTTLES,
        "retention.ms": "3600000",
        "max.message.bytes": "2000000",
    }
    ran = run_cli(capsys, "plan", file, "--prune", "-b", kafka_bootstrap, "-o", "json")
    assert ran.code == 0, ran.out
    [item] = ran.json()["resources"]
    assert {kept["key"] for kept in item["kept"]} == set(THROTTLES)

    # Named in the file, a throttle is the file's: null removes it under prune too.
    named_file = write(
        tmp_path,
        f"""
ignore:
  topics: ['retention\\..*']
topics:
  - name: {named}
    configs: {{max.message.bytes: 2000000, leader.replication.throttled.replicas: null}}
""",
    )
    ran = run_cli(capsys, "apply", named_file, "--prune", "--yes", "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err
    left = overrides(kafka_bootstrap, topic(named))
    assert "leader.replication.throttled.replicas" not in left
    assert left["follower.replication.throttled.replicas"] == "0:2"


@pytest.mark.usefixtures("cluster_default_restored")
def test_a_broker_overriding_a_cluster_default_value_is_reported_by_plan_and_audit(
    kafka_bootstrap: str,
    kafka_broker_ids: list[int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    broker_id = kafka_broker_ids[-1]
    broker = ConfigResource(ResourceType.BROKER, str(broker_id))
    alter(kafka_bootstrap, {broker: [AlterConfigOp("log.cleaner.backoff.ms", "17000")]})
    settled(kafka_bootstrap, broker, "log.cleaner.backoff.ms", "17000")
    file = write(tmp_path, "cluster_default: {configs: {log.cleaner.backoff.ms: 16s}}\n")

    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "-o", "json")
    assert ran.code == 3, ran.err
    [cluster] = ran.json()["resources"]
    [shadow] = [item for item in cluster["shadowed"] if item["broker"] == broker_id]
    assert (shadow["broker"], shadow["key"]) == (broker_id, "log.cleaner.backoff.ms")
    assert (shadow["broker_value"], shadow["cluster_value"]) == ("17000", "16000")

    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert f"│ {broker_id} " in ran.err and "17000" in ran.err and "16000" in ran.err

    ran = run_cli(capsys, "apply", file, "--yes", "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err
    ran = run_cli(capsys, "audit", file, "-b", kafka_bootstrap, "-o", "json")
    assert ran.code == 0, ran.err
    shadowed = [s for s in ran.json()["shadowed"] if s["broker"] == broker_id]
    assert [(s["key"], s["broker_value"], s["cluster_value"]) for s in shadowed] == [
        ("log.cleaner.backoff.ms", "17000", "16000")
    ]
    ran = run_cli(capsys, "audit", file, "-b", kafka_bootstrap)
    assert "17000" in ran.err and "16000" in ran.err
