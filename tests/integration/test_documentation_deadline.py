"""A documented describe whose deadline passes while its withheld answers are being filled.

A describe with documentation is sent without it; the answers the client cannot fill yet are
withheld from the engine and filled by the client once it has asked the broker for the keys it
does not hold (``AdminClient._document``). Here that second request never gets its answer (the
fault proxy drops it), so the call's deadline passes in that phase: every resource still ends
with the call's typed timeout, nothing waits past it, and the client stays usable. The same
when the describe waits for another call that is asking for the documentation and whose
answer comes after this call's deadline.
"""

from __future__ import annotations

import asyncio

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    ConfigResource,
    KafkaTimeoutError,
    ResourceType,
)
from kafka_config_admin.testing import KafkaCluster

from .fault_proxy import Fault, proxied
from .helpers import new_topic

pytestmark = pytest.mark.integration

DESCRIBE_CONFIGS = 32
DEADLINE = 6.0  # the first answer comes well within it, on a loaded machine too


async def test_the_deadline_passing_while_documentation_is_asked_fails_each_resource_in_time(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    names = await asyncio.gather(*(new_topic(admin_client, kafka_bootstrap) for _ in range(20)))
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    async with proxied(kafka_cluster) as proxies:
        for proxy in proxies.values():
            # The first answer (without documentation) passes; every later one is dropped:
            # the request asking for the documentation the client does not hold, its retries.
            proxy.inject(Fault(DESCRIBE_CONFIGS))
            proxy.inject(Fault(DESCRIBE_CONFIGS, times=None, blackhole=True))
        first = next(iter(proxies.values()))
        async with AdminClient(f"127.0.0.1:{first.port}", timeout=30) as client:
            await client.describe_cluster()  # connected: the deadline is the describe's own
            started = anyio.current_time()
            result = client.describe_configs(
                topics, include_synonyms=True, include_documentation=True, timeout=DEADLINE
            )
            with anyio.fail_after(DEADLINE + 15):  # a hang fails here, not in the CI's timeout
                await result.wait()
            ended = anyio.current_time() - started
            asked = sum(len(proxy.sent(DESCRIBE_CONFIGS)) for proxy in proxies.values())
            assert asked >= 2, "the documentation was never asked: the phase was not reached"
            for topic in topics:
                error = result.values[topic].exception()
                assert isinstance(error, KafkaTimeoutError), (topic, error)
            with pytest.raises(KafkaTimeoutError):
                await result.all()
            assert ended < DEADLINE + 5  # settled at the deadline, not at the client's 30 s

            for proxy in proxies.values():
                proxy.faults.clear()
            with anyio.fail_after(60):
                after = await client.describe_configs(
                    topics, include_synonyms=True, include_documentation=True
                ).all()
    async with AdminClient(kafka_bootstrap, timeout=30) as fresh:
        expected = await fresh.describe_configs(
            topics, include_synonyms=True, include_documentation=True
        ).all()
    assert after == expected
    assert all(entry.documentation for entry in after[topics[0]].values())


@pytest.mark.kafka(brokers=3)
async def test_a_describe_waiting_for_another_calls_documentation_ends_at_its_own_deadline(
    kafka_cluster: KafkaCluster,
) -> None:
    # One call learns the brokers' documentation (a broker of its own, whose answer comes
    # late); another, with a shorter deadline, would fill its answers from what the first
    # learns, and waits for it no longer than its own deadline.
    slow, *others = kafka_cluster.broker_ids
    async with proxied(kafka_cluster) as proxies:
        proxies[slow].inject(Fault(DESCRIBE_CONFIGS, delay=DEADLINE + 12))
        first = next(iter(proxies.values()))
        async with AdminClient(f"127.0.0.1:{first.port}", timeout=60) as client:
            await client.describe_cluster()
            learning = client.describe_configs(
                [ConfigResource(ResourceType.BROKER, str(slow))], include_documentation=True
            )
            waiting = [ConfigResource(ResourceType.BROKER, str(node)) for node in others]
            started = anyio.current_time()
            result = client.describe_configs(waiting, include_documentation=True, timeout=DEADLINE)
            with anyio.fail_after(DEADLINE + 30):
                await result.wait()
            ended = anyio.current_time() - started
            for resource in waiting:
                error = result.values[resource].exception()
                assert isinstance(error, KafkaTimeoutError), (resource, error)
            assert ended < DEADLINE + 5  # not when the other call's answer came
            with anyio.fail_after(60):
                learned = await learning.all()  # the other call is not disturbed
            with anyio.fail_after(60):
                after = await client.describe_configs(waiting, include_documentation=True).all()
    async with AdminClient(kafka_cluster.bootstrap_servers, timeout=30) as fresh:
        expected = await fresh.describe_configs(waiting, include_documentation=True).all()
        expected_learned = await fresh.describe_configs(
            list(learned), include_documentation=True
        ).all()
    assert after == expected
    assert learned == expected_learned
