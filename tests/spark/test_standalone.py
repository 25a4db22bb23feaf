"""The snapshot, the apply and the change stream on a real Spark standalone cluster: a master
and two workers.

Local mode runs everything in one JVM and reuses the driver's Python; a standalone cluster
pickles the reader to executors in other processes, needs the package importable there, and
runs each partition's event loop in an executor's Python worker. The master and workers come
from pyspark's own distribution (``bin/spark-class``) and listen on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka_config_admin import Config

from .helpers import config_value, create_topics, describe, topic, unique, wait_until
from .standalone import SPARK_HOME, spark_env, standalone_cluster

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

JOB = Path(__file__).with_name("standalone_job.py")
FEED_JOB = Path(__file__).with_name("standalone_feed_job.py")


@pytest.fixture(scope="module")
def standalone_master(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with standalone_cluster(tmp_path_factory.mktemp("standalone")) as url:
        yield url


def submit(master: str, job: Path, tmp: Path, *args: str) -> dict[str, Any]:
    """Run ``job`` with spark-submit on the cluster; the JSON of its ``RESULT`` line."""
    completed = subprocess.run(
        [
            str(SPARK_HOME / "bin" / "spark-submit"),
            "--master",
            master,
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            "spark.executor.memory=512m",
            "--conf",
            "spark.python.authenticate.socketTimeout=120s",
            "--conf",
            "spark.driver.host=127.0.0.1",
            "--conf",
            "spark.driver.bindAddress=127.0.0.1",
            str(job),
            *args,
        ],
        env=spark_env(tmp),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-5000:]
    (line,) = [line for line in completed.stdout.splitlines() if line.startswith("RESULT ")]
    result: dict[str, Any] = json.loads(line.removeprefix("RESULT "))
    return result


def test_snapshot_and_apply_on_a_standalone_cluster(
    standalone_master: str, kafka_bootstrap: str, tmp_path: Path
) -> None:
    names = create_topics(kafka_bootstrap, [unique("standalone") for _ in range(4)])
    before = describe(kafka_bootstrap, [topic(name) for name in names])  # the job then alters
    result = submit(standalone_master, JOB, tmp_path, kafka_bootstrap, *names)
    assert result["partitions"] == 4
    assert result["executors"] == 2
    for resource, config in before.items():
        assert isinstance(config, Config)
        got = {
            row["name"]: row["value"]
            for row in result["rows"]
            if row["resource_name"] == resource.name
        }
        assert got == {name: entry.value for name, entry in config.items()}
    assert sorted(result["outcomes"]) == sorted([name, "applied", None] for name in names)
    for name in names:
        wait_until(
            lambda name=name: (
                config_value(kafka_bootstrap, topic(name), "retention.ms") == "7200000"
            ),
            name,
        )


def test_change_stream_on_a_standalone_cluster(
    standalone_master: str, kafka_bootstrap: str, tmp_path: Path
) -> None:
    (name,) = create_topics(kafka_bootstrap, [unique("standalone-feed")])
    state = tmp_path / "state"  # on this machine: the driver and both executors reach it
    result = submit(standalone_master, FEED_JOB, tmp_path, kafka_bootstrap, name, str(state))
    assert result["executors"] == 2
    rows = [row for row in result["rows"] if row["change"] != "error"]
    assert [
        (row["cluster"], row["resource_name"], row["key"], row["change"], row["after_value"])
        for row in rows
    ] == [("main", name, "retention.ms", "added", "7200000")]
    assert [row for row in result["rows"] if row["change"] == "error"] == []
