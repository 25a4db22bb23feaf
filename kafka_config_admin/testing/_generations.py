"""Which Kafka releases the jvm backend starts, and what differs between their generations.

Three generations, told apart by the release number:

* **KRaft, Kafka 4** (4.0 and later, the pinned release): combined broker/controller nodes,
  logging through log4j 2.
* **KRaft, Kafka 3** (3.5 to 3.9): the same nodes and storage format (SCRAM users written at
  format time, which came in 3.5), but the broker logs through log4j 1 (reload4j here).
* **ZooKeeper** (2.4 to 3.4): a ZooKeeper node started from the ``zookeeper`` jar Kafka itself
  depends on, brokers with ``broker.id`` and ``zookeeper.connect``, no storage formatting,
  SCRAM users written into ZooKeeper, ACLs checked by ``AclAuthorizer``; log4j 1.

2.4 is the first release published for Scala 2.13, the only Scala build the harness fetches.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ._errors import UnsupportedKafkaVersionError
from ._settings import ADMIN_USER, ALICE_USER, KAFKA_VERSION, SASL_MECHANISMS

_RELEASE = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
_KRAFT_ONLY_KEYS = (
    "process.roles",
    "node.id",
    "controller.quorum.voters",
    "controller.listener.names",
    "share.coordinator.state.topic.replication.factor",
    "share.coordinator.state.topic.min.isr",
)
_KRAFT_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
_ZOOKEEPER_AUTHORIZER = "kafka.security.authorizer.AclAuthorizer"

_LOG4J1_HEAD = """\
log4j.rootLogger=INFO, OUT
# Request logging and state-change chatter drown out the lines that explain a failure.
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.appender.OUT.layout=org.apache.log4j.PatternLayout
log4j.appender.OUT.layout.ConversionPattern=[%d] %p %m (%c)%n
"""


@dataclass(frozen=True)
class Generation:
    """How brokers of one range of Kafka releases are started."""

    #: Short name, as shown in errors and reports: ``kraft-4``, ``kraft-3`` or ``zookeeper``.
    name: str
    #: First release of the range (inclusive) and first release after it (exclusive).
    first: tuple[int, int]
    after: tuple[int, int] | None
    #: KRaft (formatted storage, controller quorum) or ZooKeeper.
    kraft: bool
    #: log4j 2 (Kafka 4) or log4j 1 through reload4j (every earlier release).
    log4j2: bool

    @property
    def releases(self) -> str:
        """The range in words, e.g. ``3.5 to 3.9``."""
        first = ".".join(map(str, self.first))
        if self.after is None:
            return f"{first} and later"
        return f"{first} up to (not including) {'.'.join(map(str, self.after))}"


GENERATIONS = (
    Generation("kraft-4", (4, 0), None, kraft=True, log4j2=True),
    Generation("kraft-3", (3, 5), (4, 0), kraft=True, log4j2=False),
    Generation("zookeeper", (2, 4), (3, 5), kraft=False, log4j2=False),
)


def generation_of(version: str) -> Generation:
    """The generation a release belongs to; ``UnsupportedKafkaVersionError`` when none does."""
    if not isinstance(version, str):
        raise UnsupportedKafkaVersionError(
            f"the Kafka version must be a str such as {KAFKA_VERSION!r}, "
            f"got {type(version).__name__}"
        )
    match = _RELEASE.match(version.strip())
    if match is None:
        raise UnsupportedKafkaVersionError(
            f"Kafka version {version!r} is not a release number such as {KAFKA_VERSION!r}"
        )
    release = (int(match.group(1)), int(match.group(2)))
    for generation in GENERATIONS:
        if generation.first <= release and (generation.after is None or release < generation.after):
            return generation
    supported = "; ".join(f"{g.name}: {g.releases}" for g in GENERATIONS)
    raise UnsupportedKafkaVersionError(
        f"the jvm backend cannot start Kafka {version}: it starts releases of these "
        f"generations: {supported}"
    )


def log4j1_properties(log_file: str | None) -> str:
    """log4j 1 configuration (brokers before Kafka 4) writing to ``log_file`` or the console."""
    if log_file is None:
        appender = "log4j.appender.OUT=org.apache.log4j.ConsoleAppender\n"
    else:
        appender = (
            "log4j.appender.OUT=org.apache.log4j.FileAppender\n"
            f"log4j.appender.OUT.File={log_file}\n"
        )
    return _LOG4J1_HEAD + appender


def logging_flag(generation: Generation, config_file: str) -> str:
    """The JVM system property that points the broker's logging at ``config_file``."""
    if generation.log4j2:
        return f"-Dlog4j2.configurationFile={config_file}"
    return f"-Dlog4j.configuration=file:{config_file}"


def zookeeper_broker_properties(
    kraft: Mapping[str, str], *, node_id: int, zookeeper_connect: str
) -> dict[str, str]:
    """A KRaft node's ``server.properties`` made into a ZooKeeper-era broker's.

    The listeners, SASL settings, policy and sizes stay; the controller quorum and its listener
    go, the broker registers in ZooKeeper under ``broker.id``, and ACLs are checked by
    ``AclAuthorizer`` (which keeps them in ZooKeeper) instead of the KRaft authorizer.
    """
    props = {key: value for key, value in kraft.items() if key not in _KRAFT_ONLY_KEYS}
    props["listeners"] = _without_controller(props["listeners"])
    props["broker.id"] = str(node_id)
    props["zookeeper.connect"] = zookeeper_connect
    props["zookeeper.connection.timeout.ms"] = "30000"
    if props.get("authorizer.class.name") == _KRAFT_AUTHORIZER:
        props["authorizer.class.name"] = _ZOOKEEPER_AUTHORIZER
    return props


def _without_controller(listeners: str) -> str:
    return ",".join(item for item in listeners.split(",") if not item.startswith("CONTROLLER://"))


def zookeeper_properties(*, port: int, data_dir: str) -> str:
    """The configuration of a single ZooKeeper node for the test cluster."""
    return (
        f"dataDir={data_dir}\n"
        f"clientPort={port}\n"
        "clientPortAddress=127.0.0.1\n"
        "tickTime=500\n"
        "maxClientCnxns=0\n"
        # The admin web server would take port 8080, which another cluster may hold.
        "admin.enableServer=false\n"
    )


def scram_user_commands(zookeeper_connect: str) -> list[Sequence[str]]:
    """Arguments of ``kafka.admin.ConfigCommand`` writing the SCRAM users into ZooKeeper.

    A ZooKeeper-era broker reads SCRAM credentials from ZooKeeper; they must be there before a
    client logs in. One command per user, as ``--entity-name`` takes one name.
    """
    commands: list[Sequence[str]] = []
    for user in (ADMIN_USER, ALICE_USER):
        credentials = ",".join(
            f"{mechanism}=[password={user.password}]" for mechanism in SASL_MECHANISMS[1:]
        )
        commands.append(
            [
                "--zookeeper",
                zookeeper_connect,
                "--alter",
                "--add-config",
                credentials,
                "--entity-type",
                "users",
                "--entity-name",
                user.username,
            ]
        )
    return commands
