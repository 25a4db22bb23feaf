"""The container backend: brokers really run in Docker containers, and none is left behind.

With the container backend (``KAFKA_CONFIG_ADMIN_BACKEND=container``, as in CI's second run)
these tests use the session cluster and must never skip. Under the jvm backend they start a
container cluster of their own when a Docker engine answers, and skip, saying why, when none does.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import docker
import pytest
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from kafka_config_admin import AdminClient, ConfigResource, ResourceType
from kafka_config_admin.testing import (
    ContainerCluster,
    KafkaCluster,
    build_broker_image,
    docker_engine_answers,
    live_pids,
    start_cluster,
)
from kafka_config_admin.testing._docker import (
    HARNESS_LABEL,
    OWNER_LABEL,
    docker_client,
    remove_orphans,
)
from kafka_config_admin.testing._image import local_image
from kafka_config_admin.testing._probe import broker_answers
from kafka_config_admin.testing.plugin import cluster_options

from .helpers import new_topic

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def container_cluster(request: pytest.FixtureRequest) -> Iterator[ContainerCluster]:
    """The session cluster under the container backend, else a 1-broker container cluster."""
    if cluster_options(request.config).backend == "container":
        cluster = request.getfixturevalue("kafka_cluster")
        assert isinstance(cluster, ContainerCluster)
        yield cluster
        return
    if not docker_engine_answers():
        pytest.skip("no Docker engine answers: the container backend cannot run here")
    with start_cluster(brokers=1, backend="container") as own:
        assert isinstance(own, ContainerCluster)
        yield own


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The Docker engine; under the jvm backend, a skip (saying why) when none answers."""
    if cluster_options(request.config).backend != "container" and not docker_engine_answers():
        pytest.skip("no Docker engine answers: the container backend cannot run here")
    client = docker_client()
    yield client
    client.close()


def _port(address: str) -> int:
    return int(address.rpartition(":")[2])


async def test_the_broker_runs_in_its_container(
    container_cluster: ContainerCluster, engine: Any, request: pytest.FixtureRequest
) -> None:
    bootstrap = container_cluster.bootstrap_servers
    async with AdminClient(bootstrap, timeout=30) as admin:
        topic = await new_topic(admin, bootstrap)
        broker = ConfigResource(ResourceType.BROKER, str(container_cluster.broker_ids[0]))
        log_dirs = (await admin.describe_configs({broker: ["log.dirs"]}).values[broker])[
            "log.dirs"
        ].value
    assert log_dirs is not None
    # The partition the broker just created is a directory in one container's file system.
    holders = []
    for node_id in container_cluster.broker_ids:
        container = engine.containers.get(container_cluster.container_id(node_id))
        assert container.status == "running"
        assert container.labels[HARNESS_LABEL] == "1"
        listing = container.exec_run(["ls", log_dirs]).output.decode()
        if f"{topic}-0" in listing.split():
            holders.append(node_id)
    assert len(holders) == 1, holders
    # Freezing the container through the Docker API freezes the broker behind the address.
    node_id = holders[0]
    port = _port(container_cluster.bootstrap_for(node_id))
    container = engine.containers.get(container_cluster.container_id(node_id))
    container.pause()
    try:
        assert not broker_answers(port, timeout=1.0)
    finally:
        container.unpause()
    assert broker_answers(port, timeout=10.0)
    if cluster_options(request.config).backend == "container":
        # A container session starts no broker JVM on the host at all (a jvm session runs its
        # own cluster's, when a test before this one needed it).
        assert live_pids() == []


@pytest.mark.kafka(brokers=3)
@pytest.mark.parametrize("end", ["stop_broker", "kill_broker"])
async def test_a_stopped_or_killed_container_keeps_its_data_and_comes_back(
    kafka_cluster: KafkaCluster, engine: Any, end: str
) -> None:
    if not isinstance(kafka_cluster, ContainerCluster):
        pytest.skip("needs a session cluster in containers (--kafka-backend container)")
    victim = kafka_cluster.broker_ids[-1]
    container = engine.containers.get(kafka_cluster.container_id(victim))
    getattr(kafka_cluster, end)(victim)
    try:
        container.reload()
        assert container.status == "exited"
        if end == "kill_broker":  # SIGKILL: 128 + 9, no controlled shutdown
            assert container.attrs["State"]["ExitCode"] == 137
        assert victim not in kafka_cluster.running_broker_ids
        assert not broker_answers(_port(kafka_cluster.bootstrap_for(victim)), timeout=1.0)
    finally:
        kafka_cluster.start_broker(victim)
    container.reload()
    assert container.status == "running"
    assert kafka_cluster.container_id(victim) == container.id  # the same container, restarted
    client = AIOKafkaAdminClient(bootstrap_servers=kafka_cluster.bootstrap_for(victim))
    await client.start()
    try:
        created = await client.create_topics([NewTopic(f"back-{os.getpid()}-{end}", 3, 3)])
        assert {e[1] for e in created.topic_errors} == {0}
        described = await client.describe_cluster()
    finally:
        await client.close()
    assert sorted(b["node_id"] for b in described["brokers"]) == kafka_cluster.broker_ids


def test_orphans_of_a_dead_process_are_removed(
    container_cluster: ContainerCluster, engine: Any
) -> None:
    finished = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    dead_pid = int(finished.stdout)
    own_owner = engine.containers.get(container_cluster.container_id(1)).labels[OWNER_LABEL]
    host = own_owner.rpartition(":")[0]
    orphan = engine.containers.create(
        container_cluster.image,
        ["sleep", "600"],
        labels={HARNESS_LABEL: "1", OWNER_LABEL: f"{host}:{dead_pid}"},
    )
    try:
        orphan.start()
        assert orphan.id in remove_orphans(engine)
        with pytest.raises(docker.errors.NotFound):
            engine.containers.get(orphan.id)
        # The running cluster belongs to this live process and is left alone.
        assert engine.containers.get(container_cluster.container_id(1)).status == "running"
    finally:
        with contextlib.suppress(docker.errors.NotFound):
            orphan.remove(force=True)


def test_the_built_image_is_reused(container_cluster: ContainerCluster, engine: Any) -> None:
    if container_cluster.image != local_image():
        pytest.skip(f"the session runs {container_cluster.image}, not the image built here")
    before = engine.images.get(local_image()).id
    assert build_broker_image(engine) == local_image()
    assert engine.images.get(local_image()).id == before  # found, not built again
