"""Retries, throttle waits, cut connections and late answers, through the fault proxy.

Every request of the client passes through a proxy per broker (the metadata it sees points at
them), which rewrites the answers of the real cluster.
"""

from __future__ import annotations

from collections.abc import Mapping

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AlterConfigsResult,
    ConfigResource,
    KafkaTimeoutError,
    OutcomeUnknownError,
    RequestTimedOutError,
    ResourceType,
)
from kafka_config_admin._net.brokers import READS
from kafka_config_admin.testing import KafkaCluster

from .fault_proxy import Fault, FaultProxy, proxied
from .helpers import new_topic, settled_entry

pytestmark = [pytest.mark.integration, pytest.mark.kafka(brokers=3)]

DESCRIBE_CONFIGS, INCREMENTAL_ALTER = 32, 44
NOT_CONTROLLER, REQUEST_TIMED_OUT, THROTTLING_QUOTA_EXCEEDED = 41, 7, 89


async def _alter_through_first(
    proxies: Mapping[int, FaultProxy], topic: ConfigResource, *, validate_only: bool = False
) -> AlterConfigsResult:
    """One alter of ``topic`` with a 2 s deadline, bootstrapped through the first proxy."""
    first = next(iter(proxies.values()))
    async with AdminClient(f"127.0.0.1:{first.port}") as admin:
        result = admin.incremental_alter_configs(
            {topic: [AlterConfigOp("retention.ms", "3600000")]},
            validate_only=validate_only,
            timeout=2,
        )
        with anyio.fail_after(10):
            await result.wait()
    return result


async def _topic(cluster: KafkaCluster, admin_client: AdminClient) -> ConfigResource:
    name = await new_topic(admin_client, cluster.bootstrap_servers)
    return ConfigResource(ResourceType.TOPIC, name)


@pytest.mark.parametrize("code", [NOT_CONTROLLER, REQUEST_TIMED_OUT, THROTTLING_QUOTA_EXCEEDED])
async def test_a_retriable_error_once_is_retried_and_succeeds(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, code: int
) -> None:
    topic = await _topic(kafka_cluster, admin_client)
    async with proxied(kafka_cluster) as proxies:
        for proxy in proxies.values():
            proxy.inject(Fault(INCREMENTAL_ALTER, error_code=code))
        first = next(iter(proxies.values()))
        async with AdminClient(f"127.0.0.1:{first.port}") as admin:
            with anyio.fail_after(20):
                await admin.incremental_alter_configs(
                    {topic: [AlterConfigOp("retention.ms", "3600000")]}
                ).all()
        sent = sum(len(p.sent(INCREMENTAL_ALTER)) for p in proxies.values())
        assert sent == 2  # the injected error, then the retry


@pytest.mark.parametrize(
    ("code", "name"), [(REQUEST_TIMED_OUT, "REQUEST_TIMED_OUT"), (NOT_CONTROLLER, "NOT_CONTROLLER")]
)
async def test_a_retriable_error_every_time_ends_at_the_deadline_saying_what_became_of_it(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, code: int, name: str
) -> None:
    """REQUEST_TIMED_OUT: a forwarding broker gave up on a late controller, which may still apply
    the change (outcome unknown). NOT_CONTROLLER: refused for certain (not applied)."""
    topic = await _topic(kafka_cluster, admin_client)
    async with proxied(kafka_cluster) as proxies:
        for proxy in proxies.values():
            proxy.inject(Fault(INCREMENTAL_ALTER, times=None, error_code=code))
        # validate_only for NOT_CONTROLLER: the brokers apply nothing, as a real one means.
        result = await _alter_through_first(proxies, topic, validate_only=code == NOT_CONTROLLER)
        error = result.values[topic].exception()
        assert name in str(error)
        assert sum(len(p.sent(INCREMENTAL_ALTER)) for p in proxies.values()) > 3
        if code == REQUEST_TIMED_OUT:
            assert isinstance(error, OutcomeUnknownError), error
            # The proxy replaced the answers of changes the brokers made.
            await settled_entry(admin_client, topic, "retention.ms", "3600000")
        else:
            assert type(error) is KafkaTimeoutError, error
            assert str(error).startswith("not applied:"), error
        assert not issubclass(RequestTimedOutError, KafkaTimeoutError)


