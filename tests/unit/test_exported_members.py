"""Pins the public surface: everything public is exported from the package root."""

from __future__ import annotations

from types import ModuleType

import kafka_config_admin


def test_all_is_sorted_and_complete() -> None:
    exported = kafka_config_admin.__all__
    assert exported == sorted(exported)
    # Subpackages (testing, desired, cli) show up here once imported; they are not re-exported.
    public = {
        name
        for name, value in vars(kafka_config_admin).items()
        if not name.startswith(("_", "@")) and not isinstance(value, ModuleType)
    }
    assert public == set(exported) - {"__version__"}


def test_public_names_show_their_public_module() -> None:
    for name in kafka_config_admin.__all__:
        obj = getattr(kafka_config_admin, name)
        if isinstance(obj, type):
            assert obj.__module__ == "kafka_config_admin", name


def test_desired_all_is_sorted_and_complete() -> None:
    from kafka_config_admin import desired

    exported = desired.__all__
    assert exported == sorted(exported, key=lambda name: (not name.isupper(), name))
    public = {
        name
        for name, value in vars(desired).items()
        if not name.startswith(("_", "@")) and not isinstance(value, ModuleType)
    }
    assert public == set(exported)


def test_quota_and_scram_names_are_exported() -> None:
    for name in (
        "ClientQuotaAlteration",
        "ClientQuotaEntity",
        "ClientQuotaFilter",
        "ClientQuotaFilterComponent",
        "QuotaEntityType",
        "QuotaMatchType",
        "ScramCredentialInfo",
        "ScramMechanism",
        "UserScramCredentialDeletion",
        "UserScramCredentialUpsertion",
        "UserScramCredentialsDescription",
        "UnacceptableCredentialError",
        "UnsupportedSaslMechanismError",
    ):
        assert name in kafka_config_admin.__all__, name


def test_topic_names_are_exported() -> None:
    for name in (
        "CreateTopicsResult",
        "CreatedTopic",
        "InvalidPartitionsError",
        "InvalidReplicaAssignmentError",
        "InvalidReplicationFactorError",
        "NewTopic",
        "TopicAlreadyExistsError",
        "TopicListing",
        "NewPartitions",
        "PartitionInfo",
        "PartitionReassignment",
        "TopicDescription",
        "TopicPartition",
        "DescribeTopicsResult",
        "CreatePartitionsResult",
        "AlterPartitionReassignmentsResult",
        "ReassignmentInProgressError",
        "NoReassignmentInProgressError",
    ):
        assert name in kafka_config_admin.__all__, name
