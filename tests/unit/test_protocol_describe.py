"""DescribeConfigs (API key 32) v0-v4: byte-exact requests and responses, defaults, nulls."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import UnsupportedVersionError
from kafka_config_admin._protocol import DESCRIBE_CONFIGS

from .test_protocol_support import (
    array,
    boolean,
    i8,
    i16,
    i32,
    string,
    tagged_section,
    tags,
    uvarint,
)

VERSIONS = range(5)


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
        i8(4) + string("1", flex) + array([string("a", flex), string("bé", flex)], flex)
        + tags(flex),
        i8(2) + string("x", flex) + array([], flex) + tags(flex),
    ]  # fmt: skip
    data = array(resources, flex)
    if version >= 1:
        data += boolean(True)
    if version >= 3:
        data += boolean(True)
    return body, data + tags(flex)


def config_bytes(entry: dict[str, Any], version: int) -> bytes:
    flex = version >= 4
    out = string(entry["name"], flex) + string(entry["value"], flex) + boolean(entry["read_only"])
    out += boolean(entry["is_default"]) if version == 0 else i8(entry["config_source"])
    out += boolean(entry["is_sensitive"])
    if version >= 1:
        synonyms = [
            string(s["name"], flex) + string(s["value"], flex) + i8(s["source"]) + tags(flex)
            for s in entry["synonyms"]
        ]
        out += array(synonyms, flex)
    if version >= 3:
        out += i8(entry["config_type"]) + string(entry["documentation"], flex)
    return out + tags(flex)


def describe_response(version: int) -> tuple[dict[str, Any], bytes]:
    """Two results (one failed) with a plain and a sensitive config; absent fields at defaults."""
    flex = version >= 4
    plain: dict[str, Any] = {
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
                "configs": [plain, secret],
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
    configs = [config_bytes(plain, version), config_bytes(secret, version)]
    results = [
        i16(0) + string(None, flex) + i8(2) + string("orders", flex) + array(configs, flex)
        + tags(flex),
        i16(3) + string("gone", flex) + i8(2) + string("nope", flex) + array([], flex) + tags(flex),
    ]  # fmt: skip
    return body, i32(7) + array(results, flex) + tags(flex)


@pytest.mark.parametrize("version", VERSIONS)
def test_request_bytes(version: int) -> None:
    body, expected = describe_request(version)
    assert DESCRIBE_CONFIGS.encode_request(version, body) == expected
    assert DESCRIBE_CONFIGS.decode_request(version, expected) == body


@pytest.mark.parametrize("version", VERSIONS)
def test_response_bytes(version: int) -> None:
    body, expected = describe_response(version)
    assert DESCRIBE_CONFIGS.decode_response(version, expected) == body
    assert DESCRIBE_CONFIGS.encode_response(version, body) == expected


@pytest.mark.parametrize("version", VERSIONS)
def test_round_trips(version: int) -> None:
    for encode, decode, body in (
        (DESCRIBE_CONFIGS.encode_request, DESCRIBE_CONFIGS.decode_request, describe_request),
        (DESCRIBE_CONFIGS.encode_response, DESCRIBE_CONFIGS.decode_response, describe_response),
    ):
        data = encode(version, body(version)[0])
        assert encode(version, decode(version, data)) == data


def test_null_configuration_keys_differ_from_empty() -> None:
    for version, null, empty in ((0, i32(-1), i32(0)), (4, uvarint(0), uvarint(1))):
        flex = version == 4
        for keys, wire in ((None, null), ([], empty)):
            body = {
                "resources": [
                    {"resource_type": 2, "resource_name": "t", "configuration_keys": keys}
                ]
            }
            data = DESCRIBE_CONFIGS.encode_request(version, body)
            resource = i8(2) + string("t", flex) + wire + tags(flex)
            flags = boolean(False) * 2 if flex else b""  # include_synonyms/_documentation
            assert data == array([resource], flex) + flags + tags(flex)
            decoded = DESCRIBE_CONFIGS.decode_request(version, data)
            assert decoded["resources"][0]["configuration_keys"] == keys


def test_missing_keys_take_defaults() -> None:
    assert DESCRIBE_CONFIGS.encode_request(3, {}) == i32(0) + boolean(False) + boolean(False)
    assert DESCRIBE_CONFIGS.decode_request(0, i32(0)) == {
        "resources": [],
        "include_synonyms": False,
        "include_documentation": False,
    }


def test_v0_response_fills_in_later_fields() -> None:
    data = i32(0) + array(
        [i16(0) + string(None, False) + i8(4) + string("1", False) + array(
            [string("a", False) + string("b", False) + boolean(False) + boolean(True)
             + boolean(False)], False)],
        False,
    )  # fmt: skip
    config = DESCRIBE_CONFIGS.decode_response(0, data)["results"][0]["configs"][0]
    assert config == {
        "name": "a",
        "value": "b",
        "read_only": False,
        "is_default": True,
        "config_source": -1,
        "is_sensitive": False,
        "synonyms": [],
        "config_type": 0,
        "documentation": None,
    }


@pytest.mark.parametrize(
    ("version", "field"), [(0, "include_synonyms"), (2, "include_documentation")]
)
def test_non_ignorable_request_fields_refuse_old_versions(version: int, field: str) -> None:
    body = {"resources": [], field: True}
    with pytest.raises(UnsupportedVersionError, match=rf"{field}=True .* v{version}"):
        DESCRIBE_CONFIGS.encode_request(version, body)
    # At its default the field can simply be left out.
    assert DESCRIBE_CONFIGS.encode_request(version, {"resources": [], field: False})


def test_ignorable_response_fields_are_dropped_on_old_versions() -> None:
    body, expected = describe_response(0)
    entry = body["results"][0]["configs"][0]
    entry.update(config_source=4, config_type=5, documentation="doc")
    entry["synonyms"] = [{"name": "n", "value": "v", "source": 4}]
    assert DESCRIBE_CONFIGS.encode_response(0, body) == expected


def test_is_default_is_not_ignorable() -> None:
    body, _ = describe_response(1)
    body["results"][0]["configs"][0]["is_default"] = True
    with pytest.raises(UnsupportedVersionError, match="is_default"):
        DESCRIBE_CONFIGS.encode_response(1, body)


def test_unknown_tagged_fields_are_skipped_at_every_level() -> None:
    body, _ = describe_response(4)
    _, secret = body["results"][0]["configs"]
    unknown = tagged_section([(5, b"abc"), (300, b"")])
    synonym = string("log.retention.ms", True) + string(None, True) + i8(5) + unknown
    entry = (
        string("retention.ms", True) + string("1000", True) + boolean(False) + i8(1)
        + boolean(False) + array([synonym], True) + i8(5) + string("How long.", True)
        + tagged_section([(0, b"\x01\x02")])
    )  # fmt: skip
    results = [
        i16(0) + string(None, True) + i8(2) + string("orders", True)
        + array([entry, config_bytes(secret, 4)], True) + unknown,
        i16(3) + string("gone", True) + i8(2) + string("nope", True) + array([], True) + tags(True),
    ]  # fmt: skip
    data = i32(7) + array(results, True) + unknown
    decoded = DESCRIBE_CONFIGS.decode_response(4, data)
    assert decoded == body
    assert "_unknown_tagged_fields" not in decoded


def test_long_strings_and_arrays_use_multi_byte_varints() -> None:
    for length in (125, 126, 127, 300):
        keys = [f"k{i}" for i in range(length)]
        name = "x" * length
        body = {
            "resources": [{"resource_type": 2, "resource_name": name, "configuration_keys": keys}],
            "include_synonyms": True,
            "include_documentation": False,
        }
        expected = (
            uvarint(2) + i8(2) + uvarint(length + 1) + name.encode()
            + uvarint(length + 1) + b"".join(string(k, True) for k in keys)
            + b"\x00" + b"\x01\x00\x00"
        )  # fmt: skip
        data = DESCRIBE_CONFIGS.encode_request(4, body)
        assert data == expected
        assert DESCRIBE_CONFIGS.decode_request(4, data) == body


def test_decodes_from_a_memoryview_at_an_offset() -> None:
    body, data = describe_response(4)
    view = memoryview(b"\xff" * 3 + data)
    assert DESCRIBE_CONFIGS.decode_response(4, view, 3) == body


def test_codec_metadata() -> None:
    codec = DESCRIBE_CONFIGS
    assert (codec.name, codec.api_key, codec.min_version, codec.max_version) == (
        "DescribeConfigs",
        32,
        0,
        4,
    )
    assert [codec.is_flexible(v) for v in VERSIONS] == [False] * 4 + [True]
