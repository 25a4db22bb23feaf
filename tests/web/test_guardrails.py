"""Guardrails in the web editor, against the real session cluster: the rules of the cluster's
clusters-file entry are shown on the plan page, refuse an apply that breaks one (nothing
sent), and let it through when the user ticks that rule's confirmation, said in the outcome
and the change log."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, ResourceType
from kafka_config_admin.changeset import ChangeSet, apply, review
from kafka_config_admin.connect import load_clusters_file
from kafka_config_admin.journal import Journal, JournalQuery, Origin, Recorder
from kafka_config_admin.web import WebSettings

from .conftest import CLUSTER
from .helpers import create_topics, csrf_token, plan_digest, topic_value, unique_name

pytestmark = pytest.mark.integration


@pytest.fixture
def web_settings(kafka_bootstrap: str, tmp_path: Path) -> WebSettings:
    """The editor over the session cluster, its clusters-file entry naming a rules file."""
    (tmp_path / "rules.yaml").write_text(
        "rules:\n  - name: min-isr\n    check: 'min.insync.replicas >= 2'\n"
    )
    clusters = tmp_path / "clusters.yaml"
    clusters.write_text(
        f"clusters:\n  {CLUSTER}:\n    bootstrap_servers: {kafka_bootstrap}\n"
        "    rules: rules.yaml\n"
    )
    return WebSettings(
        clusters={CLUSTER: load_clusters_file(clusters).connection(CLUSTER)},
        allow_writes=True,
        timeout=30,
    )


async def test_an_edit_breaking_a_rule_is_refused_until_its_confirmation_is_ticked(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name("rule")
    await create_topics(admin_client, [topic], {"min.insync.replicas": "2"})
    page = f"/c/{CLUSTER}/r/topic/{topic}"
    html = (await web.get(page)).text
    edit = {"key": "min.insync.replicas", "value": "1", "action": "set"}
    added = await web.post(
        f"/c/{CLUSTER}/edit/topic/{topic}", data={**edit, "csrf_token": csrf_token(html)}
    )
    assert added.status_code == 303

    plan = (await web.get(f"/c/{CLUSTER}/plan")).text
    assert "Rules of this cluster" in plan
    assert "refused by rule <strong>min-isr</strong>" in plan
    assert f"topic &#39;{topic}&#39;: min.insync.replicas = &#39;1&#39; (now &#39;2&#39;)" in plan
    assert 'name="override_rule" value="min-isr"' in plan
    form = {**plan_digest(plan), "csrf_token": csrf_token(plan)}

    checked = await web.post(f"/c/{CLUSTER}/plan/check", data={"csrf_token": csrf_token(plan)})
    assert ">validated<" in checked.text  # the broker's verdict, the rules beside it
    assert "refused by rule <strong>min-isr</strong>" in checked.text

    refused = await web.post(f"/c/{CLUSTER}/plan/apply", data=form)
    assert refused.status_code == 409
    assert "Not applied: the plan breaks rules of this cluster" in refused.text
    assert await topic_value(admin_client, topic, "min.insync.replicas") == "2"

    applied = await web.post(f"/c/{CLUSTER}/plan/apply", data={**form, "override_rule": "min-isr"})
    assert applied.status_code == 200, applied.text
    assert ">applied<" in applied.text and "rule &#39;min-isr&#39; overridden" in applied.text
    assert await topic_value(admin_client, topic, "min.insync.replicas") == "1"
    log = (await web.get("/history.json")).json()["changes"]
    (row,) = [row for row in log if row["resource_name"] == topic]
    assert (row["outcome"], row["note"]) == ("applied", "rule 'min-isr' overridden")


async def test_an_undo_breaking_a_rule_is_refused_until_its_confirmation_is_ticked(
    web: httpx.AsyncClient, admin_client: AdminClient
) -> None:
    topic = unique_name("rule-undo")
    await create_topics(admin_client, [topic], {"min.insync.replicas": "1"})
    resource = ConfigResource(ResourceType.TOPIC, topic)
    changes = ChangeSet(configs={resource: [AlterConfigOp("min.insync.replicas", "2")]})
    origin = Origin(face="cli", user="alice", cluster=CLUSTER)
    recorder = Recorder(Journal.at(), origin)
    report = await apply(admin_client, await review(admin_client, changes), recorder=recorder)
    (row,) = Journal.at().entries(JournalQuery(change_set=report.change_set_id))
    preview = await web.get(f"/c/{CLUSTER}/undo", params={"change": str(row.id)})
    assert "refused by rule <strong>min-isr</strong>" in preview.text
    form = {"change": str(row.id), **plan_digest(preview.text)}
    form["csrf_token"] = csrf_token(preview.text)
    refused = await web.post(f"/c/{CLUSTER}/undo", data=form)
    assert refused.status_code == 409
    assert "Not applied: the undo breaks rules of this cluster" in refused.text
    assert await topic_value(admin_client, topic, "min.insync.replicas") == "2"
    undone = await web.post(f"/c/{CLUSTER}/undo", data={**form, "override_rule": "min-isr"})
    assert undone.status_code == 200 and "Undone: change" in undone.text, undone.text
    assert await topic_value(admin_client, topic, "min.insync.replicas") == "1"
    (undo_row,) = [
        e
        for e in Journal.at().entries(JournalQuery(key="min.insync.replicas"))
        if e.resource_name == topic and e.face == "web"
    ]
    assert undo_row.note == f"rule 'min-isr' overridden; undo of change {row.id}"
