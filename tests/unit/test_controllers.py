"""Reaching a KRaft controller quorum (KIP-919) without a broker: the client's options, where a
quorum's requests go, what a controller that does not serve a call says, how connections and
the command line name a quorum, and the harness's node layout. The quorum itself is exercised in
tests/integration/test_controllers.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    InvalidArgumentError,
    ResourceType,
    UnsupportedEndpointTypeError,
    UnsupportedVersionError,
)
from kafka_config_admin._net.brokers import CHANGES, READS, BrokerChoice
from kafka_config_admin._net.wire import negotiate_version
from kafka_config_admin._ops.configs import AlterConfigs, DescribeConfigs, IncrementalAlterConfigs
from kafka_config_admin._protocol import LIST_GROUPS
from kafka_config_admin.cli._entities import EntityOptions, entities
from kafka_config_admin.connect import (
    ConnectionConfigError,
    connection_from_properties,
    connections_from_options,
    parse_clusters_file,
    resolve_connection,
)
from kafka_config_admin.testing import (
    ContainerCluster,
    JvmCluster,
    UnsupportedOptionError,
    start_cluster,
)
from kafka_config_admin.testing._layout import NodePorts, server_properties

BROKER_1001 = ConfigResource(ResourceType.BROKER, "1001")
LOGGER_1001 = ConfigResource(ResourceType.BROKER_LOGGER, "1001")
DEFAULT = ConfigResource(ResourceType.BROKER, "")


# --- the client's options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "give bootstrap_servers .* or bootstrap_controllers"),
        (
            {"bootstrap_servers": "a:9092", "bootstrap_controllers": "b:9093"},
            "not both",
        ),
        ({"bootstrap_controllers": ""}, "bootstrap_controllers is empty"),
        ({"bootstrap_controllers": 9093}, "bootstrap_controllers must be 'host:port'"),
        ({"bootstrap_controllers": "c:notaport"}, "'c:notaport' is not host:port"),
    ],
)
def test_one_of_servers_and_controllers_is_given(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        AdminClient(**options)  # type: ignore[arg-type]


def test_a_client_of_controllers_is_made_without_connecting() -> None:
    client = AdminClient(bootstrap_controllers=["c1:9093", "c2:9093"])
    assert client._transport.controllers
    assert client._transport.bootstrap_servers == "c1:9093,c2:9093"
    assert not AdminClient("b1:9092")._transport.controllers


# --- where a quorum's requests go --------------------------------------------------------------


def test_on_a_quorum_a_change_goes_to_the_active_controller_and_a_logger_to_its_node() -> None:
    ops = {resource: [AlterConfigOp("k", "v")] for resource in (BROKER_1001, LOGGER_1001, DEFAULT)}
    on_quorum = IncrementalAlterConfigs.build(ops, validate_only=False, to_quorum=True)
    assert [on_quorum.destination(r) for r in ops] == [None, 1001, None]
    on_brokers = IncrementalAlterConfigs.build(ops, validate_only=False)
    assert [on_brokers.destination(r) for r in ops] == [1001, 1001, None]
    legacy = AlterConfigs.build_legacy(
        {BROKER_1001: {"k": "v"}}, validate_only=False, to_quorum=True
    )
    assert legacy.destination(BROKER_1001) is None


def test_on_a_quorum_a_describe_goes_to_the_node_it_names() -> None:
    """A controller describes its own configs only (another id: an error), as a broker does."""
    describe = DescribeConfigs.build(
        [BROKER_1001, LOGGER_1001, DEFAULT], include_synonyms=False, include_documentation=False
    )
    assert [describe.destination(r) for r in describe.resources] == [1001, 1001, None]


def test_the_changes_lane_of_a_quorum_is_its_leader_and_reads_may_go_elsewhere() -> None:
    leader: list[int | None] = [1002]
    choice = BrokerChoice(lambda: [1001, 1002, 1003], lambda node, lane: True, lambda: leader[0])
    assert {choice.any_broker(CHANGES) for _ in range(20)} == {1002}
    assert choice.any_broker(READS) in (1001, 1003)  # a lane of its own while there is one
    leader[0] = None  # not known (yet): any node, as for brokers
    assert choice.any_broker(CHANGES) in (1001, 1002, 1003)


def test_a_call_a_controller_does_not_list_is_said_to_be_unserved() -> None:
    with pytest.raises(UnsupportedEndpointTypeError, match="controller 1001 does not serve List"):
        negotiate_version(LIST_GROUPS, None, "controller 1001", controller=True)
    with pytest.raises(UnsupportedVersionError, match=r"release before 0\.9\.0") as raised:
        negotiate_version(LIST_GROUPS, None, "broker 1")
    assert not isinstance(raised.value, UnsupportedEndpointTypeError)


# --- connections and the command line ----------------------------------------------------------


def test_a_clusters_file_names_a_quorum() -> None:
    clusters = parse_clusters_file(
        "clusters:\n"
        "  prod:\n    bootstrap_servers: kafka-1:9092\n"
        "  prod-quorum:\n    bootstrap_controllers: [ctl-1:9093, ctl-2:9093]\n",
        source="clusters.yaml",
        base_dir=Path("/"),
    )
    quorum = clusters.connection("prod-quorum")
    assert quorum.admin_client_kwargs()["bootstrap_controllers"] == "ctl-1:9093,ctl-2:9093"
    assert "bootstrap_servers" not in quorum.admin_client_kwargs()
    assert quorum.admin_client()._transport.controllers
    assert quorum.label == "prod-quorum"


def test_a_cluster_with_both_is_refused() -> None:
    with pytest.raises(ConnectionConfigError, match="not both"):
        parse_clusters_file(
            "clusters:\n  x:\n    bootstrap_servers: a:1\n    bootstrap_controllers: b:2\n",
            source="clusters.yaml",
            base_dir=Path("/"),
        )


def test_kafka_properties_name_a_quorum_as_javas_client_does() -> None:
    connection = connection_from_properties(
        {"bootstrap.controllers": "ctl-1:9093"}, source="command config"
    )
    assert connection.admin_client_kwargs()["bootstrap_controllers"] == "ctl-1:9093"
    (spark,) = connections_from_options({"bootstrap.controllers": "ctl-1:9093"})
    assert spark.bootstrap_controllers == "ctl-1:9093" and spark.name == "ctl-1:9093"


def test_resolving_a_quorum(tmp_path: Path) -> None:
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        "default: prod\nclusters:\n  prod:\n    bootstrap_servers: kafka-1:9092\n"
        "    timeout: 7\n  ctl:\n    bootstrap_controllers: ctl-1:9093\n"
    )
    given = resolve_connection(bootstrap_controllers="ctl-9:9093", clusters_file=clusters)
    assert (given.bootstrap_servers, given.bootstrap_controllers) == (None, "ctl-9:9093")
    named = resolve_connection(cluster="prod", bootstrap_controllers="c:1", clusters_file=clusters)
    assert (named.bootstrap_servers, named.bootstrap_controllers, named.timeout) == (None, "c:1", 7)
    from_file = resolve_connection(cluster="ctl", clusters_file=clusters)
    assert from_file.bootstrap_controllers == "ctl-1:9093"
    overridden = resolve_connection(
        cluster="ctl", bootstrap_servers="k:9092", clusters_file=clusters
    )
    assert (overridden.bootstrap_servers, overridden.bootstrap_controllers) == ("k:9092", None)
    with pytest.raises(ConnectionConfigError, match="--bootstrap-server or --bootstrap-controller"):
        resolve_connection(bootstrap_servers="k:9092", bootstrap_controllers="c:1")


def test_entity_type_brokers_without_a_name_is_every_node() -> None:
    assert entities(EntityOptions(types=("brokers",))) == ([], (ResourceType.BROKER,), None)
    assert entities(EntityOptions(types=("broker-loggers",))) == (
        [],
        (ResourceType.BROKER_LOGGER,),
        None,
    )


# --- the harness's separate quorum -------------------------------------------------------------


def test_a_separate_quorum_has_broker_only_and_controller_only_nodes() -> None:
    broker = NodePorts(1, 9092, 9093, None)
    controllers = [NodePorts(node, 0, 19000 + node, None) for node in (1001, 1002)]
    as_broker = server_properties(
        broker, controllers, role="broker", sasl=False, policy=True, log_dirs="/d"
    )
    assert as_broker["process.roles"] == "broker"
    assert as_broker["controller.quorum.voters"] == "1001@127.0.0.1:20001,1002@127.0.0.1:20002"
    assert as_broker["listeners"] == "PLAINTEXT://127.0.0.1:9092"
    as_controller = server_properties(
        controllers[0], controllers, role="controller", sasl=True, policy=True, log_dirs="/d"
    )
    assert as_controller["process.roles"] == "controller"
    assert as_controller["listeners"] == "CONTROLLER://127.0.0.1:20001"
    assert "advertised.listeners" not in as_controller
    assert "offsets.topic.replication.factor" not in as_controller
    assert (
        as_controller["alter.config.policy.class.name"]
        == as_broker["alter.config.policy.class.name"]
    )


def test_a_separate_quorum_is_refused_where_it_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UnsupportedOptionError, match="needs a KRaft release"):
        JvmCluster(brokers=1, sasl=False, policy=False, version="2.5.1", controllers=3)
    with pytest.raises(UnsupportedOptionError, match="combined nodes only"):
        ContainerCluster(brokers=1, sasl=False, policy=False, controllers=3)
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    with pytest.raises(UnsupportedOptionError, match="does not support controllers"):
        start_cluster(backend="external", controllers=3)
