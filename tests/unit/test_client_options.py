"""Client options are checked when the client is made, before any connection."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import AdminClient, ClientClosedError, ConfigResource, InvalidArgumentError
from kafka_config_admin.toolkit import check_seconds


@pytest.mark.parametrize(
    ("servers", "options", "message"),
    [
        ("", {}, "empty"),
        (" , ", {}, "empty"),
        ("localhost:notaport", {}, "not host:port"),
        ("a:1,b:0", {}, "'b:0' is not host:port"),
        ("localhost:9092", {"timeout": -1}, "timeout must be a positive"),
        ("localhost:9092", {"timeout": float("inf")}, "timeout must be a positive number"),
        ("localhost:9092", {"retry_backoff_max": float("nan")}, "retry_backoff_max must be a"),
        ("localhost:9092", {"request_timeout": "5"}, "request_timeout must be a positive"),
        ("localhost:9092", {"retry_backoff": True}, "retry_backoff must be a positive"),
        ("localhost:9092", {"describe_batch_size": 0}, "describe_batch_size must be a pos"),
        ("localhost:9092", {"describe_batch_size": 2.5}, "describe_batch_size must be a pos"),
        (12345, {}, "bootstrap_servers must be 'host:port'"),
        ([b"a:1"], {}, "bootstrap_servers must be 'host:port'"),
        ("localhost:²", {}, "is not host:port"),
        ("local host:9092", {}, "is not host:port"),
        ("localhost:9092", {"client_id": "c" * 40_000}, "40000 bytes long; Kafka strings hold"),
        ("localhost:9092", {"client_id": 7}, "client_id must be a str"),
        ("localhost:9092", {"client_id": "\ud800"}, "client_id .* cannot be encoded as UTF-8"),
        ("localhost:9092", {"sasl_mechanism": "GSSAPI"}, "'GSSAPI' is not supported"),
        ("localhost:9092", {"security_protocol": "TLS"}, "'TLS' is not supported"),
        (
            "localhost:9092",
            {"security_protocol": "SASL_PLAINTEXT", "sasl_plain_username": "u"},
            "sasl_plain_password must be a non-empty str with SASL_PLAINTEXT, got NoneType",
        ),
        (
            "localhost:9092",
            {"security_protocol": "SASL_SSL", "sasl_plain_username": "u", "sasl_plain_password": 1},
            "sasl_plain_password must be a non-empty str with SASL_SSL, got int",
        ),
    ],
)
def test_bad_options_are_refused(servers: Any, options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        AdminClient(servers, **options)


@pytest.mark.parametrize(
    ("server", "why"),
    [
        ("a" * 64 + ".example.com:9092", "the label 'aaaaaaaaaaaaaaaaaaaa'... (64 characters) of "),
        ("kafka..example.com:9092", "an empty label"),
        (".kafka:9092", "an empty label"),
        (":9092", "the host is empty"),
        ("kafka:notaport", "the port 'notaport' is not a number 1-65535"),
        ("kafka:0", "the port '0' is not a number 1-65535"),
        ("kafka:65536", "the port '65536' is not a number 1-65535"),
        ("[zz::q]:9092", "'[zz::q]' is not an IPv6 address"),
        ("h" * 5_000_000 + ":1", "(5000002 characters) is not host:port: the label"),
    ],
)
def test_host_names_are_checked_as_the_resolver_will(server: str, why: str) -> None:
    """What Python's IDNA codec and the socket would refuse, said short, before connecting."""
    with pytest.raises(InvalidArgumentError) as refused:
        AdminClient(server)
    assert why in str(refused.value)
    assert len(str(refused.value)) < 300


@pytest.mark.parametrize(
    "servers",
    [
        "localhost",
        "[::1]:9092",
        ["a:1", "b:2"],
        "a:1, b:2",
        "kafka.:9092",
        "a" * 63 + ".b:1",
        "::1",
    ],
)
def test_good_servers_are_accepted(servers: str | list[str]) -> None:
    assert "closed" in repr(AdminClient(servers))


def test_a_call_before_opening_is_refused() -> None:
    with pytest.raises(ClientClosedError, match="async with"):
        AdminClient("localhost:9092").describe_configs([ConfigResource("topic", "t")])


@pytest.mark.parametrize(
    ("text", "seconds"), [("2.5", 2.5), ("1", 1.0), ("0", None), ("inf", None), ("soon", None)]
)
def test_one_rule_for_durations_the_faces_read_as_text(text: str, seconds: float | None) -> None:
    """check_seconds: the client's timeouts, a clusters file's timeout, the feed's interval."""
    from kafka_config_admin.connect import connections_from_options

    options = {"bootstrap.servers": "k:9092", "timeout": text}
    if seconds is None:
        with pytest.raises(
            InvalidArgumentError,
            match=f"timeout must be a positive number of seconds, got {text!r}",
        ):
            connections_from_options(options)
        with pytest.raises(InvalidArgumentError, match="interval must be a positive number"):
            check_seconds("interval", text, text=True)
    else:
        assert connections_from_options(options)[0].timeout == seconds
        assert check_seconds("interval", text, text=True) == seconds
    with pytest.raises(InvalidArgumentError):
        check_seconds("timeout", text)  # the SDK's own options take numbers, not text
