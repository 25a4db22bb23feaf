"""The journal on the real broker: ``alter`` and ``apply`` record each change with its old and
new values, ``history`` reads them, ``undo`` puts them back (and leaves alone a key changed
since), several processes write at once, and no secret is ever recorded."""

from __future__ import annotations

import getpass
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ClientQuotaEntity,
    ConfigResource,
    ResourceType,
)
from kafka_config_admin.journal import journal_path
from kafka_config_admin.state import read_scram_credentials

from .cli_helpers import make_topic, overrides, run_cli, settled, topic, with_admin
from .helpers import unique_name

pytestmark = pytest.mark.integration

#: retention.ms when a topic does not set it (the broker's default).
WEEK = "604800000"


def history(capsys: pytest.CaptureFixture[str], *filters: str) -> list[dict[str, Any]]:
    ran = run_cli(capsys, "history", "-o", "json", *filters)
    assert ran.code == 0, ran.err
    changes: list[dict[str, Any]] = ran.json()["changes"]
    return changes


def change_set_of(err: str) -> str:
    """The change set id ``alter``, ``apply`` and ``undo`` print."""
    line = next(line for line in err.splitlines() if "recorded in the journal" in line)
    return line.split("change set ")[1].split()[0]


#: A sensitive broker key, set per broker on its listener.
PASSWORD_KEY = "listener.name.plaintext.ssl.key.password"


def broker_id(bootstrap: str) -> str:
    async def read(admin: AdminClient) -> str:
        return str(min(admin.broker_ids()))

    return with_admin(bootstrap, read)


def broker_resource(broker: str) -> ConfigResource:
    return ConfigResource(ResourceType.BROKER, broker)


def cluster_id(bootstrap: str) -> str:
    async def read(admin: AdminClient) -> str:
        return (await admin.describe_cluster()).cluster_id

    return with_admin(bootstrap, read)


def test_alter_records_each_key_with_its_old_and_new_values(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        "--topic",
        name,
        "--set",
        "retention.ms=7d",
        "--set",
        "segment.ms=2h",
        "--yes",
    )
    assert ran.code == 0, ran.err
    change_set = change_set_of(ran.err)
    rows = {row["key"]: row for row in history(capsys, "--resource", f"topic:{name}")}
    assert set(rows) == {"retention.ms", "segment.ms"}
    retention, segment = rows["retention.ms"], rows["segment.ms"]
    assert (retention["old_value"], retention["old_set"]) == ("3600000", True)
    assert (retention["new_value"], retention["new_set"]) == ("604800000", True)
    assert segment["old_set"] is False  # no override before: the default it inherited
    assert segment["old_value"] == "604800000"
    assert (segment["new_value"], segment["new_set"]) == ("7200000", True)
    for row in rows.values():
        assert row["change_set"] == change_set
        assert row["op"] == "SET" and row["outcome"] == "applied" and row["message"] == ""
        assert row["face"] == "cli" and row["user"] == getpass.getuser()
        assert row["cluster_id"] == cluster_id(kafka_bootstrap)
        assert row["sensitive"] is False
    # The filters narrow it; the table shows it.
    assert [
        r["key"] for r in history(capsys, "--key", "segment.ms", "--change-set", change_set)
    ] == ["segment.ms"]
    assert history(capsys, "--change-set", change_set, "--face", "web") == []
    assert history(capsys, "--change-set", change_set, "--since", "1h") != []
    assert history(capsys, "--change-set", change_set, "--until", "1h") == []
    table = run_cli(capsys, "history", "--change-set", change_set)
    assert table.code == 0 and "retention.ms" in table.out
    assert "(not set; 604800000)" in " ".join(table.out.split())  # segment.ms's default
    limited = history(capsys, "--change-set", change_set, "--limit", "1")
    assert len(limited) == 1


