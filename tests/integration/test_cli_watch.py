"""``watch`` as a real process: it prints a change another process makes, then ends on Ctrl-C."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import anyio
import pytest

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin.cli._watch import FAILED_POLLS
from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import run_process, with_admin
from .fault_proxy import proxied
from .helpers import new_topic

pytestmark = pytest.mark.integration


def _default_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Watcher:
    """A ``watch`` process whose output lines are read as they come."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kafka_config_admin", "watch", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "COLUMNS": "200"},
            # Ctrl-C reaches the watch as at a terminal, also when the suite itself runs in the
            # background (a shell starts background jobs with SIGINT ignored, inherited).
            preexec_fn=_default_interrupt,
        )
        self.out: queue.Queue[str] = queue.Queue()
        self.err: queue.Queue[str] = queue.Queue()
        self.out_lines: list[str] = []
        self.err_lines: list[str] = []
        self.pumps = []
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            assert stream is not None
            pump = threading.Thread(target=_pump, args=(stream, lines), daemon=True)
            pump.start()
            self.pumps.append(pump)

    def wait_for(self, stream: str, text: str, timeout: float = 120) -> str:
        """The first line of ``stream`` (out or err) holding ``text``, waiting for it."""
        lines, seen = (self.out, self.out_lines) if stream == "out" else (self.err, self.err_lines)
        for line in seen:
            if text in line:
                return line
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                if self.process.poll() is not None and lines.empty():
                    break
                continue
            seen.append(line)
            if text in line:
                return line
        raise AssertionError(
            f"no {text!r} on std{stream}; out: {self.out_lines}, err: {self.err_lines}"
        )

    def interrupt(self) -> int:
        """Ctrl-C, as a terminal sends it; the exit code, every line read."""
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=60)
        self.close()
        for lines, seen in ((self.out, self.out_lines), (self.err, self.err_lines)):
            while not lines.empty():
                seen.append(lines.get())
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.close()

    def close(self) -> None:
        """Read both pipes to their end, then close them (the process has ended)."""
        for pump in self.pumps:
            pump.join(timeout=10)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


def _pump(stream: IO[str], lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line.rstrip("\n"))


@pytest.fixture
def watchers() -> Iterator[list[Watcher]]:
    started: list[Watcher] = []
    yield started
    for watcher in started:
        watcher.kill()


def set_retention(bootstrap: str, name: str, value: str) -> None:
    """Set the topic's retention from another process, as an operator would."""
    op = AlterConfigOp(name="retention.ms", value=value, op=OpType.SET)

    async def alter(admin: AdminClient) -> None:
        await admin.incremental_alter_configs(
            {ConfigResource(ResourceType.TOPIC, name): [op]}
        ).all()

    with_admin(bootstrap, alter)


@pytest.mark.parametrize("output", ["table", "json"])
def test_watch_prints_a_change_made_by_another_process(
    kafka_bootstrap: str, watchers: list[Watcher], output: str
) -> None:
    name = with_admin(kafka_bootstrap, lambda admin: new_topic(admin, kafka_bootstrap))
    watcher = Watcher("-b", kafka_bootstrap, "--topic", name, "--interval", "1", "--output", output)
    watchers.append(watcher)
    watcher.wait_for("err", "baseline of 1 resources")

    set_retention(kafka_bootstrap, name, "7200000")
    line = watcher.wait_for("out", "retention.ms")
    if output == "json":
        row = json.loads(line)
        assert row["resource_type"] == "TOPIC" and row["resource_name"] == name
        assert (row["key"], row["change"], row["after_value"]) == (
            "retention.ms",
            "added",
            "7200000",
        )
        assert row["after_source"] == "TOPIC_CONFIG"
    else:
        assert f"topic '{name}' retention.ms added" in line
        assert "-> 7200000 (TOPIC_CONFIG)" in line

    set_retention(kafka_bootstrap, name, "3600000")
    watcher.wait_for("out", "3600000")
    assert watcher.interrupt() == 130
    # Each change printed once, nothing else on stdout; stderr ends with one clean line.
    assert len(watcher.out_lines) == 2, watcher.out_lines
    assert watcher.err_lines[-1] == "interrupted"
    assert not any("Traceback" in line for line in watcher.err_lines)


