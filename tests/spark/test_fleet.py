"""Fleet mode: one snapshot and one apply across two separate clusters, from a clusters file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.functions import col

from kafka_config_admin import Config
from kafka_config_admin.connect import load_clusters_file
from kafka_config_admin.spark import OPS_SCHEMA, apply_ops
from kafka_config_admin.testing import KafkaCluster, start_cluster

from .helpers import config_value, create_topics, describe, topic, wait_until

# Generous: the module starts a second cluster on a busy machine.
pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def second_cluster() -> Iterator[KafkaCluster]:
    with start_cluster(brokers=1) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def clusters_file(
    tmp_path_factory: pytest.TempPathFactory, kafka_bootstrap: str, second_cluster: KafkaCluster
) -> Path:
    path = tmp_path_factory.mktemp("fleet") / "clusters.yaml"
    path.write_text(
        "clusters:\n"
        f"  east:\n    bootstrap_servers: {kafka_bootstrap}\n"
        f"  west:\n    bootstrap_servers: {second_cluster.bootstrap_servers}\n"
    )
    return path


def fleet_snapshot(spark: SparkSession, clusters_file: Path, **options: str) -> DataFrame:
    return (
        spark.read.format("kafka-configs")
        .option("clusters.file", str(clusters_file))
        .options(**options)
        .load()
    )


def test_a_fleet_snapshot_has_each_clusters_rows_as_the_sdk_describes(
    spark: SparkSession, kafka_bootstrap: str, second_cluster: KafkaCluster, clusters_file: Path
) -> None:
    servers = {"east": kafka_bootstrap, "west": second_cluster.bootstrap_servers}
    names = {
        "east": create_topics(
            kafka_bootstrap, ["fleet-east-a", "fleet-shared"], {"retention.ms": "7200000"}
        ),
        "west": create_topics(
            second_cluster.bootstrap_servers,
            ["fleet-west-a", "fleet-shared"],
            {"retention.ms": "10800000"},
        ),
    }
    frame = fleet_snapshot(spark, clusters_file, topicPattern="fleet-.*")
    rows = frame.collect()
    for cluster, topics in names.items():
        expected = describe(servers[cluster], [topic(name) for name in topics])
        for resource, config in expected.items():
            assert isinstance(config, Config)
            got = {
                row.name: row.value
                for row in rows
                if row.cluster == cluster and row.resource_name == resource.name
            }
            assert got == {name: entry.value for name, entry in config.items()}
    shared = {
        r.cluster: r.value
        for r in rows
        if r.resource_name == "fleet-shared" and r.name == "retention.ms"
    }
    assert shared == {"east": "7200000", "west": "10800000"}


def test_a_cluster_filter_describes_only_that_cluster(
    spark: SparkSession, clusters_file: Path, pushdown: bool
) -> None:
    frame = fleet_snapshot(spark, clusters_file, topicPattern="fleet-.*", topicsPerPartition="1")
    west = frame.where(col("cluster") == "west")
    assert {row.cluster for row in west.select("cluster").distinct().collect()} == {"west"}
    # One topic per partition: with pushdown only west's topics are planned, else both's.
    assert west.rdd.getNumPartitions() == (2 if pushdown else 4)


def test_an_unreachable_cluster_of_the_fleet_is_a_row_and_the_others_are_read(
    spark: SparkSession, clusters_file: Path, tmp_path: Path
) -> None:
    broken = tmp_path / "clusters.yaml"
    broken.write_text(clusters_file.read_text() + "  gone:\n    bootstrap_servers: 127.0.0.1:1\n")
    rows = fleet_snapshot(spark, broken, topicPattern="fleet-.*", timeout="5").collect()
    gone = [row for row in rows if row.cluster == "gone"]
    assert [(row.error, row.resource_name) for row in gone] == [("KafkaConnectionError", None)]
    assert {row.cluster for row in rows} == {"east", "west", "gone"}


def test_apply_across_the_fleet(
    spark: SparkSession, kafka_bootstrap: str, second_cluster: KafkaCluster, clusters_file: Path
) -> None:
    (east,) = create_topics(kafka_bootstrap, ["fleet-apply-east"])
    (west,) = create_topics(second_cluster.bootstrap_servers, ["fleet-apply-west"])
    ops = spark.createDataFrame(
        [
            ("east", "topic", east, "retention.ms", "SET", "7200000"),
            ("west", "topic", west, "retention.ms", "SET", "10800000"),
        ],
        OPS_SCHEMA,
    )
    outcomes = apply_ops(ops, load_clusters_file(clusters_file).fleet())
    assert {(row.cluster, row.status) for row in outcomes.collect()} == {
        ("east", "applied"),
        ("west", "applied"),
    }
    wait_until(
        lambda: config_value(kafka_bootstrap, topic(east), "retention.ms") == "7200000", "east"
    )
    wait_until(
        lambda: (
            config_value(second_cluster.bootstrap_servers, topic(west), "retention.ms")
            == "10800000"
        ),
        "west",
    )
