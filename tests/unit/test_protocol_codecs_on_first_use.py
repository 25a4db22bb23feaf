"""The codecs of calls other than the config calls are built when first read (PEP 562).

``from kafka_config_admin import AdminClient`` loads the schemas every config call speaks
(DescribeConfigs, AlterConfigs, IncrementalAlterConfigs, ListConfigResources, Metadata,
ApiVersions, DescribeCluster); the topic, partition, quota, SCRAM and group schemas load with
the first read of their codec. What a program imports is then what it speaks.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from kafka_config_admin import _protocol

LATER = {
    "DESCRIBE_CLIENT_QUOTAS": ("describe_client_quotas", "DescribeClientQuotas", 48, "2.6"),
    "ALTER_CLIENT_QUOTAS": ("alter_client_quotas", "AlterClientQuotas", 49, "2.6"),
    "DESCRIBE_USER_SCRAM_CREDENTIALS": (
        "describe_user_scram_credentials",
        "DescribeUserScramCredentials",
        50,
        "2.7",
    ),
    "ALTER_USER_SCRAM_CREDENTIALS": (
        "alter_user_scram_credentials",
        "AlterUserScramCredentials",
        51,
        "2.7",
    ),
    "CREATE_TOPICS": ("create_topics", "CreateTopics", 19, "0.10.1"),
    "LIST_GROUPS": ("list_groups", "ListGroups", 16, "0.9.0"),
    "CREATE_PARTITIONS": ("create_partitions", "CreatePartitions", 37, "1.0.0"),
    "ALTER_PARTITION_REASSIGNMENTS": (
        "alter_partition_reassignments",
        "AlterPartitionReassignments",
        45,
        "2.4",
    ),
    "LIST_PARTITION_REASSIGNMENTS": (
        "list_partition_reassignments",
        "ListPartitionReassignments",
        46,
        "2.4",
    ),
}


def test_importing_the_client_loads_no_schema_of_the_calls_it_has_not_made() -> None:
    script = (
        "import sys; from kafka_config_admin import AdminClient; "
        "print(sorted(m for m in sys.modules if m.startswith('kafka_config_admin._protocol.')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    for module, *_ in LATER.values():
        assert f"'kafka_config_admin._protocol.{module}'" not in loaded, module
    for module in ("describe_configs", "alter_configs", "incremental_alter_configs"):
        assert f"'kafka_config_admin._protocol.{module}'" in loaded, module


@pytest.mark.parametrize("name", sorted(LATER))
def test_a_codec_read_first_is_its_apis_and_the_same_object_ever_after(name: str) -> None:
    module_name, api, api_key, since = LATER[name]
    codec = getattr(_protocol, name)
    module = importlib.import_module(f"kafka_config_admin._protocol.{module_name}")
    assert (codec.name, codec.api_key, codec.since) == (api, api_key, since)
    assert codec.request is module.REQUEST and codec.response is module.RESPONSE
    assert codec.flexible_response_header
    assert getattr(_protocol, name) is codec
    assert name in _protocol.__all__


def test_a_name_the_package_does_not_have_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="NO_SUCH_CODEC"):
        _protocol.NO_SUCH_CODEC  # noqa: B018
    assert not hasattr(_protocol, "describe_client_quota")
