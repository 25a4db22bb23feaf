"""ListGroups (key 16) v0-v5: byte-exact bodies, and the listings the operation makes of them."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import (
    GroupListing,
    InvalidArgumentError,
    ProtocolError,
    UnsupportedVersionError,
)
from kafka_config_admin._ops.groups import ListGroups
from kafka_config_admin._protocol import LIST_GROUPS

from .test_protocol_support import array, i16, i32, string, tags

VERSIONS = range(6)


def request(version: int) -> tuple[dict[str, Any], bytes]:
    flex = version >= 3
    body: dict[str, Any] = {"states_filter": [], "types_filter": []}
    data = b""
    if version >= 4:
        body["states_filter"] = ["Stable", "Empty"]
        data += array([string("Stable", flex), string("Empty", flex)], flex)
    if version >= 5:
        body["types_filter"] = ["consumer"]
        data += array([string("consumer", flex)], flex)
    return body, data + tags(flex)


def response(version: int) -> tuple[dict[str, Any], bytes]:
    flex = version >= 3
    groups = [("orders", "consumer", "Stable", "classic"), ("audit", "", "Empty", "consumer")]
    body: dict[str, Any] = {
        "throttle_time_ms": 7 if version >= 1 else 0,
        "error_code": 0,
        "groups": [
            {
                "group_id": group_id,
                "protocol_type": protocol,
                "group_state": state if version >= 4 else "",
                "group_type": kind if version >= 5 else "",
            }
            for group_id, protocol, state, kind in groups
        ],
    }
    items = []
    for group_id, protocol, state, kind in groups:
        item = string(group_id, flex) + string(protocol, flex)
        if version >= 4:
            item += string(state, flex)
        if version >= 5:
            item += string(kind, flex)
        items.append(item + tags(flex))
    data = (i32(7) if version >= 1 else b"") + i16(0) + array(items, flex) + tags(flex)
    return body, data


@pytest.mark.parametrize("version", VERSIONS)
def test_request_bytes(version: int) -> None:
    body, expected = request(version)
    assert LIST_GROUPS.encode_request(version, body) == expected
    assert LIST_GROUPS.decode_request(version, expected) == body


@pytest.mark.parametrize("version", VERSIONS)
def test_response_bytes(version: int) -> None:
    body, expected = response(version)
    assert LIST_GROUPS.decode_response(version, expected) == body
    assert LIST_GROUPS.encode_response(version, body) == expected


def test_api_key_and_versions() -> None:
    assert (LIST_GROUPS.api_key, LIST_GROUPS.min_version, LIST_GROUPS.max_version) == (16, 0, 5)
    assert not LIST_GROUPS.is_flexible(2) and LIST_GROUPS.is_flexible(3)


def test_an_empty_v0_request_is_no_bytes() -> None:
    assert LIST_GROUPS.encode_request(0, {}) == b""


def test_a_filter_the_version_lacks_is_refused() -> None:
    with pytest.raises(UnsupportedVersionError):
        LIST_GROUPS.encode_request(3, {"states_filter": ["Stable"]})
    with pytest.raises(UnsupportedVersionError):
        LIST_GROUPS.encode_request(4, {"types_filter": ["share"]})


def test_truncated_response_is_a_protocol_error() -> None:
    _, data = response(5)
    with pytest.raises(ProtocolError, match="ListGroupsResponse v5"):
        LIST_GROUPS.decode_response(5, data[:-6])


def test_each_broker_is_its_own_destination() -> None:
    operation = ListGroups.build([3, 1, 2], states=None, types=None)
    assert operation.resources == [1, 2, 3]
    assert [operation.destination(b) for b in operation.resources] == [1, 2, 3]
    assert operation.body([2], 5) == {"states_filter": [], "types_filter": []}


@pytest.mark.parametrize("version", [3, 5])
def test_outcomes_are_listings_of_the_broker_asked(version: int) -> None:
    body, _ = response(version)
    [(broker, listings)] = ListGroups.build([2], states=None, types=None).outcomes([2], body)
    assert broker == 2
    newer = version >= 5
    assert listings == [
        GroupListing(
            "orders",
            "consumer",
            "Stable" if version >= 4 else None,
            "classic" if newer else None,
            2,
        ),
        GroupListing(
            "audit", "", "Empty" if version >= 4 else None, "consumer" if newer else None, 2
        ),
    ]


def test_an_error_code_fails_that_broker() -> None:
    body = {"throttle_time_ms": 0, "error_code": 15, "groups": []}
    [(broker, error)] = ListGroups.build([1], states=None, types=None).outcomes([1], body)
    assert broker == 1
    assert "broker 1" in str(error)


@pytest.mark.parametrize("states", ["Stable", [""], [3]])
def test_a_bad_filter_is_refused_before_sending(states: Any) -> None:
    with pytest.raises(InvalidArgumentError, match="states"):
        ListGroups.build([1], states=states, types=None)
