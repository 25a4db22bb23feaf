"""The command line's bad-input matrix (issue 16, point 5): every mistake is one clear line.

Each case runs ``kafka-config-admin`` as a real subprocess against the session cluster, with a
mistake a careless or hostile user makes. It must exit with the documented code (2: refused
before anything was sent; 1: the cluster refused or could not be reached), print no traceback,
and print exactly one line stating the problem (a line starting ``error:``, ``refused:`` or
``failed:``; the table of changes ``alter`` shows first and its tally are not problem lines)
that names what was wrong; and reading the cluster back must show nothing changed: the
case's topic, the cluster default, the case user's quotas and SCRAM credentials.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kafka_config_admin import (
    AdminClient,
    ClientQuotaFilter,
    ClientQuotaFilterComponent,
    ConfigResource,
    ResourceNotFoundError,
    ResourceType,
)

from .cli_helpers import make_topic, overrides, run_process, with_admin
from .helpers import unique_name

pytestmark = [pytest.mark.integration, pytest.mark.kafka(brokers=3, policy=True)]

#: The most a case may take, Python's start-up included; network cases pass ``--timeout 5``.
CASE_SECONDS = 60.0
PROBLEM_PREFIXES = ("error:", "refused:", "failed:")


@dataclass(frozen=True)
class Setting:
    """What a case runs against."""

    bootstrap: str
    topic: str
    user: str
    free_port: int
    files: Path
    silent_port: int


@dataclass(frozen=True)
class Case:
    """A command line with a mistake, the exit code it must end with and words its line has."""

    id: str
    argv: Callable[[Setting], list[str]]
    code: int
    says: tuple[str, ...]


def cluster(s: Setting) -> list[str]:
    return ["-b", s.bootstrap]


def user(s: Setting) -> list[str]:
    return [*cluster(s), "--entity-type", "users", "--entity-name", s.user]


def alter_topic(s: Setting, *changes: str) -> list[str]:
    return ["alter", *cluster(s), s.topic, *changes, "--yes"]


def with_clusters_file(name: str) -> Callable[[Setting], list[str]]:
    """``describe --cluster dev`` with the clusters file ``name`` of the case's files."""
    return lambda s: [
        "describe",
        "--cluster",
        "dev",
        "--clusters-file",
        str(s.files / name),
        "orders",
    ]


