"""Quotas and SCRAM credentials through the command line, as kafka-configs.sh spells them.

Changes reach every broker a moment after the controller applies them, so reads poll
(``until``). Names are unique per test; the default entities get values so large that they
limit nobody, and are removed again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import Ran, logs_in, run_cli
from .helpers import unique_name

pytestmark = pytest.mark.integration


def until(read: Callable[[], Any], ok: Callable[[Any], bool], seconds: float = 20) -> Any:
    """Read until ``ok`` holds (a change reaches each broker a moment after the controller)."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if ok(value) or time.monotonic() > deadline:
            assert ok(value), f"never settled; last seen: {value!r}"
            return value
        time.sleep(0.1)


def described(capsys: pytest.CaptureFixture[str], bootstrap: str, *entity: str) -> Any:
    ran = run_cli(capsys, "describe", "-b", bootstrap, *entity, "-o", "json")
    assert ran.code == 0, ran.err
    return ran.json()


def values_of(document: Any, entity: dict[str, str | None]) -> dict[str, float] | None:
    for item in document["quotas"]:
        if item["entity"] == entity:
            return dict(item["values"])
    return None


def alter(capsys: pytest.CaptureFixture[str], bootstrap: str, *args: str) -> Ran:
    return run_cli(capsys, "alter", "-b", bootstrap, *args, "--yes")


def test_user_quotas_added_described_and_deleted(
    capsys: pytest.CaptureFixture[str], kafka_bootstrap: str
) -> None:
    user = f"cli-{unique_name()}"
    entity = ["--entity-type", "users", "--entity-name", user]
    ran = alter(
        capsys,
        kafka_bootstrap,
        *entity,
        "--add-config",
        "producer_byte_rate=1024,consumer_byte_rate=2048",
    )
    assert ran.code == 0, ran.err
    # Through the change pipeline: read back before it is called applied.
    assert f"applied: quotas of user {user!r}" in ran.err
    assert "quotas of 1 entities applied, 0 failed" in ran.err
    document = until(
        lambda: described(capsys, kafka_bootstrap, *entity),
        lambda doc: values_of(doc, {"user": user}) is not None,
    )
    assert document["kind"] == "quotas" and document["scram"] == []
    assert values_of(document, {"user": user}) == {
        "consumer_byte_rate": 2048.0,
        "producer_byte_rate": 1024.0,
    }
    table = run_cli(capsys, "describe", "-b", kafka_bootstrap, *entity)
    assert table.code == 0 and "producer_byte_rate" in table.out and "1024" in table.out
    ran = alter(capsys, kafka_bootstrap, *entity, "--delete-config", "consumer_byte_rate")
    assert ran.code == 0, ran.err
    until(
        lambda: values_of(described(capsys, kafka_bootstrap, *entity), {"user": user}),
        lambda values: values == {"producer_byte_rate": 1024.0},
    )


def test_combined_user_and_default_client_and_every_client_of_the_user(
    capsys: pytest.CaptureFixture[str], kafka_bootstrap: str
) -> None:
    user = f"cli-{unique_name()}"
    combined = ["--entity-type", "users", "--entity-name", user]
    combined += ["--entity-type", "clients", "--entity-default"]
    ran = alter(capsys, kafka_bootstrap, *combined, "--add-config", "request_percentage=12.5")
    assert ran.code == 0, ran.err
    ran = alter(
        capsys,
        kafka_bootstrap,
        "--user",
        user,
        "--client",
        "app",
        "--add-config",
        "producer_byte_rate=4096",
    )
    assert ran.code == 0, ran.err
    every_client = ["--entity-type", "users", "--entity-name", user, "--entity-type", "clients"]
    document = until(
        lambda: described(capsys, kafka_bootstrap, *every_client),
        lambda doc: len(doc["quotas"]) == 2,
    )
    assert "scram" not in document
    assert values_of(document, {"user": user, "client-id": None}) == {"request_percentage": 12.5}
    assert values_of(document, {"user": user, "client-id": "app"}) == {"producer_byte_rate": 4096.0}


