"""Issue 35's surface tried as a hostile user would, on real brokers: the SDK's documentation
held per broker under describes mixed at once, and the change feed's bounded poll
(``ReadRotation``) with resources created, deleted, failing and refused between polls.

What tests/integration/test_documentation_once.py covers is not repeated: here describes of
every flavour (documentation with and without synonyms, named keys, brokers, loggers, a missing
topic) run at once on one new client, each compared with the broker's own answer to the same
describe asked with documentation.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Mapping
from functools import partial
from typing import Any

import anyio
import pytest
from aiokafka.admin import AIOKafkaAdminClient

from kafka_config_admin import (
    AdminClient,
    Config,
    ConfigResource,
    InvalidArgumentError,
    KafkaConnectionError,
    NetworkError,
    NewTopic,
    ResourceType,
    UnknownTopicOrPartitionError,
)
from kafka_config_admin._ops.configs import DescribeConfigs
from kafka_config_admin._ops.results import DescribeConfigsResult
from kafka_config_admin.feed import (
    ChangeKind,
    ObservedState,
    ReadRotation,
    StateChange,
    diff_states,
    next_state,
    observe_cluster,
)
from kafka_config_admin.state import ResourceScope
from kafka_config_admin.testing import KafkaCluster, start_cluster

from .fault_proxy import Fault, proxied
from .helpers import alter_topic, new_topic, settled_entry, unique_name
from .test_feed_poll import (
    ALLOW,
    DENY,
    DESCRIBE,
    DESCRIBE_CONFIGS,
    acl,
    alice,
    create_acls,
    delete_acls,
)

pytestmark = pytest.mark.integration

Wanted = list[ConfigResource] | Mapping[ConfigResource, list[str] | None]
DESCRIBE_CONFIGS_KEY = 32
#: A release other than the suite's, for a broker replaced at the same address.
OTHER_RELEASE = "3.9.1"


async def asked_with_documentation(
    admin: AdminClient, resources: Wanted, *, synonyms: bool
) -> dict[ConfigResource, Config]:
    """The broker's own answer to a describe carrying documentation (as every describe asked
    before the client held documentation)."""
    build = partial(
        DescribeConfigs.build, resources, include_synonyms=synonyms, include_documentation=True
    )
    result: DescribeConfigsResult = admin._engine.call(build, DescribeConfigsResult, 30)
    return await result.all()


async def test_describes_of_every_flavour_at_once_on_a_new_client_equal_the_brokers_answers(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    names = await asyncio.gather(*(new_topic(admin_client, kafka_bootstrap) for _ in range(4)))
    await alter_topic(admin_client, names[0], "retention.ms", "3600000")
    topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
    await settled_entry(admin_client, topics[0], "retention.ms", "3600000")
    broker_id = str(admin_client.broker_ids()[0])
    broker = ConfigResource(ResourceType.BROKER, broker_id)
    logger = ConfigResource(ResourceType.BROKER_LOGGER, broker_id)
    # (what is asked, with synonyms): whole resources, named keys (one unknown key), types
    # without documentation (loggers), and each with and without synonyms.
    asks: list[tuple[Wanted, bool]] = [
        (topics, True),
        (topics, False),
        ({topics[0]: ["retention.ms", "cleanup.policy"]}, True),
        ({topics[1]: ["retention.ms", "no.such.key"]}, False),
        ({topics[2]: None, broker: ["log.retention.ms"]}, True),
        ([broker], False),
        ([logger], True),
        ([topics[3], broker], False),
    ]
    expected = [
        await asked_with_documentation(admin_client, wanted, synonyms=synonyms)
        for wanted, synonyms in asks
    ]
    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        for _ in range(2):  # a new client (nothing held), then again with everything held
            answers = await asyncio.gather(
                *(
                    client.describe_configs(
                        wanted, include_synonyms=synonyms, include_documentation=True
                    ).all()
                    for wanted, synonyms in asks * 3
                )
            )
            assert answers == expected * 3
    assert expected[0][topics[0]]["retention.ms"].documentation
    assert expected[0][topics[0]]["retention.ms"].synonyms != ()
    assert expected[1][topics[0]]["retention.ms"].synonyms == ()


async def test_a_missing_topic_among_describes_at_once_fails_only_its_own_call(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap)
    present = ConfigResource(ResourceType.TOPIC, name)
    missing = ConfigResource(ResourceType.TOPIC, unique_name())
    expected = await asked_with_documentation(admin_client, [present], synonyms=False)
    async with AdminClient(kafka_bootstrap, timeout=30) as client:
        calls = [
            client.describe_configs(wanted, include_documentation=True).all()
            for wanted in ([missing], [present], [missing, present], [present])
        ]
        answers = await asyncio.gather(*calls, return_exceptions=True)
    assert isinstance(answers[0], UnknownTopicOrPartitionError)
    assert isinstance(answers[2], UnknownTopicOrPartitionError)
    assert answers[1] == answers[3] == expected


async def delete_topic(bootstrap: str, name: str) -> None:
    """Delete a topic (the SDK has no call for it), as another tool would."""
    client = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await client.start()
    try:
        await client.delete_topics([name])
    finally:
        await client.close()


def bounded_scope(prefix: str) -> ResourceScope:
    return ResourceScope(topic_pattern=re.compile(re.escape(prefix) + ".*"))


async def poll(
    admin: AdminClient, scope: ResourceScope, rotation: ReadRotation, before: ObservedState | None
) -> tuple[ObservedState, list[StateChange]]:
    observed = await observe_cluster(admin, scope, "main", rotation=rotation, before=before)
    after = next_state(before, observed)
    return after, diff_states(before, after)


async def test_a_bound_above_the_count_with_topics_created_and_deleted_between_polls(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    prefix = unique_name() + "-"
    made = [f"{prefix}{i}" for i in range(3)]
    await admin_client.create_topics([NewTopic(name) for name in made]).all()
    scope, rotation = bounded_scope(prefix), ReadRotation(1000)
    with anyio.fail_after(60):
        state, _ = await poll(admin_client, scope, rotation, None)
        while len(state.resources) < 3 or state.error:
            await anyio.sleep(0.5)
            state, _ = await poll(admin_client, scope, ReadRotation(1000), None)
        state, rows = await poll(admin_client, scope, rotation, state)
    assert (rows, rotation.last_read) == ([], 3)

    # A topic created and one deleted between two polls: one row each, nothing else.
    extra = f"{prefix}new"
    await admin_client.create_topics([NewTopic(extra)]).all()
    await delete_topic(kafka_bootstrap, made[0])
    with anyio.fail_after(60):
        while True:
            await anyio.sleep(0.5)
            _, rows = await poll(admin_client, scope, rotation, state)
            seen = {(row.resource_name, row.change) for row in rows if row.key is None}
            if {(extra, ChangeKind.ADDED), (made[0], ChangeKind.REMOVED)} <= seen:
                break
    assert all(row.resource_name in (extra, made[0]) for row in rows), rows
    assert not [row for row in rows if row.change is ChangeKind.ERROR]


@pytest.mark.kafka(brokers=1)
async def test_a_describe_failing_mid_rotation_is_read_again_and_reports_nothing_false(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    prefix = unique_name() + "-"
    made = [f"{prefix}{i}" for i in range(4)]
    await admin_client.create_topics([NewTopic(name) for name in made]).all()
    scope, bound = bounded_scope(prefix), 1
    async with proxied(kafka_cluster) as proxies:
        proxy = next(iter(proxies.values()))
        async with AdminClient(f"127.0.0.1:{proxy.port}", timeout=30) as admin:
            rotation = ReadRotation(bound)
            with anyio.fail_after(60):
                state, _ = await poll(admin, scope, rotation, None)
                while len(state.resources) < 4 or state.error:
                    await anyio.sleep(0.5)
                    state, _ = await poll(admin, scope, rotation, None)
            # The next poll's describe fails (every resource it asked for).
            proxy.inject(Fault(DESCRIBE_CONFIGS_KEY, times=1, error_code=29))
            state, rows = await poll(admin, scope, rotation, state)
            failed = [row.resource_name or "" for row in rows if row.change is ChangeKind.ERROR]
            assert len(failed) == bound and all(failed), rows
            assert not [row for row in rows if row.change is not ChangeKind.ERROR], rows
            # A change to the topic whose read failed: the next poll reads it again, past the
            # bound, and reports the change, nothing removed.
            await alter_topic(admin_client, failed[0], "retention.ms", "3600000")
            await settled_entry(
                admin_client,
                ConfigResource(ResourceType.TOPIC, failed[0]),
                "retention.ms",
                "3600000",
            )
            state, rows = await poll(admin, scope, rotation, state)
            assert rotation.last_read >= 1
            assert [(row.resource_name, row.key, row.change) for row in rows] == [
                (failed[0], "retention.ms", ChangeKind.ADDED)
            ]


@pytest.mark.kafka(sasl=True)
async def test_a_topic_refused_at_every_poll_does_not_starve_a_bounded_rotation(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    names = [await new_topic(admin_client, kafka_bootstrap) for _ in range(3)]
    refused, changed, _quiet = names
    allowed = [
        acl(name, operation, ALLOW) for name in names for operation in (DESCRIBE, DESCRIBE_CONFIGS)
    ]
    denied = [acl(refused, DESCRIBE_CONFIGS, DENY)]
    scope = ResourceScope(topic_pattern=re.compile("|".join(map(re.escape, names))))
    await create_acls(kafka_bootstrap, allowed + denied)
    try:
        rotation, bound = ReadRotation(1), 1
        async with alice(kafka_cluster) as admin:
            with anyio.fail_after(60):  # ACLs reach the broker a moment after they are made
                while True:
                    state, _ = await poll(admin, scope, rotation, None)
                    errors = {n for (_, n), o in state.resources.items() if o.error}
                    if len(state.resources) == 3 and errors == {refused}:
                        break
                    await anyio.sleep(0.5)
            await alter_topic(admin_client, changed, "retention.ms", "3600000")
            await settled_entry(
                admin_client,
                ConfigResource(ResourceType.TOPIC, changed),
                "retention.ms",
                "3600000",
            )
            seen = False
            for _ in range(math.ceil(len(names) / bound) + 1):
                state, rows = await poll(admin, scope, rotation, state)
                seen = seen or any(row.resource_name == changed for row in rows)
            assert seen
    finally:
        await delete_acls(kafka_bootstrap, allowed + denied)


@pytest.mark.kafka(brokers=1)
async def test_documentation_is_asked_again_when_another_release_answers_at_the_same_address(
    kafka_cluster: KafkaCluster, admin_client: AdminClient
) -> None:
    """The broker behind one address replaced by another Kafka release (same node id): the
    client's next describe with documentation gives the new broker's own entries, never the
    old release's documentation nor its keys."""
    node = admin_client.broker_ids()[0]
    broker = ConfigResource(ResourceType.BROKER, str(node))
    # A release of its own runs as a JVM process whatever the session's backend (an image
    # holds one release).
    with start_cluster(brokers=1, version=OTHER_RELEASE, backend="jvm") as other:
        async with AdminClient(other.bootstrap_servers, timeout=60) as direct:
            (other_node,) = direct.broker_ids()
            other_broker = ConfigResource(ResourceType.BROKER, str(other_node))
            other_answer = await asked_with_documentation(direct, [other_broker], synonyms=True)
        async with proxied(kafka_cluster) as proxies:
            proxy = proxies[node]
            async with AdminClient(f"127.0.0.1:{proxy.port}", timeout=60) as client:
                first = await client.describe_configs(
                    [broker], include_synonyms=True, include_documentation=True
                ).all()
                # The other release now answers at the proxy's address: the connections drop,
                # as at a restart, and the next ones reach it.
                other_port = int(other.bootstrap_servers.rsplit(":", 1)[1])
                proxy.upstream_port = other_port
                proxy.ports[other_port] = proxy.port
                for writer in list(proxy._writers):
                    writer.close()
                with anyio.fail_after(60):
                    while True:
                        try:
                            after = await client.describe_configs(
                                [other_broker], include_synonyms=True, include_documentation=True
                            ).all()
                            break
                        except (KafkaConnectionError, NetworkError):  # the drop itself
                            await anyio.sleep(0.5)
    assert after == other_answer
    assert first != other_answer  # the two releases differ (else the case proves nothing)


@pytest.mark.parametrize("flag", ["include_documentation", "include_synonyms"])
@pytest.mark.parametrize("value", ["yes", 1, 0, None, 1.0, "false"])
async def test_a_describe_flag_that_is_not_a_bool_is_refused_naming_it(
    admin_client: AdminClient, flag: str, value: object
) -> None:
    name = unique_name()  # nothing is sent: the topic need not exist
    before = admin_client.traffic().requests
    wrong: dict[str, Any] = {flag: value}  # what a caller without type checks passes
    with pytest.raises(InvalidArgumentError, match=flag):
        admin_client.describe_configs([ConfigResource(ResourceType.TOPIC, name)], **wrong)
    assert admin_client.traffic().requests == before  # refused before anything was sent
