"""A KRaft controller quorum reached directly (KIP-919), as kafka-configs.sh --bootstrap-controller.

On a separate quorum (3 brokers, controllers 1001-1003, started once for this module) and on the
session cluster's combined nodes (their CONTROLLER listeners): the quorum's nodes listed, a
controller's config and logger described and altered, the cluster default, the calls a
controller does not serve, and the CLI's output against Kafka's own ``ConfigCommand`` run from
the same release's jars on the same cluster.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ClusterDescription,
    ConfigResource,
    MismatchedEndpointTypeError,
    ResourceType,
    UnsupportedEndpointTypeError,
)
from kafka_config_admin.testing import KafkaCluster
from kafka_config_admin.testing._artifacts import config_command

from .cli_helpers import run_cli, run_process
from .helpers import active_controller

pytestmark = pytest.mark.integration

T = TypeVar("T")

#: A config each controller takes as its own, and a value far from its default.
KEY, VALUE = "max.connections", "50000"
#: A logger every controller has.
LOGGER = "kafka.server.ControllerApis"
DEFAULT = ConfigResource(ResourceType.BROKER, "")


def on_quorum(cluster: KafkaCluster, work: Callable[[AdminClient], Awaitable[T]]) -> T:
    """Run ``work`` with a client bootstrapped from the cluster's controllers."""

    async def session() -> T:
        async with AdminClient(
            bootstrap_controllers=cluster.bootstrap_controllers, timeout=30
        ) as admin:
            return await work(admin)

    return anyio.run(session)


