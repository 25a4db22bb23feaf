"""Where clusters are and how to log in: the clusters file and Kafka tools' command configs.

Two ways to say how to reach a cluster, both turned into :class:`Connection`:

- a **clusters file** (YAML) naming several clusters, read by the CLI (``--cluster NAME``) and
  by the Spark pipeline (fleets)::

      default: dev
      clusters:
        dev:
          bootstrap_servers: localhost:9092
        prod:
          bootstrap_servers: [kafka-1:9093, kafka-2:9093]
          security_protocol: SASL_SSL
          sasl_mechanism: SCRAM-SHA-512
          username: config-admin
          password_env: PROD_KAFKA_PASSWORD     # or password: ..., or sasl_jaas_config: ...
          ssl_ca_location: certs/prod-ca.pem    # relative to the clusters file
          ssl_certificate_location: certs/client.pem
          ssl_key_location: certs/client.key
        cloud:
          bootstrap_servers: kafka.example.com:9093
          security_protocol: SASL_SSL
          sasl_mechanism: OAUTHBEARER
          oauth_token_env: KAFKA_ACCESS_TOKEN   # read at each new connection
        prod-quorum:                            # prod's KRaft controllers (KIP-919)
          bootstrap_controllers: [ctl-1:9093, ctl-2:9093, ctl-3:9093]

- a **command config**: the ``.properties`` file Kafka's own tools take with
  ``--command-config`` (``security.protocol``, ``sasl.mechanism``, ``sasl.jaas.config`` for the
  PLAIN and SCRAM login modules, PEM trust and key stores).

- **Kafka's property names** (``bootstrap.servers``, ``security.protocol``, ...) in any other
  mapping, such as the options of the Spark ``kafka-configs`` source
  (:func:`connection_from_properties`, :func:`connections_from_options`).

Which cluster a tool talks to (a name in the clusters file, bootstrap servers, a command
config) is decided once, by :func:`resolve_connection`, for the CLI and the web editor alike.

Parsing is pure; :meth:`Connection.admin_client_kwargs` reads the PEM files and the password
environment variable it names, and gives the keyword arguments of
:class:`~kafka_config_admin.AdminClient`; :meth:`Connection.admin_client` makes the client.
A :class:`Connection` pickles, so a Spark job sends it to its executors, each of which opens
its own client (the SSL context and a ``password_env`` password are made there).

This module was ``kafka_config_admin.desired.clusters``.
"""

from __future__ import annotations

import os
import re
import ssl
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic._internal._model_construction import ModelMetaclass

from . import DEFAULT_TIMEOUT, AdminClient, InvalidArgumentError, TokenProvider
from .toolkit import (
    argument_error,
    check_seconds,
    check_security_option,
    check_security_settings,
    decoding_problem,
    error_line,
    shorten,
    uses_tls,
)

__all__ = [
    "BOOTSTRAP_SERVERS_ENV",
    "CLUSTERS_FILE_ENV",
    "DEFAULT_CLUSTERS_FILE",
    "DEFAULT_JOURNAL_RETENTION_MS",
    "ClustersFile",
    "Connection",
    "ConnectionConfigError",
    "JournalTopic",
    "clusters_file_in_use",
    "clusters_file_path",
    "connection_from_properties",
    "connections_from_options",
    "load_clusters_file",
    "load_command_config",
    "parse_clusters_file",
    "parse_command_config",
    "parse_properties",
    "resolve_connection",
]

#: The environment variable naming the clusters file when a tool is not given one.
CLUSTERS_FILE_ENV = "KAFKA_CONFIG_ADMIN_CLUSTERS"
#: The environment variable holding bootstrap servers: the last place a tool looks for a
#: cluster (:func:`resolve_connection`).
BOOTSTRAP_SERVERS_ENV = "KAFKA_BOOTSTRAP_SERVERS"
#: The clusters file used when neither an option nor ``$KAFKA_CONFIG_ADMIN_CLUSTERS`` names one.
DEFAULT_CLUSTERS_FILE = Path("~/.config/kafka-config-admin/clusters.yaml")


class ConnectionConfigError(InvalidArgumentError):
    """A clusters file or command config that cannot be used; the message names what and where."""


class _RefusesWithOurErrors(ModelMetaclass):
    """Calling the class refuses bad arguments with :class:`ConnectionConfigError`.

    Only a direct call passes here: a clusters file, validated by pydantic as a whole, keeps
    messages that name the cluster and key. A call of the wrong shape (an argument missing, or
    one the class does not have) raises ``TypeError``, as any Python function does.
    """

    if not TYPE_CHECKING:  # type checkers keep seeing each class's own signature

        def __call__(cls, /, *args: Any, **kwargs: Any) -> Any:
            try:
                return super().__call__(*args, **kwargs)
            except ValidationError as error:
                raise argument_error(
                    cls.__name__,
                    error,
                    secret=_SECRET_ARGUMENTS,
                    error_type=ConnectionConfigError,
                ) from None


#: The journal topic's retention when a clusters file sets none: 90 days.
DEFAULT_JOURNAL_RETENTION_MS = 90 * 24 * 60 * 60 * 1000


