"""The snapshot, the apply and the change stream on a real Spark standalone cluster: a master
and two workers.

Local mode runs everything in one JVM and reuses the driver's Python; a standalone cluster
pickles the reader to executors in other processes, needs the package importable there, and
runs each partition's event loop in an executor's Python worker. The master and workers come
from pyspark's own distribution (``bin/spark-class``) and listen on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyspark
import pytest

from kafka_config_admin import Config

from .helpers import config_value, create_topics, describe, topic, unique, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

SPARK_HOME = Path(pyspark.__file__).parent
JOB = Path(__file__).with_name("standalone_job.py")
FEED_JOB = Path(__file__).with_name("standalone_feed_job.py")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def spark_env(tmp: Path) -> dict[str, str]:
    return {
        **os.environ,
        "SPARK_HOME": str(SPARK_HOME),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "SPARK_LOCAL_DIRS": str(tmp),
        "SPARK_WORKER_DIR": str(tmp / "work"),
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_DRIVER_PYTHON": sys.executable,
    }


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"spark process exited:\n{log.read_text()[-3000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise AssertionError(f"spark process did not listen on {port}:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def standalone_master(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("standalone")
    env = spark_env(tmp)
    spark_class = str(SPARK_HOME / "bin" / "spark-class")
    port = free_port()
    processes: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str) -> tuple[subprocess.Popen[bytes], Path]:
        log = tmp / f"{name}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [spark_class, *args],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        processes.append(process)
        return process, log

    try:
        master, log = start(
            "master",
            "org.apache.spark.deploy.master.Master",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--webui-port",
            str(free_port()),
        )
        wait_for_port(port, master, log)
        url = f"spark://127.0.0.1:{port}"
        for index in (1, 2):
            worker_port = free_port()
            worker, log = start(
                f"worker{index}",
                "org.apache.spark.deploy.worker.Worker",
                "--host",
                "127.0.0.1",
                "--port",
                str(worker_port),
                "--webui-port",
                str(free_port()),
                "--cores",
                "1",
                "--memory",
                "1g",
                url,
            )
            wait_for_port(worker_port, worker, log)
        yield url
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


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
