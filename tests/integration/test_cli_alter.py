"""``kafka-config-admin alter`` against the real cluster: each op, dry runs, refusals, policy."""

from __future__ import annotations

import pytest

from kafka_config_admin import ConfigResource, ResourceType

from .cli_helpers import make_topic, overrides, run_cli, run_process, settled, topic

pytestmark = pytest.mark.integration


def test_set_append_subtract_and_delete(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap, {"max.message.bytes": "2000000"})
    resource = topic(name)
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        name,
        "--set",
        "retention.ms=7d",
        "--append",
        "cleanup.policy=compact",
        "--delete",
        "max.message.bytes",
        "--yes",
    )
    assert ran.code == 0, ran.err
    # Through the change pipeline: read back before it is called applied.
    assert f"applied: topic {name} [alter]" in ran.err
    assert "1 resource(s) applied, 0 failed" in ran.err
    settled(kafka_bootstrap, resource, "cleanup.policy", "delete,compact")
    assert overrides(kafka_bootstrap, resource) == {
        "retention.ms": "604800000",
        "cleanup.policy": "delete,compact",
    }
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        "--topic",
        name,
        "--subtract",
        "cleanup.policy=delete",
        "--yes",
    )
    assert ran.code == 0, ran.err
    settled(kafka_bootstrap, resource, "cleanup.policy", "compact")


def test_kafka_configs_shortcuts_on_many_resources_as_a_subprocess(kafka_bootstrap: str) -> None:
    names = [make_topic(kafka_bootstrap) for _ in range(3)]
    args = [arg for name in names for arg in ("--topic", name)]
    ran = run_process(
        "alter",
        "--bootstrap-server",
        kafka_bootstrap,
        *args,
        "--add-config",
        "retention.ms=86400000,cleanup.policy=[delete,compact]",
        "--yes",
    )
    assert ran.code == 0, ran.err
    for name in names:
        settled(kafka_bootstrap, topic(name), "cleanup.policy", "delete,compact")
        assert overrides(kafka_bootstrap, topic(name))["retention.ms"] == "86400000"
    ran = run_process(
        "alter",
        "--bootstrap-server",
        kafka_bootstrap,
        *args,
        "--delete-config",
        "retention.ms,cleanup.policy",
        "--yes",
    )
    assert ran.code == 0, ran.err
    for name in names:
        settled(kafka_bootstrap, topic(name), "cleanup.policy", "delete")
        assert overrides(kafka_bootstrap, topic(name)) == {}


def test_dry_run_changes_nothing(kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        name,
        "--set",
        "retention.ms=7200000",
        "--append",
        "cleanup.policy=compact",
        "--dry-run",
    )
    assert ran.code == 0, ran.err
    assert "validated (dry run, nothing changed)" in ran.err
    assert overrides(kafka_bootstrap, topic(name)) == {"retention.ms": "3600000"}


def test_dry_run_still_asks_the_broker_its_policy(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    ran = run_cli(
        capsys, "alter", "-b", kafka_bootstrap, name, "--set", "retention.ms=1000", "--dry-run"
    )
    assert ran.code == 2, ran.err  # refused, nothing changed: as plan says of it
    assert (
        f"refused by the broker: topic '{name}', retention.ms = '1000': PolicyViolationError"
        in ran.err
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("--set", "retention.ms=soon"), "retention.ms = 'soon': not an integer: expected LONG"),
        (("--set", "no.such.setting=1"), "no.such.setting = '1': unknown config"),
        (("--set", "retention.msx=1"), "did you mean retention.ms"),
        (("--set", "num.io.threads=8"), "it is a broker key"),
        (("--append", "max.message.bytes=1"), "APPEND needs a LIST config, and this one is INT"),
        (("--set", "min.insync.replicas=3000000000"), "min.insync.replicas"),
    ],
)
def test_refused_before_anything_is_sent(
    kafka_bootstrap: str,
    capsys: pytest.CaptureFixture[str],
    change: tuple[str, ...],
    message: str,
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    other = make_topic(kafka_bootstrap)
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        name,
        other,
        "--set",
        "segment.ms=3600000",
        *change,
        "--yes",
    )
    assert ran.code == 2
    assert message in ran.err and "nothing was sent" in ran.err
    assert overrides(kafka_bootstrap, topic(name)) == {"retention.ms": "3600000"}
    assert overrides(kafka_bootstrap, topic(other)) == {}


