"""pytest plugin (entry point ``pytest11: kafka_config_admin``): a real Kafka cluster per session.

Fixtures:
    kafka_cluster: session-scoped :class:`KafkaCluster`, started on first request only, so
        unit-only runs never start a broker. The jvm and container backends give 3 brokers,
        SASL and the policy.
    kafka_bootstrap: its PLAINTEXT ``bootstrap_servers`` string.
    kafka_tls_cluster: session-scoped one-broker cluster with SASL and the TLS listeners (SSL,
        MTLS, SASL_SSL) and its certificates; a cluster of its own, started on first request,
        so that the session cluster stays as cheap as before. Skipped with the external backend.
    kafka_broker_ids: its brokers' node ids.
    kafka_quorum_cluster: module-scoped cluster of 3 brokers and a separate quorum of 3
        controllers (``controller_ids``, ``bootstrap_controllers``), with SASL and the policy as
        the session cluster has them; started once per test module that asks for it (six JVMs,
        the controllers with small heaps) and stopped after it. jvm backend, KRaft 3.7+
        (KIP-919); skipped otherwise.
    admin_client: a connected :class:`~kafka_config_admin.AdminClient` for each test.

Marker:
    ``@pytest.mark.kafka(brokers=3, sasl=True, policy=True, since="2.6")`` states what a test
    needs; the test is skipped (with the reason) when the session cluster lacks it, e.g. under
    the external backend or on an older Kafka release (``since``).

Options: ``--kafka-backend``, ``--kafka-brokers``, ``--kafka-no-sasl``, ``--kafka-no-policy``,
``--kafka-version`` (a release such as ``3.9.1`` or ``2.5.1``; jvm backend),
``--kafka-broker-heap`` (each broker's ``-Xmx``, e.g. ``2g``; jvm and container backends).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import signal
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any

import pytest

from .. import AdminClient
from ._base import KafkaCluster
from ._cluster import BACKENDS, selected_backend, start_cluster
from ._settings import kafka_version

_SIGNAL_HANDLER = Any  # what signal.getsignal() returns; typeshed's alias is private


@dataclass(frozen=True)
class ClusterOptions:
    """The shape of the session cluster, derived from the command line and the backend."""

    backend: str
    brokers: int
    sasl: bool
    policy: bool
    version: str | None
    broker_heap: str | None = None


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register the ``--kafka-*`` options."""
    group = parser.getgroup("kafka-config-admin", "real Kafka cluster for integration tests")
    group.addoption(
        "--kafka-backend",
        choices=BACKENDS,
        default=None,
        help="jvm (default), container, external or auto; overrides $KAFKA_CONFIG_ADMIN_BACKEND",
    )
    group.addoption(
        "--kafka-brokers",
        type=int,
        default=None,
        help="number of brokers of the session cluster (jvm and container default: 3)",
    )
    group.addoption(
        "--kafka-no-sasl",
        action="store_true",
        default=False,
        help="start the session cluster without the SASL listener and users",
    )
    group.addoption(
        "--kafka-version",
        default=None,
        help="Kafka release of the session cluster, e.g. 3.9.1 (KRaft) or 2.5.1 (ZooKeeper); "
        "overrides $KAFKA_CONFIG_ADMIN_KAFKA_VERSION (default: the pinned release)",
    )
    group.addoption(
        "--kafka-broker-heap",
        default=None,
        metavar="SIZE",
        help="maximum heap of each broker the plugin starts, as the JVM's -Xmx takes it "
        "(e.g. 2g; default 512m); jvm and container backends",
    )
    group.addoption(
        "--kafka-no-policy",
        action="store_true",
        default=False,
        help="start the session cluster without the test AlterConfigPolicy",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``kafka`` marker."""
    config.addinivalue_line(
        "markers",
        "kafka(brokers=1, sasl=False, policy=False, since=None): the test needs a session "
        "cluster with at least these features (since: a Kafka release such as '2.6'); skipped "
        "if the chosen backend or release cannot offer them",
    )


def cluster_options(config: pytest.Config) -> ClusterOptions:
    """Work out the session cluster: everything for jvm and container, else one plain broker."""
    backend = selected_backend(config.getoption("--kafka-backend"))
    full = backend in ("jvm", "container")
    brokers = config.getoption("--kafka-brokers") or (3 if full else 1)
    return ClusterOptions(
        backend=backend,
        brokers=int(brokers),
        sasl=full and not config.getoption("--kafka-no-sasl"),
        policy=full and not config.getoption("--kafka-no-policy"),
        version=config.getoption("--kafka-version"),
        broker_heap=config.getoption("--kafka-broker-heap"),
    )


def _raise_keyboard_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _trap_sigterm() -> _SIGNAL_HANDLER | None:
    """Turn SIGTERM into KeyboardInterrupt so pytest's teardown (and our stop) still runs.

    Returns the previous handler to restore, or None when nothing was installed.
    """
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGTERM)
    if previous is not signal.SIG_DFL:
        return None  # someone else handles SIGTERM; respect that
    signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
    return previous


@pytest.fixture(scope="session")
def kafka_cluster(pytestconfig: pytest.Config) -> Iterator[KafkaCluster]:
    """One real cluster for the session (jvm, container: 3 brokers, SASL, policy), then stopped."""
    options = cluster_options(pytestconfig)
    previous = _trap_sigterm()
    try:
        with start_cluster(
            brokers=options.brokers,
            sasl=options.sasl,
            policy=options.policy,
            backend=options.backend,
            version=options.version,
            broker_heap=options.broker_heap,
        ) as cluster:
            yield cluster
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


@pytest.fixture(scope="session")
def kafka_tls_cluster(pytestconfig: pytest.Config) -> Iterator[KafkaCluster]:
    """A one-broker cluster with SASL and the SSL, MTLS and SASL_SSL listeners, then stopped."""
    options = cluster_options(pytestconfig)
    if options.backend not in ("jvm", "container"):
        pytest.skip(f"the {options.backend} backend cannot start a cluster with TLS listeners")
    with start_cluster(
        brokers=1, sasl=True, tls=True, backend=options.backend, broker_heap=options.broker_heap
    ) as cluster:
        yield cluster


#: The first release whose controllers answer clients (KIP-919: DescribeCluster, configs).
_CONTROLLERS_SINCE = "3.7"


@pytest.fixture(scope="module")
def kafka_quorum_cluster(pytestconfig: pytest.Config) -> Iterator[KafkaCluster]:
    """3 brokers and a separate quorum of 3 controllers for one test module, then stopped."""
    options = cluster_options(pytestconfig)
    if options.backend != "jvm":
        pytest.skip(f"the {options.backend} backend cannot start a separate controller quorum")
    running = options.version or kafka_version()
    if _release(running) < _release(_CONTROLLERS_SINCE):
        pytest.skip(
            f"controllers answer clients from Kafka {_CONTROLLERS_SINCE} (it runs {running})"
        )
    with start_cluster(
        brokers=3,
        controllers=3,
        sasl=options.sasl,
        policy=options.policy,
        backend=options.backend,
        version=options.version,
        broker_heap=options.broker_heap,
    ) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def kafka_bootstrap(kafka_cluster: KafkaCluster) -> str:
    """PLAINTEXT bootstrap servers of the session cluster (``host:port,...``)."""
    return kafka_cluster.bootstrap_servers


@pytest.fixture(autouse=True)
def _kafka_marker_requirements(request: pytest.FixtureRequest) -> None:
    """Skip a ``@pytest.mark.kafka(...)`` test whose needs the session cluster cannot meet."""
    marker = request.node.get_closest_marker("kafka")
    if marker is None:
        return  # unmarked tests never touch (or start) the cluster here
    options = cluster_options(request.config)
    missing = [
        name
        for name, wanted, have in (
            ("sasl", bool(marker.kwargs.get("sasl", False)), options.sasl),
            ("policy", bool(marker.kwargs.get("policy", False)), options.policy),
        )
        if wanted and not have
    ]
    needed_brokers = int(marker.kwargs.get("brokers", 1))
    if needed_brokers > options.brokers:
        missing.append(f"brokers>={needed_brokers}")
    since = marker.kwargs.get("since")
    running = options.version or kafka_version()
    if since is not None and options.backend != "external" and _release(running) < _release(since):
        missing.append(f"Kafka {since}+ (it runs {running})")
    if missing:
        pytest.skip(f"session Kafka cluster ({options.backend}) lacks {', '.join(missing)}")


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:2])


@pytest.fixture(scope="session")
def kafka_release(kafka_cluster: KafkaCluster) -> tuple[int, ...]:
    """The session cluster's Kafka release as ``(major, minor)``, for tests whose expectations
    differ between broker generations; skips under the external backend (release unknown)."""
    if kafka_cluster.kafka_version is None:
        pytest.skip(f"the {kafka_cluster.backend} backend's Kafka release is unknown")
    return _release(kafka_cluster.kafka_version)


@pytest.fixture(scope="session")
def kafka_broker_ids(kafka_cluster: KafkaCluster) -> list[int]:
    """The node ids of the session cluster's brokers."""
    return list(kafka_cluster.broker_ids)


# The admin_client fixture needs pytest-asyncio; without it the cluster fixtures still work and
# this plugin must not break the test runs of projects that merely installed the package.
if importlib.util.find_spec("pytest_asyncio") is not None:
    import pytest_asyncio

    @pytest_asyncio.fixture(loop_scope="session")
    async def admin_client(kafka_bootstrap: str) -> AsyncIterator[AdminClient]:
        """A connected :class:`~kafka_config_admin.AdminClient` on the session cluster, per test."""
        async with _client_in_own_task(AdminClient(kafka_bootstrap, timeout=30)) as admin:
            yield admin


@contextlib.asynccontextmanager
async def _client_in_own_task(client: AdminClient) -> AsyncIterator[AdminClient]:
    # A fixture's setup and teardown may run in different tasks, but the client's task group
    # must be entered and left by one task: a task of its own holds it open.
    ready = asyncio.Event()
    done = asyncio.Event()

    async def hold() -> None:
        async with client:
            ready.set()
            await done.wait()

    holder = asyncio.ensure_future(hold())
    waiter = asyncio.ensure_future(ready.wait())
    await asyncio.wait([holder, waiter], return_when=asyncio.FIRST_COMPLETED)
    if holder.done():
        waiter.cancel()
        holder.result()  # raises why the client could not open
    try:
        yield client
    finally:
        done.set()
        await holder
