"""DescribeCluster (key 60) v0-v2: byte-exact bodies, the endpoint type of KIP-919 and the
fenced flag of KIP-1073."""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import UnsupportedVersionError
from kafka_config_admin._protocol import DESCRIBE_CLUSTER

from .test_protocol_support import array, boolean, i8, i16, i32, string, tags

VERSIONS = range(3)


def request(version: int) -> tuple[dict[str, Any], bytes]:
    body: dict[str, Any] = {
        "include_cluster_authorized_operations": False,
        "endpoint_type": 1,
        "include_fenced_brokers": False,
    }
    data = boolean(False)
    if version >= 1:
        body["endpoint_type"] = 2
        data += i8(2)
    if version >= 2:
        body["include_fenced_brokers"] = True
        data += boolean(True)
    return body, data + tags(True)


def response(version: int) -> tuple[dict[str, Any], bytes]:
    nodes = [(1001, "127.0.0.1", 9093, None), (1002, "c2.example", 9094, "rack-b")]
    body: dict[str, Any] = {
        "throttle_time_ms": 3,
        "error_code": 0,
        "error_message": None,
        "endpoint_type": 2 if version >= 1 else 1,
        "cluster_id": "Qx3Y",
        "controller_id": 1002,
        "brokers": [
            {
                "broker_id": node,
                "host": host,
                "port": port,
                "rack": rack,
                "is_fenced": version >= 2 and node == 1001,
            }
            for node, host, port, rack in nodes
        ],
        "cluster_authorized_operations": -(2**31),
    }
    data = i32(3) + i16(0) + string(None, True)
    if version >= 1:
        data += i8(2)
    data += string("Qx3Y", True) + i32(1002)
    items = []
    for node, host, port, rack in nodes:
        item = i32(node) + string(host, True) + i32(port) + string(rack, True)
        if version >= 2:
            item += boolean(node == 1001)
        items.append(item + tags(True))
    data += array(items, True) + i32(-(2**31)) + tags(True)
    return body, data


@pytest.mark.parametrize("version", VERSIONS)
def test_request_bytes(version: int) -> None:
    body, data = request(version)
    assert DESCRIBE_CLUSTER.encode_request(version, body) == data
    assert DESCRIBE_CLUSTER.decode_request(version, data) == body


@pytest.mark.parametrize("version", VERSIONS)
def test_response_bytes(version: int) -> None:
    body, data = response(version)
    assert DESCRIBE_CLUSTER.decode_response(version, data) == body
    assert DESCRIBE_CLUSTER.encode_response(version, body) == data


def test_controllers_cannot_be_asked_at_v0() -> None:
    """v0 has no endpoint type: asking it for the controllers must fail, not ask for brokers."""
    with pytest.raises(UnsupportedVersionError):
        DESCRIBE_CLUSTER.encode_request(0, {"endpoint_type": 2})


def test_asking_for_brokers_needs_no_endpoint_type() -> None:
    assert DESCRIBE_CLUSTER.encode_request(0, {"endpoint_type": 1}) == boolean(False) + tags(True)


def test_fenced_brokers_are_asked_for_only_where_the_broker_can_list_them() -> None:
    """``describe_cluster(include_fenced=True)``: v2 of brokers asks (Kafka 4.0+); v0-v1 and a
    controller quorum do not, and the description says whether fenced brokers are in it."""
    from kafka_config_admin._ops.cluster import DescribeCluster

    answer = {
        "error_code": 0,
        "cluster_id": "c",
        "controller_id": 1,
        "brokers": [
            {"broker_id": 2, "host": "h", "port": 9, "rack": None, "is_fenced": True},
            {"broker_id": 1, "host": "h", "port": 8, "rack": None, "is_fenced": False},
        ],
    }
    for version, controllers, asked in ((1, False, False), (2, True, False), (2, False, True)):
        operation = DescribeCluster.build(controllers=controllers, include_fenced=True)
        assert operation.body([None], version)["include_fenced_brokers"] is asked
        [(_, description)] = list(operation.outcomes([None], answer))
        assert not isinstance(description, BaseException)
        assert description.fenced_listed is asked
        assert [(n.node_id, n.fenced) for n in description.nodes] == [(1, False), (2, True)]
    plain = DescribeCluster.build(controllers=False)
    assert plain.body([None], 2)["include_fenced_brokers"] is False
