"""Spark for the pipeline tests: one ``local[2]`` session for the whole run, on loopback."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

pytest.importorskip("pyspark", reason="the spark extra is not installed")

from pyspark.sql import SparkSession

from kafka_config_admin.spark import PUSHDOWN_SETTING, register


def spark_builder(master: str) -> SparkSession.Builder:
    """A session builder on loopback only, light enough for a shared 2-core machine."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    return (
        SparkSession.builder.master(master)
        .appName("kafka-config-admin-tests")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "1g")
        .config("spark.python.worker.reuse", "true")
        # A Python worker has 15 s by default to connect back to the JVM: too short when the
        # shared machine is loaded (a streaming source's planner failed so at a load of 17).
        .config("spark.python.authenticate.socketTimeout", "120s")
    )


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    session = spark_builder("local[2]").getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    register(session)
    yield session
    session.stop()


@pytest.fixture(params=[False, True], ids=["pushdown-off", "pushdown-on"])
def pushdown(spark: SparkSession, request: pytest.FixtureRequest) -> Iterator[bool]:
    """Run a test with Spark's Python filter pushdown off (its default) and on."""
    enabled: bool = request.param
    spark.conf.set(PUSHDOWN_SETTING, "true" if enabled else "false")
    register(spark)
    yield enabled
    spark.conf.set(PUSHDOWN_SETTING, "false")
    register(spark)
