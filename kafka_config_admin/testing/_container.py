"""The ``container`` backend: the same KRaft nodes as the jvm backend, each in a Docker container.

Every node runs in its own container (testcontainers' ``DockerContainer``) on the host's
network, listening on 127.0.0.1 ports chosen on the host exactly as the jvm backend chooses
them, so the advertised addresses are the ones clients on the host use. The configuration,
the log4j2 settings and, with ``policy=True``, the compiled AlterConfigPolicy are copied into
the container before it starts; its storage lives in the container, so stopping and starting
one container keeps the node's data, like stopping and restarting a JVM.
"""

from __future__ import annotations

import shlex
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import _docker
from ._artifacts import broker_lib_dir, policy_classes_dir
from ._errors import BrokerStartupError, UnsupportedKafkaVersionError, UnsupportedOptionError
from ._image import IMAGE_LIBS, broker_image
from ._layout import (
    HostPortsCluster,
    format_args,
    java_command,
    log4j2_properties,
    new_cluster_id,
    properties_text,
)
from ._settings import kafka_version

_CONFIG_DIR = "/kca"
_POLICY_DIR = f"{_CONFIG_DIR}/policy"
# Writable for any user: the official image runs as an unprivileged one.
_DATA_DIR = "/tmp/kca-data"
_TLS_DIR = f"{_CONFIG_DIR}/tls"
_STOP_GRACE = 20  # seconds; one broker: a controlled shutdown takes a few seconds


