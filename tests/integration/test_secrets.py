"""No secret anywhere: every logger at DEBUG, SASL with right and wrong passwords, sensitive SETs.

Everything a user or an operator could see is captured: every log record of every logger
(formatted, with its traceback), the reprs and messages of results and errors, and what reached
stdout and stderr. Then each secret is searched for, as text and as the escaped bytes aiokafka
would print: none may be found.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AuthenticationError,
    ConfigResource,
    InvalidConfigError,
    OpType,
    ResourceType,
)
from kafka_config_admin.testing import KafkaCluster

from .helpers import new_topic
from .secrets_capture import LogSink, capture_secrets, every_logger_at_debug, seen

pytestmark = [pytest.mark.integration, pytest.mark.kafka(sasl=True)]

WRONG_PASSWORD = "Wr0ng-Passw0rd-7f3a"
SECRET_VALUE = "S3cret-Value-91bc"
SECRET_ITEM = "S3cret-Item-c0de"
MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")


@pytest.fixture
def every_log_record() -> Iterator[LogSink]:
    """Every logger at DEBUG, every record formatted (with any traceback)."""
    with every_logger_at_debug() as sink:
        yield sink


async def test_no_secret_in_logs_reprs_errors_or_output(
    kafka_cluster: KafkaCluster,
    kafka_bootstrap: str,
    every_log_record: LogSink,
    capfd: pytest.CaptureFixture[str],
) -> None:
    admin_user = kafka_cluster.admin_user
    assert admin_user is not None and kafka_cluster.sasl_bootstrap_servers is not None
    secrets = [admin_user.password, WRONG_PASSWORD, SECRET_VALUE, SECRET_ITEM]
    shown: list[str] = []

    def client(mechanism: str, password: str) -> AdminClient:
        assert kafka_cluster.sasl_bootstrap_servers is not None
        made = AdminClient(
            kafka_cluster.sasl_bootstrap_servers,
            security_protocol="SASL_PLAINTEXT",
            sasl_mechanism=mechanism,  # type: ignore[arg-type]
            sasl_plain_username=admin_user.username,
            sasl_plain_password=password,
            timeout=15,
        )
        shown.append(seen(made))
        return made

    async with AdminClient(kafka_bootstrap) as plain:
        topic = ConfigResource(ResourceType.TOPIC, await new_topic(plain, kafka_bootstrap))
    for mechanism in MECHANISMS:
        with pytest.raises(AuthenticationError) as refused:
            async with client(mechanism, WRONG_PASSWORD):
                pass
        shown.append(seen(refused.value))
        async with client(mechanism, admin_user.password) as admin:
            shown.append(seen(admin))
            config = await admin.describe_configs([topic], include_synonyms=True).values[topic]
            shown.append(seen(config) + "".join(seen(entry) for entry in config.values()))
            ops = [
                # Rejected, and the broker's message echoes the value: it must come back hidden.
                AlterConfigOp("retention.ms", SECRET_VALUE, sensitive=True),
                AlterConfigOp("ssl.key.password", SECRET_VALUE),  # sensitive by its name
            ]
            listed = [AlterConfigOp("cleanup.policy", ["delete", SECRET_ITEM], sensitive=True)]
            appended = [AlterConfigOp("cleanup.policy", SECRET_ITEM, OpType.APPEND, sensitive=True)]
            for attempt in (ops, listed, appended):
                shown.append("".join(seen(op) for op in attempt))
                result = admin.incremental_alter_configs({topic: attempt})
                with pytest.raises(InvalidConfigError) as rejected:
                    await result.all()
                shown.append(seen(rejected.value) + seen(result))
    output = capfd.readouterr()
    everything = "\n".join(["\n".join(every_log_record.lines), output.out, output.err, *shown])
    assert "SaslAuthenticate" in everything  # aiokafka's DEBUG lines were captured
    assert "Invalid value" in everything  # the broker's messages were captured
    for secret in secrets:
        for form in (secret, repr(secret.encode())[2:-1]):
            assert form not in everything, f"{form!r} found"


async def test_no_password_in_logs_when_clients_with_the_same_credentials_come_and_go(
    kafka_cluster: KafkaCluster, every_log_record: LogSink
) -> None:
    """The first client is closed and collected, then the second opens new connections."""
    admin_user = kafka_cluster.admin_user
    assert admin_user is not None and kafka_cluster.sasl_bootstrap_servers is not None
    brokers = [ConfigResource(ResourceType.BROKER, str(node)) for node in kafka_cluster.broker_ids]

    def client() -> AdminClient:
        assert admin_user is not None and kafka_cluster.sasl_bootstrap_servers is not None
        return AdminClient(
            kafka_cluster.sasl_bootstrap_servers,
            security_protocol="SASL_PLAINTEXT",
            sasl_plain_username=admin_user.username,
            sasl_plain_password=admin_user.password,
            timeout=30,
        )

    first = client()
    async with first:
        await first.describe_configs(brokers[:1]).all()
    del first
    gc.collect()
    async with client() as second:
        await second.describe_configs(brokers).all()  # a connection to every broker
    lines = "\n".join(every_log_record.lines)
    # Both clients' exchanges were logged, hidden: the first's one connection or more, the
    # second's one per broker.
    assert lines.count("SaslAuthenticateRequest_v1 [hidden]") >= 1 + len(brokers)
    for form in (admin_user.password, repr(admin_user.password.encode())[2:-1]):
        assert form not in lines


#: Connections refused on purpose, per mechanism: wrong passwords, an expired token, an
#: untrusted certificate and a host name mismatch, no client certificate; on the command line
#: also a sensitive SET of a key topics do not have (refused before sending).
EXPECTED_REFUSALS = {
    "SSL": 2,
    "mTLS": 1,
    **{f"{listener} {m}": 1 for listener in ("SASL_SSL", "SASL_PLAINTEXT") for m in MECHANISMS},
    "SASL_SSL SCRAM-SHA-512 (password set by the SDK)": 1,
    "SASL_SSL OAUTHBEARER": 1,
    "SASL_PLAINTEXT PLAIN (same credentials, the first client collected)": 0,
    "CLI SASL_SSL SCRAM": 2,
    "CLI mTLS": 1,
    "CLI SASL_PLAINTEXT PLAIN": 0,
    "CLI SASL_SSL OAUTHBEARER": 1,
}


async def test_no_secret_over_tls_mtls_sasl_ssl_oauthbearer_or_from_the_cli(
    kafka_tls_cluster: KafkaCluster, tmp_path: Path
) -> None:
    capture = await capture_secrets(kafka_tls_cluster, tmp_path)
    assert capture.found() == {}
    # The capture saw what it had to: each way in, right and wrong, and the exchanges' records.
    assert dict(capture.refused) == {k: v for k, v in EXPECTED_REFUSALS.items() if v}
    assert set(capture.tried) == set(EXPECTED_REFUSALS)
    records = "\n".join(capture.log_records)
    assert "SaslAuthenticate" in records and "Authenticated via OAUTHBEARER" in records
    assert any("refused the OAUTHBEARER token" in line for line in capture.cli_output)
    assert all(capture.secrets.values()) and len(capture.secrets) == 8
