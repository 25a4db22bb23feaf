"""The web config editor on a throwaway broker: starts one real Kafka broker, plants sample
topics (some with overrides), a consumer group, a client quota and a SCRAM user, then serves
the editor at http://127.0.0.1:8080 with writes allowed, until Ctrl-C.

Run it with ``nox -s web_demo`` (``-- --port 9000`` picks another port). ``--check`` serves
on a free port, fetches the cluster, topic list and a topic's page once, and stops: CI runs that.
"""
# example-needs-extra: web
# example-run-by: nox -s web_demo

from __future__ import annotations

import argparse
import asyncio
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from aiokafka import AIOKafkaConsumer, TopicPartition

from kafka_config_admin import (
    AdminClient,
    ClientQuotaEntity,
    NewTopic,
    ScramMechanism,
    UserScramCredentialUpsertion,
)
from kafka_config_admin.connect import Connection
from kafka_config_admin.testing import start_cluster
from kafka_config_admin.web import WebSettings, create_app, serve

SAMPLE_TOPICS = {
    "orders": {"retention.ms": "604800000", "cleanup.policy": "delete"},
    "orders.eu": {"retention.ms": "259200000", "min.insync.replicas": "1"},
    "orders.us": {},
    "payments": {"cleanup.policy": "compact", "max.message.bytes": "2097152"},
    "clicks": {"retention.ms": "3600000", "segment.bytes": "104857600"},
    **{f"logs.app-{number:02d}": {} for number in range(20)},
}


async def plant(bootstrap: str) -> None:
    """The sample topics, a group with committed offsets, a quota and a SCRAM user."""
    async with AdminClient(bootstrap, timeout=30) as admin:
        topics = [NewTopic(name, 1, 1, configs) for name, configs in SAMPLE_TOPICS.items()]
        await admin.create_topics(topics).all()
        await admin.alter_client_quotas(
            {ClientQuotaEntity({"user": "reporting"}): {"consumer_byte_rate": 2097152}}
        ).all()
        await admin.alter_user_scram_credentials(
            [UserScramCredentialUpsertion("reporting", ScramMechanism.SCRAM_SHA_256, "demo")]
        ).all()
    consumer = AIOKafkaConsumer(
        bootstrap_servers=bootstrap, group_id="billing", enable_auto_commit=False
    )
    await consumer.start()
    try:
        partition = TopicPartition("orders", 0)
        consumer.assign([partition])
        await consumer.commit({partition: 0})
    finally:
        await consumer.stop()


def check(settings: WebSettings) -> None:
    """Serve on a free port, fetch the main pages once, and stop: the demo works end to end."""
    import uvicorn

    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), host="127.0.0.1", port=0, log_level="warning")
    )
    thread = threading.Thread(target=server.run)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise SystemExit("the editor did not start")
            time.sleep(0.1)
        port = server.servers[0].sockets[0].getsockname()[1]
        for page, shows in (
            ("/c/demo", "demo"),
            ("/c/demo/topics", "orders.eu"),
            ("/c/demo/r/topic/orders", "retention.ms"),
        ):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{page}", timeout=60) as answer:
                body = answer.read().decode()
            if answer.status != 200 or shows not in body:
                raise SystemExit(f"{page}: status {answer.status}, {shows!r} not shown")
            print(f"{page}: ok")
    finally:
        server.should_exit = True
        thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--check", action="store_true", help="fetch the pages once and stop")
    options = parser.parse_args()
    with start_cluster(brokers=1) as cluster, tempfile.TemporaryDirectory() as work:
        asyncio.run(plant(cluster.bootstrap_servers))
        settings = WebSettings(
            clusters={"demo": Connection(bootstrap_servers=cluster.bootstrap_servers)},
            allow_writes=True,
            port=options.port,
            journal=Path(work) / "journal.sqlite",
        )
        if options.check:
            check(settings)
            return
        print(f"the editor: http://127.0.0.1:{options.port}/c/demo (Ctrl-C stops it and Kafka)")
        serve(settings)


if __name__ == "__main__":
    main()
