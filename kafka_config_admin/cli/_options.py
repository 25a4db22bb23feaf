"""The options commands share (connection, selection, changes, output), as click declares them.

Light on purpose: :mod:`._commands` declares every command with these, and ``--help`` or a usage
error of any command loads nothing more than click. What the options stand for (resources,
changes, a connection) is built from them when the command runs, by the modules imported then.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource

T = TypeVar("T")

#: Values of the SDK the help shows, written here so that the help loads none of the SDK
#: (tests/unit/test_cli_registration.py checks each against the SDK's own).
SDK_DEFAULT_TIMEOUT = 60.0  # kafka_config_admin.DEFAULT_TIMEOUT
REASSIGNMENT_TIMEOUT = 600.0  # kafka_config_admin.changeset.DEFAULT_REASSIGNMENT_TIMEOUT
ENTITY_TYPES = (  # _entities.ENTITY_TYPES: kafka-configs.sh's entity types
    "users",
    "clients",
    "ips",
    "topics",
    "brokers",
    "broker-loggers",
    "groups",
    "client-metrics",
)
RESOURCE_KINDS = (  # kafka_config_admin.state.ResourceKind's values
    "topic",
    "broker",
    "cluster_default",
    "broker_logger",
    "group",
    "client_metrics",
    "quota",
    "scram_user",
)


class Seconds(click.FloatRange):
    """A number of seconds (or minutes) within a range, and finite: click's ``FloatRange``
    takes ``nan`` (every comparison with it is false, so no bound refuses it) and ``inf``,
    which would make a poll loop run without pause or never again, a timeout never end."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


class OutputFormat(StrEnum):
    """The ``--output`` choices."""

    TABLE = "table"
    JSON = "json"
    YAML = "yaml"


@dataclass(frozen=True)
class ConnectionOptions:
    """The connection options of one command line, as given."""

    bootstrap_server: str | None = None
    command_config: Path | None = None
    cluster: str | None = None
    clusters_file: Path | None = None
    #: None: the clusters file's timeout for the cluster, else the SDK's default.
    timeout: float | None = None
    #: A KRaft controller quorum's listeners, in place of ``bootstrap_server`` (KIP-919).
    bootstrap_controller: str | None = None


def connection_options(command: Callable[..., T]) -> Callable[..., T]:
    """``--bootstrap-server`` (or ``--bootstrap-controller``), ``--command-config``,
    ``--cluster``, ``--clusters-file``, ``--timeout``, handed to the command as ``connection``."""

    @functools.wraps(command)
    def with_connection(
        *args: Any,
        bootstrap_server: str | None,
        bootstrap_controller: str | None,
        command_config: Path | None,
        cluster: str | None,
        clusters_file: Path | None,
        timeout: float | None,
        **kwargs: Any,
    ) -> T:
        source = click.get_current_context().get_parameter_source("bootstrap_server")
        if bootstrap_controller is not None and source is ParameterSource.ENVIRONMENT:
            bootstrap_server = None  # what the command line says wins over the environment
        options = ConnectionOptions(
            bootstrap_server, command_config, cluster, clusters_file, timeout, bootstrap_controller
        )
        return command(*args, connection=options, **kwargs)

    for option in reversed(
        [
            click.option(
                "--bootstrap-server",
                "-b",
                metavar="HOST:PORT[,...]",
                # Not click's envvar: the variable comes last, after --cluster and the
                # clusters file (connect.resolve_connection), not in the option's place.
                help="Brokers to connect to [else --cluster, the clusters file's default, "
                "then env KAFKA_BOOTSTRAP_SERVERS].",
            ),
            click.option(
                "--bootstrap-controller",
                metavar="HOST:PORT[,...]",
                help="Instead of brokers, a KRaft controller quorum's listeners (Kafka 3.7+): "
                "the configs and log levels of controllers (brokers, broker-loggers) and the "
                "cluster default.",
            ),
            click.option(
                "--command-config",
                type=click.Path(dir_okay=False, path_type=Path),
                help="Kafka client properties (security.protocol, sasl.*, ssl.* with PEM).",
            ),
            click.option("--cluster", "-c", metavar="NAME", help="A cluster of the clusters file."),
            click.option(
                "--clusters-file",
                type=click.Path(dir_okay=False, path_type=Path),
                help="Clusters file [env: KAFKA_CONFIG_ADMIN_CLUSTERS; default: "
                "~/.config/kafka-config-admin/clusters.yaml].",
            ),
            click.option(
                "--timeout",
                type=Seconds(min=0, min_open=True),
                help="Seconds each call to the cluster may take [default: the clusters file's "
                f"timeout for the cluster, else {SDK_DEFAULT_TIMEOUT:g}].",
            ),
        ]
    ):
        with_connection = option(with_connection)
    return with_connection


