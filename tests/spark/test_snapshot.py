"""Snapshots through the ``kafka-configs`` source on local[2], against the real broker."""

from __future__ import annotations

import asyncio

import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition
from pyspark.errors import AnalysisException
from pyspark.sql import DataFrame, Row, SparkSession
from pyspark.sql.functions import col

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    Config,
    ConfigResource,
    ResourceType,
    ScramMechanism,
    UserScramCredentialUpsertion,
)
from kafka_config_admin.testing import ADMIN_USER, KafkaCluster

from .helpers import create_topics, describe, topic, unique, wait_until

# Generous: the first test pays for starting the brokers and Spark on a busy machine.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]


def snapshot(spark: SparkSession, bootstrap: str, **options: str) -> DataFrame:
    return (
        spark.read.format("kafka-configs")
        .option("bootstrap.servers", bootstrap)
        .options(**options)
        .load()
    )


def test_rows_equal_what_the_sdk_describes(spark: SparkSession, kafka_bootstrap: str) -> None:
    names = create_topics(
        kafka_bootstrap, [unique("snap") for _ in range(3)], {"retention.ms": "7200000"}
    )
    rows = snapshot(
        spark,
        kafka_bootstrap,
        topics=",".join(names),
        resourceTypes="topic,broker,broker_default",
        brokers="1",
        synonyms="true",
        documentation="true",
        cluster="main",
    ).collect()
    resources = [topic(name) for name in names] + [
        ConfigResource(ResourceType.BROKER, "1"),
        ConfigResource(ResourceType.BROKER, ""),
    ]
    expected = describe(
        kafka_bootstrap, resources, include_synonyms=True, include_documentation=True
    )
    times = {row.snapshot_time for row in rows}
    assert len(times) == 1
    for resource, config in expected.items():
        assert isinstance(config, Config)
        got = {
            row.name: row
            for row in rows
            if (row.resource_type, row.resource_name) == (resource.type.name, resource.name)
        }
        assert set(got) == set(config), resource
        for name, entry in config.items():
            row = got[name]
            assert row.cluster == "main"
            assert row.value == (None if entry.is_sensitive else entry.value)
            assert row.source == entry.source.name
            assert (row.is_default, row.is_read_only, row.is_sensitive) == (
                entry.is_default,
                entry.is_read_only,
                entry.is_sensitive,
            )
            assert row.config_type == entry.type.name
            assert row.documentation == entry.documentation
            assert [(s.name, s.value, s.source) for s in row.synonyms] == [
                (s.name, None if entry.is_sensitive else s.value, s.source.name)
                for s in entry.synonyms
            ]
            assert row.error is None
    retention = [r for r in rows if r.resource_name == names[0] and r.name == "retention.ms"]
    assert retention[0].value == "7200000"
    assert retention[0].source == "TOPIC_CONFIG"


def test_a_missing_topic_is_a_row_with_its_error(spark: SparkSession, kafka_bootstrap: str) -> None:
    (present,) = create_topics(kafka_bootstrap, [unique("here")])
    missing = unique("missing")
    frame = snapshot(spark, kafka_bootstrap, topics=f"{present},{missing}")
    errors = frame.where(col("error").isNotNull()).collect()
    assert [(row.resource_name, row.error) for row in errors] == [
        (missing, "UnknownTopicOrPartitionError")
    ]
    assert missing in errors[0].error_message
    assert frame.where(col("resource_name") == present).count() > 10


def test_an_unreachable_cluster_is_a_row_not_a_failed_job(spark: SparkSession) -> None:
    rows = snapshot(spark, "127.0.0.1:1", cluster="gone", timeout="3").collect()
    assert len(rows) == 1
    assert rows[0].cluster == "gone"
    assert rows[0].error == "KafkaConnectionError"


def test_topic_pattern_and_partitions_per_shard(spark: SparkSession, kafka_bootstrap: str) -> None:
    prefix = unique("pat")
    names = create_topics(kafka_bootstrap, [f"{prefix}-{i}" for i in range(5)])
    frame = snapshot(spark, kafka_bootstrap, topicPattern=f"{prefix}-[0-3]", topicsPerPartition="2")
    assert frame.rdd.getNumPartitions() == 2
    described = {row.resource_name for row in frame.select("resource_name").distinct().collect()}
    assert described == set(names[:4])


