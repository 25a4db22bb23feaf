"""``plan``, ``apply`` and ``audit`` of desired-state files against the real cluster."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_config_admin import AdminClient, ConfigResource, NewTopic, ResourceType

from .cli_helpers import make_topic, overrides, run_cli, run_process, settled, topic, with_admin
from .helpers import unique_name, wait_until_described

pytestmark = pytest.mark.integration


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "kafka.yaml"
    path.write_text(text)
    return str(path)


def test_plan_apply_then_nothing_left_to_plan(
    kafka_bootstrap: str,
    kafka_broker_ids: list[int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    named = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    broker = str(kafka_broker_ids[-1])
    group = f"group-of-{named}"
    file = write(
        tmp_path,
        f"""
version: 1
topics:
  - name: {named}
    configs: {{retention.ms: 2h, cleanup.policy: [delete, compact]}}
brokers:
  {broker}: {{configs: {{log.cleaner.backoff.ms: 16s}}}}
cluster_default:
  configs: {{max.connection.creation.rate: 1000000}}
groups:
  {group}: {{configs: {{consumer.heartbeat.interval.ms: 6000}}}}
""",
    )
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--output", "json")
    assert ran.code == 3, ran.err
    plan = ran.json()
    assert plan["has_changes"] is True and plan["problems"] == []
    planned = {
        (item["resource"]["type"], item["resource"]["name"]): {
            change["key"]: change["op"] for change in item["changes"]
        }
        for item in plan["resources"]
    }
    assert planned[("TOPIC", named)] == {"retention.ms": "SET", "cleanup.policy": "SET"}
    assert planned[("BROKER", broker)] == {"log.cleaner.backoff.ms": "SET"}
    assert planned[("GROUP", group)] == {"consumer.heartbeat.interval.ms": "SET"}

    ran = run_process("apply", file, "-b", kafka_bootstrap, "--yes")
    assert ran.code == 0, ran.err
    assert overrides(kafka_bootstrap, topic(named)) == {
        "retention.ms": "7200000",
        "cleanup.policy": "delete,compact",
    }
    assert overrides(kafka_bootstrap, ConfigResource(ResourceType.BROKER, broker)) == {
        "log.cleaner.backoff.ms": "16000"
    }
    default = ConfigResource(ResourceType.BROKER, "")
    assert overrides(kafka_bootstrap, default)["max.connection.creation.rate"] == "1000000"
    assert overrides(kafka_bootstrap, ConfigResource(ResourceType.GROUP, group)) == {
        "consumer.heartbeat.interval.ms": "6000"
    }

    ran = run_process("plan", file, "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err
    assert "no changes" in ran.err


def test_dry_run_applies_nothing(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    file = write(tmp_path, f"topics: [{{name: {name}, configs: {{retention.ms: 2h}}}}]\n")
    ran = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--dry-run")
    assert ran.code == 0, ran.err
    assert overrides(kafka_bootstrap, topic(name)) == {}
    assert run_cli(capsys, "plan", file, "-b", kafka_bootstrap).code == 3


def test_prune_deletes_only_overrides_of_the_files_resources(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = {"retention.ms": "3600000", "segment.ms": "3600000"}
    named, other = make_topic(kafka_bootstrap, kept), make_topic(kafka_bootstrap, kept)
    file = write(tmp_path, f"topics: [{{name: {named}, configs: {{retention.ms: 1h}}}}]\n")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 0, ran.err  # without --prune, segment.ms is left alone
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--prune", "-o", "json")
    assert ran.code == 3
    [item] = ran.json()["resources"]
    assert [(c["key"], c["op"]) for c in item["changes"]] == [("segment.ms", "DELETE")]
    ran = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--prune", "--yes")
    assert ran.code == 0, ran.err
    assert overrides(kafka_bootstrap, topic(named)) == {"retention.ms": "3600000"}
    assert overrides(kafka_bootstrap, topic(other)) == kept


@pytest.mark.parametrize(
    ("configs", "message"),
    [
        ("{retention.ms: soon}", "retention.ms = 'soon'"),
        ("{no.such.setting: 1}", "no.such.setting = '1': unknown config"),
        ("{min.insync.replicas: 2147483648}", "min.insync.replicas = '2147483648'"),
        ("{unclean.leader.election.enable: maybe}", "expected BOOLEAN"),
    ],
)
def test_refused_values_send_nothing(
    kafka_bootstrap: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    configs: str,
    message: str,
) -> None:
    good, bad = make_topic(kafka_bootstrap), make_topic(kafka_bootstrap)
    file = write(
        tmp_path,
        f"topics:\n  - {{name: {good}, configs: {{retention.ms: 2h}}}}\n"
        f"  - {{name: {bad}, configs: {configs}}}\n",
    )
    ran = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--yes")
    assert ran.code == 2
    assert message in ran.err and "nothing was sent" in ran.err
    assert overrides(kafka_bootstrap, topic(good)) == {}
    assert overrides(kafka_bootstrap, topic(bad)) == {}
    assert run_cli(capsys, "plan", file, "-b", kafka_bootstrap).code == 2


def test_policy_rejects_one_topic_and_the_others_are_applied(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rejected, accepted = make_topic(kafka_bootstrap), make_topic(kafka_bootstrap)
    file = write(
        tmp_path,
        f"topics:\n  - {{name: {rejected}, configs: {{retention.ms: 30s}}}}\n"
        f"  - {{name: {accepted}, configs: {{retention.ms: 2h}}}}\n",
    )
    ran = run_cli(capsys, "apply", file, "-b", kafka_bootstrap, "--yes")
    assert ran.code == 1
    assert f"failed: topic '{rejected}': retention.ms: PolicyViolationError" in ran.err
    settled(kafka_bootstrap, topic(accepted), "retention.ms", "7200000")
    assert overrides(kafka_bootstrap, topic(rejected)) == {}


def test_audit_reports_rule_violations(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short, long_ = (
        make_topic(kafka_bootstrap, {"retention.ms": "3600000"}),
        make_topic(kafka_bootstrap, {"retention.ms": "86400000"}),
    )
    file = write(
        tmp_path,
        f"rules:\n  - {{match: '{short}|{long_}', check: 'retention.ms >= 12h'}}\n",
    )
    ran = run_cli(capsys, "audit", file, "-b", kafka_bootstrap, "-o", "json")
    assert ran.code == 3, ran.err
    [violation] = ran.json()["violations"]
    assert violation["resource"] == {"type": "TOPIC", "name": short}
    assert violation["key"] == "retention.ms" and violation["actual"] == "3600000"
    file = write(tmp_path, f"rules:\n  - {{match: '{long_}', check: 'retention.ms >= 12h'}}\n")
    assert run_cli(capsys, "audit", file, "-b", kafka_bootstrap).code == 0


def test_export_then_plan_is_empty(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000", "cleanup.policy": "compact"})
    ran = run_cli(capsys, "export", "-b", kafka_bootstrap, "--match", name)
    assert ran.code == 0, ran.err
    file = write(tmp_path, ran.out)
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--prune")
    assert ran.code == 0, ran.err


def test_a_bad_file_is_one_line(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path, "topics: [{name: x, configs: {retention.ms: 1.5d}}]\nextra: 1\n")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 2
    assert ran.err.startswith("error: ") and "Traceback" not in ran.err


#: On a name that starts with a long run of 'a's this pattern backtracks for ages (about 2**40
#: steps for 60 of them): no machine would ever finish the match.
CATASTROPHIC = "(a|aa)+z"


@pytest.fixture(scope="module")
def long_a_topic(kafka_bootstrap: str) -> str:
    """A topic whose name starts with 60 'a's (a catastrophic pattern's prey)."""

    async def create(admin: AdminClient) -> str:
        name = f"{'a' * 60}-{unique_name()}"
        await admin.create_topics([NewTopic(name, 1, 1)]).all()
        await wait_until_described(admin, name)
        return name

    return with_admin(kafka_bootstrap, create)


@pytest.mark.parametrize(
    "command",
    [
        ["plan", "{file}"],
        ["audit", "{file}"],
        ["describe", "--match", CATASTROPHIC],
        ["export", "--match", CATASTROPHIC],
        ["watch", "--match", CATASTROPHIC, "--interval", "1"],
    ],
    ids=[
        "plan: a topic pattern",
        "audit: a rule's match",
        "describe --match",
        "export --match",
        "watch --match",
    ],
)
def test_a_pattern_that_backtracks_without_end_is_stopped_with_one_line(
    kafka_bootstrap: str,
    long_a_topic: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    """Without the budget each of these would match until Ctrl-C (watch: poll after poll);
    with it, the command stops after a second of processor time in that one match and says
    which pattern and why."""
    file = write(
        tmp_path,
        f"topics:\n  - pattern: '{CATASTROPHIC}'\n    configs: {{retention.ms: 1d}}\n"
        f"rules:\n  - {{match: '{CATASTROPHIC}', check: 'retention.ms >= 12h'}}\n",
    )
    args = [part.format(file=file) for part in command]
    ran = run_cli(capsys, *args, "-b", kafka_bootstrap)
    assert ran.code == 2, ran.err
    assert "Traceback" not in ran.err
    [line] = [line for line in ran.err.splitlines() if line.startswith("error: ")]
    assert "takes too long to match" in line and CATASTROPHIC in line
    assert overrides(kafka_bootstrap, topic(long_a_topic)) == {}


@pytest.mark.parametrize("command", ["plan", "apply"])
@pytest.mark.parametrize(
    ("configs", "hint"),
    [
        ("{min.insync.replica: 2}", "did you mean min.insync.replicas"),
        ("{retention.msx: 1000}", "did you mean retention.ms"),
        ("{log.cleaner.threads: 2}", "it is a broker key"),
    ],
)
def test_an_unknown_key_names_the_nearest_keys(
    kafka_bootstrap: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    configs: str,
    hint: str,
) -> None:
    name = make_topic(kafka_bootstrap)
    file = write(tmp_path, f"topics:\n  - {{name: {name}, configs: {configs}}}\n")
    ran = run_cli(capsys, command, file, "-b", kafka_bootstrap, *(["--yes"] * (command == "apply")))
    assert ran.code == 2
    assert "unknown config" in ran.err and hint in ran.err


@pytest.mark.parametrize("one_broker", [True, False], ids=["one broker", "cluster default"])
def test_a_broker_key_kafka_does_not_define_is_a_warning_never_a_refusal(
    kafka_bootstrap: str,
    kafka_broker_ids: list[int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    one_broker: bool,
) -> None:
    """The broker stores any key (a plugin may read it), so the plan goes on as it would
    (exit 3: changes), and says what was probably meant, in the text and the JSON."""
    configs = "{configs: {log.cleaner.thread: 2}}"
    where = f"brokers:\n  '{kafka_broker_ids[0]}': " if one_broker else "cluster_default: "
    file = write(tmp_path, f"version: 1\n{where}{configs}\n")
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 3, ran.err
    lines = [line for line in ran.err.splitlines() if line.startswith("warning: ")]
    assert len(lines) == 1, ran.err
    assert "log.cleaner.thread is not a key Kafka" in lines[0]
    assert "did you mean log.cleaner.threads" in lines[0]
    shown = run_cli(capsys, "plan", file, "-b", kafka_bootstrap, "--output", "json")
    assert shown.code == 3, shown.err
    plan = shown.json()
    assert plan["problems"] == []
    assert [warning["key"] for warning in plan["warnings"]] == ["log.cleaner.thread"]
    assert "did you mean log.cleaner.threads" in plan["warnings"][0]["message"]


def test_an_audit_rule_on_an_unknown_key_names_the_nearest_keys(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    file = write(tmp_path, f"rules:\n  - {{match: '{name}', check: 'min.insync.replica >= 2'}}\n")
    ran = run_cli(capsys, "audit", file, "-b", kafka_bootstrap)
    assert ran.code == 3
    assert "did you mean min.insync.replicas" in ran.out + ran.err


def test_a_huge_value_and_a_long_number_stay_readable(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    file = write(
        tmp_path,
        f"topics:\n  - {{name: {name}, configs: "
        f"{{cleanup.policy: '{'x' * 2_000_000}', segment.bytes: '{'9' * 5000}'}}}}\n",
    )
    ran = run_cli(capsys, "plan", file, "-b", kafka_bootstrap)
    assert ran.code == 2
    assert len(ran.err) < 2000, "a value is shown by its start and its length"
    assert "(2000000 characters)" in ran.err and "(5000 characters)" in ran.err
    assert "out of range for INT" in ran.err
    assert "set_int_max_str_digits" not in ran.err and "4300" not in ran.err
