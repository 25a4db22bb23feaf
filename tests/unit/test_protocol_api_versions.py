"""ApiVersions (key 18) v0-v4: byte-exact bodies, the features in tagged fields (v3 on), and
the response header that stays v0 in flexible versions."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from kafka_config_admin._protocol import API_VERSIONS, DESCRIBE_CONFIGS

from .test_protocol_support import array, i16, i32, string, tagged_section, tags

VERSIONS = range(5)


def _i64(value: int) -> bytes:
    return struct.pack(">q", value)


@pytest.mark.parametrize("version", VERSIONS)
def test_request(version: int) -> None:
    flex = version >= 3
    body = {"client_software_name": "kafka-config-admin", "client_software_version": "0.1.0"}
    data = string("kafka-config-admin", flex) + string("0.1.0", flex) if flex else b""
    assert API_VERSIONS.encode_request(version, body) == data + tags(flex)
    assert API_VERSIONS.decode_request(version, data + tags(flex)) == (
        body if flex else {"client_software_name": "", "client_software_version": ""}
    )


def _response(version: int) -> tuple[dict[str, Any], bytes]:
    flex = version >= 3
    apis = [(18, 0, 4), (32, 0, 4)]
    body: dict[str, Any] = {
        "error_code": 0,
        "api_keys": [
            {"api_key": key, "min_version": low, "max_version": high} for key, low, high in apis
        ],
        "throttle_time_ms": 5 if version >= 1 else 0,
        "supported_features": [],
        "finalized_features_epoch": -1,
        "finalized_features": [],
        "zk_migration_ready": False,
    }
    data = i16(0) + array([i16(k) + i16(lo) + i16(hi) + tags(flex) for k, lo, hi in apis], flex)
    data += i32(5) if version >= 1 else b""
    if not flex:
        return body, data
    body["supported_features"] = [{"name": "metadata.version", "min_version": 1, "max_version": 27}]
    body["finalized_features_epoch"] = 42
    body["finalized_features"] = [
        {"name": "metadata.version", "max_version_level": 27, "min_version_level": 27},
        {
            "name": "eligible.leader.replicas.version",
            "max_version_level": 1,
            "min_version_level": 1,
        },
    ]
    supported = array([string("metadata.version", True) + i16(1) + i16(27) + tags(True)], True)
    finalized = array(
        [
            string("metadata.version", True) + i16(27) + i16(27) + tags(True),
            string("eligible.leader.replicas.version", True) + i16(1) + i16(1) + tags(True),
        ],
        True,
    )
    data += tagged_section([(0, supported), (1, _i64(42)), (2, finalized)])
    return body, data


@pytest.mark.parametrize("version", VERSIONS)
def test_response_with_features_in_tagged_fields(version: int) -> None:
    body, data = _response(version)
    assert API_VERSIONS.decode_response(version, data) == body
    assert API_VERSIONS.encode_response(version, body) == data


def test_a_response_without_features_has_their_defaults() -> None:
    # A Kafka 2.5 broker answers v3 with no tagged fields at all.
    data = i16(0) + array([], True) + i32(0) + tags(True)
    decoded = API_VERSIONS.decode_response(3, data)
    assert decoded["finalized_features"] == [] and decoded["finalized_features_epoch"] == -1


def test_the_response_header_stays_v0_in_flexible_versions() -> None:
    assert API_VERSIONS.is_flexible(3) and not API_VERSIONS.is_response_header_flexible(3)
    assert DESCRIBE_CONFIGS.is_flexible(4) and DESCRIBE_CONFIGS.is_response_header_flexible(4)
    assert not DESCRIBE_CONFIGS.is_response_header_flexible(3)
