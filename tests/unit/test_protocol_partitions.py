"""CreatePartitions (key 37), AlterPartitionReassignments (key 45) and
ListPartitionReassignments (key 46): byte-exact against Kafka's own serializers.

The expected bytes below were written by Kafka 4.3's generated message classes
(``MessageUtil.toByteBufferAccessor(message, version)`` in kafka-clients), for the same bodies
as the dicts here: our encoder must produce them and our decoder must read them back.
"""

from __future__ import annotations

from typing import Any

import pytest

from kafka_config_admin import ProtocolError, UnsupportedVersionError
from kafka_config_admin._protocol import (
    ALTER_PARTITION_REASSIGNMENTS,
    CREATE_PARTITIONS,
    LIST_PARTITION_REASSIGNMENTS,
    ApiCodec,
)

_CREATE_V0 = (
    "0000000200066f726465727300000006ffffffff00046c6f6773000000030000000200000002000000010000"
    "00020000000200000003000000010000753001"
)
_CREATE_V2 = (
    "03076f7264657273000000060000056c6f67730000000303030000000100000002000300000003000000010000"
    "000075300100"
)
_ALTER_RESPONSE = "00000002076f7264657273030000000000000000000000010055056e6f6e65000000"

CREATE_REQUEST = {
    "topics": [
        {"name": "orders", "count": 6, "assignments": None},
        {
            "name": "logs",
            "count": 3,
            "assignments": [{"broker_ids": [1, 2]}, {"broker_ids": [3, 1]}],
        },
    ],
    "timeout_ms": 30000,
    "validate_only": True,
}
CREATE_RESPONSE = {
    "throttle_time_ms": 5,
    "results": [
        {"name": "orders", "error_code": 0, "error_message": None},
        {"name": "logs", "error_code": 37, "error_message": "no"},
    ],
}
ALTER_REQUEST = {
    "timeout_ms": 25000,
    "allow_replication_factor_change": True,
    "topics": [
        {
            "name": "orders",
            "partitions": [
                {"partition_index": 0, "replicas": [1, 2, 3]},
                {"partition_index": 1, "replicas": None},
            ],
        }
    ],
}
ALTER_RESPONSE = {
    "throttle_time_ms": 5,
    "allow_replication_factor_change": True,
    "error_code": 0,
    "error_message": None,
    "responses": [
        {
            "name": "orders",
            "partitions": [
                {"partition_index": 0, "error_code": 0, "error_message": None},
                {"partition_index": 1, "error_code": 85, "error_message": "none"},
            ],
        }
    ],
}
LIST_ALL = {"timeout_ms": 25000, "topics": None}
LIST_SOME = {"timeout_ms": 25000, "topics": [{"name": "orders", "partition_indexes": [0, 2]}]}
LIST_RESPONSE = {
    "throttle_time_ms": 5,
    "error_code": 0,
    "error_message": None,
    "topics": [
        {
            "name": "orders",
            "partitions": [
                {
                    "partition_index": 0,
                    "replicas": [1, 2, 3],
                    "adding_replicas": [3],
                    "removing_replicas": [1],
                }
            ],
        }
    ],
}

REQUESTS: list[tuple[ApiCodec, int, dict[str, Any], str]] = [
    (CREATE_PARTITIONS, 0, CREATE_REQUEST, _CREATE_V0),
    (CREATE_PARTITIONS, 1, CREATE_REQUEST, _CREATE_V0),
    (CREATE_PARTITIONS, 2, CREATE_REQUEST, _CREATE_V2),
    (CREATE_PARTITIONS, 3, CREATE_REQUEST, _CREATE_V2),
    (
        ALTER_PARTITION_REASSIGNMENTS,
        0,
        ALTER_REQUEST,
        "000061a802076f7264657273030000000004000000010000000200000003000000000100000000",
    ),
    (
        ALTER_PARTITION_REASSIGNMENTS,
        1,
        ALTER_REQUEST,
        "000061a80102076f7264657273030000000004000000010000000200000003000000000100000000",
    ),
    (LIST_PARTITION_REASSIGNMENTS, 0, LIST_ALL, "000061a80000"),
    (LIST_PARTITION_REASSIGNMENTS, 0, LIST_SOME, "000061a802076f72646572730300000000000000020000"),
]

RESPONSES: list[tuple[ApiCodec, int, dict[str, Any], str]] = [
    (
        CREATE_PARTITIONS,
        0,
        CREATE_RESPONSE,
        "000000050000000200066f72646572730000ffff00046c6f6773002500026e6f",
    ),
    (
        CREATE_PARTITIONS,
        3,
        CREATE_RESPONSE,
        "0000000503076f726465727300000000056c6f67730025036e6f0000",
    ),
    (ALTER_PARTITION_REASSIGNMENTS, 0, ALTER_RESPONSE, "00000005" + _ALTER_RESPONSE),
    (ALTER_PARTITION_REASSIGNMENTS, 1, ALTER_RESPONSE, "0000000501" + _ALTER_RESPONSE),
    (
        LIST_PARTITION_REASSIGNMENTS,
        0,
        LIST_RESPONSE,
        "0000000500000002076f726465727302000000000400000001000000020000000302000000030200000001"
        "000000",
    ),
]


@pytest.mark.parametrize(("codec", "version", "body", "golden"), REQUESTS)
def test_requests_are_byte_exact(
    codec: ApiCodec, version: int, body: dict[str, Any], golden: str
) -> None:
    assert codec.encode_request(version, body).hex() == golden
    assert codec.decode_request(version, bytes.fromhex(golden)) == _present(codec, version, body)


@pytest.mark.parametrize(("codec", "version", "body", "golden"), RESPONSES)
def test_responses_decode_and_encode_byte_exact(
    codec: ApiCodec, version: int, body: dict[str, Any], golden: str
) -> None:
    assert codec.decode_response(version, bytes.fromhex(golden)) == body
    assert codec.encode_response(version, body).hex() == golden


def _present(codec: ApiCodec, version: int, body: dict[str, Any]) -> dict[str, Any]:
    """The body as decoded at ``version``: a field the version lacks takes its default."""
    if codec is ALTER_PARTITION_REASSIGNMENTS and version == 0:
        return {**body, "allow_replication_factor_change": True}
    return body


def test_a_replication_factor_change_cannot_be_refused_before_kip_860() -> None:
    # v0 always allows it: a body asking to refuse it cannot be sent at v0.
    refusing = {**ALTER_REQUEST, "allow_replication_factor_change": False}
    assert ALTER_PARTITION_REASSIGNMENTS.encode_request(1, refusing).hex().startswith("000061a800")
    with pytest.raises(UnsupportedVersionError, match="allow_replication_factor_change"):
        ALTER_PARTITION_REASSIGNMENTS.encode_request(0, refusing)


def test_truncated_responses_are_protocol_errors() -> None:
    for codec, version, _, golden in RESPONSES:
        with pytest.raises(ProtocolError):
            codec.decode_response(version, bytes.fromhex(golden)[:-3])
