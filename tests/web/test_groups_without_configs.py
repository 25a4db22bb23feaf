"""The editor's group pages on a broker without group configs (Kafka 3.9): each says so.

Run with ``--kafka-version=3.9.1 --kafka-brokers=1 --kafka-backend=jvm``; on Kafka 4.0+ the
same pages show the group's configs (``compat``).
"""

from __future__ import annotations

import httpx
import pytest

from kafka_config_admin import AdminClient

from ..integration.test_list_config_resources import group_with_offsets
from .conftest import CLUSTER

pytestmark = [pytest.mark.integration, pytest.mark.compat]


async def test_group_pages_say_the_broker_has_no_group_configs(
    web: httpx.AsyncClient,
    admin_client: AdminClient,
    kafka_bootstrap: str,
    kafka_release: tuple[int, ...],
) -> None:
    group = await group_with_offsets(admin_client, kafka_bootstrap)
    listed = await web.get(f"/c/{CLUSTER}/groups")
    assert listed.status_code == 200, listed.text
    assert group in listed.text  # ListGroups lists it on every release
    opened = await web.get(f"/c/{CLUSTER}/r/group/{group}")
    if kafka_release >= (4, 0):
        assert opened.status_code == 200, opened.text
        assert 'data-key="consumer.session.timeout.ms"' in opened.text
        assert "no group configs" not in listed.text
    else:
        assert "no group configs" in listed.text  # the page's note, once
        assert opened.status_code == 404
        assert "no group configs (Kafka 4.0.2 has them)" in opened.text