def test_without_a_terminal_it_never_waits_for_confirmation(kafka_bootstrap: str) -> None:
    name = make_topic(kafka_bootstrap)
    ran = run_process("alter", "-b", kafka_bootstrap, name, "--set", "retention.ms=7200000")
    assert ran.code == 2
    assert "pass --yes" in ran.err
    assert overrides(kafka_bootstrap, topic(name)) == {}


def test_policy_rejects_one_resource_and_the_others_are_altered(
    kafka_bootstrap: str, kafka_broker_ids: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    broker = ConfigResource(ResourceType.BROKER, str(kafka_broker_ids[0]))
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        name,
        f"broker:{broker.name}",
        "--set",
        "log.retention.ms=1000",
        "--yes",
    )
    # Topics do not take log.retention.ms: refused before sending, nothing changes.
    assert ran.code == 2
    ran = run_cli(
        capsys, "alter", "-b", kafka_bootstrap, name, "--set", "retention.ms=30000", "--yes"
    )
    assert ran.code == 1
    assert f"topic '{name}': retention.ms: PolicyViolationError" in ran.err
    assert "0 resource(s) applied, 1 failed" in ran.err


@pytest.mark.parametrize(
    ("change", "accepted"),
    [
        ("listener.name.plaintext.max.connections=100", True),
        ("listener.name.plaintext.ssl.client.auth=required", True),
        ("ssl.keystore.type=PKCS12", False),  # Kafka takes it only per listener
        ("listener.name.plaintext.max.connections=0", False),  # a listener's limit: at least 1
    ],
)
def test_per_listener_keys_are_checked_as_the_broker_checks_them(
    kafka_bootstrap: str,
    kafka_broker_ids: list[int],
    capsys: pytest.CaptureFixture[str],
    change: str,
    accepted: bool,
) -> None:
    """The client refuses what the broker refuses and lets through what it accepts: the dry
    run reaches the broker (exit 0) or the check refuses it first (exit 2), never the reverse."""
    broker = f"broker:{kafka_broker_ids[0]}"
    ran = run_cli(capsys, "alter", "-b", kafka_bootstrap, broker, "--set", change, "--dry-run")
    assert ran.code == (0 if accepted else 2), ran.err
    assert "unknown config" not in ran.err


@pytest.mark.parametrize(
    ("change", "warning"),
    [
        ("log.retention.hourz=1", "did you mean log.retention.hours"),
        ("retention.ms=1000", "it is a topic key"),
        ("log.cleaner.threads=2", None),
        ("listener.name.plaintext.max.connections=100", None),  # the key it prefixes is known
    ],
)
def test_a_broker_key_kafka_does_not_define_is_a_warning_never_a_refusal(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str], change: str, warning: str | None
) -> None:
    """The broker stores any key (a plugin may read it): the dry run goes on (exit 0), with a
    warning line naming what was probably meant."""
    ran = run_cli(
        capsys,
        "alter",
        "--bootstrap-server",
        kafka_bootstrap,
        "--entity-type",
        "brokers",
        "--entity-default",
        "--add-config",
        change,
        "--dry-run",
    )
    assert ran.code == 0, ran.err
    key = change.split("=")[0]
    lines = [line for line in ran.err.splitlines() if line.startswith("warning: ")]
    if warning is None:
        assert lines == []
    else:
        assert len(lines) == 1 and f"{key} is not a key Kafka" in lines[0], ran.err
        assert "(the broker stores it and uses nothing of it)" in lines[0]
        assert warning in lines[0]