CASES = [
    Case(
        "unknown entity type",
        lambda s: ["describe", *cluster(s), "--entity-type", "userz", "--entity-name", "a"],
        2,
        ("unknown entity type 'userz'",),
    ),
    Case(
        "users combined with ips",
        lambda s: ["describe", *user(s), "--entity-type", "ips"],
        2,
        ("only 'users' and 'clients'",),
    ),
    Case(
        "an ip entity that is no IP",
        lambda s: ["alter", *cluster(s), "--ip", "not-an-ip", "--add-config", "x=1", "--yes"],
        2,
        ("'not-an-ip' is not an IP address",),
    ),
    Case(
        "unknown broker id",
        lambda s: ["alter", *cluster(s), "broker:999", "--set", "log.cleaner.threads=2", "--yes"],
        2,
        ("broker 999 is not in the cluster",),
    ),
    Case(
        "a broker id that is not a number",
        lambda s: ["describe", *cluster(s), "broker:one"],
        2,
        ("broker 'one'", "numeric id"),
    ),
    Case(
        "malformed --add-config",
        lambda s: alter_topic(s, "--add-config", "retention.ms"),
        2,
        ("'retention.ms'", "KEY=VALUE"),
    ),
    Case(
        "unbalanced brackets in --add-config",
        lambda s: alter_topic(s, "--add-config", "cleanup.policy=[delete,compact"),
        2,
        ("unbalanced brackets",),
    ),
    Case(
        "SCRAM credential without a password",
        lambda s: ["alter", *user(s), "--add-config", "SCRAM-SHA-256=[iterations=8192]", "--yes"],
        2,
        ("SCRAM-SHA-256", "needs a password"),
    ),
    Case(
        "SCRAM iterations below Kafka's minimum",
        lambda s: [
            "alter",
            *user(s),
            "--add-config",
            "SCRAM-SHA-512=[iterations=10,password=not-shown-anywhere]",
            "--yes",
        ],
        2,
        ("iterations must be 4096-16384",),
    ),
    Case(
        "SCRAM credential for the default user",
        lambda s: [
            "alter",
            *cluster(s),
            "--user-defaults",
            "--add-config",
            "SCRAM-SHA-256=[password=p]",
            "--yes",
        ],
        2,
        ("one named user",),
    ),
    Case(
        "SCRAM and quotas on one command line",
        lambda s: [
            "alter",
            *user(s),
            "--add-config",
            "producer_byte_rate=1024,SCRAM-SHA-256=[password=p]",
            "--yes",
        ],
        2,
        ("cannot be changed on one command line",),
    ),
    Case(
        "deleting a SCRAM credential the user does not have",
        lambda s: ["alter", *user(s), "--delete-config", "SCRAM-SHA-512", "--yes"],
        1,
        ("RESOURCE_NOT_FOUND", "does not exist"),
    ),
    Case(
        "unknown quota key",
        lambda s: ["alter", *user(s), "--add-config", "retention.ms=1", "--yes"],
        2,
        ("'retention.ms' is not a quota key",),
    ),
    Case(
        "quota value that is not a number",
        lambda s: ["alter", *user(s), "--add-config", "producer_byte_rate=fast", "--yes"],
        2,
        ("producer_byte_rate=fast", "number"),
    ),
    Case(
        "quota value the broker refuses (a fraction of a whole-number key)",
        lambda s: ["alter", *user(s), "--add-config", "producer_byte_rate=1.5", "--yes"],
        1,
        ("producer_byte_rate",),
    ),
    Case(
        "unknown config key",
        lambda s: alter_topic(s, "--set", "no.such.key=1"),
        2,
        ("no.such.key",),
    ),
    Case(
        "value of the wrong type",
        lambda s: alter_topic(s, "--set", "retention.ms=soon"),
        2,
        ("retention.ms", "soon"),
    ),
    Case(
        "APPEND on a key that is not a list",
        lambda s: alter_topic(s, "--append", "retention.ms=1"),
        2,
        ("retention.ms", "APPEND"),
    ),
    Case(
        "policy rejection",
        lambda s: alter_topic(s, "--set", "retention.ms=1000"),
        1,
        ("PolicyViolationError", "retention.ms"),
    ),
    Case(
        "a topic that does not exist",
        lambda s: ["describe", *cluster(s), f"{s.topic}-missing"],
        1,
        ("-missing",),
    ),
    Case(
        "alter without --yes and without a terminal",
        lambda s: ["alter", *cluster(s), s.topic, "--set", "retention.ms=7d"],
        2,
        ("--yes",),
    ),
    Case(
        "bad bootstrap string",
        lambda s: ["describe", "-b", "not a host", "orders"],
        2,
        ("'not a host' is not host:port",),
    ),
    Case(
        "nothing on the port",
        lambda s: ["describe", "-b", f"127.0.0.1:{s.free_port}", "--timeout", "5", "orders"],
        1,
        ("127.0.0.1",),
    ),
    Case(
        "unknown --cluster",
        lambda s: [
            "describe",
            "--cluster",
            "nope",
            "--clusters-file",
            str(s.files / "clusters.yaml"),
            "orders",
        ],
        2,
        ("nope",),
    ),
    Case(
        "missing --command-config file",
        lambda s: ["describe", *cluster(s), "--command-config", str(s.files / "none"), "x"],
        2,
        ("none",),
    ),
    Case(
        "bad YAML in a desired-state file",
        lambda s: ["plan", *cluster(s), str(s.files / "bad.yaml")],
        2,
        ("bad.yaml",),
    ),
    Case(
        "a desired-state file that does not exist",
        lambda s: ["plan", *cluster(s), str(s.files / "missing.yaml")],
        2,
        ("missing.yaml",),
    ),
    Case(
        "deleting a key that is not set (kafka-configs.sh refuses it)",
        lambda s: alter_topic(s, "--delete", "segment.ms"),
        2,
        ("segment.ms", "is not set on it, so there is nothing to delete"),
    ),
    Case(
        "a cluster name and servers that disagree",
        lambda s: [
            "describe",
            "--cluster",
            "dev",
            "--clusters-file",
            str(s.files / "clusters.yaml"),
            "-b",
            f"127.0.0.1:{s.free_port}",
            "orders",
        ],
        2,
        ("--cluster 'dev' has bootstrap servers", "give one of them"),
    ),
    *(
        Case(
            f"a clusters file with {what}",
            with_clusters_file(name),
            2,
            (name, says),
        )
        for what, name, says in [
            ("an integer of 5,000 digits", "long-number.yaml", "line 3: '99999"),
            ("a byte that is not UTF-8", "latin1.yaml", "line 2: byte 0xe9 is not UTF-8"),
            ("YAML nested 100,000 deep", "deep.yaml", "nested too deeply"),
        ]
    ),
    Case(
        "a command config that is not UTF-8",
        lambda s: ["describe", *cluster(s), "--command-config", str(s.files / "latin1.yaml"), "x"],
        2,
        ("latin1.yaml", "byte 0xe9 is not UTF-8"),
    ),
    Case(
        "a sasl.jaas.config with an unbalanced quote",
        lambda s: [
            "describe",
            *cluster(s),
            "--command-config",
            str(s.files / "jaas.properties"),
            "orders",
        ],
        2,
        ("jaas.properties", "value not specified for key 'p'"),
    ),
    Case(
        "a desired-state file with an integer of 5,000 digits",
        lambda s: ["plan", *cluster(s), str(s.files / "long-number-desired.yaml")],
        2,
        ("retention.ms", "(5000 characters)"),
    ),
    Case(
        "a host label over 63 characters",
        lambda s: ["describe", "-b", "k" * 100_000 + ".example:9092", "orders"],
        2,
        ("(100013 characters) is not host:port", "longer than 63 characters"),
    ),
    Case(
        "a host name with an empty label",
        lambda s: ["describe", "-b", "kafka..example:9092", "orders"],
        2,
        ("'kafka..example:9092' is not host:port: the host name has an empty label",),
    ),
    Case(
        "a port that is not a number",
        lambda s: ["describe", "-b", "127.0.0.1:notaport", "orders"],
        2,
        ("the port 'notaport' is not a number 1-65535",),
    ),
    Case(
        "a server that accepts the connection and says nothing, timeout 3 s",
        lambda s: ["describe", "-b", f"127.0.0.1:{s.silent_port}", "--timeout", "3", "orders"],
        1,
        ("within 3s", "accepted the connection and sent nothing in 3s"),
    ),
    Case(
        "an option no command has",
        lambda s: ["describe", *cluster(s), "--entity-typo", "users"],
        2,
        ("--entity-typo",),
    ),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture(scope="module")
def setting(kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setting]:
    files = tmp_path_factory.mktemp("bad-input")
    (files / "clusters.yaml").write_text(
        f"clusters:\n  dev:\n    bootstrap_servers: {kafka_bootstrap}\n", encoding="utf-8"
    )
    (files / "bad.yaml").write_text("version: 1\ntopics: [\n  {name: a\n", encoding="utf-8")
    (files / "long-number.yaml").write_text(
        f"clusters:\n  dev:\n    timeout: {'9' * 5_000}\n", encoding="utf-8"
    )
    (files / "long-number-desired.yaml").write_text(
        "version: 1\ntopics:\n  - name: orders\n    partitions: 1\n    replication_factor: 1\n"
        f"    configs:\n      retention.ms: {'9' * 5_000}\n",
        encoding="utf-8",
    )
    (files / "latin1.yaml").write_bytes(b"clusters:\n  dev: {bootstrap_servers: caf\xe9:1}\n")
    (files / "deep.yaml").write_text("clusters: " + "[" * 100_000 + "]" * 100_000)
    (files / "jaas.properties").write_text(
        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config="
        "org.apache.kafka.common.security.plain.PlainLoginModule required "
        'username="admin password="p";\n'
    )
    topic = make_topic(kafka_bootstrap, {"retention.ms": "86400000"})
    silent = socket.socket()  # accepts connections (the backlog) and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    with silent:
        yield Setting(
            kafka_bootstrap,
            topic,
            f"bad-{unique_name()}",
            free_port(),
            files,
            silent.getsockname()[1],
        )


def cluster_state(s: Setting) -> dict[str, Any]:
    """What a case must leave as it was."""

    async def read(admin: AdminClient) -> dict[str, Any]:
        quotas = await admin.describe_client_quotas(
            ClientQuotaFilter.contains([ClientQuotaFilterComponent.exact("user", s.user)])
        ).all()
        try:
            scram = await admin.describe_user_scram_credentials([s.user]).description(s.user)
        except ResourceNotFoundError:
            scram = None
        return {"quotas": quotas, "scram": scram}

    return {
        **with_admin(s.bootstrap, read),
        "topic": overrides(s.bootstrap, ConfigResource(ResourceType.TOPIC, s.topic)),
        "default": overrides(s.bootstrap, ConfigResource(ResourceType.BROKER, "")),
    }


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_input(case: Case, setting: Setting) -> None:
    before = cluster_state(setting)
    started = time.monotonic()
    ran = run_process(*case.argv(setting))
    took = time.monotonic() - started
    assert "Traceback" not in ran.err and "Traceback" not in ran.out
    problems = [line for line in ran.err.splitlines() if line.startswith(PROBLEM_PREFIXES)]
    assert len(problems) == 1, ran.err
    for words in case.says:
        assert words in problems[0], problems[0]
    assert ran.code == case.code, ran.err
    assert took < CASE_SECONDS
    time.sleep(0.5)  # a change, had one been made, reaches the broker asked meanwhile
    assert cluster_state(setting) == before


def _run_into(sink: str, *args: str) -> tuple[int, str]:
    """The command line with stdout a pipe nobody reads ("closed pipe") or /dev/full."""
    command = [sys.executable, "-m", "kafka_config_admin", *args]
    if sink == "closed pipe":
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
            assert process.stdout is not None and process.stderr is not None
            process.stdout.close()  # the reader is gone before the first write
            err = process.stderr.read().decode()
            return process.wait(timeout=120), err
    with open(sink, "w") as full:
        done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, check=False)
    return done.returncode, done.stderr.decode()


@pytest.mark.parametrize(
    ("sink", "code", "line"),
    [
        (
            "closed pipe",
            141,
            "error: the output's reader closed the pipe before all of it was written",
        ),
        ("/dev/full", 1, "error: cannot write the output: No space left on device"),
    ],
)
@pytest.mark.parametrize("output", ["table", "json", "yaml", "--help"])
def test_output_that_cannot_be_written_is_one_line_and_its_code(
    setting: Setting, sink: str, code: int, line: str, output: str
) -> None:
    """The same code for every output format (docs/cli.md, exit codes)."""
    args = (
        ["--help"]
        if output == "--help"
        else ["describe", *cluster(setting), setting.topic, "-o", output]
    )
    ran_code, err = _run_into(sink, *args)
    assert (ran_code, err.splitlines()) == (code, [line])
