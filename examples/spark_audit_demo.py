"""``nox -s pipeline``: the Spark audit end to end on two throwaway clusters.

Starts two single-node Kafka clusters (``kafka_config_admin.testing``), creates topics on both
with planted violations of the desired state and its rules, writes the clusters file and the
desired-state file, and runs examples/spark_audit.py with ``--apply``.
"""

# example-needs-extra: spark
# example-run-by: nox -s pipeline

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

from aiokafka.admin import AIOKafkaAdminClient, NewTopic

sys.path.insert(0, str(Path(__file__).parent))

import spark_audit

from kafka_config_admin.testing import start_cluster

DESIRED = """\
topics:
  - pattern: "orders-.*"
    configs:
      retention.ms: 7d
      min.insync.replicas: 1
      cleanup.policy: delete
  - pattern: "audit-log"
    configs:
      retention.ms: 30d
rules:
  - name: keep a day
    resource: topic
    check: "retention.ms >= 86400000"
  - name: no compaction of orders
    resource: topic
    match: "orders-.*"
    check: "cleanup.policy in [delete]"
"""

#: Per cluster: topic -> configs it is created with (the violations are planted here).
TOPICS = {
    "east": {
        "orders-eu": {"retention.ms": "3600000"},  # breaks "keep a day", drifts
        "orders-us": {"cleanup.policy": "compact"},  # breaks "no compaction", drifts
        "audit-log": {"retention.ms": "2592000000"},  # as wanted
    },
    "west": {
        "orders-apac": {"retention.ms": "604800000"},  # as wanted
        "audit-log": {"retention.ms": "86400000"},  # drifts
    },
}


async def create_topics(bootstrap: str, topics: dict[str, dict[str, str]]) -> None:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        await admin.create_topics(
            [NewTopic(name, 1, 1, topic_configs=configs) for name, configs in topics.items()]
        )
    finally:
        await admin.close()


def main() -> int:
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    with (
        start_cluster(brokers=1) as east,
        start_cluster(brokers=1) as west,
        tempfile.TemporaryDirectory(prefix="spark-audit-") as work,
    ):
        servers = {"east": east.bootstrap_servers, "west": west.bootstrap_servers}
        for name, topics in TOPICS.items():
            asyncio.run(create_topics(servers[name], topics))
        root = Path(work)
        clusters = root / "clusters.yaml"
        clusters.write_text(
            "clusters:\n"
            + "".join(f"  {name}:\n    bootstrap_servers: {s}\n" for name, s in servers.items())
        )
        desired = root / "desired.yaml"
        desired.write_text(DESIRED)
        print(f"clusters: {servers}\ndesired state:\n{DESIRED}")
        return spark_audit.main(
            [
                "--clusters-file",
                str(clusters),
                "--desired",
                str(desired),
                "--table",
                str(root / "snapshots"),
                "--report",
                str(root / "report"),
                "--apply",
            ]
        )


if __name__ == "__main__":
    raise SystemExit(main())
