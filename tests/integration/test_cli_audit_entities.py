"""``audit`` rules about client quotas and SCRAM users, through the CLI and the ``desired`` API.

Each test makes its own uniquely named quota entities and SCRAM users, scopes its rules to
them (the cluster is shared), and removes what it made.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    ClientQuotaEntity,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from kafka_config_admin.desired import evaluate_state, parse_desired_state
from kafka_config_admin.state import read_state
from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import Ran, run_cli, with_admin
from .helpers import unique_name

pytestmark = [pytest.mark.integration, pytest.mark.kafka(since="2.7")]

Quotas = Mapping[ClientQuotaEntity, Mapping[str, float | None]]


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "audit.yaml"
    path.write_text(text)
    return str(path)


async def set_quotas(admin: AdminClient, wanted: Quotas) -> None:
    """Alter the quotas, then wait until the cluster describes them (brokers lag a moment)."""
    await admin.alter_client_quotas(wanted).all()
    with anyio.fail_after(30):
        while True:
            have = await admin.describe_client_quotas().all()
            shown = {
                entity: {k: v for k, v in values.items() if v is not None}
                for entity, values in wanted.items()
            }
            if all(dict(have.get(entity, {})) == values for entity, values in shown.items()):
                return
            await anyio.sleep(0.05)


async def remove_quotas(admin: AdminClient, made: Quotas) -> None:
    removal = {entity: dict.fromkeys(values) for entity, values in made.items()}
    await set_quotas(admin, removal)


async def set_credentials(admin: AdminClient, users: dict[str, dict[str, int]]) -> None:
    """Upsert each user's credentials (mechanism: iterations), then wait until described."""
    for user, credentials in users.items():
        for mechanism, iterations in credentials.items():
            upsert = UserScramCredentialUpsertion(user, mechanism, "pw", iterations=iterations)
            await admin.alter_user_scram_credentials([upsert]).all()
    with anyio.fail_after(30):
        while True:
            every = await admin.describe_user_scram_credentials().all()
            have = {
                user: {
                    info.mechanism.mechanism_name: info.iterations
                    for info in described.credential_infos
                }
                for user, described in every.items()
            }
            if all(have.get(user) == credentials for user, credentials in users.items()):
                return
            await anyio.sleep(0.05)


async def delete_credentials(admin: AdminClient, users: dict[str, dict[str, int]]) -> None:
    for user, credentials in users.items():
        for mechanism in credentials:
            deletion = UserScramCredentialDeletion(user, mechanism)
            await admin.alter_user_scram_credentials([deletion]).all()


def audit_json(capsys: pytest.CaptureFixture[str], file: str, bootstrap: str, count: int) -> Ran:
    """``audit -o json``, again (up to 30 s) until it finds ``count`` violations: brokers learn
    of a new quota or credential a moment apart, and the CLI may ask another broker."""
    deadline = time.monotonic() + 30
    while True:
        ran = run_cli(capsys, "audit", file, "-b", bootstrap, "-o", "json")
        if ran.code != 3 or len(ran.json()["violations"]) == count:
            return ran
        if time.monotonic() > deadline:
            return ran
        time.sleep(0.2)