def test_apply_of_a_file_records_its_changes(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = (
        make_topic(kafka_bootstrap),
        make_topic(kafka_bootstrap, {"segment.ms": "3600000"}),
    )
    file = tmp_path / "desired.yaml"
    file.write_text(
        f"topics:\n  - {{name: {first}, configs: {{retention.ms: 2h}}}}\n"
        f"  - {{name: {second}, configs: {{segment.ms: 3h}}}}\n"
    )
    ran = run_cli(capsys, "apply", str(file), "-b", kafka_bootstrap, "--yes")
    assert ran.code == 0, ran.err
    rows = history(capsys, "--change-set", change_set_of(ran.err))
    assert {(r["resource_name"], r["key"], r["old_value"], r["new_value"]) for r in rows} == {
        (first, "retention.ms", "604800000", "7200000"),
        (second, "segment.ms", "3600000", "10800000"),
    }


def test_undo_of_a_change_set_across_20_topics_and_of_one_change(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    kinds = [{}, {"retention.ms": "1000000"}, {"retention.ms": "2000000", "segment.ms": "3600000"}]
    before = [kinds[index % 3] for index in range(20)]  # 20 topics, three kinds of override
    names = [make_topic(kafka_bootstrap, dict(configs)) for configs in before]
    wanted = [topic(name) for name in names]
    args = [arg for name in names for arg in ("--topic", name)]
    ran = run_cli(
        capsys, "alter", "-b", kafka_bootstrap, *args, "--set", "retention.ms=5h", "--yes"
    )
    assert ran.code == 0, ran.err
    change_set = change_set_of(ran.err)
    assert len(history(capsys, "--change-set", change_set)) == 20
    undone = run_cli(capsys, "undo", change_set, "--change-set", "-b", kafka_bootstrap, "--yes")
    assert undone.code == 0, undone.err
    for resource, configs in zip(wanted, before, strict=True):
        settled(kafka_bootstrap, resource, "retention.ms", configs.get("retention.ms", WEEK))
        assert overrides(kafka_bootstrap, resource) == configs
    # The undo is journaled too, as an undo.
    undo_rows = history(capsys, "--change-set", change_set_of(undone.err))
    assert len(undo_rows) == 20
    assert all(r["note"] == f"undo of change set {change_set}" for r in undo_rows)
    assert {(r["op"], r["new_value"]) for r in undo_rows} == {
        ("DELETE", None),
        ("SET", "1000000"),
        ("SET", "2000000"),
    }
    # One change of several: only its key goes back.
    name = names[0]
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        "--topic",
        name,
        "--set",
        "retention.ms=4h",
        "--set",
        "segment.ms=4h",
        "--yes",
    )
    assert ran.code == 0, ran.err
    (retention,) = history(capsys, "--change-set", change_set_of(ran.err), "--key", "retention.ms")
    undone = run_cli(capsys, "undo", str(retention["id"]), "-b", kafka_bootstrap, "--yes")
    assert undone.code == 0, undone.err
    settled(kafka_bootstrap, topic(name), "retention.ms", WEEK)
    assert overrides(kafka_bootstrap, topic(name)) == {"segment.ms": "14400000"}


def test_undo_leaves_alone_a_key_changed_since_unless_forced(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "1000000"})
    ran = run_cli(
        capsys, "alter", "-b", kafka_bootstrap, name, "--set", "retention.ms=2000000", "--yes"
    )
    assert ran.code == 0, ran.err
    (row,) = history(capsys, "--change-set", change_set_of(ran.err))

    async def another_tool(admin: AdminClient) -> None:
        ops = {topic(name): [AlterConfigOp("retention.ms", "3000000")]}
        await admin.incremental_alter_configs(ops).all()

    with_admin(kafka_bootstrap, another_tool)
    settled(kafka_bootstrap, topic(name), "retention.ms", "3000000")
    refused = run_cli(capsys, "undo", str(row["id"]), "-b", kafka_bootstrap, "--yes")
    assert refused.code == 1, refused.err
    assert "changed since" in refused.err and "3000000" in refused.err
    assert "nothing to undo" in refused.err
    assert overrides(kafka_bootstrap, topic(name)) == {"retention.ms": "3000000"}
    forced = run_cli(capsys, "undo", str(row["id"]), "-b", kafka_bootstrap, "--yes", "--force")
    assert forced.code == 0, forced.err
    settled(kafka_bootstrap, topic(name), "retention.ms", "1000000")


def test_undo_of_a_quota_change(kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]) -> None:
    user = f"journal-{unique_name()}"
    entity = ["--entity-type", "users", "--entity-name", user]
    first = run_cli(
        capsys, "alter", "-b", kafka_bootstrap, *entity, "--set", "producer_byte_rate=1000", "-y"
    )
    assert first.code == 0, first.err
    second = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        *entity,
        "--set",
        "producer_byte_rate=2000",
        "--set",
        "consumer_byte_rate=500",
        "-y",
    )
    assert second.code == 0, second.err
    rows = history(capsys, "--change-set", change_set_of(second.err))
    assert {(r["key"], r["old_value"], r["new_value"]) for r in rows} == {
        ("producer_byte_rate", "1000", "2000"),
        ("consumer_byte_rate", None, "500"),
    }
    assert {r["resource"] for r in rows} == {f"quota:user={user}"}
    undone = run_cli(
        capsys, "undo", change_set_of(second.err), "--change-set", "-b", kafka_bootstrap, "-y"
    )
    assert undone.code == 0, undone.err

    async def quotas(admin: AdminClient) -> dict[str, float]:
        found = await admin.describe_client_quotas().all()
        return dict(found.get(ClientQuotaEntity({"user": user}), {}))

    assert with_admin(kafka_bootstrap, quotas) == {"producer_byte_rate": 1000.0}