def selection_options(*, match: bool = True) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """``TYPE:NAME`` arguments and the ``kafka-configs.sh`` entity options, as ``selection``."""

    def decorate(command: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(command)
        def with_selection(
            *args: Any,
            resources: tuple[str, ...],
            topic: tuple[str, ...],
            broker: tuple[str, ...],
            broker_logger: tuple[str, ...],
            group: tuple[str, ...],
            client_metrics: tuple[str, ...],
            broker_default: bool,
            entity_type: tuple[str, ...],
            entity_names: tuple[str, ...],
            user: tuple[str, ...],
            client: tuple[str, ...],
            ip: tuple[str, ...],
            user_defaults: bool,
            client_defaults: bool,
            ip_defaults: bool,
            **kwargs: Any,
        ) -> T:
            from ._entities import EntityOptions, entities
            from ._resources import SelectionOptions

            entity_options = EntityOptions(
                entity_type,
                entity_names,
                user,
                client,
                ip,
                user_defaults,
                client_defaults,
                ip_defaults,
            )
            entity_resources, every_node, quota = entities(entity_options)
            selection = SelectionOptions(
                arguments=resources,
                topics=topic,
                brokers=broker,
                broker_loggers=broker_logger,
                groups=group,
                client_metrics=client_metrics,
                broker_default=broker_default,
                match=kwargs.pop("match", None),
                entity_resources=entity_resources,
                quota=quota,
                every_node=every_node,
            ).selection()
            return command(*args, selection=selection, **kwargs)

        options = [
            click.argument("resources", nargs=-1, metavar="[TYPE:NAME]..."),
            click.option("--topic", multiple=True, metavar="NAME", help="A topic (repeatable)."),
            click.option("--broker", multiple=True, metavar="ID", help="A broker (repeatable)."),
            click.option(
                "--broker-logger", multiple=True, metavar="ID", help="A broker's loggers."
            ),
            click.option("--group", multiple=True, metavar="NAME", help="A consumer group."),
            click.option(
                "--client-metrics", multiple=True, metavar="NAME", help="A client-metrics resource."
            ),
            click.option(
                "--cluster-default",
                "--broker-default",
                "broker_default",
                is_flag=True,
                help='The cluster-wide broker default (broker "").',
            ),
            # --entity-name and --entity-default share one list, so that each default keeps its
            # place among the names: kafka-configs.sh pairs them with the types in that order.
            click.option(
                "--entity-type",
                multiple=True,
                metavar="TYPE",
                help=f"kafka-configs.sh entity type: {', '.join(ENTITY_TYPES)} (users and clients "
                "together for a combined quota entity).",
            ),
            click.option(
                "--entity-name", "entity_names", multiple=True, metavar="NAME", help="Its name."
            ),
            click.option(
                "--entity-default",
                "entity_names",
                flag_value="",
                multiple=True,
                help="Its default entity (alone: the cluster-wide broker default).",
            ),
            click.option("--user", multiple=True, metavar="NAME", help="A user (quotas, SCRAM)."),
            click.option("--client", multiple=True, metavar="ID", help="A client id (quotas)."),
            click.option("--ip", multiple=True, metavar="IP", help="An IP address (quotas)."),
            click.option("--user-defaults", is_flag=True, help="The default user (quotas)."),
            click.option("--client-defaults", is_flag=True, help="The default client id (quotas)."),
            click.option("--ip-defaults", is_flag=True, help="The default IP (quotas)."),
        ]
        if match:
            options.append(
                click.option(
                    "--match", metavar="REGEX", help="Topics whose whole name matches REGEX."
                )
            )
        for option in reversed(options):
            with_selection = option(with_selection)
        return with_selection

    return decorate


def change_options(command: Callable[..., T]) -> Callable[..., T]:
    """``--set``/``--delete``/``--append``/``--subtract`` and ``kafka-configs.sh``'s forms,
    as ``ops``."""

    @functools.wraps(command)
    def with_changes(
        *args: Any,
        set_: tuple[str, ...],
        delete: tuple[str, ...],
        append: tuple[str, ...],
        subtract: tuple[str, ...],
        add_config: tuple[str, ...],
        add_config_file: tuple[Path, ...],
        delete_config: tuple[str, ...],
        **kwargs: Any,
    ) -> T:
        from ._resources import ChangeOptions

        ops = ChangeOptions(
            set_, delete, append, subtract, add_config, add_config_file, delete_config
        ).ops()
        return command(*args, ops=ops, **kwargs)

    for option in reversed(
        [
            click.option("--set", "set_", multiple=True, metavar="KEY=VALUE", help="SET a key."),
            click.option("--delete", multiple=True, metavar="KEY", help="DELETE an override."),
            click.option(
                "--append", multiple=True, metavar="KEY=VALUE", help="APPEND to a LIST key."
            ),
            click.option(
                "--subtract", multiple=True, metavar="KEY=VALUE", help="SUBTRACT from a LIST key."
            ),
            click.option(
                "--add-config",
                multiple=True,
                metavar="'K1=V1,K2=[A,B]'",
                help="kafka-configs.sh form of --set.",
            ),
            click.option(
                "--add-config-file",
                multiple=True,
                type=click.Path(dir_okay=False, path_type=Path),
                help="A properties file of keys to SET.",
            ),
            click.option(
                "--delete-config",
                multiple=True,
                metavar="K1,K2",
                help="kafka-configs.sh form of --delete.",
            ),
        ]
    ):
        with_changes = option(with_changes)
    return with_changes


def output_option(*choices: OutputFormat) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """``--output``/``-o``, handed to the command as an :class:`OutputFormat`."""
    names = [choice.value for choice in choices]
    return click.option(
        "--output",
        "-o",
        type=click.Choice(names),
        default=names[0],
        show_default=True,
        callback=lambda _ctx, _param, value: OutputFormat(value),
        help="Output format.",
    )
