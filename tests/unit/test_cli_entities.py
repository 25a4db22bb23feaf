"""kafka-configs.sh's entity options and quota/SCRAM changes as the command line reads them."""

from __future__ import annotations

import click
import pytest

from kafka_config_admin import (
    AlterConfigOp,
    ClientQuotaEntity,
    ConfigResource,
    InvalidArgumentError,
    OpType,
    ResourceType,
    ScramMechanism,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from kafka_config_admin.cli._entities import EntityOptions, entities, quota_changes
from kafka_config_admin.cli._options import selection_options
from kafka_config_admin.cli._resources import QuotaSelection, Selection, UsageError


def selected(*argv: str) -> Selection:
    """What ``selection_options`` makes of a command line (click parses it, as the CLI does)."""
    seen: list[Selection] = []

    @click.command()
    @selection_options()
    def command(selection: Selection) -> None:
        seen.append(selection)

    command.main(list(argv), standalone_mode=False)
    return seen[0]


def quota(*argv: str) -> QuotaSelection:
    selection = selected(*argv)
    assert selection.quota is not None and not selection.resources
    return selection.quota


@pytest.mark.parametrize(
    ("argv", "entity"),
    [
        (["--entity-type", "users", "--entity-name", "alice"], {"user": "alice"}),
        (["--entity-type", "users", "--entity-default"], {"user": None}),
        (["--entity-type", "clients", "--entity-name", "app"], {"client-id": "app"}),
        (["--entity-type", "ips", "--entity-name", "10.1.2.3"], {"ip": "10.1.2.3"}),
        (["--entity-type", "ips", "--entity-default"], {"ip": None}),
        (
            [
                "--entity-type",
                "users",
                "--entity-default",
                "--entity-type",
                "clients",
                "--entity-name",
                "app",
            ],
            {"user": None, "client-id": "app"},
        ),
        (
            [
                "--entity-type",
                "users",
                "--entity-name",
                "alice",
                "--entity-type",
                "clients",
                "--entity-default",
            ],
            {"user": "alice", "client-id": None},
        ),
        (
            [
                "--entity-type",
                "clients",
                "--entity-type",
                "users",
                "--entity-name",
                "app",
                "--entity-name",
                "alice",
            ],
            {"user": "alice", "client-id": "app"},
        ),
        (["--user", "alice", "--client", "app"], {"user": "alice", "client-id": "app"}),
        (["--user-defaults", "--client-defaults"], {"user": None, "client-id": None}),
        (["--ip", "::1"], {"ip": "::1"}),
    ],
)
def test_names_pair_with_types_in_order(argv: list[str], entity: dict[str, str | None]) -> None:
    assert quota(*argv).entity() == ClientQuotaEntity(entity)


def test_a_type_without_a_name_describes_every_entity_but_alters_none() -> None:
    selection = quota("--entity-type", "users")
    assert selection.has_scram and selection.one_user is None
    assert str(selection.filter()) and selection.filter().strict
    with pytest.raises(UsageError, match="--entity-name or --entity-default must be given"):
        selection.entity()


def test_scram_is_described_for_users_but_not_the_default_user_nor_clients() -> None:
    assert quota("--entity-type", "users", "--entity-name", "a").has_scram
    assert not quota("--entity-type", "users", "--entity-default").has_scram
    assert not quota("--user", "a", "--client", "b").has_scram


def test_config_entity_types_name_config_resources() -> None:
    assert selected("--entity-type", "topics", "--entity-name", "orders").resources == (
        ConfigResource(ResourceType.TOPIC, "orders"),
    )
    assert selected("--entity-type", "brokers", "--entity-default").resources == (
        ConfigResource(ResourceType.BROKER, ""),
    )
    assert selected("--entity-default").resources == (ConfigResource(ResourceType.BROKER, ""),)
    assert selected("--broker-default").resources == (ConfigResource(ResourceType.BROKER, ""),)


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--entity-type", "userz", "--entity-name", "a"], "unknown entity type 'userz'"),
        (["--entity-type", "users", "--entity-type", "ips"], "only 'users' and 'clients'"),
        (["--entity-type", "users", "--entity-type", "users"], "given twice"),
        (["--entity-name", "a"], "more --entity-name"),
        (["--entity-type", "ips", "--entity-name", "not-an-ip"], "not an IP address"),
        (["--entity-type", "users", "--user", "a"], "cannot be combined"),
        (["--entity-type", "groups", "--entity-default"], "not groups"),
        (["--entity-type", "topics"], "needs --entity-name"),
        (["orders", "--user", "alice"], "name it alone"),
    ],
)
def test_bad_entity_options(argv: list[str], problem: str) -> None:
    with pytest.raises(UsageError, match=problem):
        selected(*argv)


def alice() -> QuotaSelection:
    return quota("--entity-type", "users", "--entity-name", "alice")


def test_quota_changes_set_and_remove() -> None:
    ops = [
        AlterConfigOp("producer_byte_rate", "1024"),
        AlterConfigOp("request_percentage", "12.5"),
        AlterConfigOp("consumer_byte_rate", None, OpType.DELETE),
    ]
    changes = quota_changes(alice(), ops)
    assert changes.quotas == {
        "producer_byte_rate": 1024.0,
        "request_percentage": 12.5,
        "consumer_byte_rate": None,
    }
    assert changes.scram == []