def test_watch_stats_says_what_each_poll_cost(
    kafka_bootstrap: str, watchers: list[Watcher]
) -> None:
    name = with_admin(kafka_bootstrap, lambda admin: new_topic(admin, kafka_bootstrap))
    watcher = Watcher("-b", kafka_bootstrap, "--topic", name, "--interval", "1", "--stats")
    watchers.append(watcher)
    watcher.wait_for("err", "baseline of 1 resources")
    line = watcher.wait_for("err", "bytes received")
    match = re.fullmatch(
        r"(\S+): poll ([\d.]+)s, (\d+) requests, ([\d,]+) bytes received, 1 resources read",
        line.strip(),
    )
    assert match is not None, line
    assert match[1] == kafka_bootstrap
    assert int(match[3]) >= 1  # its describe (a named topic needs no listing)
    # One topic's configs without documentation or synonyms: a few kB, not the tens of kB
    # its documentation would add.
    assert 0 < int(match[4].replace(",", "")) < 20_000
    assert watcher.interrupt() == 130
    assert watcher.out_lines == []  # the costs stay off the changes' stream


def test_watch_max_per_poll_reads_in_turn_and_still_sees_each_change(
    kafka_bootstrap: str, watchers: list[Watcher]
) -> None:
    names = [
        with_admin(kafka_bootstrap, lambda admin: new_topic(admin, kafka_bootstrap))
        for _ in range(3)
    ]
    topics = [arg for name in names for arg in ("--topic", name)]
    watcher = Watcher(
        "-b", kafka_bootstrap, *topics, "--interval", "1", "--max-per-poll", "1", "--stats"
    )
    watchers.append(watcher)
    watcher.wait_for("err", "baseline of 3 resources")
    assert "3 resources read" in watcher.wait_for("err", "resources read")  # the baseline
    assert "1 resources read" in watcher.wait_for("err", "1 resources read")

    for name in names:  # whichever topic's turn it is, each change is seen, once
        set_retention(kafka_bootstrap, name, "7200000")
        assert f"topic '{name}' retention.ms added" in watcher.wait_for("out", name, timeout=60)
    assert watcher.interrupt() == 130
    assert len(watcher.out_lines) == 3, watcher.out_lines
    reads = [line for line in watcher.err_lines if "resources read" in line]
    assert all(line.endswith("1 resources read") for line in reads[1:]), reads
    assert not any("Traceback" in line for line in watcher.err_lines)


def test_watch_a_fleet_with_a_cluster_down(
    kafka_bootstrap: str, watchers: list[Watcher], tmp_path: Path
) -> None:
    name = with_admin(kafka_bootstrap, lambda admin: new_topic(admin, kafka_bootstrap))
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        f"clusters:\n  main:\n    bootstrap_servers: {kafka_bootstrap}\n"
        "  gone:\n    bootstrap_servers: 127.0.0.1:1\n"
    )
    watcher = Watcher(
        "--clusters-file",
        str(clusters),
        "--all-clusters",
        "--topic",
        name,
        "--interval",
        "1",
        "--timeout",
        "3",
        "-o",
        "json",
    )
    watchers.append(watcher)
    watcher.wait_for("err", "main: baseline")
    # Errors go to stderr (JSON there too): stdout carries the changes alone.
    error = json.loads(watcher.wait_for("err", '"gone"'))
    assert (error["change"], error["error"]) == ("error", "KafkaConnectionError")
    set_retention(kafka_bootstrap, name, "7200000")
    row = json.loads(watcher.wait_for("out", "retention.ms"))
    assert (row["cluster"], row["change"]) == ("main", "added")
    assert watcher.interrupt() == 130
    rows = [json.loads(line) for line in watcher.out_lines]
    assert rows == [row]
    # A fleet keeps going: the cluster that stays down never ends the watch.
    assert sum('"gone"' in line for line in watcher.err_lines) >= 2


def test_a_frozen_cluster_does_not_hold_up_the_others(
    kafka_bootstrap: str, watchers: list[Watcher], tmp_path: Path
) -> None:
    name = with_admin(kafka_bootstrap, lambda admin: new_topic(admin, kafka_bootstrap))
    with socket.socket() as listener:  # takes connections, never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        clusters = tmp_path / "clusters.yaml"
        clusters.write_text(
            f"clusters:\n  main:\n    bootstrap_servers: {kafka_bootstrap}\n"
            f"  frozen:\n    bootstrap_servers: 127.0.0.1:{listener.getsockname()[1]}\n"
        )
        watcher = Watcher(
            "--clusters-file",
            str(clusters),
            "--all-clusters",
            "--topic",
            name,
            "--interval",
            "2",
            "--timeout",
            "120",
        )
        watchers.append(watcher)
        watcher.wait_for("err", "main: baseline")
        changed = time.monotonic()
        set_retention(kafka_bootstrap, name, "7200000")
        watcher.wait_for("out", "retention.ms", timeout=60)
        latency = time.monotonic() - changed
        # Seen at main's next poll: an interval away, plus a poll; frozen's 120 s never count.
        assert latency < 2 + 10, latency
        assert watcher.interrupt() == 130
    assert not any("frozen" in line for line in watcher.out_lines)


