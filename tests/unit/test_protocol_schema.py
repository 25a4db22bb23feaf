"""The schema engine: tagged fields, malformed and truncated input, bad bodies, properties."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafka_config_admin import InvalidArgumentError, ProtocolError, UnsupportedVersionError
from kafka_config_admin._protocol import (
    ALTER_CONFIGS,
    DESCRIBE_CONFIGS,
    INCREMENTAL_ALTER_CONFIGS,
    ApiCodec,
)
from kafka_config_admin._protocol._schema import Array, Field, Memo, Message, Struct

from .test_protocol_alter import alter_request, alter_response
from .test_protocol_describe import describe_request, describe_response
from .test_protocol_support import (
    array,
    boolean,
    f64,
    i8,
    i16,
    i32,
    raw,
    string,
    tagged_section,
    tags,
)

# A made-up message with tagged fields: none of the config APIs has any, the engine must still
# place them in the tagged-field section, in tag order, only when they differ from the default.
TAGGED = Message(
    "Tagged",
    (0, 1),
    1,
    (
        Field("id", "int32"),
        Field("note", "string", versions=(1, None), nullable=(1, None), tag=3),
        Field("items", Array(Struct((Field("n", "int8"),))), versions=(1, None), tag=1),
    ),
)


def test_tagged_fields_encode_in_tag_order_when_not_default() -> None:
    body = {"id": 5, "note": "hi", "items": [{"n": 1}, {"n": -1}]}
    items = array([i8(1) + tags(True), i8(-1) + tags(True)], True)
    expected = i32(5) + tagged_section([(1, items), (3, string("hi", True))])
    assert TAGGED.encode(1, body) == expected
    assert TAGGED.decode(1, expected) == body


def test_tagged_fields_at_default_are_left_out() -> None:
    assert TAGGED.encode(1, {"id": 5}) == i32(5) + b"\x00"
    assert TAGGED.decode(1, i32(5) + b"\x00") == {"id": 5, "note": None, "items": []}


def test_tagged_fields_are_dropped_in_non_flexible_versions() -> None:
    assert TAGGED.encode(0, {"id": 5, "note": "hi"}) == i32(5)
    assert TAGGED.decode(0, i32(5)) == {"id": 5, "note": None, "items": []}


def test_known_tagged_field_with_a_wrong_size_is_malformed() -> None:
    data = i32(5) + tagged_section([(3, string("hi", True) + b"!")])
    with pytest.raises(ProtocolError, match="note"):
        TAGGED.decode(1, data)


# A made-up message with the types only the quota and SCRAM APIs use, in a classic and a flexible
# version: none of those APIs has a non-flexible bytes field, the engine must still do it right.
RAW = Message(
    "Raw",
    (0, 1),
    1,
    (
        Field("rate", "float64"),
        Field("salt", "bytes"),
        Field("maybe", "bytes", nullable=(0, None)),
        Field(
            "items",
            Array(Struct((Field("data", "bytes"), Field("x", "float64")), shared=True)),
        ),
    ),
)


@pytest.mark.parametrize("version", [0, 1])
def test_float64_and_bytes_are_byte_exact(version: int) -> None:
    flexible = version == 1
    body = {
        "rate": -1.5,
        "salt": b"\x00\xff" * 200,  # a two-byte varint length when flexible
        "maybe": None,
        "items": [{"data": b"ab", "x": 2.0}, {"data": b"", "x": 0.25}, {"data": b"ab", "x": 2.0}],
    }
    item_bytes = [
        raw(b"ab", flexible) + f64(2.0) + tags(flexible),
        raw(b"", flexible) + f64(0.25) + tags(flexible),
        raw(b"ab", flexible) + f64(2.0) + tags(flexible),
    ]
    expected = (
        f64(-1.5) + raw(b"\x00\xff" * 200, flexible) + raw(None, flexible)
        + array(item_bytes, flexible) + tags(flexible)
    )  # fmt: skip
    assert RAW.encode(version, body) == expected
    decoded = RAW.decode(version, expected)
    assert decoded == body
    assert decoded["items"][0] is decoded["items"][2]  # found by skipping bytes and a float64


def test_absent_float64_and_bytes_take_their_zero() -> None:
    assert RAW.decode(0, RAW.encode(0, {})) == {
        "rate": 0.0,
        "salt": b"",
        "maybe": None,
        "items": [],
    }


@pytest.mark.parametrize("version", [0, 1])
def test_null_bytes_where_not_nullable_are_refused(version: int) -> None:
    with pytest.raises(InvalidArgumentError, match=r"Raw\.salt cannot be null"):
        RAW.encode(version, {"salt": None})
    data = f64(1.0) + raw(None, version == 1)
    with pytest.raises(ProtocolError, match="salt is null"):
        RAW.decode(version, data + raw(None, version == 1) + array([], version == 1))


# A made-up message whose items are shared: identical bytes must decode to one object, and the
# walk that finds an item's bytes must agree with the decoder on every kind of field.
SHARED = Message(
    "Shared",
    (0, 1),
    1,
    (
        Field(
            "items",
            Array(
                Struct(
                    (
                        Field("name", "string"),
                        Field("value", "string", nullable=(0, None)),
                        Field("flags", Array("int8"), nullable=(0, None)),
                        Field("inner", Array(Struct((Field("n", "int16"),)))),
                        Field("n", "int32"),
                    ),
                    shared=True,
                )
            ),
        ),
    ),
)


def shared_item(value: str | None, flags: list[int] | None, flexible: bool) -> bytes:
    inner = array([i16(7) + tags(flexible)], flexible)
    flag_bytes = None if flags is None else [i8(f) for f in flags]
    return (
        string("retention.ms", flexible) + string(value, flexible)
        + array(flag_bytes, flexible) + inner + i32(9) + tags(flexible)
    )  # fmt: skip


@pytest.mark.parametrize("version", [0, 1])
def test_identical_shared_items_decode_to_one_object(version: int) -> None:
    flexible = version == 1
    values: list[tuple[str | None, list[int] | None]] = [
        ("x" * 300, [1]),  # a two-byte varint length
        (None, None),
        ("x" * 300, [1]),
        ("y" * 20000, []),  # a three-byte varint length
        ("x" * 300, [2]),  # same bytes but one
        (None, None),
    ]
    data = array([shared_item(v, f, flexible) for v, f in values], flexible) + tags(flexible)
    items = SHARED.decode(version, data)["items"]
    assert [(item["value"], item["flags"]) for item in items] == values
    assert items[0] is items[2]
    assert items[1] is items[5]
    assert items[0] is not items[4]
    assert all(item["inner"] == [{"n": 7}] and item["n"] == 9 for item in items)


@pytest.mark.parametrize("version", [0, 1])
def test_shared_items_cross_messages_only_through_a_memo(version: int) -> None:
    data = SHARED.encode(version, {"items": [{"name": "a"}]})
    assert SHARED.decode(version, data)["items"][0] is not SHARED.decode(version, data)["items"][0]
    memo = Memo()
    first = SHARED.decode(version, data, memo=memo)["items"]
    assert SHARED.decode(version, data, memo=memo)["items"] is first  # the whole array again
    assert list(memo.of("Shared", version).items.values()) == first
    other = SHARED.encode(version, {"items": [{"name": "b"}, {"name": "a"}]})
    assert SHARED.decode(version, other, memo=memo)["items"][1] is first[0]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 1),
            st.lists(
                st.fixed_dictionaries(
                    {
                        "name": st.sampled_from(["a", "b", "c" * 200]),
                        "value": st.none() | st.sampled_from(["", "v"]),
                        "flags": st.none() | st.lists(st.integers(0, 1), max_size=2),
                        "inner": st.just([]),
                        "n": st.integers(0, 1),
                    }
                ),
                max_size=6,
            ),
        ),
        max_size=6,
    ),
)
def test_messages_decoded_through_one_memo_decode_as_alone(
    messages: list[tuple[int, list[dict[str, Any]]]],
) -> None:
    # Each array is first guessed to be like the one before (of its version): guesses that
    # miss, run short or run long, and versions taking turns, must not change what is decoded.
    memo = Memo()
    for version, items in messages:
        data = SHARED.encode(version, {"items": items})
        assert SHARED.decode(version, data, memo=memo) == {"items": items}
        assert len(memo.of("Shared", version).last) == len(items)


def test_each_version_remembers_apart() -> None:
    # The same bytes may mean something else at another version: a client talking to brokers
    # of mixed versions must never hand an item decoded at one version to another.
    memo = Memo()
    items = [{"name": "a", "value": "v", "flags": [1], "inner": [], "n": 1}]
    for version in (0, 1, 0, 1):
        data = SHARED.encode(version, {"items": items})
        assert SHARED.decode(version, data, memo=memo) == {"items": items}
    assert memo.of("Shared", 0) is not memo.of("Shared", 1)
    assert len(memo) == 2


def test_a_message_may_share_one_struct_only() -> None:
    item = Struct((Field("n", "int8"),), shared=True)
    twice = Message("Twice", (0, 0), 1, (Field("a", Array(item)), Field("b", Array(item))))
    with pytest.raises(ValueError, match="more than one shared struct"):
        twice.decode(0, b"")


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 1),
    st.lists(
        st.fixed_dictionaries(
            {
                "name": st.sampled_from(["a", "b" * 130]),
                "value": st.none() | st.sampled_from(["", "v", "w" * 200]),
                "flags": st.none() | st.lists(st.integers(-128, 127), max_size=3),
                "inner": st.lists(st.fixed_dictionaries({"n": st.integers(-5, 5)}), max_size=2),
                "n": st.integers(0, 2),
            }
        ),
        max_size=8,
    ),
)
def test_shared_items_round_trip(version: int, items: list[dict[str, Any]]) -> None:
    data = SHARED.encode(version, {"items": items})
    assert SHARED.decode(version, data) == {"items": items}
    for cut in range(0, len(data), 7):
        with pytest.raises(ProtocolError, match=r"truncated|malformed"):
            SHARED.decode(version, data[:cut])


def test_a_malformed_shared_item_is_a_protocol_error() -> None:
    null_name = string(None, True) + string("v", True) + array([], True) * 2 + i32(0) + tags(True)
    with pytest.raises(ProtocolError, match="name is null"):
        SHARED.decode(1, array([null_name], True) + tags(True))


# --- truncated and malformed input -------------------------------------------------------------

Case = tuple[Callable[[int, bytes], Any], int, bytes]


def every_message() -> list[Case]:
    cases: list[Case] = []
    for version in range(5):
        cases.append((DESCRIBE_CONFIGS.decode_request, version, describe_request(version)[1]))
        cases.append((DESCRIBE_CONFIGS.decode_response, version, describe_response(version)[1]))
    for codec, count in ((ALTER_CONFIGS, 3), (INCREMENTAL_ALTER_CONFIGS, 2)):
        for version in range(count):
            cases.append((codec.decode_request, version, alter_request(codec, version)[1]))
            cases.append((codec.decode_response, version, alter_response(codec, version)[1]))
    return cases


@pytest.mark.parametrize(("decode", "version", "data"), every_message())
def test_every_truncation_is_a_protocol_error(
    decode: Callable[[int, bytes], Any], version: int, data: bytes
) -> None:
    for cut in range(len(data)):
        with pytest.raises(ProtocolError, match=r"truncated|malformed"):
            decode(version, data[:cut])


def one_result(name: bytes, flexible: bool = False) -> bytes:
    """A DescribeConfigs response with one result whose resource name is ``name`` (raw)."""
    result = i16(0) + string(None, flexible) + i8(2) + name + array([], flexible) + tags(flexible)
    return i32(0) + array([result], flexible) + tags(flexible)


@pytest.mark.parametrize(
    ("version", "data", "message"),
    [
        (1, one_result(i16(-1)), "resource_name is null"),
        (4, one_result(b"\x00", True), "resource_name is null"),
        (1, one_result(i16(-2)), "negative length -2"),
        (1, i32(0) + i32(-3), "negative length -3"),
        (1, i32(0) + i32(1000), "claims 1000 items"),
        (4, i32(0) + b"\xff\xff\xff\xff\x0f", "claims"),
        (4, i32(0) + b"\xff\xff\xff\xff\xff\x01", "longer than 5 bytes"),
        (1, one_result(i16(2) + b"\xc3\x28"), "utf-8"),
    ],
)
def test_malformed_input_is_a_protocol_error(version: int, data: bytes, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        DESCRIBE_CONFIGS.decode_response(version, data)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 4), st.binary(max_size=64))
def test_garbage_decodes_or_raises_protocol_error(version: int, data: bytes) -> None:
    with contextlib.suppress(ProtocolError):
        DESCRIBE_CONFIGS.decode_response(version, data)


@pytest.mark.parametrize(
    ("codec", "version"), [(DESCRIBE_CONFIGS, 5), (DESCRIBE_CONFIGS, -1), (ALTER_CONFIGS, 3)]
)
def test_unsupported_versions_are_refused(codec: ApiCodec, version: int) -> None:
    with pytest.raises(UnsupportedVersionError, match=f"v{version}"):
        codec.encode_request(version, {"resources": []})
    with pytest.raises(UnsupportedVersionError, match=f"v{version}"):
        codec.decode_response(version, b"")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"resources": [{"resource_type": 2, "resource_name": None}]}, "resource_name"),
        ({"resources": None}, "resources cannot be null"),
        ({"resources": [{"resource_type": 300, "resource_name": "t"}]}, "DescribeConfigsRequest"),
        ({"resources": [{"resource_type": 2, "resource_name": 7}]}, "DescribeConfigsRequest"),
    ],
)
def test_unencodable_bodies_are_invalid_arguments(body: dict[str, Any], message: str) -> None:
    for version in (0, 4):
        with pytest.raises(InvalidArgumentError, match=message):
            DESCRIBE_CONFIGS.encode_request(version, body)


def test_classic_string_longer_than_int16_is_refused() -> None:
    body = {"resources": [{"resource_type": 2, "resource_name": "x" * 40_000}]}
    with pytest.raises(InvalidArgumentError):
        DESCRIBE_CONFIGS.encode_request(1, body)
    assert DESCRIBE_CONFIGS.decode_request(4, DESCRIBE_CONFIGS.encode_request(4, body))


# --- round-trip properties ---------------------------------------------------------------------

texts = st.text(max_size=20) | st.text(min_size=120, max_size=140)  # both varint widths
maybe = st.none() | texts
int8s, int16s, int32s = (
    st.integers(-128, 127),
    st.integers(-(2**15), 2**15 - 1),
    st.integers(-(2**31), 2**31 - 1),
)


def since(version: int, first: int, strategy: st.SearchStrategy[Any], default: Any) -> Any:
    return strategy if version >= first else st.just(default)


def describe_bodies(version: int) -> tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]:
    resource = st.fixed_dictionaries(
        {
            "resource_type": int8s,
            "resource_name": texts,
            "configuration_keys": st.none() | st.lists(texts, max_size=3),
        }
    )
    request = st.fixed_dictionaries(
        {
            "resources": st.lists(resource, max_size=3),
            "include_synonyms": since(version, 1, st.booleans(), False),
            "include_documentation": since(version, 3, st.booleans(), False),
        }
    )
    synonym = st.fixed_dictionaries({"name": texts, "value": maybe, "source": int8s})
    config = st.fixed_dictionaries(
        {
            "name": texts,
            "value": maybe,
            "read_only": st.booleans(),
            "is_default": st.booleans() if version == 0 else st.just(False),
            "config_source": since(version, 1, int8s, -1),
            "is_sensitive": st.booleans(),
            "synonyms": since(version, 1, st.lists(synonym, max_size=2), []),
            "config_type": since(version, 3, int8s, 0),
            "documentation": since(version, 3, maybe, None),
        }
    )
    result = st.fixed_dictionaries(
        {
            "error_code": int16s,
            "error_message": maybe,
            "resource_type": int8s,
            "resource_name": texts,
            "configs": st.lists(config, max_size=3),
        }
    )
    response = st.fixed_dictionaries(
        {"throttle_time_ms": int32s, "results": st.lists(result, max_size=3)}
    )
    return request, response


def alter_bodies(incremental: bool) -> tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]:
    entry = {"name": texts, "value": maybe} | ({"config_operation": int8s} if incremental else {})
    resource = st.fixed_dictionaries(
        {
            "resource_type": int8s,
            "resource_name": texts,
            "configs": st.lists(st.fixed_dictionaries(entry), max_size=3),
        }
    )
    request = st.fixed_dictionaries(
        {"resources": st.lists(resource, max_size=3), "validate_only": st.booleans()}
    )
    outcome = st.fixed_dictionaries(
        {
            "error_code": int16s,
            "error_message": maybe,
            "resource_type": int8s,
            "resource_name": texts,
        }
    )
    response = st.fixed_dictionaries(
        {"throttle_time_ms": int32s, "responses": st.lists(outcome, max_size=3)}
    )
    return request, response


@st.composite
def cases(draw: st.DrawFn) -> tuple[ApiCodec, int, bool, dict[str, Any]]:
    codec = draw(st.sampled_from([DESCRIBE_CONFIGS, ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS]))
    version = draw(st.integers(codec.min_version, codec.max_version))
    if codec is DESCRIBE_CONFIGS:
        request, response = describe_bodies(version)
    else:
        request, response = alter_bodies(codec is INCREMENTAL_ALTER_CONFIGS)
    is_request = draw(st.booleans())
    return codec, version, is_request, draw(request if is_request else response)


@settings(max_examples=400, deadline=None)
@given(cases())
def test_round_trips(case: tuple[ApiCodec, int, bool, dict[str, Any]]) -> None:
    codec, version, is_request, body = case
    encode = codec.encode_request if is_request else codec.encode_response
    decode = codec.decode_request if is_request else codec.decode_response
    data = encode(version, body)
    assert decode(version, data) == body
    assert encode(version, decode(version, memoryview(data))) == data


def test_boolean_bytes_other_than_one_decode_as_true() -> None:
    data = array([], False) + b"\x02"
    assert DESCRIBE_CONFIGS.decode_request(1, data)["include_synonyms"] is True
    assert boolean(True) == b"\x01"