def test_ip_quota_yaml_and_the_default_ip(
    capsys: pytest.CaptureFixture[str], kafka_bootstrap: str
) -> None:
    ip = ["--entity-type", "ips", "--entity-name", "192.0.2.78"]
    ran = alter(capsys, kafka_bootstrap, *ip, "--add-config", "connection_creation_rate=5")
    assert ran.code == 0, ran.err
    until(
        lambda: values_of(described(capsys, kafka_bootstrap, *ip), {"ip": "192.0.2.78"}),
        lambda values: values == {"connection_creation_rate": 5.0},
    )
    # Each describe may reach another broker, and each broker learns the change on its own
    # schedule: one broker having it does not mean the next one asked has it yet.
    yaml_out = until(
        lambda: run_cli(capsys, "describe", "-b", kafka_bootstrap, *ip, "-o", "yaml"),
        lambda ran: ran.code == 0 and "connection_creation_rate: 5.0" in ran.out,
    )
    assert yaml_out.code == 0
    ran = alter(capsys, kafka_bootstrap, *ip, "--delete-config", "connection_creation_rate")
    assert ran.code == 0, ran.err
    default = ["--ip-defaults"]
    ran = alter(
        capsys, kafka_bootstrap, *default, "--add-config", "connection_creation_rate=100000"
    )
    assert ran.code == 0, ran.err
    until(
        lambda: values_of(described(capsys, kafka_bootstrap, *default), {"ip": None}),
        lambda values: values == {"connection_creation_rate": 100000.0},
    )
    ran = alter(capsys, kafka_bootstrap, *default, "--delete-config", "connection_creation_rate")
    assert ran.code == 0, ran.err
    until(
        lambda: values_of(described(capsys, kafka_bootstrap, *default), {"ip": None}),
        lambda values: values is None,
    )


def test_dry_run_validates_on_the_broker_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], kafka_bootstrap: str
) -> None:
    user = f"cli-{unique_name()}"
    entity = ["--entity-type", "users", "--entity-name", user]
    ran = alter(
        capsys, kafka_bootstrap, *entity, "--add-config", "producer_byte_rate=1", "--dry-run"
    )
    assert ran.code == 0, ran.err
    assert "dry run" in ran.err
    time.sleep(1)  # long enough for a change to reach the brokers, had one been made
    assert described(capsys, kafka_bootstrap, *entity)["quotas"] == []


@pytest.mark.kafka(sasl=True)
def test_scram_credential_added_described_without_secret_used_and_deleted(
    capsys: pytest.CaptureFixture[str], kafka_bootstrap: str, kafka_cluster: KafkaCluster
) -> None:
    user, password = f"cli-{unique_name()}", f"pw-{unique_name()}-secret"
    entity = ["--entity-type", "users", "--entity-name", user]
    dry = alter(
        capsys,
        kafka_bootstrap,
        *entity,
        "--add-config",
        f"SCRAM-SHA-256=[iterations=8192,password={password}]",
        "--dry-run",
    )
    assert dry.code == 0, dry.err
    assert f"validated: SCRAM credentials of user {user!r}" in dry.err
    assert "nothing changed" in dry.err and password not in dry.out + dry.err
    ran = alter(
        capsys,
        kafka_bootstrap,
        *entity,
        "--add-config",
        f"SCRAM-SHA-256=[iterations=8192,password={password}],SCRAM-SHA-512=[password={password}]",
    )
    assert ran.code == 0, ran.err
    assert f"applied: SCRAM credentials of user {user!r}" in ran.err  # read back
    assert password not in ran.out + ran.err
    document = until(
        lambda: described(capsys, kafka_bootstrap, *entity),
        lambda doc: len(doc["scram"]) == 1 and len(doc["scram"][0]["credentials"]) == 2,
    )
    assert document["scram"] == [
        {
            "user": user,
            "credentials": [
                {"mechanism": "SCRAM-SHA-256", "iterations": 8192},
                {"mechanism": "SCRAM-SHA-512", "iterations": 4096},
            ],
        }
    ]
    table = run_cli(capsys, "describe", "-b", kafka_bootstrap, *entity)
    assert "SCRAM-SHA-256" in table.out and "8192" in table.out and password not in table.out
    until(lambda: logs_in(kafka_cluster, user, password), bool)
    ran = alter(capsys, kafka_bootstrap, *entity, "--delete-config", "SCRAM-SHA-256")
    assert ran.code == 0, ran.err
    until(
        lambda: described(capsys, kafka_bootstrap, *entity)["scram"],
        lambda scram: (
            scram[0]["credentials"] == [{"mechanism": "SCRAM-SHA-512", "iterations": 4096}]
        ),
    )
    until(lambda: logs_in(kafka_cluster, user, password), lambda ok: not ok)