def test_watch_on_a_malformed_address_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    ran = run_process("watch", "-b", "127.0.0.1:notaport")
    assert (ran.code, ran.out) == (2, "")
    assert ran.err.splitlines() == [
        "error: cluster 127.0.0.1:notaport: bootstrap server '127.0.0.1:notaport' is not "
        "host:port: the port 'notaport' is not a number 1-65535"
    ], ran.err
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        "clusters:\n  good:\n    bootstrap_servers: 127.0.0.1:9092\n"
        "  typo:\n    bootstrap_servers: 127.0.0.1:90922x\n"
    )
    ran = run_process("watch", "--all-clusters", "--clusters-file", str(clusters))
    assert (ran.code, ran.out) == (2, "")
    (line,) = ran.err.splitlines()
    assert line.startswith("error: cluster typo: ") and "127.0.0.1:90922x" in line, ran.err


def test_watch_on_an_unreachable_address_is_one_line_and_exit_code_1() -> None:
    ran = run_process("watch", "-b", "127.0.0.1:1", "--interval", "1", "--timeout", "5")
    assert (ran.code, ran.out) == (1, "")
    status, line = ran.err.splitlines()
    assert status.startswith("watching topic on 127.0.0.1:1")
    assert line.startswith("error: cluster 127.0.0.1:1 could not be read at its first poll: ")
    assert "KafkaConnectionError" in line and "--keep-going" in line
    assert "Traceback" not in ran.err


def test_watch_keep_going_waits_for_an_unreachable_cluster(watchers: list[Watcher]) -> None:
    watcher = Watcher("-b", "127.0.0.1:1", "--interval", "0.5", "--timeout", "5", "--keep-going")
    watchers.append(watcher)
    for _ in range(FAILED_POLLS + 1):  # more failed polls than watch gives up after
        watcher.err_lines.clear()
        watcher.wait_for("err", "KafkaConnectionError")
    assert watcher.process.poll() is None
    assert watcher.interrupt() == 130
    assert watcher.out_lines == []


def test_watch_refuses_bad_options_in_one_line() -> None:
    ran = run_process("watch", "-b", "127.0.0.1:1", "--match", "(")
    assert ran.code == 2
    assert "not a regular expression" in ran.err and "Traceback" not in ran.err
    ran = run_process("watch", "-b", "127.0.0.1:1", "--type", "queue")
    assert ran.code == 2 and "Traceback" not in ran.err
    assert "--type 'queue' is not a resource type; use one of topic, broker" in ran.err


async def test_watch_gives_up_after_failed_polls_in_a_row_once_read(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    async with proxied(kafka_cluster) as proxies:  # the cluster, until the proxies stop
        first = next(iter(proxies.values()))
        watcher = Watcher(
            "-b", f"127.0.0.1:{first.port}", "--topic", name, "--interval", "0.5", "--timeout", "3"
        )
        try:
            await anyio.to_thread.run_sync(watcher.wait_for, "err", "baseline of 1 resources")
            for proxy in proxies.values():
                await proxy.stop()
            code = await anyio.to_thread.run_sync(lambda: watcher.process.wait(timeout=120))
        finally:
            watcher.kill()
    assert code == 1
    lines = [line for line in watcher.err_lines if line]
    while not watcher.err.empty():
        lines.append(watcher.err.get())
    errors = [line for line in lines if "error" in line]
    # One line per failed poll but the last, then the line that ends the watch.
    assert len(errors) == FAILED_POLLS, lines
    assert errors[-1].startswith(f"error: cluster 127.0.0.1:{first.port} could not be read at ")
    assert f"{FAILED_POLLS} polls in a row" in errors[-1]
    assert not any("Traceback" in line for line in lines)
    assert watcher.out_lines == [] and watcher.out.empty()
