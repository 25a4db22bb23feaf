"""The journal on a Kafka topic, on the real broker: a clusters-file entry names the topic,
two processes write it and each reads every record, ``history`` and ``undo`` read it, no
secret reaches its bytes, and a topic that cannot be used is one line and exit 1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from kafka_config_admin import AdminClient, NewTopic
from kafka_config_admin.journal import journal_path
from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import make_topic, overrides, run_cli, run_process, settled, topic, with_admin
from .helpers import unique_name

pytestmark = pytest.mark.integration

HOUR_MS = "3600000"


def clusters_file(tmp_path: Path, bootstrap: str, journal: dict[str, Any]) -> Path:
    """A clusters file whose cluster ``team`` keeps its journal on a topic."""
    entry = {"bootstrap_servers": bootstrap, "journal": journal}
    path = tmp_path / f"clusters-{unique_name()}.yaml"
    path.write_text(json.dumps({"clusters": {"team": entry}}))  # JSON is YAML
    return path


@pytest.fixture
def journal_topic(kafka_bootstrap: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The journal topic of cluster ``team`` (the clusters file in use, for subprocesses too)."""
    name = f"journal-{unique_name()}"
    path = clusters_file(tmp_path, kafka_bootstrap, {"topic": name, "retention_ms": HOUR_MS})
    monkeypatch.setenv("KAFKA_CONFIG_ADMIN_CLUSTERS", str(path))
    return name


def history(*args: str) -> list[dict[str, Any]]:
    """``history -o json`` in a process of its own."""
    ran = run_process("history", "-o", "json", *args)
    assert ran.code == 0, ran.err
    changes: list[dict[str, Any]] = json.loads(ran.out)["changes"]
    return changes


def raw_records(bootstrap: str, name: str) -> list[tuple[bytes, bytes]]:
    """Every record of the topic, key and value as their bytes."""

    async def read() -> list[tuple[bytes, bytes]]:
        consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
        await consumer.start()
        try:
            partition = TopicPartition(name, 0)
            consumer.assign([partition])
            end = (await consumer.end_offsets([partition]))[partition]
            consumer.seek(partition, (await consumer.beginning_offsets([partition]))[partition])
            records: list[tuple[bytes, bytes]] = []
            while await consumer.position(partition) < end:
                batch = await consumer.getmany(partition, timeout_ms=1000)
                records += [(r.key, r.value) for r in batch.get(partition, [])]
            return records
        finally:
            await consumer.stop()

    return anyio.run(read)


def test_two_processes_share_the_journal_topic_and_each_reads_every_record(
    kafka_bootstrap: str, journal_topic: str
) -> None:
    batches = [[make_topic(kafka_bootstrap) for _ in range(5)] for _ in range(2)]
    args = [
        [
            *("alter", "--cluster", "team"),
            *[a for n in names for a in ("--topic", n)],
            *("--set", "retention.ms=9h", "--set", "segment.ms=9h", "--yes"),
        ]
        for names in batches
    ]
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "kafka_config_admin", *arg],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for arg in args
    ]
    for process in processes:
        _, err = process.communicate(timeout=180)
        assert process.returncode == 0, err
        assert "recorded in the journal as change set" in err
    wanted = {(n, k) for names in batches for n in names for k in ("retention.ms", "segment.ms")}
    for _reader in range(2):  # two other processes, each reading the whole topic
        rows = history("--cluster", "team")
        assert {(r["resource_name"], r["key"]) for r in rows} == wanted
        assert len(rows) == len(wanted)  # one record per change, none twice
        assert sorted(r["id"] for r in rows) == [r["id"] for r in rows]
        assert {r["old_value"] for r in rows} == {"604800000"}
        assert {(r["new_value"], r["outcome"], r["face"]) for r in rows} == {
            ("32400000", "applied", "cli")
        }
    assert not journal_path().exists()  # nothing went to the SQLite file

    async def partitions(admin: AdminClient) -> int:
        (description,) = (await admin.describe_topics([journal_topic]).all()).values()
        return description.num_partitions

    assert with_admin(kafka_bootstrap, partitions) == 1
    configs = overrides(kafka_bootstrap, topic(journal_topic))
    assert configs["cleanup.policy"] == "compact,delete"
    assert configs["retention.ms"] == HOUR_MS
    keys = [json.loads(key) for key, _ in raw_records(kafka_bootstrap, journal_topic)]
    assert {(k["resource"].split(":")[1]) for k in keys} == {n for n, _ in wanted}
    assert len({k["change"] for k in keys}) == len(keys)  # unique: compaction drops none