class ContainerCluster(HostPortsCluster):
    """KRaft nodes ``1..N``, each in a container on the host network at 127.0.0.1 ports."""

    backend = "container"
    #: The image the brokers run from (see :func:`build_broker_image`).
    image: str

    def _prepare(self) -> None:
        if self.controller_ids:
            raise UnsupportedOptionError(
                "the container backend runs combined nodes only; start a separate controller "
                "quorum with the jvm backend"
            )
        if self.kafka_version != kafka_version() or not self.generation.log4j2:
            raise UnsupportedKafkaVersionError(
                f"the container backend runs only the release its image holds, Kafka "
                f"{kafka_version()} (a 4.x KRaft release); start Kafka {self.kafka_version} "
                "with the jvm backend"
            )
        self._client = _docker.docker_client()
        try:
            _docker.configure_testcontainers()
            _docker.remove_orphans(self._client)
            self.image = broker_image(self._client)
            self._policy_files = self._policy_class_files() if self.policy else {}
        except BaseException:
            self._client.close()
            raise
        self._containers: dict[int, Any] = {}  # node id -> testcontainers' DockerContainer
        self._stopped = False

    @staticmethod
    def _policy_class_files() -> dict[str, Path]:
        classes = policy_classes_dir(broker_lib_dir())
        return {
            f"{_POLICY_DIR}/{path.relative_to(classes).as_posix()}": path
            for path in sorted(classes.rglob("*.class"))
        }

    def _tls_directory(self) -> Path:
        # On the host, for the clients; each container gets a copy of the broker's files.
        return Path(tempfile.mkdtemp(prefix="kca-tls-"))

    def _broker_tls_directory(self) -> str:
        return _TLS_DIR

    def _container(self, node_id: int) -> Any:
        """The docker SDK ``Container`` of one node."""
        try:
            return self._containers[node_id].get_wrapped_container()
        except KeyError:
            raise ValueError(f"no broker {node_id}; brokers are {self.broker_ids}") from None

    # -- configuration -----------------------------------------------------------------------
    def _node_files(self, node_id: int) -> dict[str, str]:
        props = self._server_properties(node_id, log_dirs=_DATA_DIR)
        return {
            f"{_CONFIG_DIR}/format.properties": properties_text(props),
            f"{_CONFIG_DIR}/server.properties": properties_text(self._running_properties(props)),
            f"{_CONFIG_DIR}/log4j2.properties": log4j2_properties(None),
        }

    def _command(self, cluster_id: str) -> list[str]:
        """Format the storage unless a previous start did, then become the broker (PID 1)."""

        def java(main: str, *args: str, max_heap: str | None = None) -> str:
            return shlex.join(
                java_command(
                    "java",
                    log4j_config=f"{_CONFIG_DIR}/log4j2.properties",
                    logs_dir=_DATA_DIR,
                    classpath=f"{IMAGE_LIBS}/*:{_POLICY_DIR}",
                    main=main,
                    args=args,
                    max_heap=max_heap,
                )
            )

        config = f"{_CONFIG_DIR}/format.properties"
        storage = format_args(cluster_id, config, sasl=self.sasl)
        format_once = java("kafka.tools.StorageTool", *storage, "--ignore-formatted")
        broker = java("kafka.Kafka", f"{_CONFIG_DIR}/server.properties", max_heap=self.broker_heap)
        return ["sh", "-c", f"{format_once} && exec {broker}"]

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start one container per node and wait until every broker answers."""
        try:
            cluster_id = new_cluster_id()
            for node_id in self.broker_ids:
                self._run(node_id, cluster_id)
            self._wait_ready(self.broker_ids)
        except BaseException:
            self.stop()
            raise

    def _run(self, node_id: int, cluster_id: str) -> None:
        from testcontainers.core.container import DockerContainer  # optional dependency

        container = (
            DockerContainer(self.image)
            .with_command(self._command(cluster_id))
            .with_kwargs(network_mode="host", labels=_docker.owner_labels())
        )
        container.with_name(f"kca-{cluster_id[:8].lower()}-node-{node_id}")
        for destination, text in self._node_files(node_id).items():
            container.with_copy_into_container(text.encode(), destination)
        for destination, path in self._policy_files.items():
            container.with_copy_into_container(path, destination)
        if self.tls_files is not None:
            for name, path in self.tls_files.broker_files().items():
                container.with_copy_into_container(path, f"{_TLS_DIR}/{name}")
        self._containers[node_id] = container
        try:
            container.start()
        finally:
            if container.get_wrapped_container() is not None:  # created, even if not started
                _docker.track(container.get_wrapped_container())

    def _exit_code(self, node_id: int) -> int | None:
        container = self._container(node_id)
        container.reload()
        if container.status in ("exited", "dead"):
            return int(container.attrs["State"]["ExitCode"])
        return None

    # -- addresses and inspection ------------------------------------------------------------
    def container_id(self, node_id: int) -> str:
        """The Docker id of the container running one broker."""
        return str(self._container(node_id).id)

    @property
    def running_broker_ids(self) -> list[int]:
        """Ids of the brokers whose container is running."""
        running = []
        for node_id in self._containers:
            container = self._container(node_id)
            container.reload()
            if container.status == "running":
                running.append(node_id)
        return running

    def log_tail(self, node_id: int, lines: int = 60) -> str:
        """The last lines of the container's output (the broker logs to the console)."""
        if node_id not in self._containers:
            return ""
        try:
            output = self._container(node_id).logs(tail=lines)
        except Exception:  # removed meanwhile: nothing to show
            return ""
        return bytes(output).decode("utf-8", errors="replace")

    def server_log(self, node_id: int) -> str:
        """The container's whole output (``docker logs``), which keeps every start's lines."""
        output = self._container(node_id).logs()
        return bytes(output).decode("utf-8", errors="replace")

    # -- faults ------------------------------------------------------------------------------
    def stop_broker(self, node_id: int) -> None:
        """Stop one broker's container (SIGTERM, SIGKILL after a grace period); keeps its data."""
        self._container(node_id).stop(timeout=_STOP_GRACE)

    def kill_broker(self, node_id: int) -> None:
        """Kill one broker's container (``docker kill``: SIGKILL to the JVM); keeps its data."""
        container = self._container(node_id)
        container.reload()
        if container.status == "running":
            container.kill()
            container.wait()

    def start_broker(self, node_id: int) -> None:
        """Start a stopped broker's container again, on its old ports and data; wait for it."""
        container = self._container(node_id)
        container.reload()
        if container.status == "running":
            return
        container.start()
        try:
            self._wait_ready([node_id])
        except BrokerStartupError:
            self.stop_broker(node_id)
            raise
        self._keep_scram_users()

    @contextmanager
    def paused_broker(self, node_id: int) -> Iterator[None]:
        """Freeze one broker's container for the block (``docker pause``): nothing answers."""
        container = self._container(node_id)
        container.reload()
        if container.status != "running":
            raise BrokerStartupError(f"broker {node_id} is not running")
        container.pause()
        try:
            yield
        finally:
            container.unpause()

    def stop(self) -> None:
        """Remove every container (running or not). Safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        for container in self._containers.values():
            wrapped = container.get_wrapped_container()
            if wrapped is not None:
                _docker.remove(wrapped)
            container.get_docker_client().client.close()
        self._containers.clear()
        self._client.close()
        if self.tls_files is not None:
            shutil.rmtree(self.tls_files.directory, ignore_errors=True)
