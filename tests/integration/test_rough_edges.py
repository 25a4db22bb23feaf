"""Rough edges of the SDK against the real cluster: unknown broker ids, aiokafka's log records,
and ``kafka-config-admin-broker -- cmd``."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import pytest

from kafka_config_admin import (
    AdminClient,
    BrokerIdNotRegisteredError,
    ConfigResource,
    KafkaConnectionError,
    ResourceType,
)

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("resource_type", [ResourceType.BROKER, ResourceType.BROKER_LOGGER])
async def test_an_unknown_broker_id_fails_at_once_and_alone(
    admin_client: AdminClient, kafka_broker_ids: list[int], resource_type: ResourceType
) -> None:
    unknown = ConfigResource(resource_type, str(max(kafka_broker_ids) + 100))
    known = ConfigResource(resource_type, str(kafka_broker_ids[0]))
    # The default 30 s deadline: waiting it out would end in KafkaTimeoutError instead.
    result = admin_client.describe_configs([unknown, known])
    await result.wait()
    error = result.values[unknown].exception()
    assert isinstance(error, BrokerIdNotRegisteredError), error
    assert f"broker {unknown.name} is not in the cluster" in str(error)
    assert ", ".join(map(str, sorted(kafka_broker_ids))) in str(error)
    assert len(result.values[known].result()) > 0


async def test_our_failures_raise_no_warning_on_aiokafkas_loggers(
    caplog: pytest.LogCaptureFixture,
    admin_client: AdminClient,
    kafka_broker_ids: list[int],
) -> None:
    """A failure the caller gets as a typed error is not said again on a user's stderr."""
    caplog.set_level(logging.DEBUG)
    with pytest.raises(KafkaConnectionError):
        async with AdminClient("127.0.0.1:1", timeout=5):
            pass  # nothing listens on port 1
    unknown = ConfigResource(ResourceType.BROKER, str(max(kafka_broker_ids) + 100))
    result = admin_client.describe_configs([unknown])
    await result.wait()
    assert isinstance(result.values[unknown].exception(), BrokerIdNotRegisteredError)

    # A user's own aiokafka client logs as before.
    logging.getLogger("aiokafka.conn").warning("the user's own connection")

    loud = [
        r.getMessage()
        for r in caplog.records
        if r.name.startswith("aiokafka") and r.levelno >= logging.WARNING
    ]
    assert loud == ["the user's own connection"]


def test_broker_command_passes_a_second_separator_to_the_command() -> None:
    script = (
        "import json, os, sys; "
        "print(json.dumps([sys.argv[1:], 'KAFKA_BOOTSTRAP_SERVERS' in os.environ]))"
    )
    command = [sys.executable, "-m", "kafka_config_admin.testing", "--"]
    command += [sys.executable, "-c", script, "a", "--", "b"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [["a", "--", "b"], True]
