"""The secrets capture: connect every way, right and wrong, and search all that shows for secrets.

Every logger (ours, aiokafka's, asyncio's, the root) is at DEBUG while clients connect over SSL,
mutual TLS (a key with a passphrase), SASL_SSL and SASL_PLAINTEXT with PLAIN and SCRAM (the
cluster's password and a SCRAM password set through the SDK), and OAUTHBEARER, each with right
and wrong credentials; connected clients make sensitive SETs the broker rejects (its message
echoes the value). The command line runs as subprocesses (DEBUG logging on its stderr) with the
same settings in command configs and a clusters file. Every log record (formatted, with its
traceback), every repr, message and traceback of a client, result, op and error, and every line
the command line printed is searched for each secret, as text and as escaped bytes.

``tests/integration/test_secrets.py`` runs it under pytest (0 secrets found, or it fails);
``python -m tests.integration.secrets_capture`` (``nox -s secrets``) starts its own cluster and
writes ``benchmarks/results/reliability/secrets.json``.
"""

from __future__ import annotations

import gc
import logging
import os
import secrets
import ssl
import subprocess
import sys
import traceback
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    KafkaConfigAdminError,
    OpType,
    ResourceType,
    TokenProvider,
    UserScramCredentialUpsertion,
)
from kafka_config_admin.testing import KafkaCluster, unsecured_jwt

from .helpers import new_topic

SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule"
PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"
#: A SCRAM user made by the capture (through alter_user_scram_credentials).
SCRAM_USER = "capture-scram-user"


class _Tokens(TokenProvider):
    """Unsecured tokens for the broker's test validator; remembers each one it gave."""

    def __init__(self, lifetime: int) -> None:
        self.lifetime = lifetime
        self.given: list[str] = []

    async def token(self) -> str:
        self.given.append(unsecured_jwt("admin", lifetime=self.lifetime))
        return self.given[-1]


class LogSink(logging.Handler):
    """Keeps every record, formatted with its traceback, whatever its level or logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@contextmanager
def every_logger_at_debug() -> Iterator[LogSink]:
    """Every logger at DEBUG and one handler on the root that keeps every record."""
    sink = LogSink()
    root = logging.getLogger()
    loggers = [root, *(logging.getLogger(name) for name in list(logging.root.manager.loggerDict))]
    for name in ("aiokafka", "asyncio", "kafka_config_admin"):
        loggers.append(logging.getLogger(name))
    levels = {logger: logger.level for logger in loggers}
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
    root.addHandler(sink)
    try:
        yield sink
    finally:
        root.removeHandler(sink)
        for logger, level in levels.items():
            logger.setLevel(level)


def seen(value: Any) -> str:
    """What a user may see of a value: its repr and str, and an exception's traceback."""
    parts = [repr(value), str(value)]
    if isinstance(value, BaseException):
        parts.append("".join(traceback.format_exception(value)))
    return "\n".join(parts)


def pem_body_lines(path: Path) -> list[str]:
    """The base64 lines of a PEM file's private key: each a secret of its own."""
    lines = path.read_text().splitlines()
    inside, body = False, []
    for line in lines:
        if "PRIVATE KEY-----" in line:
            inside = line.startswith("-----BEGIN")
            continue
        if inside and len(line) >= 16:
            body.append(line)
    return body


@dataclass
class Capture:
    """What the capture tried and everything it saw."""

    secrets: dict[str, list[str]] = field(default_factory=dict)
    shown: list[str] = field(default_factory=list)
    cli_output: list[str] = field(default_factory=list)
    log_records: list[str] = field(default_factory=list)
    tried: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)

    def found(self) -> dict[str, list[str]]:
        """Each secret found, with where: log records, reprs and errors, CLI output."""
        places = {
            "log records": "\n".join(self.log_records),
            "reprs and errors": "\n".join(self.shown),
            "CLI output": "\n".join(self.cli_output),
        }
        found: dict[str, list[str]] = {}
        for label, values in self.secrets.items():
            for value in values:
                forms = {value, repr(value.encode())[2:-1], repr(value)[1:-1]}
                where = [place for place, text in places.items() if any(f in text for f in forms)]
                if where:
                    found.setdefault(label, []).extend(where)
        return found


