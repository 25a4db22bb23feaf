"""How the CLI reaches a cluster: SASL through --command-config, and a clusters file."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import make_topic, run_cli, run_process

pytestmark = pytest.mark.integration

_LOGIN_MODULES = {
    "PLAIN": "org.apache.kafka.common.security.plain.PlainLoginModule",
    "SCRAM-SHA-256": "org.apache.kafka.common.security.scram.ScramLoginModule",
    "SCRAM-SHA-512": "org.apache.kafka.common.security.scram.ScramLoginModule",
}


def command_config(tmp_path: Path, mechanism: str, username: str, password: str) -> Path:
    path = tmp_path / f"{mechanism}.properties"
    path.write_text(
        "security.protocol=SASL_PLAINTEXT\n"
        f"sasl.mechanism={mechanism}\n"
        f"sasl.jaas.config={_LOGIN_MODULES[mechanism]} required \\\n"
        f'    username="{username}" password="{password}";\n'
    )
    return path


@pytest.mark.kafka(sasl=True)
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_sasl_through_command_config(
    kafka_cluster: KafkaCluster, kafka_bootstrap: str, tmp_path: Path, mechanism: str
) -> None:
    user = kafka_cluster.admin_user
    assert user is not None and kafka_cluster.sasl_bootstrap_servers is not None
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    config = command_config(tmp_path, mechanism, user.username, user.password)
    ran = run_process(
        "describe",
        name,
        "-o",
        "json",
        "--command-config",
        str(config),
        "--bootstrap-server",
        kafka_cluster.sasl_bootstrap_servers,
    )
    assert ran.code == 0, ran.err
    [resource] = ran.json()["resources"]
    assert resource["configs"]["retention.ms"]["value"] == "3600000"


@pytest.mark.kafka(sasl=True)
def test_wrong_password_is_one_clear_line(
    kafka_cluster: KafkaCluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert kafka_cluster.sasl_bootstrap_servers is not None
    config = command_config(tmp_path, "SCRAM-SHA-256", "admin", "not-the-password")
    ran = run_cli(
        capsys,
        "describe",
        "broker:",
        "--command-config",
        str(config),
        "--bootstrap-server",
        kafka_cluster.sasl_bootstrap_servers,
    )
    assert ran.code == 1
    [line] = ran.err.strip().splitlines()
    assert line.startswith("error: ") and "auth" in line.lower()
    assert "not-the-password" not in line


def test_jks_store_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "ssl.properties"
    config.write_text(
        "security.protocol=SSL\nssl.truststore.location=/etc/truststore.jks\n"
        "ssl.truststore.type=JKS\n"
    )
    ran = run_cli(
        capsys, "describe", "broker:", "-b", "127.0.0.1:9093", "--command-config", str(config)
    )
    assert ran.code == 2
    assert ran.err.strip() == (
        f"error: {config}: ssl.truststore.type=JKS is not supported: convert the store to PEM "
        "files and set ssl.truststore.type=PEM"
    )


@pytest.mark.kafka(sasl=True)
def test_clusters_file_names_clusters(
    kafka_cluster: KafkaCluster, kafka_bootstrap: str, tmp_path: Path
) -> None:
    user = kafka_cluster.admin_user
    assert user is not None
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        "default: plain\n"
        "clusters:\n"
        f"  plain: {{bootstrap_servers: '{kafka_bootstrap}'}}\n"
        "  secure:\n"
        f"    bootstrap_servers: '{kafka_cluster.sasl_bootstrap_servers}'\n"
        "    security_protocol: SASL_PLAINTEXT\n"
        "    sasl_mechanism: SCRAM-SHA-512\n"
        f"    username: {user.username}\n"
        "    password_env: SECURE_KAFKA_PASSWORD\n"
    )
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    env = {"KAFKA_CONFIG_ADMIN_CLUSTERS": str(clusters), "SECURE_KAFKA_PASSWORD": user.password}
    for chosen in (["--cluster", "secure"], []):
        ran = run_process("describe", name, "-o", "json", *chosen, env=env)
        assert ran.code == 0, ran.err
        assert ran.json()["cluster"] == (chosen[1] if chosen else "plain")
    ran = run_process("describe", name, "--cluster", "nope", env=env)
    assert ran.code == 2
    assert ran.err.strip() == "error: no cluster named 'nope' (known: plain, secure)"


def _free_address() -> str:
    """An address where nothing listens: a cluster that must never be the one talked to."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