def eventually(check: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait until ``check()`` holds: a change committed by the active controller reaches the
    other controllers as they replay the metadata log."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the change never showed"
        time.sleep(0.3)


def broker_config(node: int) -> ConfigResource:
    return ConfigResource(ResourceType.BROKER, str(node))


def logger(node: int) -> ConfigResource:
    return ConfigResource(ResourceType.BROKER_LOGGER, str(node))


# --- the SDK on a separate quorum --------------------------------------------------------------


def test_the_quorums_nodes_are_listed_with_the_active_controller(
    kafka_quorum_cluster: KafkaCluster,
) -> None:
    cluster = kafka_quorum_cluster
    description = on_quorum(cluster, lambda admin: admin.describe_cluster())
    assert description.endpoint == "controllers"
    assert (
        [node.node_id for node in description.nodes]
        == cluster.controller_ids
        == [
            1001,
            1002,
            1003,
        ]
    )
    addresses = [f"{node.host}:{node.port}" for node in description.nodes]
    assert addresses == cluster.bootstrap_controllers.split(",")
    assert description.controller_id == active_controller(cluster)
    assert on_quorum(cluster, lambda admin: _ids(admin)) == cluster.controller_ids
    # The quorum's DescribeCluster answer names the cluster, as a broker's Metadata does.
    assert on_quorum(cluster, _cluster_ids) == (description.cluster_id,) * 2


async def _ids(admin: AdminClient) -> list[int]:
    return admin.broker_ids()


async def _cluster_ids(admin: AdminClient) -> tuple[str | None, str | None]:
    """The cluster's id as the client's discovery named it, and as DescribeCluster says it."""
    return admin.cluster_id(), (await admin.describe_cluster()).cluster_id


def test_a_controllers_own_config_is_described_by_that_controller(
    kafka_quorum_cluster: KafkaCluster,
) -> None:
    async def read(admin: AdminClient) -> dict[int, tuple[str | None, str | None]]:
        described = await admin.describe_configs(
            {broker_config(node): ["node.id", "process.roles"] for node in admin.broker_ids()}
        ).all()
        return {
            int(resource.name): (config["node.id"].value, config["process.roles"].value)
            for resource, config in described.items()
        }

    assert on_quorum(kafka_quorum_cluster, read) == {
        node: (str(node), "controller") for node in kafka_quorum_cluster.controller_ids
    }


def test_a_controllers_config_is_altered_and_read_back(kafka_quorum_cluster: KafkaCluster) -> None:
    """Sent to the active controller (which commits it), seen by the controller it names."""
    cluster = kafka_quorum_cluster
    target = next(node for node in cluster.controller_ids if node != active_controller(cluster))

    async def alter(admin: AdminClient) -> None:
        await admin.incremental_alter_configs(
            {broker_config(target): [AlterConfigOp(KEY, VALUE)]}
        ).all()

    async def value(admin: AdminClient) -> str | None:
        config = await admin.describe_configs({broker_config(target): [KEY]}).values[
            broker_config(target)
        ]
        return config[KEY].value if config[KEY].source.name == "DYNAMIC_BROKER_CONFIG" else None

    on_quorum(cluster, alter)
    try:
        eventually(lambda: on_quorum(cluster, value) == VALUE)
        others = [node for node in cluster.controller_ids if node != target]
        assert all(on_quorum(cluster, _dynamic_keys(node)) == set() for node in others)
    finally:
        on_quorum(
            cluster,
            lambda admin: admin.incremental_alter_configs(
                {broker_config(target): [AlterConfigOp(KEY, op="DELETE")]}
            ).all(),
        )


def _dynamic_keys(node: int) -> Callable[[AdminClient], Awaitable[set[str]]]:
    async def keys(admin: AdminClient) -> set[str]:
        config = await admin.describe_configs([broker_config(node)]).values[broker_config(node)]
        return {e.name for e in config.values() if e.source.name == "DYNAMIC_BROKER_CONFIG"}

    return keys


def test_a_controllers_logger_is_set_on_that_controller_alone(
    kafka_quorum_cluster: KafkaCluster,
) -> None:
    cluster = kafka_quorum_cluster
    target, other = cluster.controller_ids[0], cluster.controller_ids[1]

    async def levels(admin: AdminClient) -> tuple[str | None, str | None]:
        described = await admin.describe_configs(
            {logger(target): [LOGGER], logger(other): [LOGGER]}
        ).all()
        return described[logger(target)][LOGGER].value, described[logger(other)][LOGGER].value

    async def set_level(admin: AdminClient, level: str) -> None:
        await admin.incremental_alter_configs(
            {logger(target): [AlterConfigOp(LOGGER, level)]}
        ).all()

    before = on_quorum(cluster, levels)
    assert before == ("INFO", "INFO")
    on_quorum(cluster, lambda admin: set_level(admin, "DEBUG"))
    try:
        assert on_quorum(cluster, levels) == ("DEBUG", "INFO")
    finally:
        on_quorum(cluster, lambda admin: set_level(admin, "INFO"))


def test_the_cluster_default_is_altered_through_the_quorum_and_seen_by_the_brokers(
    kafka_quorum_cluster: KafkaCluster,
) -> None:
    cluster = kafka_quorum_cluster
    key, value = "log.retention.ms", "7200000"

    async def default_value(admin: AdminClient) -> str | None:
        config = await admin.describe_configs({DEFAULT: [key]}).values[DEFAULT]
        entry = config.get(key)
        return None if entry is None else entry.value

    on_quorum(
        cluster,
        lambda admin: admin.incremental_alter_configs({DEFAULT: [AlterConfigOp(key, value)]}).all(),
    )
    try:
        eventually(lambda: on_quorum(cluster, default_value) == value)

        async def on_brokers() -> str | None:
            async with AdminClient(cluster.bootstrap_servers, timeout=30) as admin:
                return await default_value(admin)

        eventually(lambda: anyio.run(on_brokers) == value)
    finally:
        on_quorum(
            cluster,
            lambda admin: admin.incremental_alter_configs(
                {DEFAULT: [AlterConfigOp(key, op="DELETE")]}
            ).all(),
        )


def test_a_call_no_controller_serves_says_so(kafka_quorum_cluster: KafkaCluster) -> None:
    async def calls(admin: AdminClient) -> list[BaseException]:
        errors: list[BaseException] = []
        for call in (admin.list_topics, lambda: admin.list_groups().all()):
            try:
                await call()
            except UnsupportedEndpointTypeError as error:
                errors.append(error)
        return errors

    errors = on_quorum(kafka_quorum_cluster, calls)
    assert len(errors) == 2
    assert "does not serve Metadata" in str(errors[0])
    assert "does not serve ListGroups" in str(errors[1])
    assert "bootstrap_servers" in str(errors[0])


def test_a_broker_given_as_controller_and_a_controller_given_as_broker_are_named(
    kafka_quorum_cluster: KafkaCluster,
) -> None:
    cluster = kafka_quorum_cluster
    broker = cluster.bootstrap_for(1)
    controller = cluster.controller_bootstrap_for(1001)

    async def open_with(client: AdminClient) -> None:
        async with client:
            pass

    with pytest.raises(MismatchedEndpointTypeError, match=f"{broker} is a broker's listener"):
        anyio.run(open_with, AdminClient(bootstrap_controllers=broker, timeout=15))
    with pytest.raises(MismatchedEndpointTypeError, match=f"{controller} is a KRaft controller"):
        anyio.run(open_with, AdminClient(bootstrap_servers=controller, timeout=15))


# --- the CLI against kafka-configs.sh ----------------------------------------------------------

_HEADING = re.compile(
    r"^(?:Dynamic|Default) configs for (?:broker-logger (?P<logger>\d+)|broker (?P<broker>\d+)|"
    r"(?P<default>brokers in the cluster)) are:$"
)
_ENTRY = re.compile(r"^  (?P<key>[^=]+)=(?P<value>.*?) sensitive=(?:true|false) synonyms=\{")

Described = set[tuple[str, str, str, str]]


def kafka_configs(cluster: KafkaCluster, *args: str) -> str:
    """``kafka-configs.sh --bootstrap-controller`` of the cluster's own release (ConfigCommand)."""
    java = shutil.which("java", path=os.path.join(os.environ.get("JAVA_HOME", ""), "bin")) or "java"
    assert cluster.kafka_version is not None
    classpath, main = config_command(cluster.kafka_version)
    done = subprocess.run(  # its log lines go to stderr; what it describes, to stdout
        [
            java,
            "-Xmx256m",
            "-cp",
            classpath,
            main,
            "--bootstrap-controller",
            cluster.bootstrap_controllers,
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def parsed_kafka_configs(text: str) -> Described:
    """(type, name, key, value) of each line ``kafka-configs.sh --describe`` printed."""
    described: Described = set()
    resource: tuple[str, str] | None = None
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading is not None:
            if heading["logger"] is not None:
                resource = ("BROKER_LOGGER", heading["logger"])
            else:
                resource = ("BROKER", heading["broker"] or "")
            described.add((*resource, "", ""))
            continue
        entry = _ENTRY.match(line)
        if entry is not None:
            assert resource is not None, line
            described.add((*resource, entry["key"], entry["value"]))
    return described


def parsed_ours(document: dict[str, object]) -> Described:
    """The same of ``kafka-config-admin describe -o json``."""
    described: Described = set()
    resources = document["resources"]
    assert isinstance(resources, list)
    for resource in resources:
        assert resource["error"] is None, resource
        described.add((resource["resource_type"], resource["resource_name"], "", ""))
        for key, entry in resource["configs"].items():
            described.add(
                (resource["resource_type"], resource["resource_name"], key, entry["value"])
            )
    return described


ENTITIES = [
    pytest.param(["--entity-type", "brokers", "--entity-name", "{node}"], id="broker"),
    pytest.param(["--entity-type", "brokers", "--entity-default"], id="cluster-default"),
    pytest.param(["--entity-type", "broker-loggers", "--entity-name", "{node}"], id="loggers"),
    pytest.param(["--entity-type", "brokers"], id="every-node"),
]


@pytest.fixture(scope="module")
def altered_quorum(kafka_quorum_cluster: KafkaCluster) -> KafkaCluster:
    """The separate quorum with a dynamic config on its second controller and on the cluster
    default, altered through our CLI: each describe below has something to show."""
    cluster = kafka_quorum_cluster
    for entity, change in (
        (["--entity-name", "1002"], "log.cleaner.threads=2"),
        (["--entity-default"], "log.retention.ms=9000000"),
    ):
        ran = run_process(
            "alter",
            "--bootstrap-controller",
            cluster.bootstrap_controllers,
            "--entity-type",
            "brokers",
            *entity,
            "--add-config",
            change,
            "--yes",
        )
        assert ran.code == 0, ran.err
    # Each controller applies what the active one committed once it has replayed it.
    eventually(lambda: ("BROKER", "1002", "log.cleaner.threads", "2") in _kafka_configs_of(cluster))
    return cluster


def _kafka_configs_of(cluster: KafkaCluster) -> Described:
    return parsed_kafka_configs(kafka_configs(cluster, "--describe", "--entity-type", "brokers"))


@pytest.mark.parametrize("entity", ENTITIES)
def test_describe_matches_kafka_configs_on_a_separate_quorum(
    altered_quorum: KafkaCluster, entity: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    compared = _compare(altered_quorum, [part.replace("{node}", "1002") for part in entity], capsys)
    assert any(key for _, _, key, _ in compared)  # the comparison had configs to compare


@pytest.mark.parametrize("entity", ENTITIES)
def test_describe_matches_kafka_configs_on_combined_nodes(
    kafka_cluster: KafkaCluster, entity: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    if kafka_cluster.backend == "external":
        pytest.skip("the external backend has no controller listeners")
    node = str(kafka_cluster.quorum_ids[-1])
    _compare(kafka_cluster, [part.replace("{node}", node) for part in entity], capsys)


def _compare(
    cluster: KafkaCluster, entity: list[str], capsys: pytest.CaptureFixture[str]
) -> Described:
    """Our describe of ``entity`` says what kafka-configs.sh says of it; returns that."""
    theirs = parsed_kafka_configs(kafka_configs(cluster, "--describe", *entity))
    ran = run_cli(
        capsys,
        "describe",
        "--bootstrap-controller",
        cluster.bootstrap_controllers,
        *entity,
        "-o",
        "json",
    )
    assert ran.code == 0, ran.err
    assert parsed_ours(ran.json()) == theirs
    return theirs


def test_an_alter_through_the_cli_is_what_kafka_configs_reads(
    kafka_quorum_cluster: KafkaCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    cluster = kafka_quorum_cluster
    address = cluster.bootstrap_controllers
    entity = ["--entity-type", "brokers", "--entity-name", "1003"]
    ran = run_cli(
        capsys,
        "alter",
        "--bootstrap-controller",
        address,
        *entity,
        "--add-config",
        f"{KEY}={VALUE}",
        "--yes",
    )
    assert ran.code == 0, ran.err
    try:
        eventually(
            lambda: (
                ("BROKER", "1003", KEY, VALUE)
                in parsed_kafka_configs(kafka_configs(cluster, "--describe", *entity))
            )
        )
    finally:
        ran = run_cli(
            capsys,
            "alter",
            "--bootstrap-controller",
            address,
            *entity,
            "--delete-config",
            KEY,
            "--yes",
        )
        assert ran.code == 0, ran.err


def test_the_cli_says_which_calls_a_controller_does_not_serve(
    kafka_quorum_cluster: KafkaCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = run_cli(
        capsys,
        "describe",
        "--bootstrap-controller",
        kafka_quorum_cluster.bootstrap_controllers,
        "--match",
        "orders.*",
    )
    assert ran.code == 1
    assert "does not serve Metadata" in ran.err
    assert len(ran.err.strip().splitlines()) == 1


def test_the_command_line_controller_wins_over_the_environments_brokers(
    kafka_quorum_cluster: KafkaCluster,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", kafka_quorum_cluster.bootstrap_servers)
    ran = run_cli(
        capsys,
        "describe",
        "--bootstrap-controller",
        kafka_quorum_cluster.bootstrap_controllers,
        "--entity-type",
        "brokers",
        "--entity-name",
        "1001",
        "--keys",
        "process.roles",
        "-o",
        "json",
    )
    assert ran.code == 0, ran.err
    (resource,) = ran.json()["resources"]
    assert resource["configs"]["process.roles"]["value"] == "controller"
    both = run_cli(
        capsys,
        "describe",
        "-b",
        kafka_quorum_cluster.bootstrap_servers,
        "--bootstrap-controller",
        kafka_quorum_cluster.bootstrap_controllers,
        "--entity-default",
    )
    assert both.code == 2
    assert "give --bootstrap-server or --bootstrap-controller, not both" in both.err


def test_describe_cluster_on_brokers_lists_the_brokers(kafka_cluster: KafkaCluster) -> None:
    async def described(admin: AdminClient) -> object:
        return await admin.describe_cluster()

    async def session() -> object:
        async with AdminClient(kafka_cluster.bootstrap_servers, timeout=30) as admin:
            return await described(admin)

    description = anyio.run(session)
    assert isinstance(description, ClusterDescription)
    assert description.endpoint == "brokers"
    assert [node.node_id for node in description.nodes] == kafka_cluster.broker_ids
    assert description.controller_id in kafka_cluster.broker_ids
    assert description.cluster_id
