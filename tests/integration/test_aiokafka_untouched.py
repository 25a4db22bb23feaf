"""Importing and using this library leaves aiokafka as it was, for the program's other clients.

A program runs in a fresh interpreter: it records aiokafka's module attributes and loggers,
imports kafka_config_admin, runs a client of ours, and records them again each time; then a
plain aiokafka client of its own connects, and its records must reach aiokafka's loggers.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration

PROGRAM = r"""
import asyncio, json, logging, sys

import aiokafka
import aiokafka.client
import aiokafka.cluster
import aiokafka.conn

MODULES = (aiokafka, aiokafka.client, aiokafka.conn, aiokafka.cluster)


def state():
    attributes = {
        module.__name__: {name: id(value) for name, value in vars(module).items()}
        for module in MODULES
    }
    loggers = {
        name: [list(map(id, logger.filters)), list(map(id, logger.handlers)), logger.level,
               logger.propagate, logger.disabled]
        for name, logger in logging.Logger.manager.loggerDict.items()
        if name.startswith("aiokafka") and isinstance(logger, logging.Logger)
    }
    return {"attributes": attributes, "loggers": loggers}


class Kept(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.names = []

    def emit(self, record):
        self.names.append(record.name)


async def main(bootstrap):
    states = {"before": state()}
    import kafka_config_admin
    from kafka_config_admin import AdminClient, ConfigResource, ResourceType

    states["imported"] = state()
    async with AdminClient(bootstrap) as admin:
        ids = await admin.describe_configs([ConfigResource(ResourceType.BROKER, "")]).all()
        states["working"] = state()
    states["closed"] = state()
    kept = Kept()
    logging.getLogger("aiokafka").setLevel(logging.DEBUG)
    logging.getLogger("aiokafka").addHandler(kept)
    client = aiokafka.AIOKafkaClient(bootstrap_servers=bootstrap)
    await client.bootstrap()
    await client.close()
    print(json.dumps({"states": states, "records": sorted(set(kept.names))}))


asyncio.run(main(sys.argv[1]))
"""


def test_aiokafka_is_untouched_and_its_records_reach_its_loggers(kafka_bootstrap: str) -> None:
    ran = subprocess.run(
        [sys.executable, "-c", PROGRAM, kafka_bootstrap],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    seen = json.loads(ran.stdout)
    before = seen["states"]["before"]
    for moment in ("imported", "working", "closed"):
        assert seen["states"][moment] == before, moment
    assert before["loggers"]["aiokafka"][:2] == [[], []]  # no filter, no handler of ours
    # The plain client's records reached aiokafka's own loggers.
    assert {"aiokafka", "aiokafka.conn"} <= set(seen["records"])
