"""What the jvm and container backends share: node ports, broker configuration, commands, readiness.

Both run the same KRaft nodes (combined ``broker,controller``, static voters) on 127.0.0.1 ports of
the host, so the broker configuration, the SCRAM credentials written at format time and the
readiness probe are built here once; a backend only decides where the JVM runs. A cluster may
instead have a separate controller quorum (``controllers=N``, jvm backend): brokers ``1..B``
with ``process.roles=broker`` and controllers ``1001..1000+N`` with ``process.roles=controller``,
the way production KRaft clusters run.
"""

from __future__ import annotations

import abc
import asyncio
import base64
import re
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .. import AdminClient, UserScramCredentialUpsertion
from ._base import KafkaCluster
from ._errors import BrokerStartupError, UnsupportedOptionError
from ._generations import GENERATIONS, Generation, generation_of, logging_flag
from ._probe import LOOPBACK, broker_answers, free_ports
from ._process import JVM_FLAGS
from ._settings import (
    ADMIN_USER,
    ALICE_USER,
    POLICY_CLASS,
    SASL_MECHANISMS,
    kafka_version,
    startup_timeout,
)
from ._tls import TLS_LISTENERS, TlsListener, TlsPorts, add_tls_listeners, make_tls_files

_POLL_INTERVAL = 0.2

#: The node id of a separate quorum's first controller (brokers are ``1..N``): ids that tell a
#: controller from a broker at a glance in tests and logs.
FIRST_CONTROLLER_ID = 1001

#: What a node does: ``combined`` (broker and controller in one JVM), ``broker`` or ``controller``.
Role = Literal["combined", "broker", "controller"]

#: ``process.roles`` of each role.
_PROCESS_ROLES: dict[Role, str] = {
    "combined": "broker,controller",
    "broker": "broker",
    "controller": "controller",
}

_LOG4J2_HEAD = """\
status = warn
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
# Request logging and state-change chatter drown out the lines that explain a failure.
logger.request.name = kafka.request.logger
logger.request.level = WARN
logger.state.name = state.change.logger
logger.state.level = WARN
"""
_LOG4J2_FILE = """\
appender.out.type = File
appender.out.name = OUT
appender.out.fileName = {log}
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
"""
_LOG4J2_CONSOLE = """\
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
"""


@dataclass(frozen=True)
class NodePorts:
    """The host ports of one KRaft node (all on 127.0.0.1)."""

    node_id: int
    plaintext_port: int
    controller_port: int
    sasl_port: int | None
    tls: TlsPorts | None = None


def plan_ports(broker_ids: Sequence[int], *, sasl: bool, tls: bool = False) -> dict[int, NodePorts]:
    """Choose free ports for every node: PLAINTEXT, CONTROLLER, with ``sasl`` SASL, with ``tls``
    the TLS listeners."""
    per_node = 2 + sasl + (len(TLS_LISTENERS) if tls else 0)
    ports = free_ports(per_node * len(broker_ids))
    planned = {}
    for index, node_id in enumerate(broker_ids):
        mine = ports[index * per_node : (index + 1) * per_node]
        tls_ports = TlsPorts(*mine[-len(TLS_LISTENERS) :]) if tls else None
        planned[node_id] = NodePorts(
            node_id, mine[0], mine[1], mine[2] if sasl else None, tls_ports
        )
    return planned


def new_cluster_id() -> str:
    """A random KRaft cluster id: 16 bytes, URL-safe base64 without padding (22 chars)."""
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):  # a leading dash would be read as a CLI flag
            return text


