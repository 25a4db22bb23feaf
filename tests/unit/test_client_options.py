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
    ],
)
def test_bad_options_are_refused(servers: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        AdminClient(servers, **options)


@pytest.mark.parametrize("servers", ["localhost", "[::1]:9092", ["a:1", "b:2"], "a:1, b:2"])
def test_good_servers_are_accepted(servers: str | list[str]) -> None:
    assert "closed" in repr(AdminClient(servers))


def test_a_call_before_opening_is_refused() -> None:
    with pytest.raises(ClientClosedError, match="async with"):
        AdminClient("localhost:9092").describe_configs([ConfigResource("topic", "t")])
