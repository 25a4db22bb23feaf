"""AlterConfigs (33) v0-v2 and IncrementalAlterConfigs (44) v0-v1, byte for byte."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin._protocol import ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS, ApiCodec

from .test_protocol_support import array, boolean, i8, i16, i32, string, tagged_section, tags

VERSIONS = [(ALTER_CONFIGS, v) for v in range(3)] + [
    (INCREMENTAL_ALTER_CONFIGS, v) for v in range(2)
]


def alter_request(codec: ApiCodec, version: int) -> tuple[dict[str, Any], bytes]:
    flex = codec.is_flexible(version)
    incremental = codec is INCREMENTAL_ALTER_CONFIGS
    configs = [("retention.ms", 0, "1000"), ("cleanup.policy", 1, None)]
    body = {
        "resources": [
            {
                "resource_type": 2,
                "resource_name": "orders",
                "configs": [
                    {"name": n, "config_operation": op, "value": v}
                    if incremental
                    else {"name": n, "value": v}
                    for n, op, v in configs
                ],
            },
            {"resource_type": 4, "resource_name": "", "configs": []},
        ],
        "validate_only": True,
    }
    entries = [
        string(n, flex) + (i8(op) if incremental else b"") + string(v, flex) + tags(flex)
        for n, op, v in configs
    ]
    resources = [
        i8(2) + string("orders", flex) + array(entries, flex) + tags(flex),
        i8(4) + string("", flex) + array([], flex) + tags(flex),
    ]
    return body, array(resources, flex) + boolean(True) + tags(flex)


def alter_response(codec: ApiCodec, version: int) -> tuple[dict[str, Any], bytes]:
    flex = codec.is_flexible(version)
    body = {
        "throttle_time_ms": 25,
        "responses": [
            {"error_code": 44, "error_message": "no", "resource_type": 2, "resource_name": "t"},
            {"error_code": 0, "error_message": None, "resource_type": 4, "resource_name": ""},
        ],
    }
    items = [
        i16(44) + string("no", flex) + i8(2) + string("t", flex) + tags(flex),
        i16(0) + string(None, flex) + i8(4) + string("", flex) + tags(flex),
    ]
    return body, i32(25) + array(items, flex) + tags(flex)


@pytest.mark.parametrize(("codec", "version"), VERSIONS)
def test_request_bytes(codec: ApiCodec, version: int) -> None:
    body, expected = alter_request(codec, version)
    assert codec.encode_request(version, body) == expected
    assert codec.decode_request(version, expected) == body


@pytest.mark.parametrize(("codec", "version"), VERSIONS)
def test_response_bytes(codec: ApiCodec, version: int) -> None:
    body, expected = alter_response(codec, version)
    assert codec.decode_response(version, expected) == body
    assert codec.encode_response(version, body) == expected


@pytest.mark.parametrize(("codec", "version"), VERSIONS)
def test_round_trips(codec: ApiCodec, version: int) -> None:
    request = codec.encode_request(version, alter_request(codec, version)[0])
    assert codec.encode_request(version, codec.decode_request(version, request)) == request
    response = codec.encode_response(version, alter_response(codec, version)[0])
    assert codec.encode_response(version, codec.decode_response(version, response)) == response


def test_alter_configs_ignores_the_operation_it_has_no_field_for() -> None:
    # The SDK builds one body for both alter APIs; AlterConfigs has no ConfigOperation.
    incremental, _ = alter_request(INCREMENTAL_ALTER_CONFIGS, 0)
    _, expected = alter_request(ALTER_CONFIGS, 0)
    assert ALTER_CONFIGS.encode_request(0, incremental) == expected


def test_unknown_tagged_field_in_a_response_is_skipped() -> None:
    body, _ = alter_response(INCREMENTAL_ALTER_CONFIGS, 1)
    unknown = tagged_section([(7, b"\x00\x01\x02")])
    items = [
        i16(44) + string("no", True) + i8(2) + string("t", True) + unknown,
        i16(0) + string(None, True) + i8(4) + string("", True) + tags(True),
    ]
    data = i32(25) + array(items, True) + unknown
    assert INCREMENTAL_ALTER_CONFIGS.decode_response(1, data) == body


def test_codec_metadata() -> None:
    assert (ALTER_CONFIGS.name, ALTER_CONFIGS.api_key) == ("AlterConfigs", 33)
    assert (ALTER_CONFIGS.min_version, ALTER_CONFIGS.max_version) == (0, 2)
    assert [ALTER_CONFIGS.is_flexible(v) for v in range(3)] == [False, False, True]
    incremental = INCREMENTAL_ALTER_CONFIGS
    assert (incremental.name, incremental.api_key) == ("IncrementalAlterConfigs", 44)
    assert (incremental.min_version, incremental.max_version) == (0, 1)
    assert [incremental.is_flexible(v) for v in range(2)] == [False, True]
