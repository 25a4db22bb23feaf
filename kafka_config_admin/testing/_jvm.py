"""The default backend: real KRaft brokers run as local JVMs from jars resolved by Maven.

Every node is a combined ``broker,controller`` with a static ``controller.quorum.voters`` list,
so a 3-node cluster keeps its Raft quorum (2 of 3) when one node is stopped for a fault test.
"""

from __future__ import annotations

import base64
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import _process
from ._artifacts import broker_lib_dir, policy_classes_dir
from ._base import KafkaCluster
from ._errors import BackendUnavailableError, BrokerStartupError
from ._probe import LOOPBACK, broker_answers, free_ports
from ._settings import (
    ADMIN_USER,
    ALICE_USER,
    POLICY_CLASS,
    SASL_MECHANISMS,
    keep_dirs,
    startup_timeout,
)

_STOP_GRACE = 20.0  # one broker: a controlled shutdown with a healthy quorum takes a few seconds
_CLUSTER_STOP_GRACE = 8.0  # whole cluster: data is thrown away, so don't wait for stragglers
_POLL_INTERVAL = 0.2

_LOG4J2_TEMPLATE = """\
status = warn
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = {log}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
# Request logging and state-change chatter drown out the lines that explain a failure.
logger.request.name = kafka.request.logger
logger.request.level = WARN
logger.state.name = state.change.logger
logger.state.level = WARN
"""


@dataclass
class _Node:
    """One combined broker+controller process and the files that belong to it."""

    node_id: int
    directory: Path
    plaintext_port: int
    controller_port: int
    sasl_port: int | None
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

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


def _new_cluster_id() -> str:
    """A random KRaft cluster id: 16 bytes, URL-safe base64 without padding (22 chars)."""
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):  # a leading dash would be read as a CLI flag
            return text


def _tail(path: Path, lines: int) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 256 * 1024))
            text = handle.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def _write_properties(path: Path, properties: Mapping[str, str]) -> None:
    path.write_text("".join(f"{key}={value}\n" for key, value in properties.items()))


