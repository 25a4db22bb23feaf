"""One vocabulary for resource kinds: every face reads them with ResourceKind.parse."""

from __future__ import annotations

import pytest

from kafka_config_admin import ConfigResource, InvalidArgumentError, ResourceType
from kafka_config_admin.desired import parse_desired_state
from kafka_config_admin.state import ResourceKind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("topic", ResourceKind.TOPIC),
        ("Topics", ResourceKind.TOPIC),
        ("broker-logger", ResourceKind.BROKER_LOGGER),
        ("BROKER_LOGGERS", ResourceKind.BROKER_LOGGER),
        (" client-metrics ", ResourceKind.CLIENT_METRICS),
        ("cluster-default", ResourceKind.CLUSTER_DEFAULT),
        ("broker_default", ResourceKind.CLUSTER_DEFAULT),  # the Spark source's and feed's
        ("Broker-Default", ResourceKind.CLUSTER_DEFAULT),
        ("scram-users", ResourceKind.SCRAM_USER),
        ("quota", ResourceKind.QUOTA),
    ],
)
def test_every_spelling_users_type_names_its_kind(text: str, kind: ResourceKind) -> None:
    assert ResourceKind.parse(text) is kind


def test_an_unknown_or_refused_kind_is_named_with_the_choices() -> None:
    with pytest.raises(InvalidArgumentError, match=r"'queue' is not a resource type; use one of"):
        ResourceKind.parse("queue")
    configs = [kind for kind in ResourceKind if kind.is_config]
    with pytest.raises(InvalidArgumentError, match=r"resourceTypes: 'quota' is not a resource"):
        ResourceKind.parse("quota", allowed=configs, where="resourceTypes: ")


def test_kinds_of_resources_sections_and_types() -> None:
    assert ResourceKind.of(ConfigResource(ResourceType.BROKER, "")) is ResourceKind.CLUSTER_DEFAULT
    assert ResourceKind.of(ConfigResource(ResourceType.BROKER, "1")) is ResourceKind.BROKER
    assert [kind.section for kind in ResourceKind] == [
        "topics", "brokers", "cluster_default", "broker_loggers", "groups", "client_metrics",
        "quotas", "scram_users",
    ]  # fmt: skip
    assert ResourceKind.CLUSTER_DEFAULT.resource_type is ResourceType.BROKER
    assert ResourceKind.QUOTA.resource_type is None and not ResourceKind.QUOTA.is_config
    assert ResourceKind.CLIENT_METRICS.dashed == "client-metrics"


def test_a_rule_takes_the_old_spellings_of_its_resource() -> None:
    desired = parse_desired_state(
        "rules:\n"
        "  - {resource: broker_default, check: 'log.retention.ms >= 1'}\n"
        "  - {resource: topics, check: 'retention.ms >= 1'}\n"
    )
    assert [rule.resource for rule in desired.rules] == [
        ResourceKind.CLUSTER_DEFAULT,
        ResourceKind.TOPIC,
    ]
