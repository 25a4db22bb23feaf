"""Byte-exact codec tests for every version of the three config APIs.

Expected bytes are built here by hand with struct.pack and explicit varints, independently of
the codec under test.
"""

from __future__ import annotations

import struct
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_config_admin import ProtocolError, UnsupportedVersionError
from kafka_config_admin._protocol import (
    ALTER_CONFIGS,
    DESCRIBE_CONFIGS,
    INCREMENTAL_ALTER_CONFIGS,
    ApiCodec,
    decode_response_header,
    encode_request_header,
)

# --- hand encoders for the expected bytes ----------------------------------------------------


def i8(v: int) -> bytes:
    return struct.pack(">b", v)


def i16(v: int) -> bytes:
    return struct.pack(">h", v)


def i32(v: int) -> bytes:
    return struct.pack(">i", v)


def uvarint(v: int) -> bytes:
    out = b""
    while v > 0x7F:
        out += bytes([(v & 0x7F) | 0x80])
        v >>= 7
    return out + bytes([v])


def string(s: str | None, flexible: bool) -> bytes:
    if s is None:
        return uvarint(0) if flexible else i16(-1)
    data = s.encode()
    return (uvarint(len(data) + 1) if flexible else i16(len(data))) + data


def array(items: list[bytes] | None, flexible: bool) -> bytes:
    if items is None:
        return uvarint(0) if flexible else i32(-1)
    return (uvarint(len(items) + 1) if flexible else i32(len(items))) + b"".join(items)


def tags(flexible: bool) -> bytes:
    return b"\x00" if flexible else b""


def boolean(v: bool) -> bytes:
    return b"\x01" if v else b"\x00"


# --- DescribeConfigs ---------------------------------------------------------------------------


def describe_request(version: int) -> tuple[dict[str, Any], bytes]:
    flex = version >= 4
    body = {
        "resources": [
            {"resource_type": 2, "resource_name": "orders", "configuration_keys": None},
            {"resource_type": 4, "resource_name": "1", "configuration_keys": ["a", "bé"]},
            {"resource_type": 2, "resource_name": "x", "configuration_keys": []},
        ],
        "include_synonyms": version >= 1,
        "include_documentation": version >= 3,
    }
    resources = [
        i8(2) + string("orders", flex) + array(None, flex) + tags(flex),
        i8(4)
        + string("1", flex)
        + array([string("a", flex), string("bé", flex)], flex)
        + tags(flex),
        i8(2) + string("x", flex) + array([], flex) + tags(flex),
    ]
    data = array(resources, flex)
    if version >= 1:
        data += boolean(True)
    if version >= 3:
        data += boolean(True)
    return body, data + tags(flex)


def describe_response(version: int) -> tuple[dict[str, Any], bytes]:
    flex = version >= 4
    entry: dict[str, Any] = {
        "name": "retention.ms",
        "value": "1000",
        "read_only": False,
        "is_default": False,
        "config_source": 1 if version >= 1 else -1,
        "is_sensitive": False,
        "synonyms": [{"name": "log.retention.ms", "value": None, "source": 5}]
        if version >= 1
        else [],
        "config_type": 5 if version >= 3 else 0,
        "documentation": "How long." if version >= 3 else None,
    }
    secret: dict[str, Any] = {
        "name": "ssl.key.password",
        "value": None,
        "read_only": True,
        "is_default": version == 0,
        "config_source": 5 if version >= 1 else -1,
        "is_sensitive": True,
        "synonyms": [],
        "config_type": 9 if version >= 3 else 0,
        "documentation": None,
    }
    body = {
        "throttle_time_ms": 7,
        "results": [
            {
                "error_code": 0,
                "error_message": None,
                "resource_type": 2,
                "resource_name": "orders",
                "configs": [entry, secret],
            },
            {
                "error_code": 3,
                "error_message": "gone",
                "resource_type": 2,
                "resource_name": "nope",
                "configs": [],
            },
        ],
    }

    def config(e: dict[str, Any]) -> bytes:
        out = string(e["name"], flex) + string(e["value"], flex) + boolean(e["read_only"])
        if version == 0:
            out += boolean(e["is_default"])
        else:
            out += i8(e["config_source"])
        out += boolean(e["is_sensitive"])
        if version >= 1:
            out += array(
                [
                    string(s["name"], flex)
                    + string(s["value"], flex)
                    + i8(s["source"])
                    + tags(flex)
                    for s in e["synonyms"]
                ],
                flex,
            )
        if version >= 3:
            out += i8(e["config_type"]) + string(e["documentation"], flex)
        return out + tags(flex)

    results = [
        i16(0) + string(None, flex) + i8(2) + string("orders", flex)
        + array([config(entry), config(secret)], flex) + tags(flex),
        i16(3) + string("gone", flex) + i8(2) + string("nope", flex) + array([], flex) + tags(flex),
    ]  # fmt: skip
    return body, i32(7) + array(results, flex) + tags(flex)