class JvmCluster(KafkaCluster):
    """KRaft nodes ``1..N`` running as child JVMs on free 127.0.0.1 ports."""

    backend = "jvm"

    def __init__(
        self,
        *,
        brokers: int,
        sasl: bool,
        policy: bool,
        extra_properties: Mapping[str, str] | None = None,
    ) -> None:
        if brokers < 1:
            raise ValueError("brokers must be at least 1")
        self.broker_ids = list(range(1, brokers + 1))
        self.sasl = sasl
        self.policy = policy
        self._extra = dict(extra_properties or {})
        self._java = _java()
        self._classpath = self._build_classpath()
        self._root = Path(tempfile.mkdtemp(prefix="kca-kafka-"))
        self._nodes = self._plan_nodes()
        self._stopped = False

    # -- layout ------------------------------------------------------------------------------
    def _build_classpath(self) -> str:
        lib = broker_lib_dir()
        entries = [f"{lib}/*"]
        if self.policy:
            entries.append(str(policy_classes_dir(lib)))
        return os.pathsep.join(entries)

    def _plan_nodes(self) -> dict[int, _Node]:
        per_node = 3 if self.sasl else 2
        ports = free_ports(per_node * len(self.broker_ids))
        nodes = {}
        for index, node_id in enumerate(self.broker_ids):
            mine = ports[index * per_node : (index + 1) * per_node]
            directory = self._root / f"node-{node_id}"
            directory.mkdir()
            nodes[node_id] = _Node(
                node_id, directory, mine[0], mine[1], mine[2] if self.sasl else None
            )
        return nodes

    def _node(self, node_id: int) -> _Node:
        try:
            return self._nodes[node_id]
        except KeyError:
            raise ValueError(f"no broker {node_id}; brokers are {self.broker_ids}") from None

    # -- configuration -----------------------------------------------------------------------
    def _properties(self, node: _Node) -> dict[str, str]:
        count = len(self._nodes)
        voters = ",".join(
            f"{n.node_id}@{LOOPBACK}:{n.controller_port}" for n in self._nodes.values()
        )
        listeners = [f"PLAINTEXT://{LOOPBACK}:{node.plaintext_port}"]
        if node.sasl_port is not None:
            listeners.append(f"SASL_PLAINTEXT://{LOOPBACK}:{node.sasl_port}")
        props = {
            "process.roles": "broker,controller",
            "node.id": str(node.node_id),
            "controller.quorum.voters": voters,
            "controller.listener.names": "CONTROLLER",
            "inter.broker.listener.name": "PLAINTEXT",
            "listeners": ",".join([*listeners, f"CONTROLLER://{LOOPBACK}:{node.controller_port}"]),
            "advertised.listeners": ",".join(listeners),
            "listener.security.protocol.map": (
                "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT"
            ),
            "log.dirs": str(node.directory / "data"),
            # Internal topics must fit the cluster size, and tolerate one node being down.
            "offsets.topic.replication.factor": str(min(3, count)),
            "offsets.topic.num.partitions": "3",
            "transaction.state.log.replication.factor": str(min(3, count)),
            "transaction.state.log.min.isr": "1",
            "share.coordinator.state.topic.replication.factor": str(min(3, count)),
            "share.coordinator.state.topic.min.isr": "1",
            "group.initial.rebalance.delay.ms": "0",
            # Keep threads and heap small: several brokers share two cores and little memory.
            "num.network.threads": "2",
            "num.io.threads": "2",
            "background.threads": "2",
            "log.cleaner.dedupe.buffer.size": str(8 * 1024 * 1024),
        }
        if self.sasl:
            props.update(self._sasl_properties())
        if self.policy:
            props["alter.config.policy.class.name"] = POLICY_CLASS
        return props

    @staticmethod
    def _sasl_properties() -> dict[str, str]:
        users = (ADMIN_USER, ALICE_USER)
        plain_users = " ".join(f'user_{u.username}="{u.password}"' for u in users)
        scram_module = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
        plain_module = "org.apache.kafka.common.security.plain.PlainLoginModule"
        return {
            "sasl.enabled.mechanisms": ",".join(SASL_MECHANISMS),
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": (
                f"{plain_module} required {plain_users};"
            ),
            "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config": scram_module,
            "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config": scram_module,
            "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            # PLAINTEXT and CONTROLLER connections are ANONYMOUS: super user so that ordinary
            # tests and inter-node traffic keep working while alice on SASL is really refused.
            "super.users": f"User:{ADMIN_USER.username};User:ANONYMOUS",
            "allow.everyone.if.no.acl.found": "false",
        }

    def _write_node_files(self, node: _Node) -> None:
        props = self._properties(node)
        _write_properties(node.directory / "format.properties", props)
        # extra_properties only reach the running broker, so a test can inject a bad option
        # and exercise the early-exit path rather than the format step.
        _write_properties(node.directory / "server.properties", {**props, **self._extra})
        (node.directory / "log4j2.properties").write_text(
            _LOG4J2_TEMPLATE.format(log=node.server_log)
        )

    def _jvm_command(self, node: _Node, main: str, *args: str) -> list[str]:
        return [
            self._java,
            *_process.JVM_FLAGS,
            f"-Dlog4j2.configurationFile={node.directory / 'log4j2.properties'}",
            f"-Dkafka.logs.dir={node.directory}",
            "-cp",
            self._classpath,
            main,
            *args,
        ]

    def _scram_args(self) -> list[str]:
        args = []
        for mechanism in SASL_MECHANISMS[1:]:
            for user in (ADMIN_USER, ALICE_USER):
                credential = f"name={user.username},password={user.password}"
                args += ["--add-scram", f"{mechanism}=[{credential}]"]
        return args

    def _format_all(self, cluster_id: str) -> None:
        """Format every node's storage in parallel (each is a separate short-lived JVM)."""
        running = []
        for node in self._nodes.values():
            self._write_node_files(node)
            command = self._jvm_command(
                node,
                "kafka.tools.StorageTool",
                "format",
                "--cluster-id",
                cluster_id,
                "--config",
                str(node.directory / "format.properties"),
                *(self._scram_args() if self.sasl else []),
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
        """Format storage, start every node and wait until all of them answer."""
        try:
            self._format_all(_new_cluster_id())
            for node in self._nodes.values():
                self._spawn(node)
            self._wait_ready(list(self._nodes.values()), time.monotonic() + startup_timeout())
        except BaseException:
            self.stop()
            raise

    def _spawn(self, node: _Node) -> None:
        command = self._jvm_command(node, "kafka.Kafka", str(node.directory / "server.properties"))
        node.process = _process.spawn(command, cwd=node.directory, console_log=node.console_log)

    def _wait_ready(self, nodes: Sequence[_Node], deadline: float) -> None:
        """Poll each node until it answers ApiVersions; fail fast if one exits."""
        pending = list(nodes)
        while pending:
            for node in list(pending):
                if node.process is not None and node.process.poll() is not None:
                    raise BrokerStartupError(
                        f"broker {node.node_id} exited with code {node.process.returncode} "
                        "during startup",
                        node_id=node.node_id,
                        log_tail=self.log_tail(node.node_id),
                    )
                if broker_answers(node.plaintext_port, timeout=1.0):
                    pending.remove(node)
            if pending and time.monotonic() > deadline:
                node = pending[0]
                raise BrokerStartupError(
                    f"broker {node.node_id} did not answer on {LOOPBACK}:{node.plaintext_port} "
                    f"within {startup_timeout():.0f}s",
                    node_id=node.node_id,
                    log_tail=self.log_tail(node.node_id),
                )
            if pending:
                time.sleep(_POLL_INTERVAL)

    def bootstrap_for(self, node_id: int) -> str:
        """The PLAINTEXT ``127.0.0.1:port`` of one broker."""
        return f"{LOOPBACK}:{self._node(node_id).plaintext_port}"

    def sasl_bootstrap_for(self, node_id: int) -> str:
        """The SASL_PLAINTEXT ``127.0.0.1:port`` of one broker (requires ``sasl=True``)."""
        port = self._node(node_id).sasl_port
        if port is None:
            return super().sasl_bootstrap_for(node_id)
        return f"{LOOPBACK}:{port}"

    @property
    def running_broker_ids(self) -> list[int]:
        """Ids of the brokers whose JVM is currently running."""
        return [n.node_id for n in self._nodes.values() if n.running()]

    def log_tail(self, node_id: int, lines: int = 60) -> str:
        """The end of the broker's ``server.log``, plus its console output where JVM errors land."""
        node = self._node(node_id)
        parts = [_tail(node.server_log, lines)]
        console = _tail(node.console_log, lines // 3)
        if console.strip():
            parts.append(f"--- console ---\n{console}")
        return "\n".join(part for part in parts if part)

    def stop_broker(self, node_id: int) -> None:
        """Stop one broker (controlled shutdown via SIGTERM, SIGKILL after a grace period)."""
        node = self._node(node_id)
        if node.process is not None:
            _process.terminate([node.process], grace=_STOP_GRACE)
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
            self._wait_ready([node], time.monotonic() + startup_timeout())
        except BrokerStartupError:
            self.stop_broker(node_id)
            raise

    def stop(self) -> None:
        """Stop every JVM (whole process groups) and delete the node directories."""
        if self._stopped:
            return
        self._stopped = True
        processes = [n.process for n in self._nodes.values() if n.process is not None]
        _process.terminate(processes, grace=_CLUSTER_STOP_GRACE)
        for node in self._nodes.values():
            node.process = None
        if not keep_dirs():
            shutil.rmtree(self._root, ignore_errors=True)

    @property
    def directory(self) -> Path:
        """Root directory holding ``node-<id>/`` (config, ``server.log``, data)."""
        return self._root
