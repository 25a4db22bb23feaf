"""CLI commands that list the cluster's topics: --match, docs, diff and export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from kafka_config_admin import ConfigResource, ResourceType

from .cli_helpers import make_topic, overrides, run_cli, run_process, settled, topic

pytestmark = pytest.mark.integration


def test_match_selects_topics_by_whole_name(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [make_topic(kafka_bootstrap) for _ in range(2)]
    pattern = "|".join(names)
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        "--match",
        pattern,
        "--set",
        "retention.ms=2h",
        "--yes",
    )
    assert ran.code == 0, ran.err
    assert "2 resource(s) applied, 0 failed" in ran.err
    for name in names:
        settled(kafka_bootstrap, topic(name), "retention.ms", "7200000")
    ran = run_cli(capsys, "describe", "-b", kafka_bootstrap, "--match", pattern, "-o", "json")
    assert sorted(item["resource_name"] for item in ran.json()["resources"]) == sorted(names)
    ran = run_cli(capsys, "describe", "-b", kafka_bootstrap, "--match", "no-topic-is-named-so.*")
    assert ran.code == 0 and ran.out == ""
    assert f"no topic of {kafka_bootstrap} matches " in ran.err
    ran = run_cli(capsys, "describe", "-b", kafka_bootstrap, "--match", "([")
    assert ran.code == 2 and ran.err.startswith("error: ")


def test_docs_prints_type_and_documentation_from_the_broker(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make_topic(kafka_bootstrap)
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "cleanup.policy")
    assert ran.code == 0, ran.err
    assert "cleanup.policy (topic config)" in ran.out and "type: LIST" in ran.out
    assert "compact" in ran.out  # from the documentation
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "consumer.session.timeout.ms")
    assert "(group config)" in ran.out and "type: INT" in ran.out
    # Kafka's documentation is HTML (min.insync.replicas': <code>, <i>): the terminal reads text
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "min.insync.replicas")
    assert "acks" in ran.out and "<code>" not in ran.out and "<i>" not in ran.out, ran.out
    # values in words, as the web editor shows them: Kafka's largest LONG is "never"
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "flush.ms")
    assert "default: 9223372036854775807 = never" in ran.out, ran.out
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "no.such.key")
    assert ran.code == 2
    assert ran.err.strip() == (
        "error: no.such.key: no topic, broker, group or client-metrics config of that name"
    )


def test_diff_against_a_saved_snapshot(
    kafka_bootstrap: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000", "segment.ms": "3600000"})
    snapshot = tmp_path / "snapshot.json"
    ran = run_cli(capsys, "describe", "-b", kafka_bootstrap, name, "-o", "json")
    snapshot.write_text(ran.out)
    ran = run_cli(capsys, "diff", "-b", kafka_bootstrap, "--against", str(snapshot))
    assert ran.code == 0, ran.err
    run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        name,
        "--set",
        "retention.ms=2h",
        "--delete",
        "segment.ms",
        "--yes",
    )
    settled(kafka_bootstrap, topic(name), "retention.ms", "7200000")
    ran = run_cli(capsys, "diff", "-b", kafka_bootstrap, "--against", str(snapshot), "-o", "json")
    assert ran.code == 3
    differences = ran.json()["differences"]
    resource = {"resource_type": "TOPIC", "resource_name": name}
    assert differences == [
        {"resource": resource, "key": "retention.ms", "left": "7200000", "right": "3600000"},
        {"resource": resource, "key": "segment.ms", "left": "(not set)", "right": "3600000"},
    ]


def test_diff_of_two_clusters_as_a_subprocess(kafka_bootstrap: str) -> None:
    # The same cluster through two of its brokers: nothing differs, over every topic.
    first, second = (kafka_bootstrap.split(",") * 2)[:2]
    ran = run_process("diff", "-b", first, "--against-bootstrap-server", second)
    assert ran.code == 0, ran.err
    assert "no differences" in ran.err


def test_export_writes_overrides_as_a_desired_state_file(
    kafka_bootstrap: str, kafka_broker_ids: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    ran = run_cli(capsys, "export", "-b", kafka_bootstrap, "--match", name, "--group", "g-export")
    assert ran.code == 0, ran.err
    document = yaml.safe_load(ran.out)
    assert document["version"] == 1
    assert document["topics"] == [
        {
            "name": name,
            "partitions": 1,
            "replication_factor": 1,
            "configs": {"retention.ms": "3600000"},
        }
    ]
    assert set(document["brokers"]) == set(kafka_broker_ids)
    default = ConfigResource(ResourceType.BROKER, "")
    assert document["cluster_default"]["configs"] == overrides(kafka_bootstrap, default)
    assert document["groups"] == {"g-export": {"configs": {}}}
    as_json = run_cli(capsys, "export", "-b", kafka_bootstrap, "--match", name, "-o", "json")
    assert json.loads(as_json.out)["topics"] == document["topics"]
