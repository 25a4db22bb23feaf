"""Secrets stay out of reprs, validation errors, broker messages and log records."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from aiokafka.protocol.admin import SaslAuthenticateRequest, SaslAuthenticateResponse_v1

from kafka_config_admin import (
    HIDDEN,
    AlterConfigOp,
    ConfigEntry,
    ConfigResource,
    ConfigType,
    InvalidArgumentError,
    NewTopic,
    OpType,
    ResourceType,
    is_sensitive,
)
from kafka_config_admin._models.configs import ConfigSource, ConfigSynonym, is_sensitive_name
from kafka_config_admin._net.connections import _Hidden
from kafka_config_admin._ops.configs import IncrementalAlterConfigs
from kafka_config_admin._ops.topics import CreateTopics

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
    with pytest.raises(InvalidArgumentError) as caught:
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


def test_one_rule_the_broker_s_word_where_it_typed_the_key_else_the_name() -> None:
    typed = ConfigEntry(name="delegation.token.expiry.time.ms", value="1", type=ConfigType.LONG)
    level = ConfigEntry(name="org.apache.kafka.common.security.JaasContext", value="INFO")
    assert not is_sensitive(typed.name, typed) and not typed.sensitive
    assert not level.sensitive  # a broker logger's level, whatever the logger's name
    assert is_sensitive("ssl.key.password") and not is_sensitive("retention.ms")
    marked = ConfigEntry(name="custom", value=None, is_sensitive=True, type=ConfigType.STRING)
    assert marked.sensitive
    assert ConfigEntry(name="custom", type=ConfigType.PASSWORD).sensitive
    topic = NewTopic("t", 1, 1, configs={"sasl.jaas.config": SECRET, "retention.ms": "1"})
    assert SECRET not in repr(topic) and f"'sasl.jaas.config': '{HIDDEN}'" in repr(topic)


def test_broker_messages_echoing_a_list_item_are_redacted() -> None:
    ops = [AlterConfigOp("custom.list", ["first-secret", SECRET], OpType.APPEND, sensitive=True)]
    alter = IncrementalAlterConfigs.build({TOPIC: ops}, validate_only=False)
    for message in (
        f"Invalid value {SECRET} for configuration custom.list",
        f"Invalid value first-secret,{SECRET} for configuration custom.list",
        f"Invalid value [first-secret, {SECRET}] for configuration custom.list: not allowed",
        f"Invalid value {SECRET} for configuration custom.list.synonym: not allowed",
        f"The policy refuses first-secret,{SECRET} for custom.list",
    ):
        redacted = alter.redact(TOPIC, message)
        assert redacted is not None
        assert SECRET not in redacted and "first-secret" not in redacted, redacted
        assert "custom.list" in redacted


def redacted(name: str, value: str, message: str) -> str | None:
    ops = [AlterConfigOp(name, value, sensitive=True)]
    return IncrementalAlterConfigs.build({TOPIC: ops}, validate_only=False).redact(TOPIC, message)


@pytest.mark.parametrize(
    ("name", "value", "message", "expected"),
    [
        # A one-character secret hides the value's place, not every letter "a" of the message.
        (
            "retention.ms",
            "a",
            "Invalid value a for configuration retention.ms: Not a number of type LONG",
            "Invalid value [hidden] for configuration retention.ms: Not a number of type LONG",
        ),
        (
            "min.insync.replicas",
            "a",
            "Cannot update these configs dynamically: can be dynamically updated",
            "Cannot update these configs dynamically: can be dynamically updated",
        ),
        # A list item that is an ordinary word stays readable in the broker's explanation.
        (
            "cleanup.policy",
            "compact,bogus",
            "Invalid value bogus for configuration cleanup.policy: "
            "String must be one of: compact, delete",
            "Invalid value [hidden] for configuration cleanup.policy: "
            "String must be one of: compact, delete",
        ),
        # A value holding Kafka's own words is hidden whole.
        (
            "custom",
            "x for configuration custom",
            "Invalid value x for configuration custom for configuration custom: bad",
            "Invalid value [hidden] for configuration custom: bad",
        ),
        # Elsewhere (a policy's words), the value where it stands as a word of its own.
        (
            "custom",
            "compact",
            "policy: compact is not allowed, compaction is",
            "policy: [hidden] is not allowed, compaction is",
        ),
        # A one-character secret in a policy's words: hidden where a value stands, not as
        # every word "a" of the message.
        (
            "custom",
            "a",
            "a value of 'a' is not a good one: custom=a",
            "a value of '[hidden]' is not a good one: custom=[hidden]",
        ),
        ("custom", "a", "a", "[hidden]"),
        ("custom", "ab", 'custom is "ab", a bad value', 'custom is "[hidden]", a bad value'),
        # A value sent with spaces, echoed trimmed by a policy (Java's trim()), and as sent.
        (
            "retention.ms",
            " 1234 ",
            "retention.ms=1234 for topic 't' is below the test policy minimum of 60000 ms",
            "retention.ms=[hidden] for topic 't' is below the test policy minimum of 60000 ms",
        ),
        (
            "retention.ms",
            " 1234 ",
            "Invalid value  1234  for configuration retention.ms: Not a number of type LONG",
            "Invalid value [hidden] for configuration retention.ms: Not a number of type LONG",
        ),
        ("custom", " s3 ", "s3 refused; s3x is fine", "[hidden] refused; s3x is fine"),
    ],
)
def test_secrets_are_hidden_only_where_they_stand(
    name: str, value: str, message: str, expected: str
) -> None:
    assert redacted(name, value, message) == expected


def test_topic_creation_hides_secret_named_configs_and_their_items() -> None:
    topic = NewTopic("t", 1, 1, configs={"ssl.key.password": f"first,{SECRET}", "x": "first"})
    create = CreateTopics.build(
        [topic], validate_only=True, timeout_ms=1000, controller=lambda: None
    )
    message = create.redact("t", f"Invalid value {SECRET} for configuration ssl.key.password")
    assert message == "Invalid value [hidden] for configuration ssl.key.password"
    assert create.redact("t", "first is fine") == "first is fine"  # "x" is not a secret


def test_a_sasl_exchange_prints_hidden_and_sends_the_same_bytes() -> None:
    payload = b"\x00admin\x00" + SECRET.encode()
    versions = {SaslAuthenticateRequest.API_KEY: (0, 1)}
    plain = SaslAuthenticateRequest(payload).prepare(versions)
    hidden = _Hidden(SaslAuthenticateRequest(payload)).prepare(versions)
    assert hidden.encode() == plain.encode()
    assert (
        hidden.build_request_header(7, "c").encode() == plain.build_request_header(7, "c").encode()
    )
    answer = SaslAuthenticateResponse_v1(0, None, b"v=" + SECRET.encode(), 0).encode()
    decoded = hidden.RESPONSE_TYPE.decode(io.BytesIO(answer))
    assert decoded.sasl_auth_bytes == b"v=" + SECRET.encode() and decoded.error_code == 0
    escaped = repr(SECRET.encode())[2:-1]
    for shown in (repr(hidden), str(hidden), repr(decoded), f"{decoded}"):
        assert SECRET not in shown and escaped not in shown and "[hidden]" in shown, shown
    assert "SaslAuthenticateRequest_v1" in repr(hidden)


#: Where the catalog files are, read directly so the test does not trust the loader's listing.
CATALOG_DIR = Path(__file__).parents[2] / "kafka_config_admin" / "_models" / "catalogs"


def _catalog_keys() -> list[tuple[str, str, str, bool]]:
    """Every key of every catalog file: (release, kind, name, typed PASSWORD)."""
    from kafka_config_admin.toolkit import catalog_releases, load_catalog

    return [
        (release, key.resource_type.name, key.name, key.type is ConfigType.PASSWORD)
        for release in catalog_releases()
        for key in load_catalog(release)
    ]


def test_the_name_rule_agrees_with_kafka_on_every_catalog_key() -> None:
    """is_sensitive_name says what the broker's flag says (PASSWORD keys) for every key of
    every catalog file in kafka_config_admin/_models/catalogs/."""
    keys = _catalog_keys()
    files = [p for p in CATALOG_DIR.iterdir() if p.name.endswith(".json")]
    assert len({release for release, *_ in keys}) == len(files) >= 9  # every file read
    assert len(keys) > 1_500
    disagree = [
        (release, kind, name)
        for release, kind, name, password in keys
        if is_sensitive_name(name) != password
    ]
    assert disagree == []


@pytest.mark.parametrize("name", ["super.users", "allow.everyone.if.no.acl.found"])
def test_keys_the_broker_reads_untyped_are_sensitive_as_it_marks_them(name: str) -> None:
    assert is_sensitive_name(name)
    assert AlterConfigOp(name, "User:admin").sensitive