@pytest.mark.parametrize("version", range(5))
def test_describe_request_bytes(version: int) -> None:
    body, expected = describe_request(version)
    assert DESCRIBE_CONFIGS.encode_request(version, body) == expected
    assert DESCRIBE_CONFIGS.decode_request(version, expected) == body


@pytest.mark.parametrize("version", range(5))
def test_describe_response_bytes(version: int) -> None:
    body, expected = describe_response(version)
    assert DESCRIBE_CONFIGS.decode_response(version, expected) == body
    assert DESCRIBE_CONFIGS.encode_response(version, body) == expected


@pytest.mark.parametrize(
    ("version", "field"), [(0, "include_synonyms"), (2, "include_documentation")]
)
def test_non_ignorable_fields_cannot_be_sent_too_early(version: int, field: str) -> None:
    body = {"resources": [], "include_synonyms": False, "include_documentation": False, field: True}
    with pytest.raises(UnsupportedVersionError, match=field):
        DESCRIBE_CONFIGS.encode_request(version, body)


def test_unknown_tagged_fields_are_skipped() -> None:
    _, data = describe_response(4)
    # Give the top-level struct two unknown tagged fields instead of none.
    tagged = data[:-1] + uvarint(2) + uvarint(5) + uvarint(3) + b"abc" + uvarint(300) + uvarint(0)
    body, _ = describe_response(4)
    assert DESCRIBE_CONFIGS.decode_response(4, tagged) == body


def test_long_compact_strings_use_multi_byte_varints() -> None:
    long_value = "x" * 300
    body = {
        "resources": [
            {"resource_type": 2, "resource_name": long_value, "configuration_keys": None}
        ],
        "include_synonyms": True,
        "include_documentation": False,
    }
    data = DESCRIBE_CONFIGS.encode_request(4, body)
    assert data[:4] == uvarint(2) + i8(2) + uvarint(301)
    assert DESCRIBE_CONFIGS.decode_request(4, data) == body


@pytest.mark.parametrize("cut", [1, 10, 50, -1])
def test_truncated_input_is_a_protocol_error(cut: int) -> None:
    _, data = describe_response(4)
    with pytest.raises(ProtocolError, match="DescribeConfigsResponse"):
        DESCRIBE_CONFIGS.decode_response(4, data[:cut])


def test_null_where_not_nullable_is_a_protocol_error() -> None:
    data = i32(0) + array([i16(0) + string(None, False) + i8(2) + string(None, False)], False)
    with pytest.raises(ProtocolError, match="resource_name"):
        DESCRIBE_CONFIGS.decode_response(1, data)


def test_unsupported_version_is_refused() -> None:
    with pytest.raises(UnsupportedVersionError, match="v5"):
        DESCRIBE_CONFIGS.encode_request(5, {"resources": []})
    with pytest.raises(UnsupportedVersionError):
        ALTER_CONFIGS.decode_response(3, b"")


# --- AlterConfigs and IncrementalAlterConfigs ------------------------------------------------


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
            }
        ],
        "validate_only": True,
    }
    entries = [
        string(n, flex) + (i8(op) if incremental else b"") + string(v, flex) + tags(flex)
        for n, op, v in configs
    ]
    resource = i8(2) + string("orders", flex) + array(entries, flex) + tags(flex)
    return body, array([resource], flex) + boolean(True) + tags(flex)


def alter_response(codec: ApiCodec, version: int) -> tuple[dict[str, Any], bytes]:
    flex = codec.is_flexible(version)
    body = {
        "throttle_time_ms": 0,
        "responses": [
            {"error_code": 44, "error_message": "no", "resource_type": 2, "resource_name": "t"},
            {"error_code": 0, "error_message": None, "resource_type": 4, "resource_name": ""},
        ],
    }
    items = [
        i16(44) + string("no", flex) + i8(2) + string("t", flex) + tags(flex),
        i16(0) + string(None, flex) + i8(4) + string("", flex) + tags(flex),
    ]
    return body, i32(0) + array(items, flex) + tags(flex)


