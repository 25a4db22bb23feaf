"""``AdminClient.cluster_id()``: the id the client's metadata names, with no request of its own."""

from __future__ import annotations

import pytest

from kafka_config_admin import AdminClient

pytestmark = pytest.mark.integration


async def test_the_metadata_names_the_cluster_described(kafka_bootstrap: str) -> None:
    async with AdminClient(kafka_bootstrap, timeout=30) as admin:
        named = admin.cluster_id()
        sent = admin.traffic().requests
        assert admin.cluster_id() == named  # read again: no request
        assert admin.traffic().requests == sent
        assert named is not None
        assert named == (await admin.describe_cluster()).cluster_id
