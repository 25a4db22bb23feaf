"""Concurrent config calls share requests on the real cluster, and each keeps its own outcome.

Calls are made in one moment (no await between them): the first is written at once, the rest
gather into the next request. ``sent_requests`` counts the requests written to the brokers.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Callable

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    AlterConfigsResult,
    ConfigResource,
    InvalidArgumentError,
    InvalidConfigError,
    KafkaTimeoutError,
    OpType,
    OutcomeUnknownError,
    PolicyViolationError,
    ResourceType,
)
from kafka_config_admin._net.brokers import READS
from kafka_config_admin.testing import KafkaCluster

from .conftest import SentRequests
from .helpers import new_topic, settled_entry

pytestmark = pytest.mark.integration

DEFAULT_RETENTION = "604800000"


@pytest.fixture
async def admin(kafka_bootstrap: str) -> AsyncIterator[AdminClient]:
    """A client whose requests are never hedged during a test (a slow machine is not a sick
    broker): the counts of requests are the shared ones only."""
    async with AdminClient(kafka_bootstrap, timeout=60, request_timeout=60) as client:
        yield client


async def topics(
    admin: AdminClient, bootstrap: str, count: int, sent_requests: list[str] | None = None
) -> list[ConfigResource]:
    """New topics, every broker knowing them; the requests are counted from then on."""
    made = [
        ConfigResource(ResourceType.TOPIC, await new_topic(admin, bootstrap)) for _ in range(count)
    ]
    if sent_requests is not None:
        sent_requests.clear()  # new_topic polls with describes
    return made


def retention(value: int | str) -> list[AlterConfigOp]:
    return [AlterConfigOp("retention.ms", str(value))]


def incremental(admin: AdminClient, topic: ConfigResource, value: int) -> AlterConfigsResult:
    return admin.incremental_alter_configs({topic: retention(value)})


def legacy(admin: AdminClient, topic: ConfigResource, value: int) -> AlterConfigsResult:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return admin.alter_configs({topic: {"retention.ms": str(value)}})


@pytest.mark.parametrize(
    ("alter", "api"),
    [(incremental, "IncrementalAlterConfigs"), (legacy, "AlterConfigs")],
    ids=["incremental", "legacy"],
)
async def test_concurrent_alters_of_distinct_topics_share_one_request(
    admin: AdminClient,
    kafka_bootstrap: str,
    sent_requests: list[str],
    alter: Callable[[AdminClient, ConfigResource, int], AlterConfigsResult],
    api: str,
) -> None:
    resources = await topics(admin, kafka_bootstrap, 6, sent_requests)
    calls = [alter(admin, topic, 3_600_000 + n) for n, topic in enumerate(resources)]
    for call in calls:
        await call.all()
    # The first call is written at once; the other five share the next request.
    assert sent_requests == [api] * 2
    for n, topic in enumerate(resources):
        await settled_entry(admin, topic, "retention.ms", str(3_600_000 + n))


async def test_changes_to_one_topic_in_concurrent_calls_apply_in_the_order_made(
    admin: AdminClient, kafka_bootstrap: str, sent_requests: list[str]
) -> None:
    same, other, third = await topics(admin, kafka_bootstrap, 3, sent_requests)
    calls = [
        admin.incremental_alter_configs({same: retention(100_000)}),
        admin.incremental_alter_configs({other: retention(100_000)}),
        admin.incremental_alter_configs({same: retention(200_000), third: retention(200_000)}),
        admin.incremental_alter_configs({same: retention(300_000)}),
    ]
    for call in calls:
        await call.all()
    # The changes to ``same`` never share a request: 1st at once, 2nd gathered alone, 3rd
    # after the 1st has its answer, 4th after the 3rd.
    assert sent_requests == ["IncrementalAlterConfigs"] * 4
    await settled_entry(admin, same, "retention.ms", "300000")
    await settled_entry(admin, third, "retention.ms", "200000")


async def test_a_call_with_bad_input_fails_alone(
    admin: AdminClient, kafka_bootstrap: str, sent_requests: list[str]
) -> None:
    resources = await topics(admin, kafka_bootstrap, 3, sent_requests)
    first = admin.incremental_alter_configs({resources[0]: retention(5_000_000)})
    with pytest.raises(InvalidArgumentError, match="UTF-8"):
        admin.incremental_alter_configs({ConfigResource(ResourceType.TOPIC, "\ud800"): []})
    with pytest.raises(InvalidArgumentError, match="needs a value"):
        admin.incremental_alter_configs({resources[1]: [AlterConfigOp("retention.ms", None)]})
    rest = [admin.incremental_alter_configs({t: retention(5_000_000)}) for t in resources[1:]]
    for call in [first, *rest]:
        await call.all()
    assert sent_requests == ["IncrementalAlterConfigs"] * 2
    for topic in resources:
        await settled_entry(admin, topic, "retention.ms", "5000000")


async def test_validate_only_calls_never_share_with_changes(
    admin: AdminClient, kafka_bootstrap: str, sent_requests: list[str]
) -> None:
    resources = await topics(admin, kafka_bootstrap, 6, sent_requests)
    changed, checked = resources[::2], resources[1::2]
    calls = [
        admin.incremental_alter_configs({topic: retention(9_000_000)}, validate_only=only)
        for pair in zip(changed, checked, strict=True)
        for topic, only in zip(pair, (False, True), strict=True)
    ]
    for call in calls:
        await call.all()
    # One of each written at once, then one shared request of each kind.
    assert sent_requests == ["IncrementalAlterConfigs"] * 4
    for topic in changed:
        await settled_entry(admin, topic, "retention.ms", "9000000")
    for topic in checked:
        await settled_entry(admin, topic, "retention.ms", DEFAULT_RETENTION)


@pytest.mark.kafka(brokers=3)
async def test_broker_resources_are_gathered_per_broker_and_in_turn(
    admin: AdminClient, kafka_broker_ids: list[int], sent_requests: SentRequests
) -> None:
    nodes = kafka_broker_ids[:2]
    logger = "kafka.server.ReplicaManager"

    def changes(threads: AlterConfigOp, *levels: str) -> list[AlterConfigsResult]:
        calls = []
        for node in nodes:
            broker = ConfigResource(ResourceType.BROKER, str(node))
            loggers = ConfigResource(ResourceType.BROKER_LOGGER, str(node))
            calls.append(admin.incremental_alter_configs({broker: [threads]}))
            calls += [
                admin.incremental_alter_configs({loggers: [AlterConfigOp(logger, level)]})
                for level in levels
            ]
        return calls

    sent_requests.clear()
    calls = changes(AlterConfigOp("log.cleaner.threads", "2"), "DEBUG", "TRACE")
    try:
        for call in calls:
            await call.all()
        # Each broker's own requests: the BROKER change written at once, the first logger
        # change in the next request, and the second one (the same resource) after it.
        assert sent_requests == ["IncrementalAlterConfigs"] * 6
        assert sorted(sent_requests.nodes) == sorted(nodes * 3)
        for node in nodes:
            loggers = ConfigResource(ResourceType.BROKER_LOGGER, str(node))
            await settled_entry(admin, loggers, logger, "TRACE")
            broker = ConfigResource(ResourceType.BROKER, str(node))
            await settled_entry(admin, broker, "log.cleaner.threads", "2")
    finally:
        for call in changes(AlterConfigOp("log.cleaner.threads", op=OpType.DELETE), "INFO"):
            await call.all()


@pytest.mark.kafka(policy=True)
async def test_a_rejected_resource_leaves_the_others_of_its_request_intact(
    admin: AdminClient, kafka_bootstrap: str, sent_requests: list[str]
) -> None:
    resources = await topics(admin, kafka_bootstrap, 5, sent_requests)
    first = admin.incremental_alter_configs({resources[0]: retention(4_000_000)})
    refused = admin.incremental_alter_configs({resources[1]: retention(1000)})  # the policy
    invalid = admin.incremental_alter_configs({resources[2]: retention("soon")})
    mixed = admin.incremental_alter_configs(
        {resources[3]: retention(4_000_000), resources[4]: retention(10)}
    )
    for call in (first, refused, invalid, mixed):
        await call.wait()
    assert sent_requests == ["IncrementalAlterConfigs"] * 2
    assert first.errors() == {}
    error = refused.values[resources[1]].exception()
    assert isinstance(error, PolicyViolationError) and error.resource == resources[1]
    assert isinstance(invalid.values[resources[2]].exception(), InvalidConfigError)
    assert mixed.values[resources[3]].exception() is None
    assert isinstance(mixed.values[resources[4]].exception(), PolicyViolationError)
    await settled_entry(admin, resources[0], "retention.ms", "4000000")
    await settled_entry(admin, resources[3], "retention.ms", "4000000")
    for topic in resources[1], resources[2], resources[4]:
        await settled_entry(admin, topic, "retention.ms", DEFAULT_RETENTION)


async def test_each_call_in_a_shared_request_keeps_its_own_deadline(
    admin: AdminClient, kafka_bootstrap: str
) -> None:
    resources = await topics(admin, kafka_bootstrap, 3)
    # Changes have a connection of their own (the change lane): open it first, since a change
    # still waiting for its connection is never written and its deadline says "not applied".
    await admin.incremental_alter_configs({resources[2]: retention(6_000_000)}).all()
    first = admin.incremental_alter_configs({resources[0]: retention(6_000_000)})
    hasty = admin.incremental_alter_configs({resources[1]: retention(6_000_000)}, timeout=1e-9)
    patient = admin.incremental_alter_configs({resources[2]: retention(6_000_000)})
    # A change to the first topic waits for the first call, and its deadline passes first.
    waiting = admin.incremental_alter_configs({resources[0]: retention(6_000_001)}, timeout=1e-9)
    for call in (first, hasty, patient, waiting):
        await call.wait()
    assert first.errors() == {} and patient.errors() == {}
    # Written with the patient call's request, then out of time: it may have been applied.
    written = hasty.values[resources[1]].exception()
    assert isinstance(written, OutcomeUnknownError), written
    # Never written: a plain timeout.
    unsent = waiting.values[resources[0]].exception()
    assert isinstance(unsent, KafkaTimeoutError) and not isinstance(unsent, OutcomeUnknownError)
    await settled_entry(admin, resources[2], "retention.ms", "6000000")
    await settled_entry(admin, resources[0], "retention.ms", "6000000")


@pytest.mark.kafka(brokers=3)
async def test_a_gathered_describe_whose_broker_is_silent_goes_to_another_broker(
    kafka_cluster: KafkaCluster, sent_requests: list[str]
) -> None:
    async with AdminClient(kafka_cluster.bootstrap_servers, request_timeout=60) as admin:
        topic = ConfigResource(
            ResourceType.TOPIC, await new_topic(admin, kafka_cluster.bootstrap_servers)
        )
        await admin.describe_configs([topic]).all()
        silent = admin._transport.choice.any_broker(READS)
        sent_requests.clear()
        with kafka_cluster.paused_broker(silent), anyio.fail_after(30):
            # Hedged after a fifth of the call's 10 s, when the broker has answered nothing.
            configs = await admin.describe_configs([topic], timeout=10).all()
        assert configs[topic]["retention.ms"].value == DEFAULT_RETENTION
        assert sent_requests == ["DescribeConfigs"] * 2
        assert admin._transport.choice.any_broker(READS) != silent  # the next describe goes there
