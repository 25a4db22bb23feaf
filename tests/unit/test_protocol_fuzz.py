"""Decoder fuzzing: truncated, mutated and random bytes for every version of every API decoded.

The codecs are found in ``kafka_config_admin._protocol`` (every ``ApiCodec`` it exports), so a
codec someone adds is fuzzed without touching this file. Valid messages are drawn from each
message's own schema. Whatever the bytes, decoding ends in a result or in this library's
``ProtocolError``, never in another exception; and nothing a malformed message decoded may be
found again by a later message through the shared-items memo (``Struct(shared=True)``).
"""

from __future__ import annotations

import os
import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafka_config_admin._protocol as protocol
from kafka_config_admin import ProtocolError
from kafka_config_admin._protocol import ApiCodec, Memo
from kafka_config_admin._protocol._header import RESPONSE_HEADER
from kafka_config_admin._protocol._schema import Array, Field, Message, Struct

CODECS = [value for value in vars(protocol).values() if isinstance(value, ApiCodec)]
#: Every message the client decodes, at every version: the responses and the response header.
DECODED = [
    (message, version)
    for message in [codec.response for codec in CODECS] + [RESPONSE_HEADER]
    for version in range(message.versions[0], message.versions[1] + 1)
]
IDS = [f"{message.name}-v{version}" for message, version in DECODED]

_RANGES = {"int8": 7, "int16": 15, "int32": 31, "int64": 63}
#: Strings that repeat often, so that shared items and whole arrays repeat too; and long ones,
#: whose lengths take more than one varint byte.
_STRINGS = st.sampled_from(["", "a", "retention.ms", "x" * 130, "é" * 70]) | st.text(max_size=8)


def _value(kind: Any, nullable: bool, version: int, flexible: bool) -> st.SearchStrategy[Any]:
    values: st.SearchStrategy[Any]
    if isinstance(kind, Struct):
        values = _struct(kind.fields, version, flexible)
    elif isinstance(kind, Array):
        values = st.lists(_value(kind.item, False, version, flexible), max_size=4)
    elif kind == "string":
        values = _STRINGS
    elif kind == "bytes":
        values = st.sampled_from([b"", b"\x00", b"n" * 130]) | st.binary(max_size=8)
    elif kind == "uuid":
        values = st.sampled_from([bytes(16), bytes(range(16))]) | st.binary(
            min_size=16, max_size=16
        )
    elif kind == "bool":
        values = st.booleans()
    elif kind == "float64":
        values = st.floats(allow_nan=False)  # NaN would not equal itself after a round trip
    elif kind in _RANGES:
        bits = _RANGES[kind]
        values = st.integers(-(2**bits), 2**bits - 1)
    else:
        raise AssertionError(f"no strategy for {kind!r}: teach this fuzzer the new type")
    return st.none() | values if nullable else values


def _struct(fields: tuple[Field, ...], version: int, flexible: bool) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {
            item.name: _value(item.type, item.nullable_in(version), version, flexible)
            for item in fields
            if item.present(version, flexible)
        }
    )


def valid_messages(message: Message, version: int) -> st.SearchStrategy[bytes]:
    """Bytes of valid messages of one version, drawn from its schema."""
    bodies = _struct(message.fields, version, message.flexible(version))
    return bodies.map(lambda body: message.encode(version, body))


def decode_or_protocol_error(
    message: Message, version: int, data: bytes, memo: Memo | None = None
) -> dict[str, Any] | None:
    """The decoded body, or None when the bytes were refused with a ProtocolError."""
    try:
        return message.decode(version, data, memo=memo)
    except ProtocolError:
        return None


