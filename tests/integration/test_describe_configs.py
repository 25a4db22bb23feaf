"""describe_configs against the real 3-broker cluster."""

from __future__ import annotations

import pytest

from kafka_config_admin import (
    AdminClient,
    ConfigResource,
    ConfigSource,
    ConfigType,
    InvalidArgumentError,
    KafkaTimeoutError,
    ResourceType,
    UnknownTopicOrPartitionError,
)

from .helpers import alter_topic, new_topic, settled_entry

pytestmark = pytest.mark.integration


async def test_describe_topic_with_types_and_documentation(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    result = admin_client.describe_configs([topic], include_documentation=True)
    config = await result.values[topic]
    entry = config["retention.ms"]
    assert entry.type is ConfigType.LONG
    assert entry.documentation and "retain" in entry.documentation.lower()
    assert entry.source is ConfigSource.DEFAULT_CONFIG and entry.is_default
    assert entry.parsed_value == 604800000
    assert config["cleanup.policy"].type is ConfigType.LIST
    assert config["cleanup.policy"].parsed_value == ["delete"]
    assert config["unclean.leader.election.enable"].type is ConfigType.BOOLEAN
    assert len(config) > 20


@pytest.mark.compat
async def test_without_documentation_the_broker_sends_no_docs(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    config = await admin_client.describe_configs([topic]).values[topic]
    assert config["retention.ms"].documentation is None


@pytest.mark.compat
async def test_synonyms_show_where_a_value_comes_from(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    await alter_topic(admin_client, name, "retention.ms", "3600000")
    topic = ConfigResource(ResourceType.TOPIC, name)
    entry = await settled_entry(admin_client, topic, "retention.ms", "3600000")
    assert entry.value == "3600000" and entry.source is ConfigSource.TOPIC_CONFIG
    assert [(s.name, s.value, s.source) for s in entry.synonyms] == [
        ("retention.ms", "3600000", ConfigSource.TOPIC_CONFIG)
    ]


async def test_broker_synonyms_show_static_and_default_values(admin_client: AdminClient) -> None:
    # Kafka 4 only: ZooKeeper-era brokers have broker.id, and 3.x lists node.id's default (-1)
    # as a second synonym.
    broker = ConfigResource(ResourceType.BROKER, "1")
    config = await admin_client.describe_configs(
        {broker: ["log.retention.hours", "node.id"]}, include_synonyms=True
    ).values[broker]
    assert [(s.value, s.source) for s in config["node.id"].synonyms] == [
        ("1", ConfigSource.STATIC_BROKER_CONFIG)
    ]
    assert [(s.value, s.source) for s in config["log.retention.hours"].synonyms] == [
        ("168", ConfigSource.DEFAULT_CONFIG)
    ]
    plain = await admin_client.describe_configs({broker: ["node.id"]}).values[broker]
    assert plain["node.id"].synonyms == ()


@pytest.mark.compat
async def test_key_filter_returns_only_the_named_keys(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    result = admin_client.describe_configs(
        {topic: ["retention.ms", "cleanup.policy", "no.such.key"]}
    )
    config = await result.values[topic]
    assert set(config) == {"retention.ms", "cleanup.policy"}


async def test_named_brokers_cluster_default_and_loggers_are_routed(
    admin_client: AdminClient, kafka_broker_ids: list[int]
) -> None:
    brokers = [ConfigResource(ResourceType.BROKER, str(node)) for node in kafka_broker_ids]
    loggers = [ConfigResource(ResourceType.BROKER_LOGGER, str(node)) for node in kafka_broker_ids]
    default = ConfigResource(ResourceType.BROKER, "")
    configs = await admin_client.describe_configs([*brokers, default, *loggers]).all()
    for broker in brokers:
        entry = configs[broker]["node.id"]
        assert entry.value == broker.name, "each broker answered for itself"
        assert entry.source is ConfigSource.STATIC_BROKER_CONFIG
    assert all(
        e.source is ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG for e in configs[default].values()
    )
    for logger in loggers:
        assert "root" in configs[logger] or "kafka" in configs[logger]
        assert all(
            e.source is ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG for e in configs[logger].values()
        )


@pytest.mark.compat
async def test_missing_topic_fails_only_its_own_future(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    good = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    missing = ConfigResource(ResourceType.TOPIC, "no-such-topic-here")
    broker = ConfigResource(ResourceType.BROKER, "1")
    result = admin_client.describe_configs([missing, good, broker])
    with pytest.raises(UnknownTopicOrPartitionError) as caught:
        await result.all()
    assert caught.value.resource == missing and caught.value.code == 3
    assert "retention.ms" in await result.values[good]
    assert "log.retention.hours" in result.values[broker].result()
    assert set(result.errors()) == {missing}


@pytest.mark.compat
async def test_large_calls_are_split_into_requests_with_the_same_answers(
    admin_client: AdminClient, kafka_bootstrap: str, sent_requests: list[str]
) -> None:
    plain = [await new_topic(admin_client, kafka_bootstrap) for _ in range(2)]
    custom = await new_topic(admin_client, kafka_bootstrap, {"retention.ms": "3600000"})
    missing = ConfigResource(ResourceType.TOPIC, "no-such-topic-here")
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in [*plain, custom]]
    resources = [topics[0], missing, topics[1], topics[2], ConfigResource(ResourceType.BROKER, "")]
    sent_requests.clear()  # new_topic polls with describes
    whole = admin_client.describe_configs(resources, include_synonyms=True)
    await whole.wait()
    assert sent_requests == ["DescribeConfigs"]
    async with AdminClient(kafka_bootstrap, describe_batch_size=2) as split_client:
        split = split_client.describe_configs(resources, include_synonyms=True)
        await split.wait()
    assert len(sent_requests) == 1 + 3  # five resources in requests of two
    assert set(split.errors()) == set(whole.errors()) == {missing}
    assert isinstance(split.values[missing].exception(), UnknownTopicOrPartitionError)
    for resource in resources:
        if resource != missing:
            assert split.values[resource].result() == whole.values[resource].result()
    first, second, third = (split.values[topic].result() for topic in topics)
    # Identical entries are one object, even across the call's requests (first and third).
    assert first["retention.ms"] is second["retention.ms"]
    assert first["cleanup.policy"] is third["cleanup.policy"]
    assert third["retention.ms"].value == "3600000"


@pytest.mark.compat
async def test_concurrent_describes_share_requests_and_keep_their_own_answers(
    admin_client: AdminClient, kafka_bootstrap: str, sent_requests: list[str]
) -> None:
    names = [await new_topic(admin_client, kafka_bootstrap) for _ in range(3)]
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    missing = ConfigResource(ResourceType.TOPIC, "no-such-topic-here")
    sent_requests.clear()  # new_topic polls with describes
    calls = [
        admin_client.describe_configs([topics[0]]),
        admin_client.describe_configs([topics[1], missing]),
        admin_client.describe_configs([topics[0], topics[2]]),  # topics[0] again
        admin_client.describe_configs({topics[2]: ["retention.ms"]}),  # other names: not merged
        admin_client.describe_configs([topics[1]], include_synonyms=True),  # other flags
    ]
    for call in calls:
        await call.wait()
    # calls[0] and calls[4] are written at once (nothing was in flight for their flags);
    # calls[1] and calls[2] share one request; calls[3] asks for other names.
    assert len(sent_requests) == 4
    assert calls[0].values[topics[0]].result() == calls[2].values[topics[0]].result()
    assert isinstance(calls[1].values[missing].exception(), UnknownTopicOrPartitionError)
    assert "cleanup.policy" in calls[1].values[topics[1]].result()
    assert len(calls[2].values[topics[2]].result()) > 20
    assert list(calls[3].values[topics[2]].result()) == ["retention.ms"]
    assert calls[4].values[topics[1]].result()["cleanup.policy"].synonyms
    assert not calls[1].values[topics[1]].result()["cleanup.policy"].synonyms


@pytest.mark.compat
async def test_a_shared_request_outlives_the_call_that_opened_it(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    leader = admin_client.describe_configs([topic], timeout=1e-9)
    followers = [admin_client.describe_configs([topic]) for _ in range(3)]
    with pytest.raises(KafkaTimeoutError):
        await leader.all()
    for follower in followers:
        assert "retention.ms" in (await follower.all())[topic]


@pytest.mark.compat
async def test_sensitive_values_come_back_as_none(
    admin_client: AdminClient, kafka_release: tuple[int, ...]
) -> None:
    broker = ConfigResource(ResourceType.BROKER, "1")
    jaas = "listener.name.sasl_plaintext.plain.sasl.jaas.config"  # set: the SASL listener's users
    config = await admin_client.describe_configs(
        {broker: [jaas, "ssl.key.password"]}, include_synonyms=True, include_documentation=True
    ).values[broker]
    entry = config[jaas]
    assert entry.is_sensitive and entry.source is ConfigSource.STATIC_BROKER_CONFIG
    assert entry.value is None
    assert all(s.value is None for s in entry.synonyms)
    password = ConfigType.PASSWORD if kafka_release >= (2, 6) else ConfigType.UNKNOWN  # KIP-569
    assert config["ssl.key.password"].type is password


@pytest.mark.compat
async def test_bad_input_raises_before_anything_is_sent(admin_client: AdminClient) -> None:
    with pytest.raises(InvalidArgumentError, match="need a name"):
        admin_client.describe_configs([ConfigResource(ResourceType.TOPIC, "")])
    with pytest.raises(InvalidArgumentError, match="twice"):
        admin_client.describe_configs([ConfigResource(ResourceType.GROUP, "g")] * 2)