ALTER_VERSIONS = [(ALTER_CONFIGS, v) for v in range(3)] + [
    (INCREMENTAL_ALTER_CONFIGS, v) for v in range(2)
]


@pytest.mark.parametrize(("codec", "version"), ALTER_VERSIONS)
def test_alter_request_bytes(codec: ApiCodec, version: int) -> None:
    body, expected = alter_request(codec, version)
    assert codec.encode_request(version, body) == expected
    assert codec.decode_request(version, expected) == body


@pytest.mark.parametrize(("codec", "version"), ALTER_VERSIONS)
def test_alter_response_bytes(codec: ApiCodec, version: int) -> None:
    body, expected = alter_response(codec, version)
    assert codec.decode_response(version, expected) == body
    assert codec.encode_response(version, body) == expected


def test_codec_metadata() -> None:
    assert (
        DESCRIBE_CONFIGS.api_key,
        DESCRIBE_CONFIGS.min_version,
        DESCRIBE_CONFIGS.max_version,
    ) == (
        32,
        0,
        4,
    )
    assert (ALTER_CONFIGS.api_key, ALTER_CONFIGS.max_version) == (33, 2)
    assert (INCREMENTAL_ALTER_CONFIGS.api_key, INCREMENTAL_ALTER_CONFIGS.max_version) == (44, 1)
    assert [DESCRIBE_CONFIGS.is_flexible(v) for v in range(5)] == [False] * 4 + [True]


# --- headers -----------------------------------------------------------------------------------


def test_request_headers() -> None:
    v1 = i16(32) + i16(3) + i32(9) + i16(3) + b"cli"
    assert encode_request_header(32, 3, 9, "cli", flexible=False) == v1
    assert (
        encode_request_header(32, 4, 9, "cli", flexible=True)
        == i16(32) + i16(4) + i32(9) + i16(3) + b"cli" + b"\x00"
    )
    assert encode_request_header(44, 0, 1, None, flexible=False) == i16(44) + i16(0) + i32(1) + i16(
        -1
    )


def test_response_headers() -> None:
    assert decode_response_header(b"xx" + i32(42) + b"body", 2, flexible=False) == (42, 6)
    tagged = i32(42) + uvarint(1) + uvarint(0) + uvarint(2) + b"zz" + b"body"
    assert decode_response_header(tagged, 0, flexible=True) == (42, 9)
    with pytest.raises(ProtocolError, match="ResponseHeader"):
        decode_response_header(b"\x00", 0, flexible=False)


# --- properties --------------------------------------------------------------------------------

names = st.text(max_size=20)
maybe = st.none() | names
synonym = st.fixed_dictionaries({"name": names, "value": maybe, "source": st.integers(-128, 127)})


def config_entry(version: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "name": names,
            "value": maybe,
            "read_only": st.booleans(),
            "is_default": st.booleans() if version == 0 else st.just(False),
            "config_source": st.integers(-128, 127) if version >= 1 else st.just(-1),
            "is_sensitive": st.booleans(),
            "synonyms": st.lists(synonym, max_size=3) if version >= 1 else st.just([]),
            "config_type": st.integers(-128, 127) if version >= 3 else st.just(0),
            "documentation": maybe if version >= 3 else st.just(None),
        }
    )


@st.composite
def describe_responses(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    version = draw(st.integers(0, 4))
    result = st.fixed_dictionaries(
        {
            "error_code": st.integers(-32768, 32767),
            "error_message": maybe,
            "resource_type": st.integers(-128, 127),
            "resource_name": names,
            "configs": st.lists(config_entry(version), max_size=4),
        }
    )
    body = {
        "throttle_time_ms": draw(st.integers(-(2**31), 2**31 - 1)),
        "results": draw(st.lists(result, max_size=4)),
    }
    return version, body


@settings(max_examples=200, deadline=None)
@given(describe_responses())
def test_describe_response_round_trips(case: tuple[int, dict[str, Any]]) -> None:
    version, body = case
    data = DESCRIBE_CONFIGS.encode_response(version, body)
    assert DESCRIBE_CONFIGS.decode_response(version, data) == body
