"""Metadata (key 3) and CreateTopics (key 19): byte-exact against Kafka's own serializers.

The expected bytes below were written by Kafka 4.3's generated message classes
(``MessageUtil.toByteBufferAccessor(message, version)`` in kafka-clients), for the same bodies
as the dicts here: our encoder must produce them and our decoder must read them back.
"""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import InvalidArgumentError, UnsupportedVersionError
from kafka_config_admin._protocol import CREATE_TOPICS, METADATA

TOPIC_ID = bytes(range(1, 17))
NO_ID = bytes(16)
NO_OPERATIONS = -(2**31)

GOLDEN = {
    ("metadata_request", 4): ("ffffffff00"),
    ("metadata_request", 9): ("0000000000"),
    ("metadata_request", 12): ("00000000"),
    ("metadata_response", 1): (
        "000000010000000100016800002384000272310000000100000002000000066f7264657273000000"
        "0001000000000000000000010000000200000001000000020000000100000001000000125f5f636f"
        "6e73756d65725f6f6666736574730100000000"
    ),
    ("metadata_response", 5): (
        "0000000700000001000000010001680000238400027231000263310000000100000002000000066f"
        "72646572730000000001000000000000000000010000000200000001000000020000000100000001"
        "0000000100000002000000125f5f636f6e73756d65725f6f6666736574730100000000"
    ),
    ("metadata_response", 9): (
        "0000000702000000010268000023840372310003633100000001030000076f726465727300020000"
        "00000000000000010000000303000000010000000202000000010200000002008000000000000013"
        "5f5f636f6e73756d65725f6f666673657473010180000000008000000000"
    ),
    ("metadata_response", 10): (
        "0000000702000000010268000023840372310003633100000001030000076f726465727301020304"
        "05060708090a0b0c0d0e0f1000020000000000000000000100000003030000000100000002020000"
        "000102000000020080000000000000135f5f636f6e73756d65725f6f666673657473000000000000"
        "00000000000000000000010180000000008000000000"
    ),
    ("metadata_response", 12): (
        "0000000702000000010268000023840372310003633100000001030000076f726465727301020304"
        "05060708090a0b0c0d0e0f1000020000000000000000000100000003030000000100000002020000"
        "000102000000020080000000000000135f5f636f6e73756d65725f6f666673657473000000000000"
        "000000000000000000000101800000000000"
    ),
    ("metadata_response", 13): (
        "0000000702000000010268000023840372310003633100000001030000076f726465727301020304"
        "05060708090a0b0c0d0e0f1000020000000000000000000100000003030000000100000002020000"
        "000102000000020080000000000000135f5f636f6e73756d65725f6f666673657473000000000000"
        "0000000000000000000001018000000000000000"
    ),
    ("create_request", 2): (
        "0000000200066f72646572730000000300020000000000000001000c726574656e74696f6e2e6d73"
        "0004313030300006706c61636564ffffffffffff0000000100000000000000020000000100000002"
        "000000000000138801"
    ),
    ("create_request", 4): (
        "0000000200066f72646572730000000300020000000000000001000c726574656e74696f6e2e6d73"
        "0004313030300006706c61636564ffffffffffff0000000100000000000000020000000100000002"
        "000000000000138801"
    ),
    ("create_request", 5): (
        "03076f726465727300000003000201020d726574656e74696f6e2e6d730531303030000007706c61"
        "636564ffffffffffff0200000000030000000100000002000100000013880100"
    ),
    ("create_request", 7): (
        "03076f726465727300000003000201020d726574656e74696f6e2e6d730531303030000007706c61"
        "636564ffffffffffff0200000000030000000100000002000100000013880100"
    ),
    ("create_response", 2): (
        "000000000000000200066f72646572730000ffff000574616b656e0024001d546f70696320277461"
        "6b656e2720616c7265616479206578697374732e"
    ),
    ("create_response", 4): (
        "000000000000000200066f72646572730000ffff000574616b656e0024001d546f70696320277461"
        "6b656e2720616c7265616479206578697374732e"
    ),
    ("create_response", 5): (
        "0000000003076f7264657273000000000000030002020d726574656e74696f6e2e6d730531303030"
        "00010000000674616b656e00241e546f706963202774616b656e2720616c72656164792065786973"
        "74732effffffffffff00010002001d00"
    ),
    ("create_response", 7): (
        "0000000003076f72646572730102030405060708090a0b0c0d0e0f10000000000000030002020d72"
        "6574656e74696f6e2e6d73053130303000010000000674616b656e00000000000000000000000000"
        "00000000241e546f706963202774616b656e2720616c7265616479206578697374732effffffffff"
        "ff00010002001d00"
    ),
}


def golden(name: str, version: int) -> bytes:
    return bytes.fromhex(GOLDEN[name, version])