class JournalTopic(BaseModel, metaclass=_RefusesWithOurErrors):
    """A Kafka topic of the cluster as its journal (a clusters file's ``journal: {topic: ...}``),
    shared by everyone whose clusters file names it; read by ``journal.journal_of``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    topic: str = Field(min_length=1, max_length=249, pattern=r"^[A-Za-z0-9._-]+$")
    retention_ms: int = Field(
        default=DEFAULT_JOURNAL_RETENTION_MS,
        ge=-1,
        description="The topic's retention.ms when it is created (-1: kept for ever).",
    )
    replication_factor: int | None = Field(
        default=None, ge=1, description="When the topic is created; None: the broker's default."
    )


class Connection(BaseModel, metaclass=_RefusesWithOurErrors):
    """How to reach one cluster: bootstrap servers, security protocol, SASL and SSL settings.

    Paths are absolute once parsed (relative ones are resolved against the file naming them).
    A connection read from a clusters file is named after its cluster.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str | None = Field(default=None, description="The cluster's name in output and rows.")
    bootstrap_servers: str | None = None
    bootstrap_controllers: str | None = Field(
        default=None,
        description="Instead of bootstrap_servers: a KRaft controller quorum's listeners.",
    )
    timeout: float = Field(
        default=DEFAULT_TIMEOUT, gt=0, description="Seconds one call may take, retries included."
    )
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str | None = None
    username: str | None = None
    password: SecretStr | None = None
    password_env: str | None = Field(default=None, description="Read the password from here.")
    sasl_jaas_config: SecretStr | None = None
    oauth_token_env: str | None = Field(
        default=None, description="OAUTHBEARER: the variable holding the bearer token."
    )
    ssl_ca_location: Path | None = None
    ssl_ca_pem: SecretStr | None = Field(default=None, description="Trusted certificates, inline.")
    ssl_certificate_location: Path | None = None
    ssl_key_location: Path | None = None
    ssl_key_password: SecretStr | None = None
    ssl_check_hostname: bool = True
    rules: Path | None = Field(
        default=None,
        description=(
            "A rules file (YAML, ``rules:`` as in a desired-state file) every change to this "
            "cluster is checked against; read by ``desired.connection_rules``."
        ),
    )
    journal: JournalTopic | None = Field(
        default=None,
        description="A topic of this cluster as the journal of its changes, instead of SQLite.",
    )

    @model_validator(mode="before")
    @classmethod
    def _servers_as_one_string(cls, data: Any) -> Any:
        for key in ("bootstrap_servers", "bootstrap_controllers"):
            if isinstance(data, dict) and isinstance(data.get(key), list):
                data = {**data, key: ",".join(map(str, data[key]))}
        return data

    @field_validator("security_protocol", "sasl_mechanism")
    @classmethod
    def _supported(cls, value: str | None, info: ValidationInfo) -> str | None:
        """The SDK's list of each (``check_security_option``), said without the field's name,
        which the error already gives."""
        if value is None:
            return None
        option = str(info.field_name)
        try:
            return check_security_option(option, value)
        except InvalidArgumentError as error:
            raise ValueError(str(error).removeprefix(f"{option} ")) from None

    @model_validator(mode="after")
    def _consistent(self) -> Connection:
        """The SDK's rules (``check_security_settings``), then those of this file form."""
        check_security_settings(
            self.security_protocol,
            self.sasl_mechanism,
            login={
                "username": self.username,
                "sasl_jaas_config": self.sasl_jaas_config,
                "password": self.password,
                "password_env": self.password_env,
            },
            token={"oauth_token_env": self.oauth_token_env},
            tls={
                "ssl_ca_location": self.ssl_ca_location,
                "ssl_ca_pem": self.ssl_ca_pem,
                "ssl_certificate_location": self.ssl_certificate_location,
                "ssl_key_location": self.ssl_key_location,
                "ssl_key_password": self.ssl_key_password,
            },
            login_needs="username and password (or sasl_jaas_config)",
            token_needs="oauth_token_env (the environment variable holding the bearer token)",
        )
        if self.username is not None and self.sasl_jaas_config is not None:
            raise ValueError("give either username/password or sasl_jaas_config, not both")
        if self.username is not None and (self.password is None) == (self.password_env is None):
            raise ValueError("give exactly one of password and password_env with username")
        if self.username is None and (self.password or self.password_env) is not None:
            given = "password" if self.password is not None else "password_env"
            raise ValueError(f"{given} needs username")
        if self.ssl_key_location is not None and self.ssl_certificate_location is None:
            raise ValueError("ssl_key_location needs ssl_certificate_location")
        if self.bootstrap_servers and self.bootstrap_controllers:
            raise ValueError(
                "give bootstrap_servers (brokers) or bootstrap_controllers (a KRaft controller "
                "quorum), not both"
            )
        return self

    @property
    def label(self) -> str:
        """The cluster's name, else its bootstrap servers: what output calls this cluster."""
        return (
            self.name
            or self.bootstrap_servers
            or self.bootstrap_controllers
            or "(no bootstrap servers)"
        )

    def with_servers(self, bootstrap_servers: str) -> Connection:
        """The same settings with other bootstrap servers."""
        return self.model_copy(update={"bootstrap_servers": bootstrap_servers})

    def admin_client(self) -> AdminClient:
        """A new, unopened client for this cluster (open it with ``async with``).

        Raises :class:`ConnectionConfigError` as :meth:`admin_client_kwargs` does.
        """
        return AdminClient(timeout=self.timeout, **self.admin_client_kwargs())

    def admin_client_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :class:`~kafka_config_admin.AdminClient` for this connection.

        Reads the password from ``password_env`` and the PEM files; raises
        :class:`ConnectionConfigError` naming what is missing or unreadable.
        """
        if self.bootstrap_controllers:
            kwargs: dict[str, Any] = {"bootstrap_controllers": self.bootstrap_controllers}
        elif self.bootstrap_servers:
            kwargs = {"bootstrap_servers": self.bootstrap_servers}
        else:
            raise ConnectionConfigError("no bootstrap servers given")
        kwargs["security_protocol"] = self.security_protocol
        if self.oauth_token_env is not None:
            tokens = _EnvironmentToken(self.oauth_token_env)
            tokens.read()  # a variable that is not set is named now, before connecting
            kwargs |= {"sasl_mechanism": "OAUTHBEARER", "sasl_oauth_token_provider": tokens}
        elif self.username is not None or self.sasl_jaas_config is not None:
            username, password, mechanism = self._sasl_login()
            kwargs |= {
                "sasl_mechanism": mechanism,
                "sasl_plain_username": username,
                "sasl_plain_password": password,
            }
        if uses_tls(self.security_protocol):
            kwargs["ssl_context"] = self._ssl_context()
        return kwargs

    def _sasl_login(self) -> tuple[str, str, str]:
        if self.sasl_jaas_config is not None:
            return _jaas_login(self.sasl_jaas_config.get_secret_value(), self.sasl_mechanism)
        assert self.username is not None
        if self.password_env is not None:
            password = os.environ.get(self.password_env)
            if password is None:
                raise ConnectionConfigError(
                    f"password_env names {self.password_env}, which is not set"
                )
        else:
            assert self.password is not None
            password = self.password.get_secret_value()
        return self.username, password, self.sasl_mechanism or "PLAIN"

    def _ssl_context(self) -> ssl.SSLContext:
        # As Kafka does: a trust store given replaces the system's certificates.
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = self.ssl_check_hostname
        if self.ssl_ca_location is None and self.ssl_ca_pem is None:
            context.load_default_certs()
        if self.ssl_ca_location is not None:
            _require_pem(self.ssl_ca_location, "trust store")
            _ssl_call(
                context.load_verify_locations, self.ssl_ca_location, cafile=self.ssl_ca_location
            )
        if self.ssl_ca_pem is not None:
            _ssl_call(
                context.load_verify_locations,
                "the inline trusted certificates",
                cadata=self.ssl_ca_pem.get_secret_value(),
            )
        if self.ssl_certificate_location is not None:
            _require_pem(self.ssl_certificate_location, "key store")
            password = self.ssl_key_password.get_secret_value() if self.ssl_key_password else None
            _ssl_call(
                context.load_cert_chain,
                self.ssl_certificate_location,
                certfile=self.ssl_certificate_location,
                keyfile=self.ssl_key_location,
                password=password,
            )
        return context


class _EnvironmentToken(TokenProvider):
    """The bearer token in an environment variable, read at each new connection."""

    def __init__(self, variable: str) -> None:
        self._variable = variable

    def read(self) -> str:
        token = os.environ.get(self._variable)
        if not token:
            raise ConnectionConfigError(
                f"oauth_token_env names {self._variable}, which is not set or empty"
            )
        return token

    async def token(self) -> str:
        return self.read()


class ClustersFile(BaseModel, metaclass=_RefusesWithOurErrors):
    """A clusters file: clusters by name, and which one is used when none is named."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    clusters: dict[str, Connection]
    default: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _named_clusters(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("clusters"), dict):
            return data
        named = {
            str(name): _named(str(name), settings) for name, settings in data["clusters"].items()
        }
        return {**data, "clusters": named}

    @model_validator(mode="after")
    def _default_is_known(self) -> ClustersFile:
        if self.default is not None and self.default not in self.clusters:
            raise ValueError(
                f"default names {shorten(self.default)}, which is not among the clusters"
            )
        for name, connection in self.clusters.items():
            if not (connection.bootstrap_servers or connection.bootstrap_controllers):
                raise ValueError(
                    f"cluster {shorten(name)} has no bootstrap_servers (nor bootstrap_controllers)"
                )
        return self

    def connection(self, name: str | None = None) -> Connection:
        """The named cluster, or the default one; raises :class:`ConnectionConfigError`."""
        chosen = name or self.default
        if chosen is None:
            if len(self.clusters) == 1:
                return next(iter(self.clusters.values()))
            raise ConnectionConfigError(
                f"name a cluster ({', '.join(sorted(self.clusters))}): the clusters file has "
                "no default"
            )
        try:
            return self.clusters[chosen]
        except KeyError:
            raise ConnectionConfigError(
                f"no cluster named {chosen!r} (known: {', '.join(sorted(self.clusters))})"
            ) from None

    def fleet(self, names: tuple[str, ...] | None = None) -> tuple[Connection, ...]:
        """All the clusters, or the ones named, in that order; raises
        :class:`ConnectionConfigError` naming a cluster the file does not have."""
        chosen = names if names is not None else tuple(self.clusters)
        unknown = [name for name in chosen if name not in self.clusters]
        if unknown:
            raise ConnectionConfigError(
                f"no cluster named {', '.join(unknown)} in the clusters file (known: "
                f"{', '.join(sorted(self.clusters))})"
            )
        return tuple(self.clusters[name] for name in chosen)


