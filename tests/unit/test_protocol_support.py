"""Hand encoders for the protocol tests (no tests here).

Expected bytes are built with struct.pack and explicit varints, independently of the codec
under test, so a bug in the schema engine cannot hide in the expectation.
"""

from __future__ import annotations

import struct


def i8(v: int) -> bytes:
    return struct.pack(">b", v)


def i16(v: int) -> bytes:
    return struct.pack(">h", v)


def i32(v: int) -> bytes:
    return struct.pack(">i", v)


def f64(v: float) -> bytes:
    return struct.pack(">d", v)


def boolean(v: bool) -> bytes:
    return b"\x01" if v else b"\x00"


def uvarint(v: int) -> bytes:
    out = b""
    while v > 0x7F:
        out += bytes([(v & 0x7F) | 0x80])
        v >>= 7
    return out + bytes([v])


def string(s: str | None, flexible: bool) -> bytes:
    """STRING / NULLABLE_STRING, or COMPACT_(NULLABLE_)STRING when flexible."""
    if s is None:
        return uvarint(0) if flexible else i16(-1)
    data = s.encode()
    return (uvarint(len(data) + 1) if flexible else i16(len(data))) + data


def raw(data: bytes | None, flexible: bool) -> bytes:
    """BYTES / NULLABLE_BYTES (INT32 length), or COMPACT_(NULLABLE_)BYTES when flexible."""
    if data is None:
        return uvarint(0) if flexible else i32(-1)
    return (uvarint(len(data) + 1) if flexible else i32(len(data))) + data


def array(items: list[bytes] | None, flexible: bool) -> bytes:
    """ARRAY / COMPACT_ARRAY of already-encoded items; None is the null array."""
    if items is None:
        return uvarint(0) if flexible else i32(-1)
    return (uvarint(len(items) + 1) if flexible else i32(len(items))) + b"".join(items)


def tags(flexible: bool) -> bytes:
    """An empty tagged-field section in flexible versions, nothing otherwise."""
    return b"\x00" if flexible else b""


def tagged_section(fields: list[tuple[int, bytes]]) -> bytes:
    return uvarint(len(fields)) + b"".join(
        uvarint(tag) + uvarint(len(data)) + data for tag, data in fields
    )