def server_properties(
    node: NodePorts,
    voters: Sequence[NodePorts],
    *,
    role: Role = "combined",
    sasl: bool,
    policy: bool,
    log_dirs: str,
    tls_files_dir: str | None = None,
) -> dict[str, str]:
    """The ``server.properties`` of ``node``, one of the ``role``, in a cluster whose quorum is
    ``voters`` (every node, when they are combined).

    With TLS ports planned, ``tls_files_dir`` is where the broker finds its key and trust stores.
    A controller of a separate quorum has its CONTROLLER listener only (where
    ``--bootstrap-controller`` reaches it); its SASL users and policy are the brokers' too.
    """
    count = len(voters)
    voters_text = ",".join(f"{n.node_id}@{LOOPBACK}:{n.controller_port}" for n in voters)
    controller_listener = f"CONTROLLER://{LOOPBACK}:{node.controller_port}"
    listeners = [] if role == "controller" else [f"PLAINTEXT://{LOOPBACK}:{node.plaintext_port}"]
    if node.sasl_port is not None and role != "controller":
        listeners.append(f"SASL_PLAINTEXT://{LOOPBACK}:{node.sasl_port}")
    props = {
        "process.roles": _PROCESS_ROLES[role],
        "node.id": str(node.node_id),
        "controller.quorum.voters": voters_text,
        "controller.listener.names": "CONTROLLER",
        "listener.security.protocol.map": (
            "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT"
        ),
        "log.dirs": log_dirs,
        # Keep threads and heap small: several brokers share two cores and little memory.
        "num.network.threads": "2",
        "num.io.threads": "2",
        "background.threads": "2",
    }
    if role == "controller":
        props["listeners"] = controller_listener
    else:
        own_listeners = [*listeners, controller_listener] if role == "combined" else listeners
        props.update(
            {
                "inter.broker.listener.name": "PLAINTEXT",
                "listeners": ",".join(own_listeners),
                "advertised.listeners": ",".join(listeners),
                **_broker_properties(count if role == "combined" else 3),
            }
        )
    if sasl:
        props.update(_sasl_properties())
    if policy:
        props["alter.config.policy.class.name"] = POLICY_CLASS
    if node.tls is not None and tls_files_dir is not None:
        add_tls_listeners(props, node.tls, files_dir=tls_files_dir)
    return props


def _broker_properties(brokers: int) -> dict[str, str]:
    """What only a broker reads: its internal topics fit ``brokers`` (at most 3) and tolerate one
    node being down."""
    replicas = str(min(3, brokers))
    return {
        "offsets.topic.replication.factor": replicas,
        "offsets.topic.num.partitions": "3",
        "transaction.state.log.replication.factor": replicas,
        "transaction.state.log.min.isr": "1",
        "share.coordinator.state.topic.replication.factor": replicas,
        "share.coordinator.state.topic.min.isr": "1",
        "group.initial.rebalance.delay.ms": "0",
        "log.cleaner.dedupe.buffer.size": str(8 * 1024 * 1024),
    }


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


def properties_text(properties: Mapping[str, str]) -> str:
    """``key=value`` lines of a Java properties file."""
    return "".join(f"{key}={value}\n" for key, value in properties.items())


def log4j2_properties(log_file: str | None) -> str:
    """log4j2 configuration writing to ``log_file``, or to the console when it is ``None``."""
    appender = _LOG4J2_CONSOLE if log_file is None else _LOG4J2_FILE.format(log=log_file)
    return _LOG4J2_HEAD + appender


def format_args(cluster_id: str, config: str, *, sasl: bool) -> list[str]:
    """Arguments of ``kafka.tools.StorageTool`` that format one node (with SCRAM users)."""
    args = ["format", "--cluster-id", cluster_id, "--config", config]
    if sasl:
        for mechanism in SASL_MECHANISMS[1:]:
            for user in (ADMIN_USER, ALICE_USER):
                credential = f"name={user.username},password={user.password}"
                args += ["--add-scram", f"{mechanism}=[{credential}]"]
    return args


#: A JVM memory size as ``-Xmx`` takes it: a whole number with an optional unit.
_HEAP_SIZE = re.compile(r"([0-9]+)([kKmMgGtT]?)")
_HEAP_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}
#: Every broker-side JVM starts with ``-Xms64m`` (:data:`JVM_FLAGS`); a smaller maximum would
#: stop it before it runs.
_LEAST_HEAP = 64 * 2**20


def broker_heap_size(value: str) -> str:
    """Check a broker's maximum heap as ``-Xmx`` takes it (``"512m"``, ``"2g"``) and return it.

    Raises:
        ValueError: not a JVM memory size, or below the 64 MiB every broker starts with.
    """
    match = _HEAP_SIZE.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise ValueError(
            f"broker_heap={value!r} is not a JVM memory size: a whole number with an optional "
            "unit k, m, g or t, e.g. '512m' or '2g'"
        )
    digits, unit = match.groups()
    if int(digits) * _HEAP_UNITS[unit.lower()] < _LEAST_HEAP:
        raise ValueError(
            f"broker_heap={value!r} is below 64m, the heap every broker starts with (-Xms64m)"
        )
    return f"{int(digits)}{unit.lower()}"


