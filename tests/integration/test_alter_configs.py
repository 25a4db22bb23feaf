"""incremental_alter_configs and the legacy alter_configs against the real cluster."""

from __future__ import annotations

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    ConfigSource,
    InvalidArgumentError,
    InvalidConfigError,
    OpType,
    PolicyViolationError,
    ResourceType,
)

from .helpers import alter_topic, invalid_config_error, new_topic, settled_entry

pytestmark = pytest.mark.integration


@pytest.mark.compat
async def test_set_delete_append_subtract_are_read_back(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_release: tuple[int, ...]
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    if kafka_release < (2, 6):  # an APPEND to a list the topic does not set fails (KAFKA-9644)
        await alter_topic(admin_client, topic.name, "cleanup.policy", "delete")
    await admin_client.incremental_alter_configs(
        {
            topic: [
                AlterConfigOp("retention.ms", "86400000", OpType.SET),
                AlterConfigOp("cleanup.policy", "compact", OpType.APPEND),
            ]
        }
    ).all()
    await settled_entry(admin_client, topic, "retention.ms", "86400000")
    await settled_entry(admin_client, topic, "cleanup.policy", "delete,compact")

    await admin_client.incremental_alter_configs(
        {
            topic: [
                AlterConfigOp("cleanup.policy", "delete", OpType.SUBTRACT),
                AlterConfigOp("retention.ms", op=OpType.DELETE),
            ]
        }
    ).all()
    await settled_entry(admin_client, topic, "cleanup.policy", "compact")
    entry = await settled_entry(admin_client, topic, "retention.ms", "604800000")
    assert entry.source is ConfigSource.DEFAULT_CONFIG


@pytest.mark.compat
async def test_validate_only_changes_nothing(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_release: tuple[int, ...]
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    await admin_client.incremental_alter_configs(
        {topic: [AlterConfigOp("retention.ms", "123456")]}, validate_only=True
    ).all()
    await settled_entry(admin_client, topic, "retention.ms", "604800000")
    bad = admin_client.incremental_alter_configs(
        {topic: [AlterConfigOp("retention.ms", "not-a-number")]}, validate_only=True
    )
    with pytest.raises(invalid_config_error(kafka_release)):
        await bad.all()


@pytest.mark.compat
async def test_resources_fail_independently(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_release: tuple[int, ...]
) -> None:
    good = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    bad = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    result = admin_client.incremental_alter_configs(
        {
            bad: [
                AlterConfigOp("retention.ms", "7200000"),
                AlterConfigOp("max.message.bytes", "10", OpType.APPEND),
            ],  # not a list key
            good: [AlterConfigOp("retention.ms", "7200000")],
        }
    )
    with pytest.raises(invalid_config_error(kafka_release)) as caught:
        await result.all()
    assert caught.value.resource == bad
    assert result.values[good].result() is None
    await settled_entry(admin_client, good, "retention.ms", "7200000")
    await settled_entry(admin_client, bad, "retention.ms", "604800000")


@pytest.mark.compat
async def test_unknown_config_name_is_an_invalid_config(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    result = admin_client.incremental_alter_configs({topic: [AlterConfigOp("no.such.config", "1")]})
    with pytest.raises(InvalidConfigError, match=r"no\.such\.config"):
        await result.all()


@pytest.mark.compat
async def test_policy_rejection_is_a_typed_error(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    result = admin_client.incremental_alter_configs(
        {topic: [AlterConfigOp("retention.ms", "1000")]}
    )
    with pytest.raises(PolicyViolationError) as caught:
        await result.all()
    assert caught.value.code == 44 and caught.value.resource == topic
    await settled_entry(admin_client, topic, "retention.ms", "604800000")


@pytest.mark.compat
async def test_dynamic_broker_and_logger_configs(
    admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    node = str(kafka_broker_ids[-1])
    broker = ConfigResource(ResourceType.BROKER, node)
    logger = ConfigResource(ResourceType.BROKER_LOGGER, node)
    default = ConfigResource(ResourceType.BROKER, "")
    await admin_client.incremental_alter_configs(
        {
            broker: [AlterConfigOp("log.cleaner.threads", "2")],
            logger: [AlterConfigOp("kafka.server.ReplicaManager", "DEBUG")],
            default: [AlterConfigOp("log.retention.bytes", "1073741824")],
        }
    ).all()
    try:
        entry = await settled_entry(admin_client, broker, "log.cleaner.threads", "2")
        assert entry.source is ConfigSource.DYNAMIC_BROKER_CONFIG
        await settled_entry(admin_client, logger, "kafka.server.ReplicaManager", "DEBUG")
        await settled_entry(admin_client, default, "log.retention.bytes", "1073741824")
    finally:
        await admin_client.incremental_alter_configs(
            {
                broker: [AlterConfigOp("log.cleaner.threads", op=OpType.DELETE)],
                logger: [AlterConfigOp("kafka.server.ReplicaManager", "INFO")],
                default: [AlterConfigOp("log.retention.bytes", op=OpType.DELETE)],
            }
        ).all()


@pytest.mark.compat
async def test_legacy_alter_replaces_the_whole_set(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    await admin_client.incremental_alter_configs(
        {topic: [AlterConfigOp("max.message.bytes", "2000000")]}
    ).all()
    with pytest.warns(DeprecationWarning, match="deletes"):
        result = admin_client.alter_configs({topic: {"retention.ms": 7200000}})
    await result.all()
    await settled_entry(admin_client, topic, "retention.ms", "7200000")
    await settled_entry(admin_client, topic, "max.message.bytes", "1048588")


@pytest.mark.compat
async def test_bad_ops_raise_before_anything_is_sent(admin_client: AdminClient) -> None:
    topic = ConfigResource(ResourceType.TOPIC, "anything")
    with pytest.raises(InvalidArgumentError, match="needs a value"):
        admin_client.incremental_alter_configs({topic: [AlterConfigOp("retention.ms")]})
    with pytest.raises(InvalidArgumentError, match="twice"):
        admin_client.incremental_alter_configs(
            {topic: [AlterConfigOp("a", "1"), AlterConfigOp("a", "2", OpType.APPEND)]}
        )


async def test_group_and_client_metrics_configs(admin_client: AdminClient) -> None:
    group = ConfigResource(ResourceType.GROUP, "payments-group")
    metrics = ConfigResource(ResourceType.CLIENT_METRICS, "producer-metrics")
    await admin_client.incremental_alter_configs(
        {
            group: [AlterConfigOp("consumer.session.timeout.ms", "50000")],
            metrics: [
                AlterConfigOp("metrics", "org.apache.kafka.producer."),
                AlterConfigOp("interval.ms", "60000"),
            ],
        }
    ).all()
    entry = await settled_entry(admin_client, group, "consumer.session.timeout.ms", "50000")
    assert entry.source is ConfigSource.GROUP_CONFIG
    entry = await settled_entry(admin_client, metrics, "interval.ms", "60000")
    assert entry.source is ConfigSource.CLIENT_METRICS_CONFIG
    config = await admin_client.describe_configs([metrics], include_documentation=True).values[
        metrics
    ]
    assert config["metrics"].parsed_value == ["org.apache.kafka.producer."]