def test_pushed_down_filters_describe_only_the_asked_topics(
    spark: SparkSession, kafka_bootstrap: str, pushdown: bool
) -> None:
    prefix = unique("push")
    names = create_topics(kafka_bootstrap, [f"{prefix}-{i}" for i in range(8)])
    asked = names[2:5]
    # One topic per partition: the scan's partitions are exactly the topics it describes.
    frame = snapshot(spark, kafka_bootstrap, topicPattern=f"{prefix}-.*", topicsPerPartition="1")
    query = frame.where(col("resource_name").isin(asked) & (col("resource_type") == "TOPIC"))
    described = query.rdd.getNumPartitions()
    assert described == (len(asked) if pushdown else len(names))
    found = {row.resource_name for row in query.select("resource_name").distinct().collect()}
    assert found == set(asked)
    other = frame.where(col("cluster") == "elsewhere")
    assert other.count() == 0
    if pushdown:
        assert other.rdd.getNumPartitions() == 1  # nothing to describe: one empty partition


def test_broker_loggers_and_groups_equal_what_the_sdk_describes(
    spark: SparkSession, kafka_bootstrap: str, kafka_broker_ids: list[int]
) -> None:
    group = unique("group")
    rows = snapshot(
        spark, kafka_bootstrap, resourceTypes="broker_logger,group", groups=group
    ).collect()
    resources = [ConfigResource(ResourceType.BROKER_LOGGER, str(b)) for b in kafka_broker_ids]
    resources.append(ConfigResource(ResourceType.GROUP, group))
    for resource, outcome in describe(kafka_bootstrap, resources).items():
        got = [
            row
            for row in rows
            if (row.resource_type, row.resource_name) == (resource.type.name, resource.name)
        ]
        if isinstance(outcome, BaseException):
            assert [row.error for row in got] == [type(outcome).__name__]
        else:
            assert {row.name: row.value for row in got} == {
                name: entry.value for name, entry in outcome.items()
            }


@pytest.mark.kafka(sasl=True, since="2.7")
def test_a_sasl_login_reads_and_a_wrong_password_is_an_error_row(
    spark: SparkSession, kafka_cluster: KafkaCluster
) -> None:
    (name,) = create_topics(kafka_cluster.bootstrap_servers, [unique("sasl")])
    servers = kafka_cluster.sasl_bootstrap_servers
    assert servers is not None
    # A KRaft broker restarted by an earlier test can lose SCRAM users whose credentials
    # were removed before its restart (a broker bug: docs/compatibility.md), `admin` among
    # them; a credential set after the restart reaches every broker, so set admin's again.
    user, password = ADMIN_USER.username, ADMIN_USER.password
    scram(kafka_cluster, UserScramCredentialUpsertion(user, ScramMechanism.SCRAM_SHA_256, password))

    def login(password: str) -> list[Row]:
        return snapshot(
            spark,
            servers,
            topics=name,
            timeout="10",
            **{
                "security.protocol": "SASL_PLAINTEXT",
                "sasl.mechanism": "SCRAM-SHA-256",
                "sasl.username": user,
                "sasl.password": password,
            },
        ).collect()

    # Credentials reach every broker a moment after the controller has them.
    read: list[list[Row]] = []

    def logged_in() -> bool:
        read.append(login(password))
        return all(row.error is None for row in read[-1])

    try:
        wait_until(logged_in, "admin's login", timeout=30)
    except AssertionError as timed_out:
        raise AssertionError(f"{timed_out}; last rows: {read[-1][:2]}") from None
    assert len(read[-1]) > 10
    (refused,) = login("wrong")
    assert (refused.resource_name, refused.error) == (name, "AuthenticationError")


def scram(cluster: KafkaCluster, change: UserScramCredentialUpsertion) -> None:
    """Set a SCRAM credential through the SDK, on the cluster's plain listener."""

    async def alter() -> None:
        async with AdminClient(bootstrap_servers=cluster.bootstrap_servers) as admin:
            await admin.alter_user_scram_credentials([change]).all()

    asyncio.run(alter())