def _named(name: str, settings: Any) -> Any:
    """A cluster's settings named after its key in the clusters file."""
    if isinstance(settings, Connection):
        given = settings.name
    elif isinstance(settings, Mapping):
        given = settings.get("name")
    else:
        return settings  # validation names the problem
    if given is not None and given != name:
        raise ValueError(
            f"cluster {shorten(name)} is named {shorten(str(given))}: "
            "leave name out or make it match"
        )
    if isinstance(settings, Connection):
        return settings.model_copy(update={"name": name})
    return {**settings, "name": name}


def parse_clusters_file(text: str, *, source: str, base_dir: Path) -> ClustersFile:
    """Parse a clusters file's YAML text; relative paths are resolved against ``base_dir``.

    ``source`` names the file in error messages. Every problem, whatever the text holds, is a
    :class:`ConnectionConfigError` naming ``source``, the line where there is one, and the
    problem with values shortened.
    """
    try:
        data = yaml.load(text, Loader=_ClustersFileLoader)  # a SafeLoader
    except yaml.YAMLError as error:
        raise ConnectionConfigError(f"{source}: not valid YAML: {_yaml_problem(error)}") from None
    except RecursionError:
        raise ConnectionConfigError(f"{source}: not valid YAML: nested too deeply") from None
    if not isinstance(data, dict) or not isinstance(data.get("clusters"), dict):
        raise ConnectionConfigError(f"{source}: expected a mapping with a 'clusters' mapping")
    try:
        clusters = {
            str(name): _with_paths_under(settings, base_dir)
            for name, settings in data["clusters"].items()
        }
        return ClustersFile.model_validate({**data, "clusters": clusters})
    except ValidationError as error:
        raise ConnectionConfigError(f"{source}: {_first_problem(error)}") from None
    except (ValueError, TypeError, RuntimeError) as error:  # a path no file can have, ...
        raise ConnectionConfigError(f"{source}: {_cut(error_line(error))}") from None