def test_history_and_undo_read_the_topic(
    kafka_bootstrap: str, journal_topic: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": HOUR_MS})
    ran = run_cli(capsys, "alter", "--cluster", "team", name, "--set", "retention.ms=2h", "-y")
    assert ran.code == 0, ran.err
    (change,) = history("--cluster", "team", "--resource", f"topic:{name}")
    assert (change["old_value"], change["new_value"]) == (HOUR_MS, "7200000")
    assert history("--cluster", "team", "--resource", f"topic:{name}", "--face", "web") == []
    table = run_cli(capsys, "history", "--cluster", "team", "--resource", name)
    assert f"journal topic {journal_topic} on cluster team" in " ".join(table.out.split())
    # The clusters file given as an option instead of the variable: the same topic.
    file = Path(os.environ.pop("KAFKA_CONFIG_ADMIN_CLUSTERS"))
    try:
        named = history("--cluster", "team", "--clusters-file", str(file), "--resource", name)
        assert named == [change]
        assert history("--cluster", "team", "--resource", name) == []  # the file: no such rows
    finally:
        os.environ["KAFKA_CONFIG_ADMIN_CLUSTERS"] = str(file)
    undone = run_cli(capsys, "undo", str(change["id"]), "--cluster", "team", "-y")
    assert undone.code == 0, undone.err
    assert settled(kafka_bootstrap, topic(name), "retention.ms", HOUR_MS).value == HOUR_MS
    rows = history("--cluster", "team", "--resource", f"topic:{name}")
    assert [(r["old_value"], r["new_value"]) for r in rows] == [
        (HOUR_MS, "7200000"),
        ("7200000", HOUR_MS),
    ]
    assert rows[1]["note"] == f"undo of change {change['id']}"
    whole_set = run_cli(
        capsys, "undo", rows[1]["change_set"], "--change-set", "--cluster", "team", "-y"
    )
    assert whole_set.code == 0, whole_set.err  # the undo undone, read from the topic too
    assert settled(kafka_bootstrap, topic(name), "retention.ms", "7200000").value == "7200000"


def test_a_secret_set_through_the_cli_is_not_in_the_topics_bytes(
    kafka_bootstrap: str, journal_topic: str, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = f"pw-{unique_name()}-secret"
    user = f"journal-{unique_name()}"
    credential = f"SCRAM-SHA-256=[iterations=8192,password={secret}]"
    scram = run_cli(
        capsys, "alter", "--cluster", "team", "--entity-type", "users", "--entity-name", user,
        "--add-config", credential, "-y",
    )  # fmt: skip
    assert scram.code == 0, scram.err
    name = make_topic(kafka_bootstrap)
    keyed = run_cli(
        capsys, "alter", "--cluster", "team", name, "--set", f"sasl.jaas.config={secret}", "-y"
    )  # a key Kafka treats as a password (a broker may refuse it on a topic: recorded all the same)
    rows = history("--cluster", "team")
    sensitive = {(r["resource"], r["key"]): r for r in rows if r["sensitive"]}
    assert (f"scram-user:{user}", "SCRAM-SHA-256") in sensitive
    if keyed.code == 0 or "failed" in keyed.err:
        assert (f"topic:{name}", "sasl.jaas.config") in sensitive
    for row in sensitive.values():
        assert row["old_value"] is None and row["new_value"] is None
    records = raw_records(kafka_bootstrap, journal_topic)
    assert len(records) == len(rows)
    for key, value in records:
        assert secret.encode() not in key and secret.encode() not in value


def test_a_journal_topic_with_two_partitions_is_refused_in_one_line(
    kafka_bootstrap: str, journal_topic: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def create(admin: AdminClient) -> None:
        await admin.create_topics([NewTopic(journal_topic, num_partitions=2)]).all()
        await admin.wait_for_topics({journal_topic: 2})

    with_admin(kafka_bootstrap, create)
    name = make_topic(kafka_bootstrap)
    ran = run_cli(capsys, "alter", "--cluster", "team", name, "--set", "segment.ms=1h", "-y")
    assert ran.code == 1
    assert overrides(kafka_bootstrap, topic(name)) == {"segment.ms": "3600000"}  # made all the same
    (line,) = [line for line in ran.err.splitlines() if line.startswith("error:")]
    assert line == (
        f"error: the changes were made but not recorded: the journal topic {journal_topic} on "
        f"cluster team cannot be written: it has 2 partitions; a journal topic has one (its "
        "order is the journal's): name another topic"
    )


def test_a_journal_topic_that_cannot_be_created_is_one_line(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    name = f"journal-{unique_name()}"
    journal = {"topic": name, "replication_factor": 99}  # more replicas than brokers
    path = clusters_file(tmp_path, kafka_bootstrap, journal)
    monkeypatch.setenv("KAFKA_CONFIG_ADMIN_CLUSTERS", str(path))
    changed = make_topic(kafka_bootstrap)
    ran = run_cli(capsys, "alter", "--cluster", "team", changed, "--set", "segment.ms=1h", "-y")
    assert ran.code == 1
    (line,) = [line for line in ran.err.splitlines() if line.startswith("error:")]
    assert line.startswith(
        f"error: the changes were made but not recorded: the journal topic {name} on cluster "
        "team cannot be written: "
    )
    assert "replication" in line.lower()
    # Reading it: nothing recorded yet, said as no changes (the topic does not exist).
    assert run_cli(capsys, "history", "--cluster", "team", "-o", "json").json()["changes"] == []


def test_a_journal_on_a_cluster_that_is_down_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = clusters_file(tmp_path, "127.0.0.1:1", {"topic": "journal"})
    text = json.loads(path.read_text())
    text["clusters"]["team"]["timeout"] = 3
    path.write_text(json.dumps(text))
    monkeypatch.setenv("KAFKA_CONFIG_ADMIN_CLUSTERS", str(path))
    ran = run_cli(capsys, "history", "--cluster", "team")
    assert ran.code == 1
    (line,) = ran.err.splitlines()
    assert line.startswith("error: the journal topic journal on cluster team cannot be read: ")
    ran = run_cli(capsys, "undo", "1", "--cluster", "team", "-y")
    assert ran.code == 1 and len(ran.err.splitlines()) == 1, ran.err


@pytest.mark.kafka(sasl=True)
def test_a_journal_topic_without_rights_is_one_line_and_exit_1(
    kafka_cluster: KafkaCluster,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice = kafka_cluster.alice_user  # no ACLs: refused every topic
    assert alice is not None and kafka_cluster.sasl_bootstrap_servers is not None
    path = clusters_file(tmp_path, kafka_cluster.sasl_bootstrap_servers, {"topic": "journal"})
    text = json.loads(path.read_text())
    text["clusters"]["team"] |= {
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "SCRAM-SHA-256",
        "username": alice.username,
        "password": alice.password,
    }
    path.write_text(json.dumps(text))
    monkeypatch.setenv("KAFKA_CONFIG_ADMIN_CLUSTERS", str(path))
    ran = run_cli(capsys, "history", "--cluster", "team")
    assert ran.code == 1
    (line,) = ran.err.splitlines()
    assert line.startswith(
        "error: the journal topic journal on cluster team cannot be read: no rights: "
    )
    assert alice.password not in ran.err


def test_a_record_that_is_not_a_change_is_one_line_naming_its_offset(
    kafka_bootstrap: str, journal_topic: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def produce() -> None:
        producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap)
        await producer.start()
        try:
            await producer.send_and_wait(journal_topic, b'{"not": "a change"}')
        finally:
            await producer.stop()

    anyio.run(produce)
    ran = run_cli(capsys, "history", "--cluster", "team")
    assert ran.code == 1
    (line,) = ran.err.splitlines()
    assert line.startswith(
        f"error: the journal topic {journal_topic} on cluster team cannot be read: the record "
        "at offset 0 is not a change: "
    )