class _Run:
    def __init__(self, cluster: KafkaCluster, work: Path) -> None:
        assert cluster.tls_files is not None and cluster.admin_user is not None
        self.cluster = cluster
        self.tls = cluster.tls_files
        self.work = work
        self.password = cluster.admin_user.password
        self.wrong_password = f"Wr0ng-{secrets.token_hex(6)}"
        self.scram_password = f"Scr4m-{secrets.token_hex(6)}"
        self.sensitive_value = f"S3cret-{secrets.token_hex(6)}"
        self.sensitive_item = f"S3cret-item-{secrets.token_hex(4)}"
        self.good_tokens = _Tokens(3600)
        self.expired_tokens = _Tokens(-60)
        self.capture = Capture()
        self.topic = ConfigResource(ResourceType.TOPIC, "")

    def trusting(self, *, client_certificate: bool = False) -> ssl.SSLContext:
        context = ssl.create_default_context(cafile=self.tls.ca_certificate)
        if client_certificate:
            context.load_cert_chain(
                self.tls.client_certificate,
                self.tls.client_key,
                password=self.tls.client_key_passphrase,
            )
        return context

    # -- the SDK ---------------------------------------------------------------------------
    def attempts(self) -> list[tuple[str, dict[str, Any]]]:
        """(mechanism, AdminClient options) for every way in, right and wrong."""
        cluster = self.cluster
        ssl_port = cluster.tls_bootstrap_servers("SSL")
        sasl_ssl = {
            "bootstrap_servers": cluster.tls_bootstrap_servers("SASL_SSL"),
            "security_protocol": "SASL_SSL",
            "ssl_context": self.trusting(),
        }
        out: list[tuple[str, dict[str, Any]]] = [
            ("SSL", {"bootstrap_servers": ssl_port, "ssl_context": self.trusting()}),
            ("SSL", {"bootstrap_servers": ssl_port}),  # untrusted: the system's CAs
            (
                "SSL",
                {
                    "bootstrap_servers": ssl_port.replace("127.0.0.1", "localhost"),
                    "ssl_context": self.trusting(),
                },
            ),
            (
                "mTLS",
                {
                    "bootstrap_servers": cluster.tls_bootstrap_servers("MTLS"),
                    "ssl_context": self.trusting(client_certificate=True),
                },
            ),
            (
                "mTLS",
                {
                    "bootstrap_servers": cluster.tls_bootstrap_servers("MTLS"),
                    "ssl_context": self.trusting(),
                },
            ),
        ]
        for mechanism in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"):
            for password in (self.password, self.wrong_password):
                login = {
                    "sasl_mechanism": mechanism,
                    "sasl_plain_username": "admin",
                    "sasl_plain_password": password,
                }
                out.append((f"SASL_SSL {mechanism}", {**sasl_ssl, **login}))
                plaintext = {
                    "bootstrap_servers": cluster.sasl_bootstrap_servers,
                    "security_protocol": "SASL_PLAINTEXT",
                }
                out.append((f"SASL_PLAINTEXT {mechanism}", {**plaintext, **login}))
        for password in (self.scram_password, self.wrong_password):
            login = {
                "sasl_mechanism": "SCRAM-SHA-512",
                "sasl_plain_username": SCRAM_USER,
                "sasl_plain_password": password,
            }
            out.append(("SASL_SSL SCRAM-SHA-512 (password set by the SDK)", {**sasl_ssl, **login}))
        for tokens in (self.good_tokens, self.expired_tokens):
            oauth = {"sasl_mechanism": "OAUTHBEARER", "sasl_oauth_token_provider": tokens}
            out.append(("SASL_SSL OAUTHBEARER", {**sasl_ssl, **oauth}))
        return out

    async def sdk(self) -> None:
        async with AdminClient(self.cluster.bootstrap_servers) as plain:
            name = await new_topic(plain, self.cluster.bootstrap_servers)
            self.topic = ConfigResource(ResourceType.TOPIC, name)
            upsert = UserScramCredentialUpsertion(SCRAM_USER, "SCRAM-SHA-512", self.scram_password)
            self.capture.shown.append(seen(upsert))
            await plain.alter_user_scram_credentials([upsert]).all()
        for mechanism, options in self.attempts():
            options.setdefault("security_protocol", "SSL")
            self.capture.tried[mechanism] += 1
            client = AdminClient(timeout=20, **options)
            self.capture.shown.append(seen(client))
            opened = False
            try:
                async with client as admin:
                    opened = True
                    await self.use(admin)
            except KafkaConfigAdminError as error:  # refused, or (without ACLs) not allowed
                self.capture.refused[mechanism] += not opened
                self.capture.shown.append(seen(error))
        await self.same_credentials_come_and_go()

    async def same_credentials_come_and_go(self) -> None:
        """Two clients with the same credentials: the first closed and collected, then the
        second opens its connections (the order in which a former log filter let the
        password through)."""
        mechanism = "SASL_PLAINTEXT PLAIN (same credentials, the first client collected)"
        assert self.cluster.sasl_bootstrap_servers is not None
        brokers = [ConfigResource(ResourceType.BROKER, str(n)) for n in self.cluster.broker_ids]
        for wanted in (brokers[:1], brokers):
            self.capture.tried[mechanism] += 1
            client = AdminClient(
                self.cluster.sasl_bootstrap_servers,
                security_protocol="SASL_PLAINTEXT",
                sasl_plain_username="admin",
                sasl_plain_password=self.password,
                timeout=20,
            )
            async with client as admin:
                self.capture.shown.append(seen(await admin.describe_configs(wanted).all()))
            del client, admin
            gc.collect()

    async def use(self, admin: AdminClient) -> None:
        """Describe the topic and make sensitive SETs the broker rejects, echoing the value."""
        self.capture.shown.append(seen(admin))
        described = admin.describe_configs([self.topic], include_synonyms=True)
        config = await described.values[self.topic]
        self.capture.shown.append(seen(config) + "".join(seen(e) for e in config.values()))
        attempts = [
            [
                AlterConfigOp("retention.ms", self.sensitive_value, sensitive=True),
                AlterConfigOp("ssl.key.password", self.sensitive_value),  # sensitive by name
            ],
            [AlterConfigOp("cleanup.policy", ["delete", self.sensitive_item], sensitive=True)],
            [AlterConfigOp("cleanup.policy", self.sensitive_item, OpType.APPEND, sensitive=True)],
        ]
        for ops in attempts:
            self.capture.shown.append("".join(seen(op) for op in ops))
            result = admin.incremental_alter_configs({self.topic: ops})
            try:
                await result.all()
            except KafkaConfigAdminError as error:
                self.capture.shown.append(seen(error))
            self.capture.shown.append(seen(result))

    # -- the command line ------------------------------------------------------------------
    def file(self, name: str, text: str) -> str:
        path = self.work / name
        path.write_text(text)
        return str(path)

    def cli_runs(self) -> list[tuple[str, list[str], dict[str, str]]]:
        """(mechanism, arguments, environment) of each command line run."""
        cluster, tls = self.cluster, self.tls
        trust = f"ssl.truststore.type=PEM\nssl.truststore.location={tls.ca_certificate}\n"
        describe = ["describe", f"topic:{self.topic.name}", "--all", "--timeout", "20"]

        def scram(password: str) -> str:
            return self.file(
                f"scram-{password}.properties",
                "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\n"
                f'sasl.jaas.config={SCRAM_MODULE} required username="admin" '
                f'password="{password}";\n' + trust,
            )

        def mtls(passphrase: str) -> str:
            return self.file(
                f"mtls-{passphrase}.properties",
                "security.protocol=SSL\n" + trust + "ssl.keystore.type=PEM\n"
                f"ssl.keystore.location={tls.client_keystore}\nssl.key.password={passphrase}\n",
            )

        plain = self.file(
            "plain.properties",
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
            f'sasl.jaas.config={PLAIN_MODULE} required username="admin" '
            f'password="{self.password}";\n',
        )
        clusters = self.file(
            "clusters.yaml",
            "clusters:\n  cloud:\n"
            f"    bootstrap_servers: {cluster.tls_bootstrap_servers('SASL_SSL')}\n"
            "    security_protocol: SASL_SSL\n    sasl_mechanism: OAUTHBEARER\n"
            f"    oauth_token_env: CAPTURE_TOKEN\n    ssl_ca_location: {tls.ca_certificate}\n",
        )
        sasl_ssl = ["-b", cluster.tls_bootstrap_servers("SASL_SSL")]
        mtls_port = ["-b", cluster.tls_bootstrap_servers("MTLS")]
        sensitive_set = [
            "alter",
            f"topic:{self.topic.name}",
            "--set",
            f"ssl.key.password={self.sensitive_value}",
            "--yes",
        ]
        good, expired = unsecured_jwt("admin"), unsecured_jwt("admin", lifetime=-60)
        self.capture.secrets["OAUTHBEARER token"] += [good, expired]
        oauth = ["--clusters-file", clusters, "--cluster", "cloud"]
        sasl_plaintext = ["-b", str(cluster.sasl_bootstrap_servers), "--command-config", plain]
        right, wrong = scram(self.password), scram(self.wrong_password)
        key, wrong_key = mtls(tls.client_key_passphrase), mtls(self.wrong_password)
        return [
            ("CLI SASL_SSL SCRAM", [*describe, *sasl_ssl, "--command-config", right], {}),
            ("CLI SASL_SSL SCRAM", [*describe, *sasl_ssl, "--command-config", wrong], {}),
            ("CLI SASL_SSL SCRAM", [*sensitive_set, *sasl_ssl, "--command-config", right], {}),
            ("CLI mTLS", [*describe, *mtls_port, "--command-config", key], {}),
            ("CLI mTLS", [*describe, *mtls_port, "--command-config", wrong_key], {}),
            ("CLI SASL_PLAINTEXT PLAIN", [*describe, *sasl_plaintext], {}),
            ("CLI SASL_SSL OAUTHBEARER", [*describe, *oauth], {"CAPTURE_TOKEN": good}),
            ("CLI SASL_SSL OAUTHBEARER", [*describe, *oauth], {"CAPTURE_TOKEN": expired}),
        ]

    def cli(self) -> None:
        # The command line with the root logger at DEBUG on its stderr.
        program = (
            "import logging, sys\n"
            "logging.basicConfig(level=logging.DEBUG)\n"
            "from kafka_config_admin.cli import main\n"
            "main(sys.argv[1:])\n"
        )
        for mechanism, args, env in self.cli_runs():
            self.capture.tried[mechanism] += 1
            done = subprocess.run(
                [sys.executable, "-c", program, *args],
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
                timeout=120,
                env={**os.environ, **env},
                check=False,
            )
            if done.returncode != 0:
                self.capture.refused[mechanism] += 1
            self.capture.cli_output += [*done.stdout.splitlines(), *done.stderr.splitlines()]

    def collect_secrets(self) -> None:
        secret = self.capture.secrets
        secret["SASL password (PLAIN and SCRAM)"] = [self.password]
        secret["wrong password"] = [self.wrong_password]
        secret["SCRAM password set through the SDK"] = [self.scram_password]
        secret["client key passphrase"] = [self.tls.client_key_passphrase]
        secret["client private key (PEM body)"] = pem_body_lines(self.tls.client_key)
        secret["broker private key (PEM body)"] = pem_body_lines(self.tls.broker_keystore)
        secret["sensitive SET value"] = [self.sensitive_value, self.sensitive_item]
        secret["OAUTHBEARER token"] = secret.get("OAUTHBEARER token", [])


