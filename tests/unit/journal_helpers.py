"""One recorded change for the journal's tests (unit and web) to vary (``dataclasses.replace``)."""

from __future__ import annotations

from datetime import UTC, datetime

from kafka_config_admin.journal import JournalEntry

#: ``retention.ms`` of topic ``orders`` on cluster ``prod``, set by alice from the CLI.
ENTRY = JournalEntry(
    id=None,
    change_set="cs1",
    time=datetime(2026, 11, 27, 6, 0, tzinfo=UTC),
    user="alice",
    face="cli",
    application=None,
    cluster="prod",
    cluster_id="abc",
    resource_type="topic",
    resource_name="orders",
    entity=None,
    key="retention.ms",
    op="SET",
    old_value="604800000",
    old_set=False,
    new_value="86400000",
    new_set=True,
    sensitive=False,
    outcome="applied",
    message="",
    note="",
)