def java_command(
    java: str,
    *,
    log4j_config: str,
    logs_dir: str,
    classpath: str,
    main: str,
    args: Sequence[str],
    generation: Generation = GENERATIONS[0],
    max_heap: str | None = None,
) -> list[str]:
    """The command line of a broker-side JVM (``kafka.Kafka`` or a Kafka tool); ``max_heap``
    (as ``"256m"``) in place of the default ``-Xmx``."""
    flags = [
        f"-Xmx{max_heap}" if max_heap is not None and flag.startswith("-Xmx") else flag
        for flag in JVM_FLAGS
    ]
    return [
        java,
        *flags,
        logging_flag(generation, log4j_config),
        f"-Dkafka.logs.dir={logs_dir}",
        "-cp",
        classpath,
        main,
        *args,
    ]


def wait_until_answering(
    plaintext_ports: Mapping[int, int],
    *,
    exit_code: Callable[[int], int | None],
    log_tail: Callable[[int], str],
) -> None:
    """Poll each node until it answers ApiVersions; fail fast when one exits.

    ``plaintext_ports`` maps node ids to the PLAINTEXT port on 127.0.0.1 they answer clients on
    (a controller's CONTROLLER listener); ``exit_code`` returns a node's exit code once it has
    stopped (``None`` while it runs).
    """
    deadline = time.monotonic() + startup_timeout()
    pending = dict(plaintext_ports)
    while pending:
        for node_id, port in list(pending.items()):
            code = exit_code(node_id)
            if code is not None:
                raise BrokerStartupError(
                    f"broker {node_id} exited with code {code} during startup",
                    node_id=node_id,
                    log_tail=log_tail(node_id),
                )
            if broker_answers(port, timeout=1.0):
                del pending[node_id]
        if pending and time.monotonic() > deadline:
            node_id, port = next(iter(pending.items()))
            raise BrokerStartupError(
                f"broker {node_id} did not answer on {LOOPBACK}:{port} "
                f"within {startup_timeout():.0f}s",
                node_id=node_id,
                log_tail=log_tail(node_id),
            )
        if pending:
            time.sleep(_POLL_INTERVAL)


