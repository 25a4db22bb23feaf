"""Request header v1/v2 and response header v0/v1."""

from __future__ import annotations

import pytest

from kafka_config_admin import ProtocolError
from kafka_config_admin._protocol import decode_response_header, encode_request_header

from .test_protocol_support import i16, i32, tagged_section


def test_request_header_v1() -> None:
    expected = i16(32) + i16(3) + i32(9) + i16(3) + b"cli"
    assert encode_request_header(32, 3, 9, "cli", flexible=False) == expected


def test_request_header_v2_keeps_an_int16_client_id_and_adds_tags() -> None:
    expected = i16(32) + i16(4) + i32(9) + i16(4) + b"cl\xc3\xa9" + b"\x00"
    assert encode_request_header(32, 4, 9, "clé", flexible=True) == expected


@pytest.mark.parametrize(("flexible", "tail"), [(False, b""), (True, b"\x00")])
def test_request_header_null_client_id(flexible: bool, tail: bytes) -> None:
    expected = i16(44) + i16(1) + i32(-5) + i16(-1) + tail
    assert encode_request_header(44, 1, -5, None, flexible=flexible) == expected


def test_response_header_v0() -> None:
    assert decode_response_header(b"xx" + i32(42) + b"body", 2, flexible=False) == (42, 6)


def test_response_header_v1_skips_tagged_fields() -> None:
    assert decode_response_header(i32(-7) + b"\x00body", 0, flexible=True) == (-7, 5)
    tagged = i32(42) + tagged_section([(0, b"zz")])
    data = memoryview(b"\x01" + tagged + b"body")
    assert decode_response_header(data, 1, flexible=True) == (42, 1 + len(tagged))


@pytest.mark.parametrize(
    ("data", "flexible"),
    [(b"\x00", False), (i32(1), True), (i32(1) + tagged_section([(0, b"zz")])[:-1], True)],
)
def test_truncated_response_header(data: bytes, flexible: bool) -> None:
    with pytest.raises(ProtocolError, match="truncated ResponseHeader"):
        decode_response_header(data, 0, flexible=flexible)
