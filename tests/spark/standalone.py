"""A Spark standalone cluster on this machine, from pyspark's own distribution
(``bin/spark-class``): a master and workers listening on 127.0.0.1 only. Used by the standalone
tests and by ``python -m benchmarks spark``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pyspark

SPARK_HOME = Path(pyspark.__file__).parent


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


@contextlib.contextmanager
def standalone_cluster(tmp: Path, workers: int = 2) -> Iterator[str]:
    """A master and ``workers`` workers of one core and 1 GiB each; yields the master's URL.
    Every process is stopped on exit."""
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
        for index in range(1, workers + 1):
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