@st.composite
def mutated(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a few bytes overwritten, removed or inserted."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(out)))
        edit = draw(st.sampled_from(["set", "delete", "insert"]))
        byte = draw(st.sampled_from([0, 1, 0x7F, 0x80, 0xFF]) | st.integers(0, 255))
        if edit == "insert" or position == len(out):
            out.insert(position, byte)
        elif edit == "delete":
            del out[position]
        else:
            out[position] = byte
    return bytes(out)


#: Examples per test and decoded message; ``nox -s fuzz`` runs many more.
EXAMPLES = int(os.environ.get("KAFKA_CONFIG_ADMIN_FUZZ_EXAMPLES", "20"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # a hang is caught by pytest-timeout; speed is the benchmarks' business
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize(("message", "version"), DECODED, ids=IDS)
@FUZZ
@given(data=st.data())
def test_every_truncation_is_a_protocol_error_and_teaches_the_memo_nothing(
    message: Message, version: int, data: st.DataObject
) -> None:
    whole = data.draw(valid_messages(message, version))
    memo = Memo()
    for end in range(len(whole)):
        with pytest.raises(ProtocolError):
            message.decode(version, whole[:end], memo=memo)
    assert len(memo) == 0
    assert message.decode(version, whole, memo=memo) == message.decode(version, whole)


@pytest.mark.parametrize(("message", "version"), DECODED, ids=IDS)
@FUZZ
@given(data=st.data())
def test_mutated_messages_decode_or_fail_cleanly_and_never_corrupt_later_ones(
    message: Message, version: int, data: st.DataObject
) -> None:
    whole = data.draw(valid_messages(message, version))
    memo = Memo()
    for _ in range(data.draw(st.integers(1, 4))):
        decode_or_protocol_error(message, version, data.draw(mutated(whole)), memo)
        # What the mutants left in the memo must not change what a valid message decodes to.
        assert message.decode(version, whole, memo=memo) == message.decode(version, whole)


@pytest.mark.parametrize(("message", "version"), DECODED, ids=IDS)
@FUZZ
@given(garbage=st.binary(max_size=512), valid=st.data())
def test_random_bytes_decode_or_fail_cleanly(
    message: Message, version: int, garbage: bytes, valid: st.DataObject
) -> None:
    memo = Memo()
    decode_or_protocol_error(message, version, garbage, memo)
    whole = valid.draw(valid_messages(message, version))
    assert message.decode(version, whole, memo=memo) == message.decode(version, whole)


@pytest.mark.parametrize(("message", "version"), DECODED, ids=IDS)
def test_lengths_claiming_more_than_the_bytes_allocate_nothing_large(
    message: Message, version: int
) -> None:
    # Counts and lengths of 0x7fffffff (or their varint): refused before anything is allocated.
    for filler in (b"\x7f\xff\xff\xff", b"\xff\xff\xff\xff\x07", b"\x00\x7f\xff\xff\xff"):
        data = filler * 64
        tracemalloc.start()
        try:
            decode_or_protocol_error(message, version, data)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 1_000_000, f"{peak} bytes to decode {len(data)}"


def test_a_cut_string_is_never_found_again_by_a_later_message() -> None:
    # Found by fuzzing: a DescribeConfigs v3 response cut inside a config's documentation was
    # refused, but its config had entered the client-long memo under the bytes it was cut to,
    # and a later valid response starting with those bytes decoded to the cut documentation.
    codec = protocol.DESCRIBE_CONFIGS
    entry = {
        "name": "retention.ms",
        "value": "1",
        "read_only": False,
        "config_source": 5,
        "is_sensitive": False,
        "synonyms": [],
        "config_type": 5,
        "documentation": "The whole documentation.",
    }
    result = {"error_code": 0, "error_message": None, "resource_type": 2, "resource_name": "t"}
    body = {"throttle_time_ms": 0, "results": [{**result, "configs": [entry]}]}
    whole = codec.encode_response(3, body)
    memo = Memo()
    with pytest.raises(ProtocolError):
        codec.decode_response(3, whole[: -len(" documentation.")], memo=memo)
    decoded = codec.decode_response(3, whole, memo=memo)
    assert decoded["results"][0]["configs"][0]["documentation"] == "The whole documentation."