async def capture_secrets(cluster: KafkaCluster, work: Path) -> Capture:
    """Run the capture on a cluster started with ``sasl=True, tls=True``."""
    run = _Run(cluster, work)
    run.collect_secrets()
    with every_logger_at_debug() as sink:
        await run.sdk()
        run.cli()
    run.capture.secrets["OAUTHBEARER token"] += [
        *run.good_tokens.given,
        *run.expired_tokens.given,
    ]
    run.capture.log_records = sink.lines
    return run.capture


def figures(capture: Capture) -> list[dict[str, str]]:
    """The headline numbers of the reliability page."""
    found = capture.found()
    values = [value for values in capture.secrets.values() for value in values]
    return [
        {"label": "connections tried", "value": str(sum(capture.tried.values()))},
        {"label": "of which failed on purpose (wrong credentials or certificates, a refused SET)",
         "value": str(sum(capture.refused.values()))},
        {"label": "log records searched (every logger at DEBUG)",
         "value": str(len(capture.log_records))},
        {"label": "reprs, messages and tracebacks searched", "value": str(len(capture.shown))},
        {"label": "CLI output lines searched", "value": str(len(capture.cli_output))},
        {"label": "secrets searched for", "value": f"{len(values)} ({len(capture.secrets)} kinds)"},
        {"label": "secrets found", "value": str(sum(len(v) for v in found.values()))},
    ]  # fmt: skip


def rows(capture: Capture) -> list[dict[str, Any]]:
    return [
        {"mechanism": name, "connections": count, "failed on purpose": capture.refused[name]}
        for name, count in sorted(capture.tried.items())
    ]


def main() -> int:
    """Start a TLS cluster, run the capture, write the reliability figures."""
    import datetime
    import json
    import tempfile

    import anyio

    from kafka_config_admin.testing import start_cluster

    root = Path(__file__).resolve().parents[2]
    out = root / "benchmarks" / "results" / "reliability" / "secrets.json"
    with (
        start_cluster(brokers=1, sasl=True, tls=True) as cluster,
        tempfile.TemporaryDirectory() as work,
    ):
        capture = anyio.run(capture_secrets, cluster, Path(work))
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
    ).stdout.strip()
    document: Mapping[str, Any] = {
        "title": "Secrets",
        "command": "python3 -m nox -s secrets",
        "recorded": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit,
        "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}",
        "figures": figures(capture),
        "rows": rows(capture),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    found = capture.found()
    print(f"wrote {out.relative_to(root)}; secrets found: {found or 0}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
