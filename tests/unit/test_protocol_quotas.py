"""DescribeClientQuotas (key 48) and AlterClientQuotas (key 49) v0-v1: byte-exact bodies."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import ProtocolError
from kafka_config_admin._protocol import ALTER_CLIENT_QUOTAS, DESCRIBE_CLIENT_QUOTAS, ApiCodec

from .test_protocol_support import array, boolean, f64, i8, i16, i32, string, tags

VERSIONS = range(2)


def entity(pairs: list[tuple[str, str | None]], flex: bool) -> bytes:
    return array([string(t, flex) + string(n, flex) + tags(flex) for t, n in pairs], flex)


def describe_request(version: int) -> tuple[dict[str, Any], bytes]:
    flex = version >= 1
    body = {
        "components": [
            {"entity_type": "user", "match_type": 0, "match": "alice"},
            {"entity_type": "client-id", "match_type": 1, "match": None},
            {"entity_type": "ip", "match_type": 2, "match": None},
        ],
        "strict": True,
    }
    components = [
        string("user", flex) + i8(0) + string("alice", flex) + tags(flex),
        string("client-id", flex) + i8(1) + string(None, flex) + tags(flex),
        string("ip", flex) + i8(2) + string(None, flex) + tags(flex),
    ]
    return body, array(components, flex) + boolean(True) + tags(flex)


def describe_response(version: int) -> tuple[dict[str, Any], bytes]:
    """Two entities: a user with a client-id, and the default user; values are float64."""
    flex = version >= 1
    body = {
        "throttle_time_ms": 3,
        "error_code": 0,
        "error_message": None,
        "entries": [
            {
                "entity": [
                    {"entity_type": "user", "entity_name": "alice"},
                    {"entity_type": "client-id", "entity_name": "app"},
                ],
                "values": [
                    {"key": "producer_byte_rate", "value": 1048576.0},
                    {"key": "request_percentage", "value": 12.5},
                ],
            },
            {
                "entity": [{"entity_type": "user", "entity_name": None}],
                "values": [{"key": "consumer_byte_rate", "value": 2.0}],
            },
        ],
    }
    entries = [
        entity([("user", "alice"), ("client-id", "app")], flex)
        + array(
            [
                string("producer_byte_rate", flex) + f64(1048576.0) + tags(flex),
                string("request_percentage", flex) + f64(12.5) + tags(flex),
            ],
            flex,
        )
        + tags(flex),
        entity([("user", None)], flex)
        + array([string("consumer_byte_rate", flex) + f64(2.0) + tags(flex)], flex)
        + tags(flex),
    ]
    data = i32(3) + i16(0) + string(None, flex) + array(entries, flex) + tags(flex)
    return body, data


def describe_error_response(version: int) -> tuple[dict[str, Any], bytes]:
    """A failed describe: the broker sends null entries with its error."""
    flex = version >= 1
    body = {
        "throttle_time_ms": 0,
        "error_code": 42,
        "error_message": "bad filter",
        "entries": None,
    }
    data = i32(0) + i16(42) + string("bad filter", flex) + array(None, flex) + tags(flex)
    return body, data


def alter_request(version: int) -> tuple[dict[str, Any], bytes]:
    flex = version >= 1
    body = {
        "entries": [
            {
                "entity": [{"entity_type": "user", "entity_name": "alice"}],
                "ops": [
                    {"key": "producer_byte_rate", "value": 1024.0, "remove": False},
                    {"key": "consumer_byte_rate", "value": 0.0, "remove": True},
                ],
            },
            {
                "entity": [{"entity_type": "ip", "entity_name": None}],
                "ops": [{"key": "connection_creation_rate", "value": 0.5, "remove": False}],
            },
        ],
        "validate_only": True,
    }
    entries = [
        entity([("user", "alice")], flex)
        + array(
            [
                string("producer_byte_rate", flex) + f64(1024.0) + boolean(False) + tags(flex),
                string("consumer_byte_rate", flex) + f64(0.0) + boolean(True) + tags(flex),
            ],
            flex,
        )
        + tags(flex),
        entity([("ip", None)], flex)
        + array(
            [string("connection_creation_rate", flex) + f64(0.5) + boolean(False) + tags(flex)],
            flex,
        )
        + tags(flex),
    ]
    return body, array(entries, flex) + boolean(True) + tags(flex)


def alter_response(version: int) -> tuple[dict[str, Any], bytes]:
    flex = version >= 1
    body = {
        "throttle_time_ms": 0,
        "entries": [
            {
                "error_code": 0,
                "error_message": None,
                "entity": [{"entity_type": "user", "entity_name": "alice"}],
            },
            {
                "error_code": 42,
                "error_message": "no",
                "entity": [{"entity_type": "ip", "entity_name": None}],
            },
        ],
    }
    entries = [
        i16(0) + string(None, flex) + entity([("user", "alice")], flex) + tags(flex),
        i16(42) + string("no", flex) + entity([("ip", None)], flex) + tags(flex),
    ]
    return body, i32(0) + array(entries, flex) + tags(flex)


REQUESTS = [(DESCRIBE_CLIENT_QUOTAS, describe_request), (ALTER_CLIENT_QUOTAS, alter_request)]
RESPONSES = [
    (DESCRIBE_CLIENT_QUOTAS, describe_response),
    (DESCRIBE_CLIENT_QUOTAS, describe_error_response),
    (ALTER_CLIENT_QUOTAS, alter_response),
]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("codec", "case"), REQUESTS)
def test_request_bytes(codec: ApiCodec, case: Any, version: int) -> None:
    body, expected = case(version)
    assert codec.encode_request(version, body) == expected
    assert codec.decode_request(version, expected) == body


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("codec", "case"), RESPONSES)
def test_response_bytes(codec: ApiCodec, case: Any, version: int) -> None:
    body, expected = case(version)
    assert codec.decode_response(version, expected) == body
    assert codec.encode_response(version, body) == expected


def test_api_keys_and_versions() -> None:
    for codec, key in ((DESCRIBE_CLIENT_QUOTAS, 48), (ALTER_CLIENT_QUOTAS, 49)):
        assert (codec.api_key, codec.min_version, codec.max_version) == (key, 0, 1)
        assert not codec.is_flexible(0) and codec.is_flexible(1)


def test_quota_values_keep_every_float64_bit() -> None:
    """Quota values are IEEE doubles on the wire: no rounding on the way through."""
    value = 0.1 + 0.2
    body = {"entries": [{"entity": [], "ops": [{"key": "k", "value": value}]}]}
    data = ALTER_CLIENT_QUOTAS.encode_request(1, body)
    assert f64(value) in data
    decoded = ALTER_CLIENT_QUOTAS.decode_request(1, data)
    assert decoded["entries"][0]["ops"][0]["value"] == value


def test_truncated_float64_is_a_protocol_error() -> None:
    _, data = describe_response(1)
    cut = data.index(f64(12.5)) + 4
    with pytest.raises(ProtocolError, match="truncated DescribeClientQuotasResponse v1"):
        DESCRIBE_CLIENT_QUOTAS.decode_response(1, data[:cut])


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("codec", "case"), RESPONSES)
def test_every_truncation_is_a_protocol_error(codec: ApiCodec, case: Any, version: int) -> None:
    _, data = case(version)
    for cut in range(len(data)):
        with pytest.raises(ProtocolError, match=r"truncated|malformed"):
            codec.decode_response(version, data[:cut])