@pytest.fixture
def two_clusters(kafka_bootstrap: str, tmp_path: Path) -> tuple[Path, str]:
    """A clusters file whose default ``one`` is dead and whose ``two`` is the session cluster,
    and a dead address for KAFKA_BOOTSTRAP_SERVERS."""
    dead = _free_address()
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        "default: one\n"
        "clusters:\n"
        f"  one: {{bootstrap_servers: '{_free_address()}'}}\n"
        f"  two: {{bootstrap_servers: '{kafka_bootstrap}'}}\n"
    )
    return clusters, dead


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--cluster", "two"], "two"),  # --cluster over the variable (and the file's default)
        (["-b", "{bootstrap}"], "{bootstrap}"),  # --bootstrap-server over both
        (["--cluster", "two", "-b", "{bootstrap}"], "two"),  # both, agreeing
    ],
)
def test_the_cluster_named_is_the_one_talked_to(
    kafka_bootstrap: str, two_clusters: tuple[Path, str], options: list[str], named: str
) -> None:
    clusters, dead = two_clusters
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    env = {"KAFKA_BOOTSTRAP_SERVERS": dead, "KAFKA_CONFIG_ADMIN_CLUSTERS": str(clusters)}
    given = [option.format(bootstrap=kafka_bootstrap) for option in options]
    ran = run_process("describe", name, "-o", "json", "--timeout", "10", *given, env=env)
    assert ran.code == 0, ran.err
    assert ran.json()["cluster"] == named.format(bootstrap=kafka_bootstrap)
    [resource] = ran.json()["resources"]
    assert resource["configs"]["retention.ms"]["value"] == "3600000"


def test_the_clusters_file_default_comes_before_the_variable(
    kafka_bootstrap: str, tmp_path: Path
) -> None:
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(f"clusters:\n  only: {{bootstrap_servers: '{kafka_bootstrap}'}}\n")
    name = make_topic(kafka_bootstrap)
    env = {"KAFKA_BOOTSTRAP_SERVERS": _free_address()}
    ran = run_process(
        "describe", name, "-o", "json", "--clusters-file", str(clusters), "--timeout", "10", env=env
    )
    assert ran.code == 0, ran.err
    assert ran.json()["cluster"] == "only"


def test_a_cluster_name_and_servers_that_disagree_are_refused(
    kafka_bootstrap: str, two_clusters: tuple[Path, str]
) -> None:
    clusters, _ = two_clusters
    ran = run_process(
        "alter",
        "--cluster",
        "one",
        "-b",
        kafka_bootstrap,
        "--clusters-file",
        str(clusters),
        "topic:orders",
        "--set",
        "retention.ms=1",
        "--yes",
    )
    assert ran.code == 2
    [line] = ran.err.strip().splitlines()
    assert line.startswith("error: --cluster 'one' has bootstrap servers ")
    assert f"but --bootstrap-server gives '{kafka_bootstrap}': give one of them" in line


def test_a_clusters_file_named_but_missing_is_said(tmp_path: Path, kafka_bootstrap: str) -> None:
    missing = tmp_path / "missing.yaml"
    ran = run_process(
        "describe", "broker:", "--clusters-file", str(missing),
        env={"KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap},
    )  # fmt: skip
    assert ran.code == 2
    assert ran.err.strip() == (
        f"error: cannot read clusters file {missing}: No such file or directory"
    )


def test_every_table_output_names_the_cluster_talked_to(
    kafka_bootstrap: str, two_clusters: tuple[Path, str], tmp_path: Path
) -> None:
    """``--cluster two`` with KAFKA_BOOTSTRAP_SERVERS exported: each human-readable output
    says ``two`` (describe's first stdout line, the other commands' tables and last lines on
    stderr; export's stdout stays the document alone)."""
    clusters, dead = two_clusters
    name = make_topic(kafka_bootstrap, {"retention.ms": "3600000"})
    env = {"KAFKA_BOOTSTRAP_SERVERS": dead, "KAFKA_CONFIG_ADMIN_CLUSTERS": str(clusters)}
    named = ["--cluster", "two", "--timeout", "10"]

    described = run_process("describe", f"topic:{name}", *named, env=env)
    assert described.code == 0, described.err
    assert described.out.splitlines()[0] == "cluster two"
    altered = run_process(
        "alter", f"topic:{name}", "--set", "retention.ms=7200000", "--yes", *named, env=env
    )
    assert altered.code == 0, altered.err
    assert altered.err.splitlines()[0] == "changes to two"

    file = tmp_path / "desired.yaml"
    file.write_text(f"topics: [{{name: {name}, configs: {{retention.ms: 4h}}}}]\n")
    planned = run_process("plan", str(file), *named, env=env)
    assert planned.code == 3, planned.err
    assert planned.err.splitlines()[0] == "plan for two"
    assert planned.err.splitlines()[-1] == "changes needed on two (the brokers accept every change)"
    file.write_text(f"topics: [{{name: {name}, configs: {{retention.ms: 2h}}}}]\n")
    same = run_process("plan", str(file), *named, env=env)
    assert same.code == 0, same.err
    assert same.err.strip() == "no changes: cluster two is as wanted"

    rules = tmp_path / "rules.yaml"
    rules.write_text(f"rules:\n  - {{match: '{name}', check: 'retention.ms >= 1h'}}\n")
    audited = run_process("audit", str(rules), *named, env=env)
    assert audited.code == 0, audited.err
    assert audited.err.strip() == "audit of two: 1 rule(s), 0 violation(s)"

    exported = run_process(
        "export", "--match", name, "--no-groups", "--no-quotas", "-o", "json", *named, env=env
    )
    assert exported.code == 0, exported.err
    assert exported.err.strip() == "exported two"
    assert exported.json()["topics"][0]["name"] == name
