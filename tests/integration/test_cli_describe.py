"""``kafka-config-admin describe`` against the real cluster, in its three output formats."""

from __future__ import annotations

import pytest
import yaml

from .cli_helpers import make_topic, run_cli, run_process

pytestmark = pytest.mark.integration


def test_describe_json_shows_overrides_with_types(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    ran = run_cli(capsys, "describe", "-b", kafka_bootstrap, "--topic", name, "-o", "json")
    assert ran.code == 0, ran.err
    document = ran.json()
    assert document["kind"] == "describe" and document["version"] == 2
    [resource] = document["resources"]
    # The columns of the Spark snapshot and the change feed (desired's rows).
    assert (resource["resource_type"], resource["resource_name"]) == ("TOPIC", name)
    assert (resource["error"], resource["error_message"]) == (None, None)
    assert resource["configs"] == {
        "retention.ms": {
            "name": "retention.ms",
            "value": "3600000",
            "source": "TOPIC_CONFIG",
            "is_default": False,
            "is_read_only": False,
            "is_sensitive": False,
            "config_type": "LONG",
        }
    }


def test_describe_yaml_with_all_docs_and_synonyms(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    ran = run_cli(
        capsys,
        "describe",
        "-b",
        kafka_bootstrap,
        name,
        "--all",
        "--docs",
        "--synonyms",
        "--keys",
        "retention.ms,cleanup.policy,min.insync.replicas",
        "-o",
        "yaml",
    )
    assert ran.code == 0, ran.err
    [resource] = yaml.safe_load(ran.out)["resources"]
    retention = resource["configs"]["retention.ms"]
    assert set(resource["configs"]) == {"retention.ms", "cleanup.policy", "min.insync.replicas"}
    assert retention["config_type"] == "LONG" and retention["is_default"] is True
    assert "retention" in retention["documentation"].lower()
    synonyms = resource["configs"]["min.insync.replicas"]["synonyms"]
    assert {"name": "min.insync.replicas", "value": "1", "source": "DEFAULT_CONFIG"} in synonyms
    assert resource["configs"]["cleanup.policy"]["config_type"] == "LIST"


def test_describe_table_as_a_subprocess_with_the_bootstrap_from_the_environment(
    kafka_bootstrap: str, kafka_broker_ids: list[int]
) -> None:
    name = make_topic(kafka_bootstrap, {"max.message.bytes": "2000000"})
    broker = str(kafka_broker_ids[0])
    ran = run_process(
        "describe",
        name,
        "--broker",
        broker,
        "--entity-default",
        env={"KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap},
    )
    assert ran.code == 0, ran.err
    assert f"topic {name}" in ran.out and f"broker {broker}" in ran.out
    assert 'cluster default (broker "")' in ran.out
    [row] = [line for line in ran.out.splitlines() if "max.message.bytes" in line]
    assert "2000000" in row and "TOPIC_CONFIG" in row and "INT" in row


def test_a_resource_that_fails_gives_exit_1_and_the_others_are_shown(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    ran = run_cli(
        capsys, "describe", "-b", kafka_bootstrap, name, "no-such-topic-here", "-o", "json"
    )
    assert ran.code == 1
    found, missing = ran.json()["resources"]
    assert found["error"] is None
    assert missing["error"] == "UnknownTopicOrPartitionError"
    assert isinstance(missing["error_message"], str) and missing["error_message"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("describe",), "error: name at least one resource"),
        (("describe", "broker:one"), "error: broker 'one': a broker is named by its numeric id"),
        (("describe", "queue:q"), "unknown resource type 'queue'"),
        (("describe", "--bogus"), "error: No such option '--bogus'"),
        (("plan", "no-such-file.yaml"), "File 'no-such-file.yaml' does not exist"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    ran = run_cli(capsys, *args, "-b", kafka_bootstrap)
    assert ran.code == 2
    assert message in ran.err and len(ran.err.strip().splitlines()) == 1
    assert "Traceback" not in ran.err


def test_an_unreachable_cluster_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    ran = run_cli(capsys, "describe", "-b", "127.0.0.1:1", "orders", "--timeout", "5")
    assert ran.code == 1
    assert ran.err.startswith("error: ") and len(ran.err.strip().splitlines()) == 1


def test_describe_table_prints_the_documentation_as_plain_text(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap)
    ran = run_cli(
        capsys, "describe", "-b", kafka_bootstrap, name, "--all", "--docs",
        "--keys", "min.insync.replicas",
    )  # fmt: skip
    assert ran.code == 0, ran.err
    # Kafka's documentation of min.insync.replicas is HTML (<code>acks</code>, <i>...</i>)
    assert "acks" in ran.out and "<code>" not in ran.out and "<i>" not in ran.out, ran.out
