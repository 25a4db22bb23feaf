"""kafka_config_admin.connect: one place that says how to reach a cluster, for every face."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kafka_config_admin import DEFAULT_TIMEOUT, InvalidArgumentError
from kafka_config_admin.connect import (
    BOOTSTRAP_SERVERS_ENV,
    CLUSTERS_FILE_ENV,
    ClustersFile,
    Connection,
    ConnectionConfigError,
    clusters_file_in_use,
    clusters_file_path,
    connection_from_properties,
    connections_from_options,
    parse_clusters_file,
    resolve_connection,
)

FLEET = """
default: east
clusters:
  east:
    bootstrap_servers: east-1:9092
  west:
    bootstrap_servers: west-1:9092
    timeout: 5
"""


@pytest.fixture
def clusters_file(tmp_path: Path) -> Path:
    path = tmp_path / "clusters.yaml"
    path.write_text(FLEET)
    return path


def test_a_clusters_file_names_its_connections() -> None:
    parsed = parse_clusters_file(FLEET, source="c.yaml", base_dir=Path("."))
    assert [c.name for c in parsed.fleet()] == ["east", "west"]
    assert parsed.connection().label == "east"
    assert parsed.connection("west").timeout == 5
    assert parsed.connection("east").timeout == DEFAULT_TIMEOUT


def test_a_name_that_contradicts_its_key_is_refused() -> None:
    text = "clusters: {a: {bootstrap_servers: x:1, name: b}}"
    with pytest.raises(ConnectionConfigError, match="cluster 'a' is named 'b'"):
        parse_clusters_file(text, source="c.yaml", base_dir=Path("."))


def test_a_fleet_names_unknown_clusters() -> None:
    parsed = parse_clusters_file(FLEET, source="c.yaml", base_dir=Path("."))
    assert [c.name for c in parsed.fleet(("west",))] == ["west"]
    with pytest.raises(ConnectionConfigError, match=r"no cluster named north .*known: east, west"):
        parsed.fleet(("west", "north"))


def test_an_unnamed_connection_is_labelled_by_its_servers() -> None:
    assert Connection(bootstrap_servers="k:9092").label == "k:9092"
    assert Connection(name="main", bootstrap_servers="k:9092").label == "main"


@pytest.mark.parametrize("timeout", [0, -1.0])
def test_a_timeout_must_be_positive(timeout: float) -> None:
    with pytest.raises(ValueError, match="greater than 0"):
        Connection(bootstrap_servers="k:9092", timeout=timeout)


def test_kafka_property_names_give_a_connection(tmp_path: Path) -> None:
    connection = connection_from_properties(
        {
            "bootstrap.servers": "k:9093",
            "security.protocol": "sasl_plaintext",
            "sasl.mechanism": "SCRAM-SHA-256",
            "sasl.username": "alice",
            "sasl.password": "s3cret",
            "unrelated.key": "ignored",
        },
        source="options",
    )
    assert connection.admin_client_kwargs() == {
        "bootstrap_servers": "k:9093",
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "SCRAM-SHA-256",
        "sasl_plain_username": "alice",
        "sasl_plain_password": "s3cret",
    }


@pytest.mark.parametrize(
    ("properties", "problem"),
    [
        ({"security.protocol": "SASL_SSL"}, "options: security_protocol SASL_SSL needs username"),
        (
            {"security.protocol": "TLS"},
            "options: security_protocol: 'TLS' is not supported: use one of PLAINTEXT",
        ),
        ({"ssl.truststore.type": "JKS"}, "ssl.truststore.type=JKS is not supported"),
        (
            {"sasl.mechanism": "OAUTHBEARER"},
            "OAUTHBEARER is not supported in a command config or other Kafka",
        ),
    ],
)
def test_bad_kafka_properties_are_named(properties: dict[str, str], problem: str) -> None:
    with pytest.raises(ConnectionConfigError, match=problem):
        connection_from_properties({"bootstrap.servers": "k:1", **properties}, source="options")


def test_options_name_one_cluster() -> None:
    (one,) = connections_from_options({"bootstrap.servers": "k:9092", "timeout": "7"})
    assert (one.label, one.timeout) == ("k:9092", 7.0)
    (named,) = connections_from_options({"bootstrap.servers": "k:9092", "cluster": "main"})
    assert (named.name, named.timeout) == ("main", DEFAULT_TIMEOUT)


def test_options_name_a_fleet(clusters_file: Path) -> None:
    fleet = connections_from_options({"clusters.file": str(clusters_file), "timeout": "3"})
    assert [(c.name, c.timeout) for c in fleet] == [("east", 3.0), ("west", 3.0)]
    (west,) = connections_from_options({"clusters.file": str(clusters_file), "clusters": "west"})
    assert west.bootstrap_servers == "west-1:9092"
    (named,) = connections_from_options({"clusters.file": str(clusters_file), "cluster": "west"})
    assert named == west  # the cluster named, never the whole fleet
    with pytest.raises(ConnectionConfigError, match="either cluster or clusters"):
        connections_from_options(
            {"clusters.file": str(clusters_file), "cluster": "west", "clusters": "east"}
        )


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({}, "needs the option bootstrap.servers"),
        ({"bootstrap.servers": "k:1", "clusters.file": "f.yaml"}, "not both"),
        ({"bootstrap.servers": "k:1", "timeout": "soon"}, "positive number of seconds"),
        ({"bootstrap.servers": "k:1", "timeout": "nan"}, "positive number of seconds"),
        ({"bootstrap.servers": "k:1", "timeout": "-2"}, "positive number of seconds"),
    ],
)
def test_bad_options_are_named(options: dict[str, str], problem: str) -> None:
    with pytest.raises(InvalidArgumentError, match=problem):
        connections_from_options(options)


def test_the_clusters_file_is_found_by_option_then_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(CLUSTERS_FILE_ENV, raising=False)
    assert clusters_file_path().name == "clusters.yaml"
    monkeypatch.setenv(CLUSTERS_FILE_ENV, str(tmp_path / "env.yaml"))
    assert clusters_file_path() == tmp_path / "env.yaml"
    assert clusters_file_path(tmp_path / "given.yaml") == tmp_path / "given.yaml"


def test_resolving_picks_a_cluster_or_servers(clusters_file: Path, tmp_path: Path) -> None:
    default = resolve_connection(clusters_file=clusters_file, timeout=9)
    assert (default.label, default.bootstrap_servers, default.timeout) == ("east", "east-1:9092", 9)
    west = resolve_connection(cluster="west", clusters_file=clusters_file)
    assert west.label == "west"
    same = resolve_connection(
        cluster="west", bootstrap_servers=west.bootstrap_servers, clusters_file=clusters_file
    )
    assert same == west
    direct = resolve_connection(bootstrap_servers="k:9092", clusters_file=clusters_file)
    assert (direct.label, direct.name) == ("k:9092", None)
    config = tmp_path / "admin.properties"
    config.write_text("bootstrap.servers=c:9092\n")
    from_config = resolve_connection(command_config=config, clusters_file=tmp_path / "none.yaml")
    assert from_config.label == "c:9092"


@pytest.mark.parametrize(
    ("kwargs", "variables", "chosen"),
    [
        # 1. --cluster, over the clusters file's default and the variable
        ({"cluster": "west"}, {BOOTSTRAP_SERVERS_ENV: "env:1"}, ("west", "west-1:9092")),
        # 2. --bootstrap-server, over the file and the variable
        ({"bootstrap_servers": "b:1"}, {BOOTSTRAP_SERVERS_ENV: "env:1"}, ("b:1", "b:1")),
        # 3. the command config's servers, over the file and the variable
        ({"command_config": "servers"}, {BOOTSTRAP_SERVERS_ENV: "env:1"}, ("c:9092", "c:9092")),
        # 4. the clusters file's default, over the variable
        ({}, {BOOTSTRAP_SERVERS_ENV: "env:1"}, ("east", "east-1:9092")),
        # 5. the variable: with a command config without servers, or with no clusters file
        ({"command_config": "no servers"}, {BOOTSTRAP_SERVERS_ENV: "env:1"}, ("env:1", "env:1")),
        ({"clusters_file": None}, {BOOTSTRAP_SERVERS_ENV: "env:1"}, ("env:1", "env:1")),
    ],
)
def test_one_order_of_precedence(
    clusters_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kwargs: dict[str, object],
    variables: dict[str, str],
    chosen: tuple[str, str],
) -> None:
    monkeypatch.delenv(CLUSTERS_FILE_ENV, raising=False)
    monkeypatch.setattr("kafka_config_admin.connect.DEFAULT_CLUSTERS_FILE", tmp_path / "none")
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    configs = {"servers": "bootstrap.servers=c:9092\n", "no servers": "security.protocol=SSL\n"}
    if "command_config" in kwargs:
        path = tmp_path / "admin.properties"
        path.write_text(configs[str(kwargs["command_config"])])
        kwargs = {**kwargs, "command_config": path}
    kwargs = {"clusters_file": clusters_file, **kwargs}
    connection = resolve_connection(**kwargs)  # type: ignore[arg-type]
    assert (connection.label, connection.bootstrap_servers) == chosen


def test_a_cluster_and_servers_that_disagree_are_refused(clusters_file: Path) -> None:
    agreeing = resolve_connection(
        cluster="east", bootstrap_servers=" EAST-1:9092 ", clusters_file=clusters_file
    )
    assert agreeing.bootstrap_servers == "east-1:9092"
    with pytest.raises(
        ConnectionConfigError,
        match="--cluster 'east' has bootstrap servers 'east-1:9092' but --bootstrap-server "
        "gives 'w:1': give one of them",
    ):
        resolve_connection(cluster="east", bootstrap_servers="w:1", clusters_file=clusters_file)
    with pytest.raises(ConnectionConfigError, match=r"\(100000 characters\)"):
        resolve_connection(
            cluster="east", bootstrap_servers="w" * 100_000, clusters_file=clusters_file
        )


def test_a_clusters_file_named_by_the_variable_must_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CLUSTERS_FILE_ENV, str(tmp_path / "gone.yaml"))
    monkeypatch.setenv(BOOTSTRAP_SERVERS_ENV, "env:1")
    with pytest.raises(ConnectionConfigError, match=r"cannot read clusters file .*gone\.yaml"):
        resolve_connection()
    assert clusters_file_in_use() == tmp_path / "gone.yaml"


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"cluster": "east", "command_config": Path("a.properties")}, "not both"),
        ({}, "no cluster given"),
        ({"cluster": "north"}, "no cluster named 'north'"),
    ],
)
def test_resolving_names_what_is_missing(
    clusters_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kwargs: dict[str, object],
    problem: str,
) -> None:
    for variable in (CLUSTERS_FILE_ENV, BOOTSTRAP_SERVERS_ENV):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr("kafka_config_admin.connect.DEFAULT_CLUSTERS_FILE", tmp_path / "none")
    where = clusters_file if "cluster" in kwargs else None
    with pytest.raises(ConnectionConfigError, match=problem):
        resolve_connection(clusters_file=where, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (
            lambda: Connection(bootstrap_servers=5),
            "Connection bootstrap_servers must be a valid string, got 5",
        ),
        (lambda: Connection(timeout=0), "Connection timeout must be greater than 0, got 0"),
        (
            lambda: Connection(security_protocol="TLS"),
            "Connection security_protocol: 'TLS' is not supported: use one of PLAINTEXT",
        ),
        (
            lambda: ClustersFile(clusters=[]),
            "ClustersFile clusters must be a valid dictionary, got []",
        ),
        (
            lambda: ClustersFile(clusters={"a": {"bootstrap_servers": 5}}),
            "ClustersFile clusters.a.bootstrap_servers must be a valid string, got 5",
        ),
    ],
)
def test_a_bad_argument_is_our_error_naming_it(call: object, says: str) -> None:
    with pytest.raises(ConnectionConfigError) as raised:
        call()  # type: ignore[operator]
    assert str(raised.value).startswith(says)
    assert "pydantic" not in str(raised.value)


def test_a_secret_argument_is_named_by_its_type_only() -> None:
    with pytest.raises(ConnectionConfigError, match=r"password must be a valid string, got int$"):
        Connection(bootstrap_servers="a:1", password=271828)


def test_a_call_of_the_wrong_shape_is_a_type_error() -> None:
    with pytest.raises(
        TypeError, match="Connection\\(\\) got an unexpected keyword argument 'servers'"
    ):
        Connection(servers="a:1")
    with pytest.raises(TypeError, match="missing required argument: 'clusters'"):
        ClustersFile()


_PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule"


@pytest.mark.parametrize(
    ("jaas", "login"),
    [
        (f'{_PLAIN} required username="admin" password="a\\"b";', ("admin", 'a"b')),
        (f"{_PLAIN} required username=admin password=secret;", ("admin", "secret")),
        (f"/* why */ {_PLAIN} REQUIRED // note\n username='u' password=\"p w\" ;", ("u", "p w")),
        (f'{_PLAIN} required username="u" password="\\101\\tb";', ("u", "A\tb")),
    ],
)
def test_jaas_configs_read_as_kafka_reads_them(jaas: str, login: tuple[str, str]) -> None:
    connection = connection_from_properties(
        {
            "bootstrap.servers": "k:1",
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.jaas.config": jaas,
        },
        source="admin.properties",
    )
    assert connection.admin_client_kwargs()["sasl_plain_username"] == login[0]
    assert connection.admin_client_kwargs()["sasl_plain_password"] == login[1]


@pytest.mark.parametrize(
    ("jaas", "problem"),
    [
        # Kafka's JaasConfig refuses each of these; the loose reading sent username '"admin'.
        (f'{_PLAIN} required username="admin password="p";', "value not specified for key 'p'"),
        (f'{_PLAIN} required username="admin;', "does not end with ';'"),
        (f'{_PLAIN} required username="u" password="p"', "does not end with ';'"),
        (f'{_PLAIN} requird username="u" password="p";', "invalid login module control flag"),
        (f"{_PLAIN} required username;", "value not specified for key 'username'"),
        (f"{_PLAIN}", "control flag not specified"),
        ("", "login module not specified"),
        (f'{_PLAIN} required username="u" password="p"; {_PLAIN} required;', "2 login modules"),
        (f"{_PLAIN} required username=u;", "needs username and password"),
    ],
)
def test_jaas_configs_kafka_refuses_are_refused_with_the_reason(jaas: str, problem: str) -> None:
    with pytest.raises(ConnectionConfigError, match=f"^admin.properties: .*{re.escape(problem)}"):
        connection_from_properties(
            {
                "bootstrap.servers": "k:1",
                "security.protocol": "SASL_PLAINTEXT",
                "sasl.jaas.config": jaas,
            },
            source="admin.properties",
        )


def test_a_clusters_file_without_a_default_is_not_passed_over_for_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Row 4 before row 5: the file is there, so the variable is not used in its place."""
    path = tmp_path / "clusters.yaml"
    path.write_text("clusters:\n  a: {bootstrap_servers: 'a:1'}\n  b: {bootstrap_servers: 'b:1'}\n")
    monkeypatch.setenv(BOOTSTRAP_SERVERS_ENV, "env:1")
    with pytest.raises(ConnectionConfigError, match=r"name a cluster \(a, b\)"):
        resolve_connection(clusters_file=path)
