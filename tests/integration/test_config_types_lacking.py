"""Readers of group and client-metrics configs on a broker that has none of a type.

Kafka 3.9 answers a describe of a GROUP resource with INVALID_REQUEST ("Unknown resource type
32"): group configs came with Kafka 4.0. Every reader asks ``AdminClient.config_types_lacking``
(the catalog the broker's own API versions match) and skips such a type, saying so once, so a
cluster with a consumer group still exports, lists and observes. Meaningful on every release:
run with ``--kafka-version=3.9.1 --kafka-brokers=1 --kafka-backend=jvm`` for the skip itself.
"""

from __future__ import annotations

import pytest

from kafka_config_admin import AdminClient, ConfigResource, ResourceType
from kafka_config_admin.feed import observe_cluster
from kafka_config_admin.state import ResourceKind, ResourceScope, list_scope

from .cli_helpers import run_cli, with_admin
from .test_list_config_resources import group_with_offsets

pytestmark = [pytest.mark.integration, pytest.mark.compat]

GROUP = ResourceType.GROUP


def _has_group_configs(release: tuple[int, ...]) -> bool:
    return release >= (4, 0)


async def test_the_sdk_says_which_types_the_broker_lacks(
    admin_client: AdminClient, kafka_bootstrap: str, kafka_release: tuple[int, ...]
) -> None:
    group = await group_with_offsets(admin_client, kafka_bootstrap)
    lacking = await admin_client.config_types_lacking([GROUP, ResourceType.TOPIC])
    listing = await admin_client.list_config_resources([GROUP])
    scope = ResourceScope(kinds=(ResourceKind.GROUP,))
    listed = await list_scope(admin_client, scope)
    state = await observe_cluster(admin_client, scope, "main")
    assert state.error is None
    if _has_group_configs(kafka_release):
        assert GROUP not in lacking
        assert ConfigResource(GROUP, group) in listing.resources
        assert group in listed.groups
    else:
        assert set(lacking) == {GROUP}
        assert "no group configs" in lacking[GROUP] and "Kafka 4.0" in lacking[GROUP]
        assert listing.names(GROUP) == [] and listing.unseen[GROUP] == lacking[GROUP]
        assert listed.groups == () and listed.unseen[GROUP] == lacking[GROUP]
        assert not [key for key in state.resources if key[0] == GROUP.name]


@pytest.mark.parametrize("named", [False, True], ids=["listed", "named"])
def test_export_with_a_consumer_group_succeeds_and_says_what_it_skipped(
    capsys: pytest.CaptureFixture[str],
    kafka_bootstrap: str,
    kafka_release: tuple[int, ...],
    named: bool,
) -> None:
    group = with_admin(kafka_bootstrap, lambda admin: group_with_offsets(admin, kafka_bootstrap))
    named_group = ["--group", group] if named else []
    ran = run_cli(
        capsys,
        "export",
        "-b",
        kafka_bootstrap,
        "--match",
        "no-topic-matches",
        *named_group,
        "-o",
        "json",
    )
    assert ran.code == 0, ran.err
    skipped = [line for line in ran.err.splitlines() if "no group configs" in line]
    if _has_group_configs(kafka_release):
        assert skipped == []
        if named:  # a named group is kept even without overrides
            assert ran.json()["groups"] == {group: {"configs": {}}}
    else:
        assert len(skipped) == 1 and skipped[0].startswith("not listed in full: GROUP: ")
        assert "groups" not in ran.json()
    unread = [line for line in ran.err.splitlines() if line.startswith("not read: quotas")]
    if kafka_release >= (2, 6):  # DescribeClientQuotas (KIP-546)
        assert unread == [] and "quotas" in ran.json()
    else:  # no quota API: said, and the section left out rather than written empty
        assert len(unread) == 1 and "quotas" not in ran.json()
