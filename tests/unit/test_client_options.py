"""Client options are checked when the client is made, before any connection."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import AdminClient, ClientClosedError, ConfigResource, InvalidArgumentError


@pytest.mark.parametrize(
    ("servers", "options", "message"),
    [
        ("", {}, "empty"),
        (" , ", {}, "empty"),
        ("localhost:notaport", {}, "not host:port"),
        ("a:1,b:0", {}, "'b:0' is not host:port"),
        ("localhost:9092", {"timeout": -1}, "timeout must be a positive"),
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


@pytest.mark.parametrize("servers", ["localhost", "[::1]:9092", ["a:1", "b:2"], "a:1, b:2"])
def test_good_servers_are_accepted(servers: str | list[str]) -> None:
    assert "closed" in repr(AdminClient(servers))


def test_a_call_before_opening_is_refused() -> None:
    with pytest.raises(ClientClosedError, match="async with"):
        AdminClient("localhost:9092").describe_configs([ConfigResource("topic", "t")])