async def test_throttle_time_holds_back_the_next_request(
    kafka_cluster: KafkaCluster, admin_client: AdminClient
) -> None:
    topic = await _topic(kafka_cluster, admin_client)
    async with proxied(kafka_cluster) as proxies:
        for proxy in proxies.values():
            proxy.inject(
                Fault(INCREMENTAL_ALTER, error_code=THROTTLING_QUOTA_EXCEEDED, throttle_ms=1500)
            )
        first = next(iter(proxies.values()))
        async with AdminClient(f"127.0.0.1:{first.port}", retry_backoff=0.01) as admin:
            with anyio.fail_after(20):
                await admin.incremental_alter_configs(
                    {topic: [AlterConfigOp("retention.ms", "3600000")]}
                ).all()
        [sent] = [p.sent(INCREMENTAL_ALTER) for p in proxies.values() if p.sent(INCREMENTAL_ALTER)]
        assert len(sent) == 2
        assert sent[1] - sent[0] >= 1.4  # waited for ThrottleTimeMs, not the 10 ms backoff


async def test_a_connection_cut_mid_response_is_retried(
    kafka_cluster: KafkaCluster, admin_client: AdminClient
) -> None:
    topic = await _topic(kafka_cluster, admin_client)
    async with proxied(kafka_cluster) as proxies:
        for proxy in proxies.values():
            proxy.inject(Fault(INCREMENTAL_ALTER, cut_after=6))
        first = next(iter(proxies.values()))
        async with AdminClient(f"127.0.0.1:{first.port}") as admin:
            with anyio.fail_after(20):
                await admin.incremental_alter_configs(
                    {topic: [AlterConfigOp("retention.ms", "3600000")]}
                ).all()
        # Each broker's first answer is cut: the next broker is tried at once, then a retry.
        assert sum(len(p.sent(INCREMENTAL_ALTER)) for p in proxies.values()) == 4


async def test_answers_later_than_the_deadline_are_outcome_unknown(
    kafka_cluster: KafkaCluster, admin_client: AdminClient
) -> None:
    topic = await _topic(kafka_cluster, admin_client)
    async with proxied(kafka_cluster) as proxies:
        for proxy in proxies.values():
            proxy.inject(Fault(INCREMENTAL_ALTER, times=None, delay=5))
        result = await _alter_through_first(proxies, topic)
        error = result.values[topic].exception()
        assert isinstance(error, OutcomeUnknownError), error
        # Hedged: sent to a second broker too before the deadline.
        assert sum(len(p.sent(INCREMENTAL_ALTER)) for p in proxies.values()) >= 2


async def test_a_describe_whose_broker_answers_nothing_is_sent_to_another(
    kafka_cluster: KafkaCluster, admin_client: AdminClient
) -> None:
    """Gathered describes leave a silent broker after the hedge delay, not request_timeout."""
    topic = await _topic(kafka_cluster, admin_client)
    async with proxied(kafka_cluster) as proxies:
        first = next(iter(proxies.values()))
        async with AdminClient(f"127.0.0.1:{first.port}", request_timeout=15) as admin:
            await admin.describe_configs([topic]).all()
            silent = admin._transport.choice.any_broker(READS)
            proxies[silent].inject(Fault(DESCRIBE_CONFIGS, times=None, blackhole=True))
            began = anyio.current_time()
            with anyio.fail_after(12):  # the hedge delay is 3 s; request_timeout would be 15 s
                await admin.describe_configs([topic]).all()
        assert proxies[silent].sent(DESCRIBE_CONFIGS)[-1] >= began  # it was asked, and said nothing