class HostPortsCluster(KafkaCluster):
    """Nodes ``1..N`` listening on 127.0.0.1 ports of this machine: the jvm and container backends.

    Subclasses decide where each node's JVM runs; this class holds the options, the ports, the
    addresses and the readiness wait they share.
    """

    def __init__(
        self,
        *,
        brokers: int,
        sasl: bool,
        policy: bool,
        tls: bool = False,
        extra_properties: Mapping[str, str] | None = None,
        version: str | None = None,
        controllers: int = 0,
        broker_heap: str | None = None,
    ) -> None:
        if brokers < 1:
            raise ValueError("brokers must be at least 1")
        if controllers < 0:
            raise ValueError("controllers must be 0 (combined nodes) or more")
        #: The Kafka release the nodes run, and how brokers of its generation are started.
        self.kafka_version = version or kafka_version()
        self.generation = generation_of(self.kafka_version)
        if tls and not sasl:
            raise ValueError("tls=True needs sasl=True (the SASL_SSL listener has the SASL users)")
        if tls and self.generation.name != "kraft-4":
            raise UnsupportedOptionError(
                f"tls=True is offered on Kafka 4 brokers only, not on Kafka {self.kafka_version}"
            )
        if controllers and not self.generation.kraft:
            raise UnsupportedOptionError(
                f"a separate controller quorum needs a KRaft release, not Kafka "
                f"{self.kafka_version}"
            )
        self.broker_ids = list(range(1, brokers + 1))
        #: The nodes of the separate controller quorum (none: every node is combined).
        self.controller_ids = list(range(FIRST_CONTROLLER_ID, FIRST_CONTROLLER_ID + controllers))
        self.sasl = sasl
        self.policy = policy
        self._extra = dict(extra_properties or {})
        #: The maximum heap of each broker's JVM (``-Xmx``), ``None`` for the harness default.
        self.broker_heap = None if broker_heap is None else broker_heap_size(broker_heap)
        self._ports = plan_ports([*self.broker_ids, *self.controller_ids], sasl=sasl, tls=tls)
        self._prepare()
        self.tls_files = make_tls_files(self._tls_directory()) if tls else None

    @abc.abstractmethod
    def _prepare(self) -> None:
        """Find what the backend needs (Java, an engine, an image...); raise if it cannot run."""

    @abc.abstractmethod
    def _tls_directory(self) -> Path:
        """Where this cluster's TLS files are made, removed again when the cluster stops."""

    def _broker_tls_directory(self) -> str:
        """Where the brokers read the files of :meth:`TlsFiles.broker_files`."""
        assert self.tls_files is not None
        return str(self.tls_files.directory)

    @abc.abstractmethod
    def start(self) -> None:
        """Start every node and wait until all of them answer; stop what started on failure."""

    @abc.abstractmethod
    def _exit_code(self, node_id: int) -> int | None:
        """A node's exit code once it has stopped, ``None`` while it runs (or never ran)."""

    def _ports_of(self, node_id: int) -> NodePorts:
        try:
            return self._ports[node_id]
        except KeyError:
            raise ValueError(f"no broker {node_id}; brokers are {self.broker_ids}") from None

    @property
    def node_ids(self) -> list[int]:
        """Every node: the brokers, then the controllers of a separate quorum."""
        return [*self.broker_ids, *self.controller_ids]

    def _role(self, node_id: int) -> Role:
        if not self.controller_ids:
            return "combined"
        return "controller" if node_id in self.controller_ids else "broker"

    def _voters(self) -> list[NodePorts]:
        return [self._ports_of(node_id) for node_id in self.controller_ids or self.broker_ids]

    def _client_port(self, node_id: int) -> int:
        """The port a node answers clients on: a controller's CONTROLLER listener."""
        ports = self._ports_of(node_id)
        return (
            ports.controller_port if self._role(node_id) == "controller" else ports.plaintext_port
        )

    def _server_properties(self, node_id: int, *, log_dirs: str) -> dict[str, str]:
        """``server.properties`` of one node, for storage formatting (without extras)."""
        return server_properties(
            self._ports_of(node_id),
            self._voters(),
            role=self._role(node_id),
            sasl=self.sasl,
            policy=self.policy,
            log_dirs=log_dirs,
            tls_files_dir=None if self.tls_files is None else self._broker_tls_directory(),
        )

    def _running_properties(self, props: Mapping[str, str]) -> dict[str, str]:
        """``props`` with ``extra_properties``, which reach the running broker only, so a test
        can inject a bad option and exercise the early-exit path rather than the format step."""
        return {**props, **self._extra}

    def _keep_scram_users(self) -> None:
        """Set the cluster's own SCRAM users again once a broker has restarted.

        A KRaft broker replays its metadata log at start as one batch, and Kafka's ScramDelta
        drops the batch's later users when a removal empties a mechanism's map: a restarted
        broker can lose ``admin`` or ``alice`` (docs/compatibility.md). A credential set after
        the restart reaches every broker, so the users every test relies on are set again.
        """
        if not self.sasl or not generation_of(self.kafka_version or kafka_version()).kraft:
            return

        async def upsert() -> None:
            async with AdminClient(bootstrap_servers=self.bootstrap_servers) as admin:
                for mechanism in SASL_MECHANISMS[1:]:  # the broker takes one change a user a call
                    await admin.alter_user_scram_credentials(
                        [
                            UserScramCredentialUpsertion(user.username, mechanism, user.password)
                            for user in (ADMIN_USER, ALICE_USER)
                        ]
                    ).all()

        # A thread of its own: start_broker is called from async tests, inside an event loop.
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, upsert()).result()

    def _wait_ready(self, node_ids: Sequence[int]) -> None:
        wait_until_answering(
            {node_id: self._client_port(node_id) for node_id in node_ids},
            exit_code=self._exit_code,
            log_tail=self.log_tail,
        )

    def bootstrap_for(self, node_id: int) -> str:
        """The PLAINTEXT ``127.0.0.1:port`` of one broker."""
        return f"{LOOPBACK}:{self._ports_of(node_id).plaintext_port}"

    def controller_bootstrap_for(self, node_id: int) -> str:
        """The CONTROLLER ``127.0.0.1:port`` of one quorum node (PLAINTEXT)."""
        if node_id not in (self.controller_ids or self.broker_ids):
            raise ValueError(f"no controller {node_id}; they are {self.quorum_ids}")
        return f"{LOOPBACK}:{self._ports_of(node_id).controller_port}"

    def sasl_bootstrap_for(self, node_id: int) -> str:
        """The SASL_PLAINTEXT ``127.0.0.1:port`` of one broker (requires ``sasl=True``)."""
        port = self._ports_of(node_id).sasl_port
        if port is None:
            return super().sasl_bootstrap_for(node_id)
        return f"{LOOPBACK}:{port}"

    def tls_bootstrap_for(self, node_id: int, listener: TlsListener) -> str:
        """The ``127.0.0.1:port`` of one broker's TLS ``listener`` (requires ``tls=True``)."""
        ports = self._ports_of(node_id).tls
        if ports is None:
            return super().tls_bootstrap_for(node_id, listener)
        return f"{LOOPBACK}:{ports.port(listener)}"
