"""The journal's two stores share one query: the SQLite file's SQL condition and the topic's
filter select the same changes; a clusters-file entry's ``journal:`` chooses the topic."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from kafka_config_admin.connect import (
    DEFAULT_JOURNAL_RETENTION_MS,
    Connection,
    ConnectionConfigError,
    JournalTopic,
    parse_clusters_file,
)
from kafka_config_admin.journal import (
    Journal,
    JournalQuery,
    JournalTopicError,
    TopicJournal,
    journal_of,
)

from .journal_helpers import ENTRY

LATER = replace(
    ENTRY,
    change_set="cs2",
    time=ENTRY.time + timedelta(hours=2),
    user="bob",
    face="web",
    cluster_id=None,
    resource_type="quota",
    resource_name="user=alice",
    entity={"user": "alice"},
    key="producer_byte_rate",
)
BROKER_DEFAULT = replace(ENTRY, change_set="cs3", resource_type="broker", resource_name="")

QUERIES = [
    JournalQuery(),
    JournalQuery(resource="topic:orders"),
    JournalQuery(resource="orders"),
    JournalQuery(resource=" Topic : orders "),
    JournalQuery(resource="quota:user=alice"),
    JournalQuery(resource="broker:"),
    JournalQuery(cluster="abc"),
    JournalQuery(cluster="prod"),
    JournalQuery(cluster="other"),
    JournalQuery(user="bob", face="web"),
    JournalQuery(change_set="cs1"),
    JournalQuery(key="retention.ms"),
    JournalQuery(since=ENTRY.time + timedelta(hours=1)),
    JournalQuery(until=ENTRY.time + timedelta(hours=1)),
    JournalQuery(since=ENTRY.time, until=LATER.time),
]


@pytest.mark.parametrize("query", QUERIES, ids=repr)
def test_the_topics_filter_selects_what_the_files_sql_selects(
    tmp_path: Path, query: JournalQuery
) -> None:
    journal = Journal.at(tmp_path / "journal.sqlite")
    ids = journal.record([ENTRY, LATER, BROKER_DEFAULT])
    written = [
        replace(entry, id=id_)
        for entry, id_ in zip([ENTRY, LATER, BROKER_DEFAULT], ids, strict=True)
    ]
    assert [e.id for e in written if query.matches(e)] == [e.id for e in journal.entries(query)]


def test_a_clusters_file_entry_names_its_journal_topic(tmp_path: Path) -> None:
    text = """
clusters:
  team:
    bootstrap_servers: kafka:9092
    journal: {topic: config-journal, retention_ms: 3600000}
  alone:
    bootstrap_servers: other:9092
"""
    clusters = parse_clusters_file(text, source="clusters.yaml", base_dir=tmp_path).clusters
    team = journal_of(clusters["team"])
    assert isinstance(team, TopicJournal)
    assert (team.topic, team.settings.retention_ms) == ("config-journal", 3600000)
    assert team.where == "topic config-journal on cluster team"
    assert isinstance(journal_of(clusters["alone"]), Journal)
    assert isinstance(journal_of(None), Journal)
    default = parse_clusters_file(
        "clusters: {t: {bootstrap_servers: k:1, journal: {topic: j}}}",
        source="c",
        base_dir=tmp_path,
    ).clusters["t"]
    assert default.journal is not None
    assert default.journal.retention_ms == DEFAULT_JOURNAL_RETENTION_MS == 90 * 86_400_000


@pytest.mark.parametrize(
    ("journal", "said"),
    [
        ("{topic: 'a b'}", "journal.topic"),
        ("{topic: j, retention_ms: -2}", "journal.retention_ms"),
        ("{topic: j, partitions: 3}", "journal.partitions"),
        ("{}", "journal.topic"),
    ],
)
def test_a_bad_journal_entry_is_refused_naming_it(tmp_path: Path, journal: str, said: str) -> None:
    text = f"clusters: {{t: {{bootstrap_servers: k:1, journal: {journal}}}}}"
    with pytest.raises(ConnectionConfigError, match=said.replace(".", r"\.")):
        parse_clusters_file(text, source="clusters.yaml", base_dir=tmp_path)


@pytest.mark.parametrize(
    ("connection", "said"),
    [
        (
            Connection(name="quorum", bootstrap_controllers="127.0.0.1:1"),
            "its cluster is named by its controllers, which hold no topics",
        ),
        (
            Connection(
                name="quorum",
                bootstrap_servers="127.0.0.1:1",
                security_protocol="SASL_PLAINTEXT",
                sasl_mechanism="OAUTHBEARER",
                oauth_token_env="JOURNAL_TEST_TOKEN",
            ),
            "a journal topic is not reached with OAUTHBEARER yet",
        ),
    ],
)
def test_a_journal_topic_it_cannot_reach_so_is_refused_before_connecting(
    connection: Connection, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JOURNAL_TEST_TOKEN", "a-token")
    journal = TopicJournal(connection, JournalTopic(topic="journal"))
    for call in (journal.entries, lambda: journal.record([ENTRY]), lambda: journal.entry(1)):
        with pytest.raises(JournalTopicError) as raised:
            call()
        assert str(raised.value).endswith(said)
        assert str(raised.value).startswith("the journal topic journal on cluster quorum cannot be")