def test_the_undo_of_another_clusters_change_is_refused(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    name = make_topic(kafka_bootstrap)
    ran = run_cli(capsys, "alter", "-b", kafka_bootstrap, name, "--set", "segment.ms=1h", "-y")
    assert ran.code == 0, ran.err
    (row,) = history(capsys, "--change-set", change_set_of(ran.err))
    with sqlite3.connect(journal_path()) as connection:
        connection.execute("UPDATE changes SET cluster_id = 'another' WHERE id = ?", (row["id"],))
    refused = run_cli(capsys, "undo", str(row["id"]), "-b", kafka_bootstrap, "-y")
    assert refused.code == 2
    assert "has id" in refused.err and "nothing was changed" in refused.err
    assert overrides(kafka_bootstrap, topic(name)) == {"segment.ms": "3600000"}


def test_two_processes_write_the_journal_at_once_and_nothing_is_lost(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    batches = [[make_topic(kafka_bootstrap) for _ in range(5)] for _ in range(2)]
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kafka_config_admin",
                "alter",
                "-b",
                kafka_bootstrap,
                *[arg for name in names for arg in ("--topic", name)],
                "--set",
                "retention.ms=9h",
                "--set",
                "segment.ms=9h",
                "--yes",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for names in batches
    ]
    for process in processes:
        _, err = process.communicate(timeout=180)
        assert process.returncode == 0, err
    recorded = {(r["resource_name"], r["key"]) for r in history(capsys, "--key", "retention.ms")}
    recorded |= {(r["resource_name"], r["key"]) for r in history(capsys, "--key", "segment.ms")}
    assert recorded >= {
        (name, key) for names in batches for name in names for key in ("retention.ms", "segment.ms")
    }


def test_a_journal_that_cannot_be_written_is_said_and_the_change_still_made(
    kafka_bootstrap: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("KAFKA_CONFIG_ADMIN_JOURNAL", str(blocker / "journal.sqlite"))
    name = make_topic(kafka_bootstrap)
    ran = run_cli(capsys, "alter", "-b", kafka_bootstrap, name, "--set", "segment.ms=1h", "-y")
    assert ran.code == 1
    assert f"applied: topic {name} [alter]" in ran.err
    assert "error: the changes were made but not recorded: the journal" in ran.err
    assert "cannot be written" in ran.err
    assert overrides(kafka_bootstrap, topic(name)) == {"segment.ms": "3600000"}


def test_no_secret_in_any_row_nor_in_the_files_bytes(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = f"pw-{unique_name()}-secret"
    user = f"journal-{unique_name()}"
    scram = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        "--entity-type",
        "users",
        "--entity-name",
        user,
        "--add-config",
        f"SCRAM-SHA-256=[iterations=8192,password={secret}]",
        "-y",
    )
    assert scram.code == 0, scram.err
    broker = broker_id(kafka_bootstrap)
    keyed = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        "--entity-type",
        "brokers",
        "--entity-name",
        broker,
        "--set",
        f"{PASSWORD_KEY}={secret}",
        "-y",
    )
    rows = history(capsys)
    credential = [r for r in rows if r["resource"] == f"scram-user:{user}"]
    assert [(r["key"], r["op"], r["sensitive"]) for r in credential] == [
        ("SCRAM-SHA-256", "UPSERT", True)
    ]
    assert credential[0]["old_value"] is None and credential[0]["new_value"] is None
    (password_row,) = [r for r in rows if r["key"] == PASSWORD_KEY]
    assert password_row["resource"] == f"broker:{broker}"
    assert password_row["sensitive"] is True
    assert password_row["old_value"] is None and password_row["new_value"] is None
    assert password_row["outcome"] == ("applied" if keyed.code == 0 else "failed"), keyed.err
    assert secret not in run_cli(capsys, "history", "-o", "json").out
    assert secret not in run_cli(capsys, "history", "-o", "yaml").out
    table = run_cli(capsys, "history", "--resource", f"scram-user:{user}").out
    assert secret not in table and "(secret, not recorded)" in " ".join(table.split())
    for path in journal_path().parent.iterdir():  # the file, its WAL and shared memory
        assert secret.encode() not in path.read_bytes()
    # Undo of a credential created: its deletion.
    (row,) = credential
    undone = run_cli(capsys, "undo", str(row["id"]), "-b", kafka_bootstrap, "-y")
    assert undone.code == 0, undone.err

    async def credentials(admin: AdminClient) -> object:
        return (await read_scram_credentials(admin, [user])).get(user)

    assert with_admin(kafka_bootstrap, credentials) in ({}, None)
    if keyed.code == 0:  # the password set: its undo deletes it (none was set before)
        undone = run_cli(capsys, "undo", str(password_row["id"]), "-b", kafka_bootstrap, "-y")
        assert undone.code == 0, undone.err
        assert PASSWORD_KEY not in overrides(kafka_bootstrap, broker_resource(broker))


def test_a_guardrail_overridden_is_recorded_with_the_change(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    named = make_topic(kafka_bootstrap, {"min.insync.replicas": "2"})
    file = tmp_path / "kafka.yaml"
    file.write_text(
        f"topics:\n  - name: {named}\n    configs: {{min.insync.replicas: 1}}\n"
        'rules:\n  - name: min-isr\n    check: "min.insync.replicas >= 2"\n'
    )
    ran = run_cli(
        capsys, "apply", str(file), "-b", kafka_bootstrap, "--yes", "--override-rule", "min-isr"
    )
    assert ran.code == 0, ran.err
    (row,) = history(capsys, "--change-set", change_set_of(ran.err))
    assert (row["key"], row["old_value"], row["new_value"]) == ("min.insync.replicas", "2", "1")
    assert row["note"] == "rule 'min-isr' overridden"
