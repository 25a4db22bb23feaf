"""``kafka-config-admin-broker`` (``python -m kafka_config_admin.testing``): a local cluster.

Starts a cluster, prints how to reach it, and stops it cleanly on Ctrl-C or SIGTERM. Given a
command after ``--``, runs it with ``KAFKA_BOOTSTRAP_SERVERS`` set instead of waiting, stops the
cluster and exits with the command's status::

    kafka-config-admin-broker -- python examples/quickstart.py

``kafka-config-admin-broker build-image`` builds the container backend's broker image (once per
Kafka version; ``--rebuild`` builds it again) and prints its tag.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from types import FrameType

from ._base import KafkaCluster
from ._cluster import BACKENDS, start_cluster
from ._errors import KafkaHarnessError
from ._image import build_broker_image
from ._settings import SASL_MECHANISMS


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kafka-config-admin-broker",
        description="Start a local Apache Kafka (KRaft) cluster until Ctrl-C.",
    )
    parser.add_argument("--brokers", type=int, default=1, help="number of nodes (default 1)")
    parser.add_argument(
        "--controllers",
        type=int,
        default=0,
        help="a separate KRaft controller quorum of this many nodes (default 0: every node is "
        "a combined broker and controller); jvm backend",
    )
    parser.add_argument(
        "--sasl",
        action="store_true",
        help="add a SASL_PLAINTEXT listener with users admin and alice",
    )
    parser.add_argument(
        "--policy",
        action="store_true",
        help="install the test AlterConfigPolicy (retention.ms >= 60000)",
    )
    parser.add_argument(
        "--kafka-version",
        default=None,
        help="Kafka release to run, e.g. 3.9.1 (KRaft) or 2.5.1 (with ZooKeeper); jvm backend; "
        "default: $KAFKA_CONFIG_ADMIN_KAFKA_VERSION or the pinned release",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default=None,
        help="default: $KAFKA_CONFIG_ADMIN_BACKEND or jvm; auto: container if Docker answers",
    )
    parser.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        help="after --: a command to run against the cluster, then stop",
    )
    return parser


def describe(cluster: KafkaCluster) -> str:
    """Human-readable summary: addresses, users and policy."""
    lines = [f"bootstrap servers (PLAINTEXT): {cluster.bootstrap_servers}"]
    if cluster.controller_ids:
        lines.append(
            f"bootstrap controllers ({len(cluster.controller_ids)} controllers, PLAINTEXT): "
            f"{cluster.bootstrap_controllers}"
        )
    if cluster.sasl_bootstrap_servers:
        lines.append(
            f"bootstrap servers (SASL_PLAINTEXT, {', '.join(SASL_MECHANISMS)}): "
            f"{cluster.sasl_bootstrap_servers}"
        )
        lines += [f"  user {u.username} / password {u.password}" for u in cluster.users.values()]
    if cluster.policy_rule:
        lines.append(f"alter-config policy: {cluster.policy_rule}")
    return "\n".join(lines)


def _build_image(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="kafka-config-admin-broker build-image",
        description="Build the container backend's broker image (Debian, Java, Kafka's jars).",
    )
    parser.add_argument("--rebuild", action="store_true", help="build even if it exists")
    args = parser.parse_args(argv)
    try:
        image = build_broker_image(rebuild=args.rebuild, log=sys.stderr)
    except KafkaHarnessError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(image, flush=True)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["build-image"]:
        return _build_image(arguments[1:])
    args = _parser().parse_args(arguments)
    stop = threading.Event()

    def _request_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    # Installed before starting so a Ctrl-C during startup still stops what was started.
    signal.signal(signal.SIGTERM, _request_stop)
    signal.signal(signal.SIGINT, _request_stop)
    started = time.monotonic()
    try:
        cluster = start_cluster(
            brokers=args.brokers,
            sasl=args.sasl,
            policy=args.policy,
            backend=args.backend,
            version=args.kafka_version,
            controllers=args.controllers,
        )
    except KafkaHarnessError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    with cluster:
        elapsed = time.monotonic() - started
        print(f"{cluster.backend} backend: ready in {elapsed:.1f} s", flush=True)
        print(describe(cluster), flush=True)
        command = command_after_separator(args.command)
        if command:
            return _run(command, cluster)
        print("press Ctrl-C to stop", flush=True)
        while not stop.wait(0.5):
            pass
        print("stopping...", flush=True)
    return 0


def command_after_separator(remainder: Sequence[str]) -> list[str]:
    """The command given after ``--``: only the first ``--`` separates; later ones are its own."""
    parts = list(remainder)
    return parts[1:] if parts[:1] == ["--"] else parts


def _run(command: list[str], cluster: KafkaCluster) -> int:
    env = {**os.environ, "KAFKA_BOOTSTRAP_SERVERS": cluster.bootstrap_servers}
    try:
        return subprocess.run(command, env=env, check=False).returncode
    except OSError as error:
        print(f"error: cannot run {command[0]!r}: {error}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main())
