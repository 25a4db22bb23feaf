"""Secrets stay out of reprs, validation errors, broker messages and log records."""

from __future__ import annotations

import logging

import pytest
from pydantic import ValidationError

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigEntry,
    ConfigResource,
    ConfigType,
    OpType,
    ResourceType,
)
from kafka_config_admin._models.configs import ConfigSource, ConfigSynonym, is_sensitive_name
from kafka_config_admin._ops.configs import IncrementalAlterConfigs

SECRET = "s3cr3t-Ünïcode-pw"
TOPIC = ConfigResource(ResourceType.TOPIC, "t")


@pytest.mark.parametrize(
    "name",
    [
        "ssl.key.password",
        "ssl.keystore.key",
        "ssl.keystore.password",
        "ssl.truststore.certificates",
        "sasl.jaas.config",
        "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config",
        "sasl.oauthbearer.assertion.private.key.passphrase",
        "sasl.oauthbearer.client.credentials.client.secret",
        "delegation.token.secret.key",
        "password.encoder.secret",
    ],
)
def test_secret_looking_names_are_sensitive(name: str) -> None:
    assert is_sensitive_name(name)
    op = AlterConfigOp(name, SECRET)
    assert op.sensitive
    assert SECRET not in repr(op) and SECRET not in str(op)


@pytest.mark.parametrize(
    "name", ["retention.ms", "cleanup.policy", "ssl.keystore.type", "ssl.keymanager.algorithm"]
)
def test_ordinary_names_are_not(name: str) -> None:
    assert not is_sensitive_name(name)


@pytest.mark.parametrize("value", [{"nested": SECRET}, {SECRET}, b"\xff" + SECRET.encode(), 1j])
def test_validation_errors_never_quote_the_rejected_value(value: object) -> None:
    with pytest.raises(ValidationError) as caught:
        AlterConfigOp("ssl.key.password", value)
    assert SECRET not in str(caught.value) and SECRET not in repr(caught.value)


def test_entries_the_broker_marks_sensitive_or_typed_password_hide_their_value() -> None:
    for entry in (
        ConfigEntry(name="custom", value=SECRET, is_sensitive=True),
        ConfigEntry(name="custom", value=SECRET, type=ConfigType.PASSWORD),
        ConfigEntry(name="ssl.key.password", value=SECRET),
        ConfigSynonym(name="ssl.key.password", value=SECRET, source=ConfigSource.UNKNOWN),
    ):
        assert SECRET not in repr(entry) and SECRET not in str(entry)
    assert "plain" in repr(ConfigEntry(name="custom", value="plain"))


def test_broker_messages_echoing_a_list_item_are_redacted() -> None:
    ops = [AlterConfigOp("custom.list", ["first-secret", SECRET], OpType.APPEND, sensitive=True)]
    alter = IncrementalAlterConfigs.build({TOPIC: ops}, validate_only=False)
    for message in (
        f"Invalid value {SECRET} for configuration custom.list",
        f"Invalid value first-secret,{SECRET} for configuration custom.list",
        f"Invalid value first-secret for configuration custom.list: {SECRET} is bad",
    ):
        redacted = alter.redact(TOPIC, message)
        assert redacted is not None
        assert SECRET not in redacted and "first-secret" not in redacted, redacted
        assert "custom.list" in redacted


class SaslAuthenticateRequest_v1:  # named as aiokafka names its request classes
    def __init__(self, auth_bytes: bytes) -> None:
        self.auth_bytes = auth_bytes

    def __repr__(self) -> str:
        return f"SaslAuthenticateRequest_v1(auth_bytes={self.auth_bytes!r})"


def test_the_transport_loggers_never_show_a_password(caplog: pytest.LogCaptureFixture) -> None:
    admin = AdminClient(
        "localhost:9092",
        security_protocol="SASL_PLAINTEXT",
        sasl_plain_username="admin",
        sasl_plain_password=SECRET,
    )
    conn_log = logging.getLogger("aiokafka.conn")
    caplog.set_level(logging.DEBUG, logger="kafka_config_admin")
    with caplog.at_level(logging.DEBUG, logger="aiokafka"):
        token = b"\x00admin\x00" + SECRET.encode()
        conn_log.debug("Request to %s:%d %d: %s", "h", 1, 2, SaslAuthenticateRequest_v1(token))
        conn_log.debug("sent %r", token)
        conn_log.warning("password is %s", SECRET)
        logging.getLogger("aiokafka").error("f-string formatted %s", f"pw={SECRET}")
        logging.getLogger("kafka_config_admin").debug("ours: %s", SECRET)
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert len(caplog.records) == 5
    escaped = repr(SECRET.encode())[2:-1]
    assert SECRET not in text and escaped not in text, text
    assert "SaslAuthenticateRequest_v1 [hidden]" in text
    assert SECRET not in repr(admin)
    del admin
