"""The default backend: real brokers run as local JVMs from jars resolved by Maven.

In KRaft releases every node is a combined ``broker,controller`` with a static
``controller.quorum.voters`` list, so a 3-node cluster keeps its Raft quorum (2 of 3) when one
node is stopped for a fault test; or, with ``controllers=N``, the brokers and a separate quorum
of N controllers each run in a JVM of their own (a controller with a smaller heap).
ZooKeeper-era releases get a ZooKeeper node of their own, started from the same jars, before
their brokers (see ``_generations``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import _process
from ._artifacts import broker_lib_dir, policy_classes_dir
from ._errors import BackendUnavailableError, BrokerStartupError
from ._generations import (
    log4j1_properties,
    scram_user_commands,
    zookeeper_broker_properties,
    zookeeper_properties,
)
from ._layout import (
    HostPortsCluster,
    NodePorts,
    format_args,
    java_command,
    log4j2_properties,
    new_cluster_id,
    properties_text,
)
from ._probe import LOOPBACK, free_ports, port_accepts
from ._settings import keep_dirs, startup_timeout

_STOP_GRACE = 20.0  # one broker: a controlled shutdown with a healthy quorum takes a few seconds
_CLUSTER_STOP_GRACE = 8.0  # whole cluster: data is thrown away, so don't wait for stragglers
#: A controller of a separate quorum holds the metadata log only: half a broker's heap
#: is plenty, and six JVMs then fit a small machine.
_CONTROLLER_HEAP = "256m"


@dataclass
class _Node:
    """One node's process (combined, broker or controller) and the files that belong to it."""

    ports: NodePorts
    directory: Path
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def node_id(self) -> int:
        return self.ports.node_id

    @property
    def server_log(self) -> Path:
        return self.directory / "server.log"

    @property
    def console_log(self) -> Path:
        return self.directory / "console.log"

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


def _java() -> str:
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home, "bin", "java") if java_home else None
    if candidate is not None and candidate.exists():
        return str(candidate)
    found = shutil.which("java")
    if found is None:
        raise BackendUnavailableError(
            "the jvm backend needs Java 17+ ('java' on PATH or in JAVA_HOME)"
        )
    return found


def _tail(path: Path, lines: int) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 256 * 1024))
            text = handle.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


