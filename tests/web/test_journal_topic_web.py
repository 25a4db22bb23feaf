"""The web editor records in the journal topic its cluster's clusters-file entry names."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from kafka_config_admin import AdminClient
from kafka_config_admin.connect import Connection, JournalTopic
from kafka_config_admin.journal import JournalQuery, TopicJournal, journal_path
from kafka_config_admin.web import WebSettings

from .conftest import CLUSTER
from .helpers import create_topics, topic_value, unique_name
from .test_journal_rows import form_post

pytestmark = pytest.mark.integration

TOPIC = f"journal-{unique_name()}"


@pytest.fixture
def web_settings(kafka_bootstrap: str, tmp_path: Path) -> WebSettings:
    """The editor over a cluster whose journal is a topic."""
    cluster = Connection(bootstrap_servers=kafka_bootstrap, journal=JournalTopic(topic=TOPIC))
    return WebSettings(
        clusters={CLUSTER: cluster},
        allow_writes=True,
        journal=tmp_path / "journal.sqlite3",
        timeout=30,
    )


async def test_an_apply_of_the_editor_is_recorded_in_the_journal_topic(
    web: httpx.AsyncClient, admin_client: AdminClient, web_settings: WebSettings
) -> None:
    topic = unique_name()
    await create_topics(admin_client, [topic], {"retention.ms": "3600000"})
    page, edit = f"/c/{CLUSTER}/r/topic/{topic}", f"/c/{CLUSTER}/edit/topic/{topic}"
    await form_post(web, page, edit, {"key": "retention.ms", "value": "7200000", "action": "set"})
    applied = await form_post(web, f"/c/{CLUSTER}/plan", f"/c/{CLUSTER}/plan/apply", {})
    assert ">applied<" in applied.text
    journal = TopicJournal(web_settings.clusters[CLUSTER], JournalTopic(topic=TOPIC))
    (row,) = journal.entries(JournalQuery(resource=f"topic:{topic}"))
    assert (row.face, row.cluster, row.old_value, row.old_set) == ("web", CLUSTER, "3600000", True)
    assert row.new_value == await topic_value(admin_client, topic, "retention.ms") == "7200000"
    assert f"Recorded in the journal as change set <code>{row.change_set}</code>" in applied.text
    assert not journal_path().exists()  # not in the SQLite file