class _ClustersFileLoader(yaml.SafeLoader):
    """YAML's safe loader, with an integer too long for Python said at its line."""


def _integer(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    try:
        return int(loader.construct_yaml_int(node))
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        raise yaml.constructor.ConstructorError(
            None, None, f"{shorten(str(node.value), 20)} is too long a number", node.start_mark
        ) from None


_ClustersFileLoader.add_constructor("tag:yaml.org,2002:int", _integer)


def _yaml_problem(error: yaml.YAMLError) -> str:
    """YAML's problem and line, without the snippet of the file PyYAML quotes."""
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or error_line(error)
    where = "" if mark is None else f"line {mark.line + 1}: "
    return where + _cut(problem)


def _cut(text: str, limit: int = 200) -> str:
    """A message cut short: an error quotes a problem, not a file."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def load_clusters_file(path: str | Path) -> ClustersFile:
    """Read and parse a clusters file; every problem is a :class:`ConnectionConfigError`."""
    path = Path(path)
    text = _read_user_file(path, "clusters file")
    return parse_clusters_file(text, source=str(path), base_dir=path.resolve().parent)


def _read_user_file(path: Path, what: str) -> str:
    """A user's file as text; :class:`ConnectionConfigError` if unreadable or not UTF-8."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ConnectionConfigError(f"cannot read {what} {path}: {error.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, problem = decoding_problem(error)
        raise ConnectionConfigError(f"{path}: line {line}: {problem}") from None


# --- command configs (Kafka tools' .properties) --------------------------------------------

#: Keys of a Kafka client config that concern this tool; everything else is ignored, as Kafka's
#: own tools ignore what the admin client does not use.
_STORE_TYPE_KEYS = ("ssl.truststore.type", "ssl.keystore.type")


def parse_command_config(text: str, *, source: str, base_dir: Path) -> Connection:
    """Parse a Kafka tool's ``--command-config`` properties into a :class:`Connection`.

    The keys understood are those of :func:`connection_from_properties`; relative paths are
    resolved against ``base_dir`` (the command config's directory).
    """
    return connection_from_properties(
        parse_properties(text, source=source), source=source, base_dir=base_dir
    )


def connection_from_properties(
    properties: Mapping[str, str], *, source: str, base_dir: Path | None = None
) -> Connection:
    """A :class:`Connection` from Kafka client property names; other keys are ignored, as
    Kafka's own tools ignore what the admin client does not use.

    Understood: ``bootstrap.servers`` (or ``bootstrap.controllers``, a KRaft controller
    quorum's listeners, as Java's admin client names them), ``security.protocol``,
    ``sasl.mechanism``, ``sasl.jaas.config`` (PLAIN and SCRAM login modules) or
    ``sasl.username`` and ``sasl.password``, ``ssl.truststore.location`` /
    ``ssl.truststore.certificates`` and ``ssl.keystore.location`` of type PEM,
    ``ssl.key.password`` and ``ssl.endpoint.identification.algorithm``. JKS and PKCS12 stores
    are refused with a clear error. ``source`` names where the properties come from in error
    messages; relative paths
    are resolved against ``base_dir`` when it is given.
    """
    if properties.get("sasl.mechanism", "").strip().upper() == "OAUTHBEARER":
        raise ConnectionConfigError(
            f"{source}: sasl.mechanism=OAUTHBEARER is not supported in a command config or other "
            "Kafka properties (Kafka's login callback handlers are Java): use a clusters file "
            "with sasl_mechanism: OAUTHBEARER and oauth_token_env naming the variable that holds "
            "the token"
        )
    for key in _STORE_TYPE_KEYS:
        kind = properties.get(key, "").strip().upper()
        if kind and kind != "PEM":
            raise ConnectionConfigError(
                f"{source}: {key}={kind} is not supported: convert the store to PEM files "
                f"and set {key}=PEM"
            )
    if "ssl.keystore.key" in properties or "ssl.keystore.certificate.chain" in properties:
        raise ConnectionConfigError(
            f"{source}: inline ssl.keystore.key is not supported: put the key and certificate "
            "chain in a PEM file and name it in ssl.keystore.location"
        )
    settings: dict[str, Any] = {
        "bootstrap_servers": properties.get("bootstrap.servers"),
        "bootstrap_controllers": properties.get("bootstrap.controllers"),
        "security_protocol": properties.get("security.protocol", "PLAINTEXT").strip().upper(),
        "sasl_mechanism": properties.get("sasl.mechanism"),
        "sasl_jaas_config": properties.get("sasl.jaas.config"),
        "username": properties.get("sasl.username"),
        "password": properties.get("sasl.password"),
        "ssl_ca_location": properties.get("ssl.truststore.location"),
        "ssl_ca_pem": properties.get("ssl.truststore.certificates"),
        "ssl_certificate_location": properties.get("ssl.keystore.location"),
        "ssl_key_password": properties.get("ssl.key.password"),
        "ssl_check_hostname": properties.get("ssl.endpoint.identification.algorithm", "https")
        != "",
    }
    if settings["ssl_certificate_location"] is not None:
        # Kafka's PEM key store is one file holding the key and the certificate chain.
        settings["ssl_key_location"] = settings["ssl_certificate_location"]
    settings = {key: value for key, value in settings.items() if value is not None}
    if base_dir is not None:
        settings = _with_paths_under(settings, base_dir)
    try:
        connection = Connection.model_validate(settings)
    except ValidationError as error:
        raise ConnectionConfigError(f"{source}: {_first_problem(error)}") from None
    if connection.sasl_jaas_config is not None:
        try:
            _jaas_login(connection.sasl_jaas_config.get_secret_value(), connection.sasl_mechanism)
        except ConnectionConfigError as error:
            raise ConnectionConfigError(f"{source}: {error}") from None
    return connection


def load_command_config(path: str | Path) -> Connection:
    """Read and parse a ``--command-config`` properties file; every problem is a
    :class:`ConnectionConfigError`."""
    path = Path(path)
    text = _read_user_file(path, "command config")
    return parse_command_config(text, source=str(path), base_dir=path.resolve().parent)


def connections_from_options(options: Mapping[str, str]) -> tuple[Connection, ...]:
    """The clusters a data source's options name: ``bootstrap.servers`` or
    ``bootstrap.controllers`` (one cluster, or its KRaft controller quorum) or ``clusters.file``
    (a fleet); the ``timeout`` option (seconds), if given, replaces each cluster's own.

    With ``clusters.file``, ``clusters`` (comma-separated) or ``cluster`` (one) may name some
    of its clusters. With ``bootstrap.servers``, ``cluster`` names that cluster in rows (else
    its servers do); its security settings use Kafka's property names
    (:func:`connection_from_properties`). The options are the only source: no environment
    variable and no default clusters file is read (docs/cli.md, "Which cluster").
    """
    given = options.get("timeout")
    timeout = {} if given is None else {"timeout": check_seconds("timeout", given, text=True)}
    path = options.get("clusters.file")
    if path is not None:
        for option in ("bootstrap.servers", "bootstrap.controllers"):
            if options.get(option):
                raise ConnectionConfigError(f"give either {option} or clusters.file, not both")
        names, one = options.get("clusters"), options.get("cluster")
        if names is not None and one is not None:
            raise ConnectionConfigError("give either cluster or clusters, not both")
        names = one if one is not None else names
        chosen = None if names is None else tuple(n.strip() for n in names.split(",") if n.strip())
        return tuple(
            connection.model_copy(update=timeout)
            for connection in load_clusters_file(path).fleet(chosen)
        )
    servers = options.get("bootstrap.servers") or options.get("bootstrap.controllers")
    if not servers:
        raise ConnectionConfigError(
            "kafka-configs needs the option bootstrap.servers (one cluster; or "
            "bootstrap.controllers, its controller quorum) or clusters.file (a fleet)"
        )
    connection = connection_from_properties(options, source="kafka-configs connection options")
    name = options.get("cluster") or servers
    return (connection.model_copy(update={"name": name, **timeout}),)


# --- which cluster a tool talks to -----------------------------------------------------------


def clusters_file_path(given: Path | None = None) -> Path:
    """The clusters file: the one given, else ``$KAFKA_CONFIG_ADMIN_CLUSTERS``, else
    :data:`DEFAULT_CLUSTERS_FILE`."""
    if given is not None:
        return given
    from_env = os.environ.get(CLUSTERS_FILE_ENV)
    return Path(from_env) if from_env else DEFAULT_CLUSTERS_FILE.expanduser()


def resolve_connection(
    *,
    cluster: str | None = None,
    bootstrap_servers: str | None = None,
    command_config: Path | None = None,
    clusters_file: Path | None = None,
    timeout: float | None = None,
    bootstrap_controllers: str | None = None,
) -> Connection:
    """The connection a tool's options ask for, named for output (:attr:`Connection.label`).

    The one order of precedence (docs/cli.md, "Which cluster"), first match wins:

    1. ``cluster``: that cluster of the clusters file (:func:`clusters_file_path`);
       ``bootstrap_servers`` or ``bootstrap_controllers`` given with it must name the same
       servers, else it is refused;
    2. ``bootstrap_servers`` or ``bootstrap_controllers`` (a KRaft controller quorum, KIP-919;
       never both), with ``command_config``'s security settings if given;
    3. ``command_config``'s own ``bootstrap.servers`` or ``bootstrap.controllers``;
    4. the clusters file's default cluster (its only one when it has one), when the file is
       named (``clusters_file`` or ``$KAFKA_CONFIG_ADMIN_CLUSTERS``) or exists at
       :data:`DEFAULT_CLUSTERS_FILE` and no command config is given;
    5. ``$KAFKA_BOOTSTRAP_SERVERS`` (:data:`BOOTSTRAP_SERVERS_ENV`), with ``command_config``'s
       security settings if given.

    ``timeout`` replaces the connection's own (a clusters file may set one per cluster).
    Raises :class:`ConnectionConfigError` naming what is missing or what disagrees.
    """
    if bootstrap_servers is not None and bootstrap_controllers is not None:
        raise ConnectionConfigError("give --bootstrap-server or --bootstrap-controller, not both")
    if cluster is not None and command_config is not None:
        raise ConnectionConfigError("give --cluster or --command-config, not both")
    given = {} if timeout is None else {"timeout": timeout}
    if cluster is not None:
        connection = load_clusters_file(clusters_file_path(clusters_file)).connection(cluster)
        return _on_the_named_cluster(
            cluster, connection, bootstrap_servers, bootstrap_controllers
        ).model_copy(update=given)
    if command_config is not None:
        connection = load_command_config(command_config)
    else:
        named = clusters_file_in_use(clusters_file)
        if bootstrap_servers is None and bootstrap_controllers is None and named is not None:
            return load_clusters_file(named).connection().model_copy(update=given)
        connection = Connection()
    if bootstrap_controllers is not None:
        quorum = {"bootstrap_servers": None, "bootstrap_controllers": bootstrap_controllers}
        return connection.model_copy(update={**quorum, **given})
    if bootstrap_servers is None and connection.bootstrap_controllers:
        return connection.model_copy(update=given)  # a command config's quorum
    servers = (
        bootstrap_servers or connection.bootstrap_servers or os.environ.get(BOOTSTRAP_SERVERS_ENV)
    )
    if not servers:
        raise ConnectionConfigError(
            f"no cluster given: use --bootstrap-server HOST:PORT (or {BOOTSTRAP_SERVERS_ENV}), "
            "or --cluster NAME with a clusters file"
        )
    brokers = {"bootstrap_servers": servers, "bootstrap_controllers": None}
    return connection.model_copy(update={**brokers, **given})


def _on_the_named_cluster(
    cluster: str,
    connection: Connection,
    bootstrap_servers: str | None,
    bootstrap_controllers: str | None,
) -> Connection:
    """The named cluster's connection, reached at the servers or controllers given beside
    ``--cluster`` where the clusters file names none of that kind (its security settings kept);
    refused where the file names others: a name and an address that disagree leave it unclear
    which cluster is meant."""
    for option, what, given, own in (
        ("--bootstrap-server", "servers", bootstrap_servers, connection.bootstrap_servers),
        (
            "--bootstrap-controller",
            "controllers",
            bootstrap_controllers,
            connection.bootstrap_controllers,
        ),
    ):
        if given is not None and own and not _same_servers(given, own):
            raise ConnectionConfigError(
                f"--cluster {shorten(cluster)} has bootstrap {what} {shorten(own)} but "
                f"{option} gives {shorten(given)}: give one of them"
            )
    if bootstrap_controllers is not None and not connection.bootstrap_controllers:
        update = {"bootstrap_servers": None, "bootstrap_controllers": bootstrap_controllers}
        return connection.model_copy(update=update)
    if bootstrap_servers is not None and not connection.bootstrap_servers:
        update = {"bootstrap_servers": bootstrap_servers, "bootstrap_controllers": None}
        return connection.model_copy(update=update)
    return connection


def clusters_file_in_use(given: Path | None = None) -> Path | None:
    """The clusters file a tool given neither a cluster nor servers reads: one named (``given``
    or ``$KAFKA_CONFIG_ADMIN_CLUSTERS``), even if missing, so that its absence is said; else
    :data:`DEFAULT_CLUSTERS_FILE` if it exists; else None."""
    if given is not None or os.environ.get(CLUSTERS_FILE_ENV):
        return clusters_file_path(given)
    path = DEFAULT_CLUSTERS_FILE.expanduser()
    return path if path.exists() else None


def _same_servers(one: str, other: str | None) -> bool:
    """Whether two bootstrap lists name the same servers (order, case and spaces aside)."""

    def servers(text: str | None) -> set[str]:
        return {part.strip().lower() for part in (text or "").split(",") if part.strip()}

    return servers(one) == servers(other)


def parse_properties(text: str, *, source: str) -> dict[str, str]:
    """Java ``.properties`` text as a dict: ``key=value`` or ``key: value``, ``#``/``!``
    comments, and lines continued with a trailing backslash."""
    properties: dict[str, str] = {}
    logical = ""
    first = 0  # the line the logical line starts on
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip() if not logical else raw.lstrip()
        if not logical and (not line or line[0] in "#!"):
            continue
        first = first if logical else number
        if _continues(line):
            logical += line[:-1]
            continue
        logical += line
        match = re.match(r"([^=:\s]+)\s*(?:[=:\s]\s*(.*))?$", logical, re.DOTALL)
        if match is None:
            raise ConnectionConfigError(
                f"{source}: line {first}: not KEY=VALUE: {shorten(logical)}"
            )
        properties[match.group(1)] = (match.group(2) or "").strip()
        logical = ""
    return properties


def _continues(line: str) -> bool:
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


_LOGIN_MODULES: dict[str, tuple[str, ...]] = {
    "org.apache.kafka.common.security.plain.PlainLoginModule": ("PLAIN",),
    "org.apache.kafka.common.security.scram.ScramLoginModule": ("SCRAM-SHA-256", "SCRAM-SHA-512"),
}


def _jaas_login(jaas: str, mechanism: str | None) -> tuple[str, str, str]:
    """Username, password and mechanism from a ``sasl.jaas.config`` value, read as Kafka reads
    it (:class:`_JaasTokens`), refused with Kafka's reason where Kafka refuses it."""
    module, options = _jaas_entry(jaas)
    mechanisms = _LOGIN_MODULES.get(module)
    if mechanisms is None:
        raise ConnectionConfigError(
            f"sasl.jaas.config uses {shorten(module)}: only PlainLoginModule and ScramLoginModule "
            "are supported"
        )
    if mechanism is None:
        if len(mechanisms) > 1:
            raise ConnectionConfigError(
                "sasl.jaas.config uses ScramLoginModule: set sasl.mechanism to SCRAM-SHA-256 "
                "or SCRAM-SHA-512"
            )
        mechanism = mechanisms[0]
    elif mechanism not in mechanisms:
        raise ConnectionConfigError(
            f"sasl.mechanism {mechanism} does not go with {module.rsplit('.', 1)[-1]}"
        )
    username, password = options.get("username"), options.get("password")
    if username is None or password is None:
        raise ConnectionConfigError("sasl.jaas.config needs username and password options")
    return username, password, mechanism


def _jaas_entry(jaas: str) -> tuple[str, dict[str | None, str]]:
    """The one login module of a JAAS config and its options, by Kafka's grammar
    ``<LoginModule> <flag> (<key>=<value>)*;`` (org.apache.kafka.common.security.JaasConfig),
    one entry as Kafka's clients require."""
    tokens = _JaasTokens(jaas)
    entries: list[tuple[str, dict[str | None, str]]] = []
    while tokens.next() is not _JaasTokens.END:
        entries.append(_jaas_module(tokens))
    if not entries:
        raise ConnectionConfigError("sasl.jaas.config: login module not specified")
    if len(entries) > 1:
        raise ConnectionConfigError(
            f"sasl.jaas.config holds {len(entries)} login modules: a client takes one"
        )
    return entries[0]


def _jaas_module(tokens: _JaasTokens) -> tuple[str, dict[str | None, str]]:
    module = tokens.text
    if tokens.next() is _JaasTokens.END:
        raise ConnectionConfigError("sasl.jaas.config: login module control flag not specified")
    flag = tokens.text
    if flag is None or flag.upper() not in ("REQUIRED", "REQUISITE", "SUFFICIENT", "OPTIONAL"):
        raise ConnectionConfigError(
            f"sasl.jaas.config: invalid login module control flag {shorten(flag or tokens.kind)} "
            "(required, requisite, sufficient or optional)"
        )
    options: dict[str | None, str] = {}
    while tokens.next() is not _JaasTokens.END and tokens.kind != ";":
        key = tokens.text
        if tokens.next() != "=" or tokens.next() is _JaasTokens.END or tokens.text is None:
            raise ConnectionConfigError(
                f"sasl.jaas.config: value not specified for key {shorten(str(key))} (an "
                "unbalanced quote ends its value at the next quote or the line's end)"
            )
        options[key] = tokens.text
    if tokens.kind != ";":
        raise ConnectionConfigError("sasl.jaas.config: the entry does not end with ';'")
    if not module:
        raise ConnectionConfigError("sasl.jaas.config: login module not specified")
    return module, options


class _JaasTokens:
    """The tokens Kafka's JAAS parser reads, by the rules it sets on Java's StreamTokenizer.

    Characters up to the space are blanks; ``"`` and ``'`` quote (a quote ends at the same
    quote, a line's end or the text's end, with Java's backslash escapes); ``;`` and ``=``
    are tokens of their own; ``//`` and ``/*...*/`` are comments, and so is a lone ``/`` to
    the line's end; characters 129-159 are tokens of their own; every other character is part
    of a word.
    """

    END = "end"
    WORD = "word"
    QUOTED = "quoted"
    _ESCAPES: ClassVar[dict[str, str]] = {
        "a": "\a",
        "b": "\b",
        "f": "\f",
        "n": "\n",
        "r": "\r",
        "t": "\t",
        "v": "\v",
    }

    def __init__(self, text: str) -> None:
        self._text = text
        self._at = 0
        #: The last token's kind: END, WORD, QUOTED, or the character of a one-character token.
        self.kind = self.END
        #: The last token's text (a word's or a quoted string's), else None.
        self.text: str | None = None

    def next(self) -> str:
        """Read the next token; its kind (also :attr:`kind`)."""
        self.text = None
        text, length = self._text, len(self._text)
        while self._at < length:
            char = text[self._at]
            if char <= " ":
                self._at += 1
            elif char == "/":
                self._skip_comment()
            elif char in "\"'":
                self.text = self._quoted(char)
                self.kind = self.QUOTED
                return self.kind
            elif char in ";=" or "\x81" <= char <= "\x9f":
                self._at += 1
                self.kind = char
                return self.kind
            else:
                start = self._at
                while self._at < length and self._in_word(text[self._at]):
                    self._at += 1
                self.text = text[start : self._at]
                self.kind = self.WORD
                return self.kind
        self.kind = self.END
        return self.kind

    @staticmethod
    def _in_word(char: str) -> bool:
        return char > " " and char not in "/\"';=" and not "\x81" <= char <= "\x9f"

    def _skip_comment(self) -> None:
        text = self._text
        if text.startswith("/*", self._at):
            end = text.find("*/", self._at + 2)
            self._at = len(text) if end < 0 else end + 2
            return
        # "//" and a lone "/" alike: to the line's end
        ends = [at for at in (text.find("\n", self._at), text.find("\r", self._at)) if at >= 0]
        self._at = min(ends) if ends else len(text)

    def _quoted(self, quote: str) -> str:
        text, length = self._text, len(self._text)
        self._at += 1
        parts: list[str] = []
        while self._at < length and text[self._at] not in (quote, "\n", "\r"):
            char = text[self._at]
            self._at += 1
            if char == "\\" and self._at < length:
                char, self._at = self._escape(self._at)
            parts.append(char)
        if self._at < length and text[self._at] == quote:
            self._at += 1
        return "".join(parts)

    def _escape(self, at: int) -> tuple[str, int]:
        """The character a backslash escape before ``at`` stands for, and where it ends."""
        text = self._text
        char = text[at]
        if "0" <= char <= "7":
            most = 3 if char <= "3" else 2
            end = at
            while end < len(text) and end - at < most and "0" <= text[end] <= "7":
                end += 1
            return chr(int(text[at:end], 8)), end
        return self._ESCAPES.get(char, char), at + 1


_PATH_KEYS = ("ssl_ca_location", "ssl_certificate_location", "ssl_key_location", "rules")


def _with_paths_under(settings: Any, base_dir: Path) -> Any:
    if not isinstance(settings, Mapping):
        return settings
    resolved = dict(settings)
    for key in _PATH_KEYS:
        value = resolved.get(key)
        if isinstance(value, str) and value:
            resolved[key] = (base_dir / Path(value).expanduser()).resolve()
    return resolved


def _require_pem(path: Path, what: str) -> None:
    try:
        head = path.read_bytes()[:4096]
    except OSError as error:
        raise ConnectionConfigError(f"cannot read {what} {path}: {error.strerror}") from None
    if b"-----BEGIN" not in head:
        raise ConnectionConfigError(
            f"{what} {path} is not a PEM file (JKS and PKCS12 stores are not supported: "
            "convert it to PEM)"
        )


def _ssl_call(method: Any, what: object, **kwargs: Any) -> None:
    try:
        method(**kwargs)
    except (OSError, ssl.SSLError, ValueError) as error:
        raise ConnectionConfigError(f"cannot load {what}: {error_line(error)}") from None


#: Arguments whose value may be a secret: an error gives its type, never the value.
_SECRET_ARGUMENTS = frozenset({"password", "sasl_jaas_config", "ssl_ca_pem", "ssl_key_password"})


def _first_problem(error: ValidationError) -> str:
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"])
    message = str(problem["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message