def test_groups_are_listed_when_not_named(spark: SparkSession, kafka_bootstrap: str) -> None:
    (name,) = create_topics(kafka_bootstrap, [unique("grouped")])
    group = unique("listed-group")

    async def commit_offset() -> None:
        consumer = AIOKafkaConsumer(
            bootstrap_servers=kafka_bootstrap, group_id=group, enable_auto_commit=False
        )
        await consumer.start()
        try:
            partition = TopicPartition(name, 0)
            consumer.assign([partition])
            await consumer.commit({partition: 0})
        finally:
            await consumer.stop()

    asyncio.run(commit_offset())
    frame = snapshot(spark, kafka_bootstrap, resourceTypes="group")
    listed = {row.resource_name for row in frame.select("resource_name").distinct().collect()}
    assert group in listed
    rows = frame.where(col("resource_name") == group).collect()
    assert rows and all(row.error is None and row.resource_type == "GROUP" for row in rows)


def test_a_bad_option_fails_the_query_naming_it(spark: SparkSession) -> None:
    frame = snapshot(spark, "127.0.0.1:1", resourceTypes="topic,queue")
    with pytest.raises(AnalysisException, match="'queue' is not a resource type"):
        frame.collect()


def test_a_controller_quorum_is_read_through_bootstrap_controllers(
    spark: SparkSession, kafka_cluster: KafkaCluster
) -> None:
    """``bootstrap.controllers``: the quorum's nodes are the brokers listed, each row what the
    controller describes of itself (KIP-919)."""
    if kafka_cluster.backend == "external":
        pytest.skip("the external backend has no controller listeners")
    quorum = kafka_cluster.bootstrap_controllers
    rows = (
        spark.read.format("kafka-configs")
        .option("bootstrap.controllers", quorum)
        .option("resourceTypes", "broker,broker_default")
        .load()
        .collect()
    )

    async def described() -> dict[ConfigResource, Config]:
        async with AdminClient(bootstrap_controllers=quorum, timeout=60) as admin:
            nodes = [ConfigResource(ResourceType.BROKER, str(n)) for n in admin.broker_ids()]
            return await admin.describe_configs(
                [*nodes, ConfigResource(ResourceType.BROKER, "")]
            ).all()

    expected = asyncio.run(described())
    assert {(row.resource_name, row.name, row.value) for row in rows if row.error is None} == {
        (resource.name, name, None if entry.is_sensitive else entry.value)
        for resource, config in expected.items()
        for name, entry in config.items()
    }
    roles = {row.resource_name: row.value for row in rows if row.name == "process.roles"}
    assert roles == {str(node): "broker,controller" for node in kafka_cluster.quorum_ids}
    assert all(row.cluster == quorum and row.error is None for row in rows)


@pytest.mark.kafka(since="4.1")
def test_groups_and_client_metrics_are_listed_by_the_cluster(
    spark: SparkSession, kafka_bootstrap: str
) -> None:
    """Without ``groups``/``clientMetrics``, every one ``list_config_resources`` lists: a group
    that exists only as config and a client-metrics resource among them."""
    group, metrics = unique("config-only-"), unique("metrics-")

    async def prepare() -> None:
        async with AdminClient(kafka_bootstrap, timeout=60) as admin:
            await admin.incremental_alter_configs(
                {
                    ConfigResource(ResourceType.GROUP, group): [
                        AlterConfigOp("consumer.session.timeout.ms", "50000")
                    ],
                    ConfigResource(ResourceType.CLIENT_METRICS, metrics): [
                        AlterConfigOp("interval.ms", "60000")
                    ],
                }
            ).all()
            for _ in range(100):  # until every broker has it (each lists from its metadata)
                listing = await admin.list_config_resources()
                if {group, metrics} <= {r.name for r in listing.resources}:
                    return
                await asyncio.sleep(0.2)
            raise AssertionError("the new resources were never listed")

    asyncio.run(prepare())
    rows = snapshot(spark, kafka_bootstrap, resourceTypes="group,client_metrics").collect()
    values = {(row.resource_type, row.resource_name, row.name): row.value for row in rows}
    assert values[("GROUP", group, "consumer.session.timeout.ms")] == "50000"
    assert values[("CLIENT_METRICS", metrics, "interval.ms")] == "60000"