class JvmCluster(HostPortsCluster):
    """KRaft nodes ``1..N`` running as child JVMs on free 127.0.0.1 ports."""

    backend = "jvm"

    def _prepare(self) -> None:
        self._java = _java()
        self._classpath = self._build_classpath()
        self._root = Path(tempfile.mkdtemp(prefix="kca-kafka-"))
        self._nodes = self._plan_nodes()
        self._zookeeper: subprocess.Popen[bytes] | None = None
        self._zookeeper_port = None if self.generation.kraft else free_ports(1)[0]
        self._stopped = False

    # -- layout ------------------------------------------------------------------------------
    def _build_classpath(self) -> str:
        lib = broker_lib_dir(self.kafka_version)
        entries = [f"{lib}/*"]
        if self.policy:
            entries.append(str(policy_classes_dir(lib, self.kafka_version)))
        return os.pathsep.join(entries)

    def _tls_directory(self) -> Path:
        return self._root / "tls"

    def _plan_nodes(self) -> dict[int, _Node]:
        nodes = {}
        for node_id, ports in self._ports.items():
            directory = self._root / f"node-{node_id}"
            directory.mkdir()
            nodes[node_id] = _Node(ports, directory)
        return nodes

    def _node(self, node_id: int) -> _Node:
        try:
            return self._nodes[node_id]
        except KeyError:
            raise ValueError(f"no node {node_id}; they are {self.node_ids}") from None

    # -- configuration -----------------------------------------------------------------------
    @property
    def _zookeeper_connect(self) -> str:
        return f"{LOOPBACK}:{self._zookeeper_port}"

    @property
    def _logging_file(self) -> str:
        return "log4j2.properties" if self.generation.log4j2 else "log4j.properties"

    def _write_logging(self, directory: Path, log_file: Path) -> None:
        text = log4j2_properties if self.generation.log4j2 else log4j1_properties
        (directory / self._logging_file).write_text(text(str(log_file)))

    def _write_node_files(self, node: _Node) -> None:
        props = self._server_properties(node.node_id, log_dirs=str(node.directory / "data"))
        if not self.generation.kraft:
            props = zookeeper_broker_properties(
                props, node_id=node.node_id, zookeeper_connect=self._zookeeper_connect
            )
        (node.directory / "format.properties").write_text(properties_text(props))
        (node.directory / "server.properties").write_text(
            properties_text(self._running_properties(props))
        )
        self._write_logging(node.directory, node.server_log)

    def _jvm_command(
        self, directory: Path, main: str, *args: str, max_heap: str | None = None
    ) -> list[str]:
        return java_command(
            self._java,
            log4j_config=str(directory / self._logging_file),
            logs_dir=str(directory),
            classpath=self._classpath,
            main=main,
            args=args,
            generation=self.generation,
            max_heap=max_heap,
        )

    def _format_all(self, cluster_id: str) -> None:
        """Format every node's storage in parallel (each is a separate short-lived JVM)."""
        running = []
        for node in self._nodes.values():
            self._write_node_files(node)
            config = str(node.directory / "format.properties")
            command = self._jvm_command(
                node.directory,
                "kafka.tools.StorageTool",
                *format_args(cluster_id, config, sasl=self.sasl),
            )
            running.append(
                (
                    node,
                    _process.spawn(
                        command, cwd=node.directory, console_log=node.directory / "format.log"
                    ),
                )
            )
        for node, process in running:
            code = process.wait(timeout=startup_timeout())
            _process.terminate([process], grace=0)
            if code != 0:
                raise BrokerStartupError(
                    f"formatting KRaft storage of node {node.node_id} failed (exit {code})",
                    node_id=node.node_id,
                    log_tail=_tail(node.directory / "format.log", 40),
                )

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Format storage (KRaft) or start ZooKeeper, start every node, wait until all answer."""
        try:
            if self.generation.kraft:
                self._format_all(new_cluster_id())
            else:
                self._start_zookeeper()
                for node in self._nodes.values():
                    self._write_node_files(node)
            for node in self._nodes.values():
                self._spawn(node)
            self._wait_ready(self.node_ids)
        except BaseException:
            self.stop()
            raise

    def _spawn(self, node: _Node) -> None:
        controller = self._role(node.node_id) == "controller"
        heap = _CONTROLLER_HEAP if controller else self.broker_heap
        command = self._jvm_command(
            node.directory, "kafka.Kafka", str(node.directory / "server.properties"), max_heap=heap
        )
        node.process = _process.spawn(command, cwd=node.directory, console_log=node.console_log)

    # -- ZooKeeper (releases before KRaft) ---------------------------------------------------
    def _start_zookeeper(self) -> None:
        """Start one ZooKeeper node, wait until it accepts connections, add the SCRAM users."""
        directory = self._root / "zookeeper"
        directory.mkdir()
        port = self._zookeeper_port
        assert port is not None  # set for every ZooKeeper-era cluster
        config = directory / "zoo.cfg"
        config.write_text(zookeeper_properties(port=port, data_dir=str(directory / "data")))
        self._write_logging(directory, directory / "zookeeper.log")
        command = self._jvm_command(
            directory, "org.apache.zookeeper.server.ZooKeeperServerMain", str(config)
        )
        self._zookeeper = _process.spawn(
            command, cwd=directory, console_log=directory / "console.log"
        )
        self._wait_for_zookeeper(directory)
        if self.sasl:
            for args in scram_user_commands(self._zookeeper_connect):
                self._run_tool(directory, "kafka.admin.ConfigCommand", args)

    def _wait_for_zookeeper(self, directory: Path) -> None:
        deadline = time.monotonic() + startup_timeout()
        while not port_accepts(self._zookeeper_connect):
            code = None if self._zookeeper is None else self._zookeeper.poll()
            if code is not None or time.monotonic() > deadline:
                why = f"exited with code {code}" if code is not None else "did not listen in time"
                raise BrokerStartupError(
                    f"ZooKeeper on {self._zookeeper_connect} {why}",
                    log_tail=_tail(directory / "zookeeper.log", 40)
                    + _tail(directory / "console.log", 20),
                )
            time.sleep(0.2)

    def _run_tool(self, directory: Path, main: str, args: Sequence[str]) -> None:
        """Run a Kafka command-line tool to its end; fail with its output if it fails."""
        log = directory / "tools.log"
        process = _process.spawn(
            self._jvm_command(directory, main, *args), cwd=directory, console_log=log
        )
        code = process.wait(timeout=startup_timeout())
        _process.terminate([process], grace=0)
        if code != 0:
            raise BrokerStartupError(f"{main} failed (exit {code})", log_tail=_tail(log, 40))

    def _exit_code(self, node_id: int) -> int | None:
        process = self._node(node_id).process
        return None if process is None else process.poll()

    @property
    def running_broker_ids(self) -> list[int]:
        """Ids of the brokers whose JVM is currently running."""
        return [
            n.node_id for n in self._nodes.values() if n.running() and n.node_id in self.broker_ids
        ]

    def log_tail(self, node_id: int, lines: int = 60) -> str:
        """The end of the broker's ``server.log``, plus its console output where JVM errors land."""
        node = self._node(node_id)
        parts = [_tail(node.server_log, lines)]
        console = _tail(node.console_log, lines // 3)
        if console.strip():
            parts.append(f"--- console ---\n{console}")
        return "\n".join(part for part in parts if part)

    def server_log(self, node_id: int) -> str:
        """The whole of the broker's ``server.log`` (a restarted node appends to it)."""
        try:
            return self._node(node_id).server_log.read_text(errors="replace")
        except FileNotFoundError:  # nothing logged yet
            return ""

    def stop_broker(self, node_id: int) -> None:
        """Stop one broker (controlled shutdown via SIGTERM, SIGKILL after a grace period)."""
        node = self._node(node_id)
        if node.process is not None:
            _process.terminate([node.process], grace=_STOP_GRACE)
            node.process = None

    def kill_broker(self, node_id: int) -> None:
        """Kill one broker's JVM with SIGKILL; ``start_broker`` brings it back."""
        node = self._node(node_id)
        if node.process is not None:
            _process.kill(node.process)
            node.process = None

    @contextmanager
    def paused_broker(self, node_id: int) -> Iterator[None]:
        """Freeze one broker's JVM for the block: its connections stay open, nothing answers.

        What a client sees of a broker stuck in a long GC pause or a hung disk.
        """
        process = self._node(node_id).process
        if process is None or process.poll() is not None:
            raise BrokerStartupError(f"broker {node_id} is not running")
        process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            process.send_signal(signal.SIGCONT)

    def start_broker(self, node_id: int) -> None:
        """Restart a stopped broker on its old ports and data, and wait until it answers."""
        node = self._node(node_id)
        if node.running():
            return
        self._spawn(node)
        try:
            self._wait_ready([node_id])
        except BrokerStartupError:
            self.stop_broker(node_id)
            raise
        self._keep_scram_users()

    def stop(self) -> None:
        """Stop every JVM (whole process groups) and delete the node directories."""
        if self._stopped:
            return
        self._stopped = True
        processes = [n.process for n in self._nodes.values() if n.process is not None]
        _process.terminate(processes, grace=_CLUSTER_STOP_GRACE)
        for node in self._nodes.values():
            node.process = None
        # Last: brokers shutting down still talk to it.
        if self._zookeeper is not None:
            _process.terminate([self._zookeeper], grace=_CLUSTER_STOP_GRACE)
            self._zookeeper = None
        if not keep_dirs():
            shutil.rmtree(self._root, ignore_errors=True)

    @property
    def directory(self) -> Path:
        """Root directory holding ``node-<id>/`` (config, ``server.log``, data)."""
        return self._root