def test_scram_changes_upsert_with_iterations_and_delete() -> None:
    value = "iterations=8192,password=pa,ss=word"
    [upsert] = quota_changes(alice(), [AlterConfigOp("SCRAM-SHA-256", value)]).scram
    assert isinstance(upsert, UserScramCredentialUpsertion)
    assert (upsert.user, upsert.mechanism, upsert.iterations) == (
        "alice",
        ScramMechanism.SCRAM_SHA_256,
        8192,
    )
    [default] = quota_changes(alice(), [AlterConfigOp("SCRAM-SHA-512", "password=x")]).scram
    assert isinstance(default, UserScramCredentialUpsertion) and default.iterations == 4096
    [deletion] = quota_changes(alice(), [AlterConfigOp("SCRAM-SHA-512", None, OpType.DELETE)]).scram
    assert deletion == UserScramCredentialDeletion("alice", "SCRAM-SHA-512")


@pytest.mark.parametrize(
    ("selection", "op", "problem"),
    [
        (alice(), AlterConfigOp("SCRAM-SHA-256", "iterations=8192"), "needs a password"),
        (alice(), AlterConfigOp("SCRAM-SHA-256", "iterations=x,password=p"), "whole number"),
        (alice(), AlterConfigOp("producer_byte_rate", "fast"), "must be a finite number above 0"),
        (alice(), AlterConfigOp("producer_byte_rate", "-1"), "must be a finite number above 0"),
        (alice(), AlterConfigOp("producer_byte_rate", "0"), "Kafka refuses 0 and below"),
        (alice(), AlterConfigOp("retention.ms", "1"), "not a quota key of user 'alice'"),
        (alice(), AlterConfigOp("producer_byte_rate", "1", OpType.APPEND), "not APPEND"),
        (
            quota("--ip", "10.0.0.1"),
            AlterConfigOp("producer_byte_rate", "1"),
            "use connection_creation_rate",
        ),
        (
            quota("--user-defaults"),
            AlterConfigOp("SCRAM-SHA-256", "password=p"),
            "belong to one named user",
        ),
        (
            quota("--user", "a", "--client", "b"),
            AlterConfigOp("SCRAM-SHA-256", "password=p"),
            "belong to one named user",
        ),
    ],
)
def test_bad_changes(selection: QuotaSelection, op: AlterConfigOp, problem: str) -> None:
    with pytest.raises(UsageError, match=problem):
        quota_changes(selection, [op])


def test_quotas_and_scram_are_not_changed_together() -> None:
    ops = [AlterConfigOp("producer_byte_rate", "1"), AlterConfigOp("SCRAM-SHA-256", "password=p")]
    with pytest.raises(UsageError, match="cannot be changed on one command line"):
        quota_changes(alice(), ops)


def test_iterations_out_of_range_are_refused_without_the_password() -> None:
    op = AlterConfigOp("SCRAM-SHA-256", "iterations=10,password=hunter2")
    with pytest.raises(InvalidArgumentError, match="iterations") as refused:
        quota_changes(alice(), [op])
    assert "hunter2" not in str(refused.value)


def test_entity_options_without_types_or_names_name_nothing() -> None:
    assert entities(EntityOptions()) == ([], (), None)


def test_deleting_a_key_not_set_on_the_resource_is_refused_as_kafka_configs_does() -> None:
    """kafka-configs.sh: "Invalid config(s)" for a delete of a key the resource does not set
    itself; a key set on it is deleted; a key already refused is not said twice."""
    from kafka_config_admin import AlterConfigOp, ConfigSource, OpType
    from kafka_config_admin.changeset._build import deletes_of_keys_not_set
    from kafka_config_admin.state import ClusterState, Problem

    from .desired_helpers import BROKER, TOPIC, broker_config, entry, topic_config

    state = ClusterState(
        configs={
            TOPIC: topic_config(segment=entry("segment.ms", "3600000", ConfigSource.TOPIC_CONFIG)),
            BROKER: broker_config(
                entry("log.cleaner.backoff.ms", "1", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)
            ),
        }
    )
    delete = {
        name: AlterConfigOp(name, None, OpType.DELETE)
        for name in ("segment.ms", "retention.ms", "nope")
    }
    known = [Problem(resource=TOPIC, key="nope", value=None, expected_type=None, message="x")]
    problems = deletes_of_keys_not_set({TOPIC: list(delete.values())}, state, known)
    assert [(p.key, p.message) for p in problems] == [
        (
            "retention.ms",
            "is not set on it, so there is nothing to delete (its value comes from DEFAULT_CONFIG)",
        )
    ]
    cleaner = AlterConfigOp("log.cleaner.backoff.ms", None, OpType.DELETE)
    [problem] = deletes_of_keys_not_set({BROKER: [cleaner]}, state)
    assert "comes from DYNAMIC_DEFAULT_BROKER_CONFIG" in str(problem)
