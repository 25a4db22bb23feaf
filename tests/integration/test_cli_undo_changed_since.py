"""``undo`` of a quota change on the real broker when another tool changed the quota since:
shown and left alone (exit 1), put back with ``--force``, each read back from the broker."""

from __future__ import annotations

import pytest

from kafka_config_admin import AdminClient, ClientQuotaEntity

from .cli_helpers import run_cli, with_admin
from .helpers import unique_name
from .test_cli_journal import change_set_of, history

pytestmark = pytest.mark.integration


def test_undo_leaves_alone_a_quota_changed_since_unless_forced(
    kafka_bootstrap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    user = f"undo-{unique_name()}"
    entity = ClientQuotaEntity({"user": user})
    ran = run_cli(
        capsys,
        *("alter", "-b", kafka_bootstrap, "--entity-type", "users", "--entity-name", user),
        *("--set", "producer_byte_rate=1000", "-y"),
    )
    assert ran.code == 0, ran.err
    (row,) = history(capsys, "--change-set", change_set_of(ran.err))

    async def quotas(admin: AdminClient) -> dict[str, float]:
        found = await admin.describe_client_quotas().all()
        return dict(found.get(entity, {}))

    async def another_tool(admin: AdminClient) -> None:
        await admin.alter_client_quotas({entity: {"producer_byte_rate": 3000}}).all()

    with_admin(kafka_bootstrap, another_tool)
    assert with_admin(kafka_bootstrap, quotas) == {"producer_byte_rate": 3000.0}
    refused = run_cli(capsys, "undo", str(row["id"]), "-b", kafka_bootstrap, "-y")
    assert refused.code == 1, refused.err
    assert "changed since" in refused.err and "nothing to undo" in refused.err
    assert with_admin(kafka_bootstrap, quotas) == {"producer_byte_rate": 3000.0}
    forced = run_cli(capsys, "undo", str(row["id"]), "-b", kafka_bootstrap, "-y", "--force")
    assert forced.code == 0, forced.err
    assert with_admin(kafka_bootstrap, quotas) == {}  # none was set before the change