def metadata_response(version: int) -> dict[str, Any]:
    """What the decoder gives for the golden response: every key, absent ones at defaults."""
    orders = {
        "error_code": 0,
        "name": "orders",
        "topic_id": TOPIC_ID if version >= 10 else NO_ID,
        "is_internal": False,
        "partitions": [
            {
                "error_code": 0,
                "partition_index": 0,
                "leader_id": 1,
                "leader_epoch": 3 if version >= 7 else -1,
                "replica_nodes": [1, 2],
                "isr_nodes": [1],
                "offline_replicas": [2] if version >= 5 else [],
            }
        ],
        "topic_authorized_operations": NO_OPERATIONS,
    }
    internal = {
        "error_code": 0,
        "name": "__consumer_offsets",
        "topic_id": NO_ID,
        "is_internal": version >= 1,
        "partitions": [],
        "topic_authorized_operations": NO_OPERATIONS,
    }
    return {
        "throttle_time_ms": 7 if version >= 3 else 0,
        "brokers": [
            {"node_id": 1, "host": "h", "port": 9092, "rack": "r1" if version >= 1 else None}
        ],
        "cluster_id": "c1" if version >= 2 else None,
        "controller_id": 1,
        "topics": [orders, internal],
        "cluster_authorized_operations": NO_OPERATIONS,
        "error_code": 0,
    }


@pytest.mark.parametrize("version", [4, 9, 12])
def test_metadata_request_for_every_topic_is_byte_exact(version: int) -> None:
    body = {"topics": None, "allow_auto_topic_creation": False}
    assert METADATA.encode_request(version, body) == golden("metadata_request", version)
    assert METADATA.decode_request(version, golden("metadata_request", version)) == {
        **body,
        "include_cluster_authorized_operations": False,
        "include_topic_authorized_operations": False,
    }


def test_metadata_request_v0_asks_for_every_topic_with_an_empty_array() -> None:
    assert METADATA.encode_request(0, {"topics": []}) == bytes(4)
    with pytest.raises(InvalidArgumentError, match="null"):
        METADATA.encode_request(0, {"topics": None})


@pytest.mark.parametrize("version", [1, 5, 9, 10, 12, 13])
def test_metadata_response_is_byte_exact(version: int) -> None:
    data = golden("metadata_response", version)
    body = metadata_response(version)
    assert METADATA.decode_response(version, data) == body
    assert METADATA.encode_response(version, body) == data


def test_metadata_speaks_every_version_of_kafka_4() -> None:
    assert (METADATA.api_key, METADATA.min_version, METADATA.max_version) == (3, 0, 13)
    assert METADATA.is_flexible(9) and not METADATA.is_flexible(8)


def create_request() -> dict[str, Any]:
    return {
        "topics": [
            {
                "name": "orders",
                "num_partitions": 3,
                "replication_factor": 2,
                "assignments": [],
                "configs": [{"name": "retention.ms", "value": "1000"}],
            },
            {
                "name": "placed",
                "num_partitions": -1,
                "replication_factor": -1,
                "assignments": [{"partition_index": 0, "broker_ids": [1, 2]}],
                "configs": [],
            },
        ],
        "timeout_ms": 5000,
        "validate_only": True,
    }


def create_response(version: int) -> dict[str, Any]:
    since_v5 = version >= 5
    return {
        "throttle_time_ms": 0,
        "topics": [
            {
                "name": "orders",
                "topic_id": TOPIC_ID if version >= 7 else NO_ID,
                "error_code": 0,
                "error_message": None,
                "topic_config_error_code": 0,
                "num_partitions": 3 if since_v5 else -1,
                "replication_factor": 2 if since_v5 else -1,
                "configs": [
                    {
                        "name": "retention.ms",
                        "value": "1000",
                        "read_only": False,
                        "config_source": 1,
                        "is_sensitive": False,
                    }
                ]
                if since_v5
                else None,
            },
            {
                "name": "taken",
                "topic_id": NO_ID,
                "error_code": 36,
                "error_message": "Topic 'taken' already exists.",
                "topic_config_error_code": 29 if since_v5 else 0,  # a tagged field
                "num_partitions": -1,
                "replication_factor": -1,
                "configs": None,
            },
        ],
    }


@pytest.mark.parametrize("version", [2, 4, 5, 7])
def test_create_topics_request_is_byte_exact(version: int) -> None:
    data = golden("create_request", version)
    assert CREATE_TOPICS.encode_request(version, create_request()) == data
    assert CREATE_TOPICS.decode_request(version, data) == create_request()


@pytest.mark.parametrize("version", [2, 4, 5, 7])
def test_create_topics_response_is_byte_exact(version: int) -> None:
    data = golden("create_response", version)
    body = create_response(version)
    assert CREATE_TOPICS.decode_response(version, data) == body
    assert CREATE_TOPICS.encode_response(version, body) == data


def test_create_topics_speaks_v2_to_v7_only() -> None:
    assert (CREATE_TOPICS.api_key, CREATE_TOPICS.min_version, CREATE_TOPICS.max_version) == (
        19,
        2,
        7,
    )
    with pytest.raises(UnsupportedVersionError):
        CREATE_TOPICS.encode_request(1, create_request())
