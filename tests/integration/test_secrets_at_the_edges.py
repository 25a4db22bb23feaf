"""Secrets at the edges, against a real broker (issue 32): the name rule agrees with the
broker's own sensitivity flags, and a policy's message echoing a trimmed value hides it."""

from __future__ import annotations

import pytest

from kafka_config_admin import (
    HIDDEN,
    AdminClient,
    AlterConfigOp,
    ConfigResource,
    PolicyViolationError,
    ResourceType,
)
from kafka_config_admin.toolkit import is_sensitive_name

from .helpers import new_topic

pytestmark = [pytest.mark.integration, pytest.mark.kafka(sasl=True, policy=True)]


async def test_the_name_rule_agrees_with_the_broker_s_flags(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_broker_ids: list[int]
) -> None:
    broker = ConfigResource(ResourceType.BROKER, str(kafka_broker_ids[0]))
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    configs = await admin_client.describe_configs([broker, topic]).all()
    flags = {
        (str(resource), entry.name): entry.is_sensitive
        for resource in configs
        for entry in configs[resource].values()
    }
    # The session broker sets the authorizer's keys, which its ConfigDefs do not type.
    assert flags[(str(broker), "super.users")] is True
    assert flags[(str(broker), "allow.everyone.if.no.acl.found")] is True
    assert len(flags) > 200
    disagree = {key: flag for key, flag in flags.items() if is_sensitive_name(key[1]) != flag}
    assert disagree == {}


async def test_a_policy_s_message_hides_the_value_it_trimmed(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    """The test AlterConfigPolicy trims the value and quotes it: ' 1234 ' comes back '1234'."""
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    secret = AlterConfigOp("retention.ms", " 1234 ", sensitive=True)
    with pytest.raises(PolicyViolationError) as refused:
        await admin_client.incremental_alter_configs({topic: [secret]}).all()
    message = str(refused.value)
    assert "1234" not in message, message
    assert f"retention.ms={HIDDEN} for topic" in message, message