def test_quota_rules_name_each_violating_entity(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prefix = f"aq-{unique_name()}"
    capped, greedy = f"{prefix}-capped", f"{prefix}-greedy"
    made: Quotas = {
        ClientQuotaEntity({"user": capped}): {"producer_byte_rate": 1048576},
        ClientQuotaEntity({"user": greedy}): {"producer_byte_rate": 104857600},
        ClientQuotaEntity({"client-id": f"{prefix}-app"}): {"request_percentage": 250},
        ClientQuotaEntity({"client-id": f"{prefix}-fine"}): {"request_percentage": 100},
        ClientQuotaEntity({"client-id": f"{prefix}-bytes"}): {"consumer_byte_rate": 1024},
    }
    with_admin(kafka_bootstrap, lambda admin: set_quotas(admin, made))
    try:
        file = write(
            tmp_path,
            f"""
rules:
  - name: producer-cap
    resource: quota
    entity: {{user: '{prefix}-.*'}}
    check: producer_byte_rate <= 50MiB
  - resource: quota
    entity: {{client-id: '{prefix}-.*'}}
    check: request_percentage <= 200
    optional: true
  - resource: quota
    entity: {{user: {capped}, client-id: null}}
    check: request_percentage required
""",
        )
        ran = audit_json(capsys, file, kafka_bootstrap, 3)
        assert ran.code == 3, ran.err
        found = [(v["resource"], v["key"], v["actual"]) for v in ran.json()["violations"]]
        assert found == [  # in Kafka's order of entity types (user, client-id), then by name
            (
                {"type": "QUOTA", "entity": {"user": capped, "client-id": None}},
                "request_percentage",
                None,
            ),
            ({"type": "QUOTA", "entity": {"user": greedy}}, "producer_byte_rate", "104857600"),
            (
                {"type": "QUOTA", "entity": {"client-id": f"{prefix}-app"}},
                "request_percentage",
                "250",
            ),
        ]

        table = run_cli(capsys, "audit", file, "-b", kafka_bootstrap)
        assert table.code == 3, table.err
        rows = [line for line in table.out.splitlines() if prefix in line]
        assert f"quota of user '{capped}', default client-id" in rows[0]
        [greedy_row] = [row for row in rows if f"quota of user '{greedy}'" in row]
        assert "producer_byte_rate" in greedy_row and "104857600" in greedy_row
        [app_row] = [row for row in rows if f"quota of client-id '{prefix}-app'" in row]
        assert "request_percentage" in app_row and "250" in app_row
        assert "3 rule(s), 3 violation(s)" in table.err

        holds = write(
            tmp_path,
            f"rules:\n  - {{resource: quota, entity: {{user: '{capped}'}}, "
            "check: 'producer_byte_rate between [1MiB, 50MiB]'}\n",
        )
        passed = run_cli(capsys, "audit", holds, "-b", kafka_bootstrap)
        assert passed.code == 0, passed.err
        assert "1 rule(s), 0 violation(s)" in passed.err
    finally:
        with_admin(kafka_bootstrap, lambda admin: remove_quotas(admin, made))


def test_scram_rules_and_users_outside_the_file(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prefix = f"as-{unique_name()}"
    good, weak = f"{prefix}-good", f"{prefix}-weak"
    users = {good: {"SCRAM-SHA-512": 8192}, weak: {"SCRAM-SHA-256": 4096}}
    with_admin(kafka_bootstrap, lambda admin: set_credentials(admin, users))
    try:
        file = write(
            tmp_path,
            f"""
scram_users:
  {good}:
    - {{mechanism: SCRAM-SHA-512, iterations: 8192, password_env: NOT_READ_BY_AUDIT}}
rules:
  - {{resource: scram_user, match: '{prefix}-.*', check: mechanism == SCRAM-SHA-512}}
  - {{resource: scram_user, match: '{prefix}-.*', check: iterations >= 8192}}
  - {{resource: scram_user, match: '{prefix}-.*', check: declared}}
  - {{resource: quota, entity: {{user: '{prefix}-.*'}}, check: producer_byte_rate required}}
""",
        )
        ran = audit_json(capsys, file, kafka_bootstrap, 5)
        assert ran.code == 3, ran.err
        found = [(v["resource"], v["key"], v["actual"]) for v in ran.json()["violations"]]
        weak_credential = {"type": "SCRAM_USER", "name": weak, "mechanism": "SCRAM-SHA-256"}
        assert found == [
            # SCRAM users are users: neither has a producer quota.
            ({"type": "QUOTA", "entity": {"user": good}}, "producer_byte_rate", None),
            ({"type": "QUOTA", "entity": {"user": weak}}, "producer_byte_rate", None),
            (weak_credential, "mechanism", "SCRAM-SHA-256"),
            (weak_credential, "iterations", "4096"),
            (weak_credential, None, None),
        ]
        messages = [v["message"] for v in ran.json()["violations"]]
        assert messages[-1] == (
            f"SCRAM user '{weak}' (SCRAM-SHA-256): breaks declared in the file (on scram users "
            f"matching '{prefix}-.*') (the user is not in the file's scram_users)"
        )
    finally:
        with_admin(kafka_bootstrap, lambda admin: delete_credentials(admin, users))


def test_bad_rules_are_one_line_and_exit_2(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for rule, message in [
        ("{resource: queues, check: declared}", "rules[0].resource: 'queues' is not a resource"),
        (
            "{resource: quota, entity: {user: '.*'}, check: 'producer_rate <= 1'}",
            "'producer_rate' is not a quota key of user entities",
        ),
        (
            "{resource: quota, entity: {user: '.*'}, check: 'producer_byte_rate <= fast'}",
            "producer_byte_rate: 'fast' is not a number",
        ),
        ("{resource: scram_user, check: 'iterations >= 4k'}", "not a number"),
    ]:
        file = write(tmp_path, f"rules:\n  - {rule}\n")
        ran = run_cli(capsys, "audit", file, "-b", kafka_bootstrap)
        assert ran.code == 2, ran.err
        assert ran.err.startswith("error: ") and ran.err.count("\n") == 1, ran.err
        assert "audit.yaml:2" in ran.err and message in ran.err, ran.err


@pytest.fixture
async def weak_user(admin_client: AdminClient) -> AsyncIterator[str]:
    user = f"ad-{unique_name()}"
    credentials = {user: {"SCRAM-SHA-256": 4096}}
    await set_credentials(admin_client, credentials)
    quota = {ClientQuotaEntity({"user": user}): {"consumer_byte_rate": 2048}}
    await set_quotas(admin_client, quota)
    yield user
    await remove_quotas(admin_client, quota)
    await delete_credentials(admin_client, credentials)


async def test_read_state_reads_what_quota_and_scram_rules_need(
    admin_client: AdminClient, weak_user: str
) -> None:
    desired = parse_desired_state(
        f"""
quotas:
  - entity: {{user: {weak_user}}}
    values: {{consumer_byte_rate: 2048}}
rules:
  - {{resource: quota, entity: {{user: {weak_user}}}, check: declared}}
  - {{resource: quota, entity: {{user: {weak_user}}}, check: consumer_byte_rate <= 1KiB}}
  - {{resource: scram_user, match: {weak_user}, check: iterations >= 8192}}
"""
    )
    quota = ClientQuotaEntity({"user": weak_user})
    with anyio.fail_after(30):  # the broker read_state asks may learn of them a moment later
        while True:
            state = await read_state(admin_client, desired)
            if weak_user in state.scram and quota in state.quotas:
                break
            await anyio.sleep(0.05)
    assert state.quotas_complete and state.scram_complete
    assert state.scram[weak_user] == {"SCRAM-SHA-256": 4096}
    found: list[Any] = [
        (v.subject, v.key, v.actual) for v in evaluate_state(desired.rules, state, desired=desired)
    ]
    assert found == [
        (f"quota of user '{weak_user}'", "consumer_byte_rate", "2048"),
        (f"SCRAM user '{weak_user}' (SCRAM-SHA-256)", "iterations", "4096"),
    ]


@pytest.mark.kafka(sasl=True, since="2.7")
def test_quotas_the_user_may_not_read_are_a_read_failure(
    kafka_cluster: KafkaCluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alice = kafka_cluster.alice_user  # a SASL user without ACLs
    assert alice is not None and kafka_cluster.sasl_bootstrap_servers is not None
    config = tmp_path / "alice.properties"
    config.write_text(
        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="{alice.username}" password="{alice.password}";\n'
    )
    file = write(
        tmp_path,
        "rules:\n  - {resource: quota, entity: {user: null}, check: producer_byte_rate required}\n",
    )
    ran = run_cli(
        capsys,
        "audit",
        file,
        "--command-config",
        str(config),
        "-b",
        kafka_cluster.sasl_bootstrap_servers,
    )
    assert ran.code == 1, ran.err
    [line] = ran.err.strip().splitlines()
    assert line.startswith("error: ") and "authoriz" in line.lower(), line
    assert ran.out == ""


@pytest.mark.compat
@pytest.mark.kafka(since="2.6")
async def test_quota_rules_on_every_broker_generation_with_quotas(
    admin_client: AdminClient, kafka_release: tuple[int, ...]
) -> None:
    """Quota rules need no SCRAM API: before Kafka 2.7 (no DescribeUserScramCredentials) they
    see the entities that have quotas; from 2.7 on, SCRAM users without one too."""
    user = f"gen-{unique_name()}"
    rule = f"{{resource: quota, entity: {{user: {user}}}, check: consumer_byte_rate <= 1KiB}}"
    desired = parse_desired_state(f"rules:\n  - {rule}\n")
    quota = {ClientQuotaEntity({"user": user}): {"consumer_byte_rate": 2048.0}}
    await set_quotas(admin_client, quota)
    try:
        state = await read_state(admin_client, desired)
        assert state.quotas_complete
        assert state.scram_complete is (kafka_release >= (2, 7))
        found = [(v.subject, v.actual) for v in evaluate_state(desired.rules, state)]
        assert found == [(f"quota of user '{user}'", "2048")]
    finally:
        await remove_quotas(admin_client, quota)
