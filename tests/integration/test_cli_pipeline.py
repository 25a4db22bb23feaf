"""``alter`` writes through the change pipeline (``kafka_config_admin.changeset``) on the real
cluster: the client's checks refuse before anything is sent, the broker's refusal of one
resource fails that resource alone, and every change is read back before it is called applied
(configs, quotas and SCRAM credentials alike)."""

from __future__ import annotations

import pytest

from .cli_helpers import make_topic, overrides, run_cli, topic
from .helpers import unique_name

pytestmark = pytest.mark.integration


def test_the_broker_refusing_one_resource_fails_it_alone_and_the_other_is_read_back(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Kafka refuses a min.compaction.lag.ms above the topic's own max.compaction.lag.ms.
    refused = make_topic(kafka_bootstrap, {"max.compaction.lag.ms": "100000"})
    accepted = make_topic(kafka_bootstrap)
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        refused,
        accepted,
        "--set",
        "min.compaction.lag.ms=200000",
        "--yes",
    )
    assert ran.code == 1, ran.err
    assert f"failed: topic {refused} [alter]" not in ran.err  # one line per failure
    assert f"applied: topic {accepted} [alter]" in ran.err
    assert f"failed: topic '{refused}': min.compaction.lag.ms: InvalidConfigError" in ran.err
    assert "1 resource(s) applied, 1 failed" in ran.err
    assert overrides(kafka_bootstrap, topic(refused)) == {"max.compaction.lag.ms": "100000"}
    assert overrides(kafka_bootstrap, topic(accepted)) == {"min.compaction.lag.ms": "200000"}


def test_a_bad_value_is_refused_by_the_client_check_and_nothing_is_sent(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [make_topic(kafka_bootstrap) for _ in range(2)]
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        *names,
        "--set",
        "segment.ms=3600000",
        "--set",
        "retention.ms=soon",
        "--yes",
    )
    assert ran.code == 2, ran.err
    assert "refused:" in ran.err and "retention.ms" in ran.err and "nothing was sent" in ran.err
    assert "applied:" not in ran.err and "changes to" not in ran.err
    for name in names:
        assert overrides(kafka_bootstrap, topic(name)) == {}


def test_a_quota_the_broker_refuses_is_a_failed_outcome(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    client = f"pipe-{unique_name()}"
    entity = ["--entity-type", "clients", "--entity-name", client]
    # A byte rate is a whole number to the broker: the client leaves that to it.
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        *entity,
        "--add-config",
        "producer_byte_rate=1.5",
        "--yes",
    )
    assert ran.code == 1, ran.err
    assert f"failed: quotas of client-id {client!r}" in ran.err
    assert "quotas of 0 entities applied, 1 failed" in ran.err
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        *entity,
        "--add-config",
        "producer_byte_rate=2048",
        "--yes",
    )
    assert ran.code == 0, ran.err
    assert f"applied: quotas of client-id {client!r}" in ran.err  # read back
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        *entity,
        "--delete-config",
        "producer_byte_rate",
        "--yes",
    )
    assert ran.code == 0, ran.err
    assert f"applied: quotas of client-id {client!r}" in ran.err


def test_deleting_a_scram_credential_the_user_lacks_is_a_failed_outcome(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    user = f"pipe-{unique_name()}"
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        "--entity-type",
        "users",
        "--entity-name",
        user,
        "--delete-config",
        "SCRAM-SHA-512",
        "--yes",
    )
    assert ran.code == 1, ran.err
    assert f"failed: SCRAM credentials of user {user!r}: " in ran.err
    assert "SCRAM users: 0 applied, 1 failed" in ran.err
