"""The change feed's poll on a real broker: one topic refused alone by the authorizer.

The stream and ``watch`` share this poll and diff (``observe_once``, ``next_state``,
``diff_states``); here it runs as the unprivileged SASL user ``alice`` with ACLs of her own,
and a DENY on one topic's configs makes that topic fail alone while the others are read.
"""

from __future__ import annotations

import re
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

import anyio
import pytest
from aiokafka.client import AIOKafkaClient
from aiokafka.protocol.admin import CreateAclsRequest, DeleteAclsRequest

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, ResourceType
from kafka_config_admin.feed import (
    ChangeKind,
    ObservedState,
    StateChange,
    diff_states,
    next_state,
    observe_once,
)
from kafka_config_admin.state import ResourceScope
from kafka_config_admin.testing import KafkaCluster

from .helpers import new_topic

pytestmark = pytest.mark.integration

# Kafka's ACL codes (AclOperation, AclPermissionType, ResourceType, PatternType).
TOPIC, LITERAL, DESCRIBE, DESCRIBE_CONFIGS, DENY, ALLOW = 2, 3, 8, 10, 2, 3


#: An ACL binding: resource type and name, pattern type, principal, host, operation, permission.
Acl = tuple[int, str, int, str, str, int, int]


def acl(name: str, operation: int, permission: int) -> Acl:
    return (TOPIC, name, LITERAL, "User:alice", "*", operation, permission)


@asynccontextmanager
async def acl_client(bootstrap: str) -> AsyncIterator[AIOKafkaClient]:
    """A plain aiokafka connection as ANONYMOUS (a super user on the PLAINTEXT listener): this
    SDK has no ACL calls, so the test sends CreateAcls / DeleteAcls itself."""
    client = AIOKafkaClient(bootstrap_servers=bootstrap)
    await client.bootstrap()
    try:
        yield client
    finally:
        await client.close()


async def create_acls(bootstrap: str, acls: Sequence[Acl]) -> None:
    async with acl_client(bootstrap) as client:
        for entry in acls:
            response = await client.send(client.get_random_node(), CreateAclsRequest(*entry))
            assert [result[0] for result in response.creation_responses] == [0], response


async def delete_acls(bootstrap: str, acls: Sequence[Acl]) -> None:
    async with acl_client(bootstrap) as client:
        for entry in acls:
            response = await client.send(client.get_random_node(), DeleteAclsRequest(*entry))
            assert [result[0] for result in response.filter_responses] == [0], response


def alice(cluster: KafkaCluster) -> AdminClient:
    assert cluster.sasl_bootstrap_servers is not None and cluster.alice_user is not None
    return AdminClient(
        cluster.sasl_bootstrap_servers,
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanism="SCRAM-SHA-256",
        sasl_plain_username=cluster.alice_user.username,
        sasl_plain_password=cluster.alice_user.password,
        timeout=30,
    )


async def poll_until(
    cluster: KafkaCluster,
    scope: ResourceScope,
    before: ObservedState | None,
    settled: Callable[[ObservedState, list[StateChange]], bool],
) -> tuple[ObservedState, list[StateChange]]:
    """Poll as alice until ``settled(state, rows)`` holds (ACLs and configs reach every broker a
    moment after they are made); the last state and its rows."""
    with anyio.fail_after(60):
        while True:
            after = next_state(before, await observe_once(alice(cluster), scope, "main"))
            rows = diff_states(before, after)
            if settled(after, rows):
                return after, rows
            await anyio.sleep(0.5)


def read_all(names: list[str]) -> Callable[[ObservedState, list[StateChange]], bool]:
    """Whether every topic was read (ACLs just made may not have reached the broker yet)."""

    def settled(state: ObservedState, rows: list[StateChange]) -> bool:
        del rows
        observed = [state.resources.get(("TOPIC", name)) for name in names]
        return all(one is not None and one.error is None for one in observed)

    return settled


@pytest.mark.kafka(sasl=True)
async def test_a_topic_refused_alone_gives_its_error_row_and_is_not_removed(
    kafka_cluster: KafkaCluster, admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    names = [await new_topic(admin_client, kafka_bootstrap) for _ in range(3)]
    changed, refused, quiet = names
    allowed = [
        acl(name, operation, ALLOW) for name in names for operation in (DESCRIBE, DESCRIBE_CONFIGS)
    ]
    denied = [acl(refused, DESCRIBE_CONFIGS, DENY)]
    scope = ResourceScope(topic_pattern=re.compile("|".join(map(re.escape, names))))
    await create_acls(kafka_bootstrap, allowed)
    try:
        baseline, _ = await poll_until(kafka_cluster, scope, None, read_all(names))
        # One topic's configs refused from now on; another topic's retention changes.
        await create_acls(kafka_bootstrap, denied)
        resource = ConfigResource(ResourceType.TOPIC, changed)
        await admin_client.incremental_alter_configs(
            {resource: [AlterConfigOp("retention.ms", "3600000")]}
        ).all()

        def both_seen(state: ObservedState, rows: list[StateChange]) -> bool:
            kinds = {(row.resource_name, row.change) for row in rows}
            return {(refused, ChangeKind.ERROR), (changed, ChangeKind.ADDED)} <= kinds

        refused_state, rows = await poll_until(kafka_cluster, scope, baseline, both_seen)
        error = [row for row in rows if row.change is ChangeKind.ERROR]
        assert [(row.resource_name, row.error) for row in error] == [
            (refused, "TopicAuthorizationFailedError")
        ]
        assert not [row for row in rows if row.change is ChangeKind.REMOVED]
        added = [row for row in rows if row.change is ChangeKind.ADDED]
        assert [(row.resource_name, row.key, row.after_value) for row in added] == [
            (changed, "retention.ms", "3600000")
        ]
        assert not [row for row in rows if row.resource_name == quiet]

        # Readable again: its keys were kept meanwhile, so nothing about it is reported.
        await delete_acls(kafka_bootstrap, denied)
        _, rows = await poll_until(kafka_cluster, scope, refused_state, read_all(names))
        assert rows == []
    finally:
        await delete_acls(kafka_bootstrap, allowed + denied)


async def test_a_poll_of_a_hung_cluster_ends_at_its_deadline() -> None:
    with socket.socket() as listener:  # takes connections, never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        started = anyio.current_time()
        state = await observe_once(
            lambda: AdminClient(address, timeout=120), ResourceScope(), "hung", deadline=1
        )
        took = anyio.current_time() - started
    assert state.error is not None and state.error[0] == "KafkaTimeoutError", state.error
    assert "within 1s" in state.error[1] or "within 1.0s" in state.error[1]
    assert not state.known and took < 10, took


async def test_a_cluster_whose_client_cannot_be_made_is_an_error_state() -> None:
    state = await observe_once(
        lambda: AdminClient("127.0.0.1:90922x"), ResourceScope(), "typo", deadline=5
    )
    assert state.error is not None and state.error[0] == "InvalidArgumentError"
    assert "127.0.0.1:90922x" in state.error[1]
    assert diff_states(None, state)[0].change is ChangeKind.ERROR
