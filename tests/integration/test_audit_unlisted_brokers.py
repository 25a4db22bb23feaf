"""``audit`` with a broker down on a 3-broker cluster: the broker is named as not checked.

The metadata lists live brokers only, so rules about brokers would pass over a stopped one in
silence. From Kafka 4.0 DescribeCluster lists the fenced brokers too (KIP-1073):
``state.unlisted_brokers`` finds the broker the cluster has and the metadata does not list,
and ``audit`` reports it as a failure (exit 1), never as a pass.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from kafka_config_admin import AdminClient, BrokerNotAvailableError, ConfigResource, ResourceType
from kafka_config_admin.state import unlisted_brokers
from kafka_config_admin.testing import KafkaCluster

from .cli_helpers import run_process

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]


@pytest.mark.compat
async def test_before_4_0_the_cluster_cannot_say_which_brokers_are_down(
    admin_client: AdminClient,
    kafka_bootstrap: str,
    kafka_release: tuple[int, ...],
    tmp_path: Path,
) -> None:
    """Every broker up: none unlisted; whether a down one could have been seen depends on the
    release (DescribeCluster v2), and an audit of broker rules runs on every release."""
    assert await unlisted_brokers(admin_client) == ({}, kafka_release >= (4, 0))
    file = tmp_path / "rules.yaml"
    file.write_text("rules:\n  - {resource: broker, check: log.cleaner.threads <= 8}\n")
    ran = await anyio.to_thread.run_sync(
        lambda: run_process("audit", str(file), "-b", kafka_bootstrap, "--timeout", "20")
    )
    assert ran.code == 0, ran.err
    assert ran.err.strip() == f"audit of {kafka_bootstrap}: 1 rule(s), 0 violation(s)"


async def unlisted_once_fenced(
    bootstrap: str, down: int
) -> tuple[dict[ConfigResource, BaseException], bool]:
    """What a new client finds once the stopped broker has left the metadata (its session
    expired: ``broker.session.timeout.ms``), at most 120 s."""
    with anyio.fail_after(120):
        while True:
            async with AdminClient(bootstrap, timeout=20) as admin:
                if down not in admin.broker_ids():
                    return await unlisted_brokers(admin)
            await anyio.sleep(1)


@pytest.mark.kafka(brokers=3, since="4.0")
async def test_audit_names_a_stopped_broker_as_not_checked(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str, tmp_path: Path
) -> None:
    brokers = sorted(admin_client.broker_ids())
    assert len(brokers) == 3
    down = brokers[-1]
    file = tmp_path / "rules.yaml"
    file.write_text("rules:\n  - {resource: broker, check: log.cleaner.threads <= 8}\n")
    audit = ["audit", str(file), "-b", kafka_bootstrap, "--timeout", "20"]

    before = await anyio.to_thread.run_sync(lambda: run_process(*audit))
    assert before.code == 0, before.err
    assert "failed:" not in before.err
    assert await unlisted_brokers(admin_client) == ({}, True)

    await anyio.to_thread.run_sync(kafka_cluster.stop_broker, down)
    try:
        unlisted, fenced_listed = await unlisted_once_fenced(kafka_bootstrap, down)
        during = await anyio.to_thread.run_sync(lambda: run_process(*audit))
    finally:
        await anyio.to_thread.run_sync(kafka_cluster.start_broker, down)

    assert fenced_listed
    resource = ConfigResource(ResourceType.BROKER, str(down))
    assert list(unlisted) == [resource]
    assert isinstance(unlisted[resource], BrokerNotAvailableError)
    assert "could not be checked" in str(unlisted[resource])
    assert during.code == 1, (during.out, during.err)
    [failed] = [line for line in during.err.splitlines() if line.startswith("failed: ")]
    assert str(down) in failed and "could not be checked" in failed, failed
    assert " 0 violation(s)" in during.err  # the live brokers were checked
