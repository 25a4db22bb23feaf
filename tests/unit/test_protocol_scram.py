"""DescribeUserScramCredentials (key 50) and AlterUserScramCredentials (key 51) v0.

Both APIs are flexible from v0: compact strings, arrays and bytes, tagged-field sections.
"""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import InvalidArgumentError, ProtocolError
from kafka_config_admin._protocol import (
    ALTER_USER_SCRAM_CREDENTIALS,
    DESCRIBE_USER_SCRAM_CREDENTIALS,
    ApiCodec,
)

from .test_protocol_support import array, i8, i16, i32, raw, string, tags, uvarint

F = True  # every version of both APIs is flexible


def describe_request(users: list[str] | None) -> tuple[dict[str, Any], bytes]:
    body = {"users": None if users is None else [{"name": u} for u in users]}
    items = None if users is None else [string(u, F) + tags(F) for u in users]
    return body, array(items, F) + tags(F)


def describe_response() -> tuple[dict[str, Any], bytes]:
    body = {
        "throttle_time_ms": 0,
        "error_code": 0,
        "error_message": None,
        "results": [
            {
                "user": "alice",
                "error_code": 0,
                "error_message": None,
                "credential_infos": [
                    {"mechanism": 1, "iterations": 4096},
                    {"mechanism": 2, "iterations": 8192},
                ],
            },
            {
                "user": "nobody",
                "error_code": 91,
                "error_message": "Attempt to describe a user credential that does not exist",
                "credential_infos": [],
            },
        ],
    }
    results = [
        string("alice", F) + i16(0) + string(None, F)
        + array([i8(1) + i32(4096) + tags(F), i8(2) + i32(8192) + tags(F)], F) + tags(F),
        string("nobody", F) + i16(91)
        + string("Attempt to describe a user credential that does not exist", F)
        + array([], F) + tags(F),
    ]  # fmt: skip
    return body, i32(0) + i16(0) + string(None, F) + array(results, F) + tags(F)


def alter_request() -> tuple[dict[str, Any], bytes]:
    salt, salted = bytes(range(32)), bytes(range(200, 232))
    body = {
        "deletions": [{"name": "bob", "mechanism": 2}],
        "upsertions": [
            {
                "name": "alice",
                "mechanism": 1,
                "iterations": 4096,
                "salt": salt,
                "salted_password": salted,
            }
        ],
    }
    deletions = [string("bob", F) + i8(2) + tags(F)]
    upsertions = [string("alice", F) + i8(1) + i32(4096) + raw(salt, F) + raw(salted, F) + tags(F)]
    return body, array(deletions, F) + array(upsertions, F) + tags(F)


def alter_response() -> tuple[dict[str, Any], bytes]:
    body = {
        "throttle_time_ms": 5,
        "results": [
            {"user": "alice", "error_code": 0, "error_message": None},
            {"user": "bob", "error_code": 93, "error_message": "too few iterations"},
        ],
    }
    results = [
        string("alice", F) + i16(0) + string(None, F) + tags(F),
        string("bob", F) + i16(93) + string("too few iterations", F) + tags(F),
    ]
    return body, i32(5) + array(results, F) + tags(F)


@pytest.mark.parametrize("users", [None, [], ["alice", "bob"]])
def test_describe_request_bytes(users: list[str] | None) -> None:
    body, expected = describe_request(users)
    codec = DESCRIBE_USER_SCRAM_CREDENTIALS
    assert codec.encode_request(0, body) == expected
    assert codec.decode_request(0, expected) == body


@pytest.mark.parametrize(
    ("codec", "case"),
    [
        (DESCRIBE_USER_SCRAM_CREDENTIALS, describe_response),
        (ALTER_USER_SCRAM_CREDENTIALS, alter_response),
    ],
)
def test_response_bytes(codec: ApiCodec, case: Any) -> None:
    body, expected = case()
    assert codec.decode_response(0, expected) == body
    assert codec.encode_response(0, body) == expected


def test_alter_request_bytes() -> None:
    body, expected = alter_request()
    assert ALTER_USER_SCRAM_CREDENTIALS.encode_request(0, body) == expected
    assert ALTER_USER_SCRAM_CREDENTIALS.decode_request(0, expected) == body


def test_long_salted_password_takes_a_multi_byte_length() -> None:
    """A SCRAM-SHA-512 salted password is 64 bytes; longer bytes need a 2-byte varint."""
    salted = bytes(300)
    body = {"upsertions": [{"name": "u", "mechanism": 2, "iterations": 1, "salt": b"s",
                            "salted_password": salted}]}  # fmt: skip
    data = ALTER_USER_SCRAM_CREDENTIALS.encode_request(0, body)
    assert uvarint(301) + salted in data and len(uvarint(301)) == 2
    decoded = ALTER_USER_SCRAM_CREDENTIALS.decode_request(0, data)
    assert decoded["upsertions"][0]["salted_password"] == salted


def test_bytes_fields_refuse_text_and_numbers() -> None:
    for wrong in ("salt", 16):
        body = {"upsertions": [{"name": "u", "mechanism": 1, "iterations": 1, "salt": wrong}]}
        with pytest.raises(InvalidArgumentError, match="AlterUserScramCredentialsRequest"):
            ALTER_USER_SCRAM_CREDENTIALS.encode_request(0, body)


def test_api_keys_and_versions() -> None:
    for codec, key in ((DESCRIBE_USER_SCRAM_CREDENTIALS, 50), (ALTER_USER_SCRAM_CREDENTIALS, 51)):
        assert (codec.api_key, codec.min_version, codec.max_version) == (key, 0, 0)
        assert codec.is_flexible(0)


@pytest.mark.parametrize(
    ("codec", "case"),
    [
        (DESCRIBE_USER_SCRAM_CREDENTIALS, describe_response),
        (ALTER_USER_SCRAM_CREDENTIALS, alter_response),
    ],
)
def test_every_truncation_is_a_protocol_error(codec: ApiCodec, case: Any) -> None:
    _, data = case()
    for cut in range(len(data)):
        with pytest.raises(ProtocolError, match=r"truncated|malformed"):
            codec.decode_response(0, data[:cut])
