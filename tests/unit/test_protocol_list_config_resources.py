"""ListConfigResources (key 74) v0-v1: byte-exact bodies (v0 is ListClientMetricsResources), and
the listing the operation makes of them."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import (
    AdminClient,
    BrokerError,
    InvalidArgumentError,
    ResourceType,
    UnsupportedVersionError,
)
from kafka_config_admin._ops.configs import ListConfigResources, ListedResources
from kafka_config_admin._protocol import LIST_CONFIG_RESOURCES

from .test_protocol_support import array, i8, i16, i32, string, tags

TYPES = (ResourceType.GROUP, ResourceType.CLIENT_METRICS)


def response(version: int) -> tuple[dict[str, Any], bytes]:
    items = [("only-config", 32), ("cm", 16)] if version >= 1 else [("cm", 16), ("cm2", 16)]
    body: dict[str, Any] = {
        "throttle_time_ms": 5,
        "error_code": 0,
        "config_resources": [
            {"resource_name": name, "resource_type": kind} for name, kind in items
        ],
    }
    encoded = [
        string(name, True) + (i8(kind) if version >= 1 else b"") + tags(True)
        for name, kind in items
    ]
    return body, i32(5) + i16(0) + array(encoded, True) + tags(True)


def test_v1_request_names_the_types() -> None:
    body = {"resource_types": [32, 16]}
    data = array([i8(32), i8(16)], True) + tags(True)
    assert LIST_CONFIG_RESOURCES.encode_request(1, body) == data
    assert LIST_CONFIG_RESOURCES.decode_request(1, data) == body


def test_v0_request_asks_nothing_and_refuses_types() -> None:
    """ListClientMetricsResources: an empty body; types cannot be asked of it."""
    assert LIST_CONFIG_RESOURCES.encode_request(0, {}) == tags(True)
    with pytest.raises(UnsupportedVersionError):
        LIST_CONFIG_RESOURCES.encode_request(0, {"resource_types": [32]})


@pytest.mark.parametrize("version", [0, 1])
def test_response_bytes(version: int) -> None:
    body, data = response(version)
    assert LIST_CONFIG_RESOURCES.decode_response(version, data) == body
    assert LIST_CONFIG_RESOURCES.encode_response(version, body) == data


@pytest.mark.parametrize("version", [0, 1])
def test_the_operation_says_the_version_it_asked_at(version: int) -> None:
    operation = ListConfigResources(TYPES)
    sent = operation.body([None], version)
    assert sent == ({"resource_types": [32, 16]} if version >= 1 else {})
    body, _ = response(version)
    ((key, listed),) = operation.outcomes([None], body)
    assert key is None
    expected = (
        [(ResourceType.GROUP, "only-config"), (ResourceType.CLIENT_METRICS, "cm")]
        if version >= 1
        else [(ResourceType.CLIENT_METRICS, "cm"), (ResourceType.CLIENT_METRICS, "cm2")]
    )
    assert listed == ListedResources(version, expected)


def test_an_error_code_fails_the_listing() -> None:
    ((_, outcome),) = ListConfigResources(TYPES).outcomes(
        [None], {"throttle_time_ms": 0, "error_code": 35, "config_resources": []}
    )
    assert isinstance(outcome, UnsupportedVersionError) and isinstance(outcome, BrokerError)


@pytest.mark.parametrize(
    ("types", "message"),
    [
        ([ResourceType.UNKNOWN], "cannot list resources of type"),
        ([], "types is empty"),
        (ResourceType.GROUP, "must be a collection of ResourceType"),
        ("GROUP", "must be a collection of ResourceType"),
    ],
)
async def test_bad_types_are_refused_before_anything_is_sent(types: Any, message: str) -> None:
    client = AdminClient("127.0.0.1:1")  # never opened: the check comes first
    with pytest.raises(InvalidArgumentError, match=message):
        await client.list_config_resources(types)
