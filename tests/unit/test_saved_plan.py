"""A plan's digest, the saved plan's document, and the difference of two plans (pure)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from kafka_config_admin import (
    HIDDEN,
    ClientQuotaEntity,
    ConfigResource,
    ConfigSource,
    ConfigType,
    OpType,
    ResourceType,
)
from kafka_config_admin.changeset import (
    SAVED_PLAN_FORMAT,
    SAVED_PLAN_KIND,
    SavedPlanError,
    plan_desired_state,
    read_saved_plan,
    saved_plan_document,
)
from kafka_config_admin.desired import (
    ConfigChange,
    PartitionPlan,
    Plan,
    ResourceAction,
    ResourcePlan,
    TopicCreation,
    make_plan,
    plan_difference,
    stale_quotas,
)
from kafka_config_admin.desired._plan import _DIGEST_CHANGE_FIELDS, _canonical
from kafka_config_admin.state import (
    ClusterState,
    DesiredState,
    QuotaChange,
    QuotaPlan,
    ScramChange,
    ScramPlan,
)

from .desired_helpers import T, entry, topic_config

OTHER = ConfigResource(ResourceType.TOPIC, "payments")
ORDERS = ConfigResource(ResourceType.TOPIC, "orders")
FILE: dict[str, Any] = {
    "version": 1,
    "topics": [
        {"name": "orders", "configs": {"retention.ms": "1d", "cleanup.policy": "compact"}},
        {"name": "payments", "configs": {"max.message.bytes": 2000000}},
    ],
}


def plan_of(file: dict[str, Any], orders: Any = None, cluster_id: str = "c1") -> Plan:
    state = ClusterState(
        configs={ORDERS: orders or topic_config(), OTHER: topic_config()},
        topics=frozenset({"orders", "payments"}),
    )
    made = make_plan(DesiredState.model_validate(file), state)
    return made.model_copy(update={"cluster_id": cluster_id})


def reordered(file: dict[str, Any]) -> dict[str, Any]:
    """The same file with its topics and each topic's keys named in the opposite order."""
    topics = [
        {**topic, "configs": dict(reversed(list(topic["configs"].items())))}
        for topic in reversed(file["topics"])
    ]
    return {**file, "topics": topics}


def test_the_digest_is_the_same_whatever_order_the_file_names_things_in() -> None:
    made, again = plan_of(FILE), plan_of(reordered(FILE))
    assert [r.resource for r in made.resources] != [r.resource for r in again.resources]
    assert made.digest == again.digest
    assert len(made.digest) == 64 and int(made.digest, 16) >= 0
    assert made.to_dict()["digest"] == made.digest


def test_the_digest_is_the_same_in_another_run() -> None:
    """Another interpreter, with another hash seed, computes the same digest."""
    code = (
        "import json, sys\n"
        "from kafka_config_admin.desired import Plan\n"
        "print(Plan.model_validate(json.loads(sys.stdin.read())).digest)\n"
    )
    made = plan_of(FILE)
    for seed in ("1", "2"):
        ran = subprocess.run(
            [sys.executable, "-c", code],
            input=json.dumps(made.model_dump(mode="json")),
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert ran.stdout.strip() == made.digest


def test_the_digest_changes_with_a_current_value_a_change_or_the_cluster() -> None:
    made = plan_of(FILE)
    moved = topic_config(retention_ms=entry("retention.ms", "120000", T, ConfigType.LONG))
    assert plan_of(FILE, orders=moved).digest != made.digest
    other_value = {**FILE, "topics": [{"name": "orders", "configs": {"retention.ms": "2d"}}]}
    assert plan_of(other_value).digest != made.digest
    assert plan_of(FILE, cluster_id="c2").digest != made.digest
    assert made.model_copy(update={"prune": True}).digest != made.digest
    # what apply never sends is not covered: the problems' and warnings' wording
    assert made.model_copy(update={"warnings": ()}).digest == made.digest


def secret_plan(value: str) -> Plan:
    change = ConfigChange(
        key="ssl.key.password",
        op=OpType.SET,
        value=value,
        wanted=value,
        current=None,
        current_source=ConfigSource.UNKNOWN,
        type=ConfigType.PASSWORD,
        sensitive=True,
    )
    broker = ConfigResource(ResourceType.BROKER, "1")
    item = ResourcePlan(resource=broker, action=ResourceAction.ALTER, changes=(change,))
    return Plan(resources=(item,), cluster_id="c1")


def test_a_sensitive_value_is_covered_by_the_digest_and_never_saved() -> None:
    assert secret_plan("s3cret-one").digest != secret_plan("s3cret-two").digest
    with pytest.raises(SavedPlanError) as refused:
        saved_plan_document(secret_plan("s3cret-one"))
    message = str(refused.value)
    assert "ssl.key.password" in message and "apply FILE" in message
    assert "s3cret" not in message
    assert "s3cret" not in secret_plan("s3cret-one").to_json()
    # a config provider reference names where the secret is: it can be saved
    reference = "${file:/etc/kafka/secrets.properties:key.password}"
    document = saved_plan_document(secret_plan(reference))
    assert read_saved_plan(json.dumps(document), "plan.json") == secret_plan(reference)


def test_scram_credentials_are_never_saved() -> None:
    upsert = ScramChange(
        mechanism="SCRAM-SHA-256",
        op="UPSERT",
        current_iterations=None,
        iterations=8192,
        password_env="ALICE_PASSWORD",
    )
    made = Plan(scram=(ScramPlan(user="alice", changes=(upsert,)),), cluster_id="c1")
    with pytest.raises(SavedPlanError, match="SCRAM credentials of user 'alice'"):
        saved_plan_document(made)


def test_a_saved_plan_reads_back_as_itself_and_refuses_any_edit() -> None:
    made = plan_of(FILE)
    document = saved_plan_document(made)
    assert (document["kind"], document["format"]) == (SAVED_PLAN_KIND, SAVED_PLAN_FORMAT)
    assert read_saved_plan(json.dumps(document, indent=2), "plan.json") == made
    edited = json.loads(json.dumps(document))
    edited["plan"]["resources"][0]["changes"][0]["value"] = "1"
    with pytest.raises(SavedPlanError, match=r"plan\.json was changed after it was saved"):
        read_saved_plan(json.dumps(edited), "plan.json")
    moved = json.loads(json.dumps(document))
    moved["plan"]["cluster_id"] = "another"
    with pytest.raises(SavedPlanError, match="changed after it was saved"):
        read_saved_plan(json.dumps(moved), "plan.json")
    newer = {**document, "format": SAVED_PLAN_FORMAT + 1}
    with pytest.raises(SavedPlanError, match="reads format 1"):
        read_saved_plan(json.dumps(newer), "plan.json")
    broken = {**document, "plan": {"resources": "no"}}
    with pytest.raises(SavedPlanError, match="not a plan this release can read"):
        read_saved_plan(json.dumps(broken), "plan.json")


def test_a_desired_state_file_or_a_printed_plan_is_told_from_a_saved_plan() -> None:
    assert read_saved_plan("version: 1\ntopics: []\n", "kafka.yaml") is None
    assert read_saved_plan('{"version": 1, "topics": []}', "kafka.json") is None
    assert read_saved_plan("{version: 1}", "flow.yaml") is None  # YAML, not JSON
    with pytest.raises(SavedPlanError, match=r"plan --output json.*--out"):
        read_saved_plan(plan_of(FILE).to_json(), "shown.json")


def test_a_plan_without_cluster_id_or_with_problems_is_not_saved() -> None:
    with pytest.raises(SavedPlanError, match="id of the cluster"):
        saved_plan_document(plan_of(FILE).model_copy(update={"cluster_id": None}))
    bad = {"version": 1, "topics": [{"name": "orders", "configs": {"retention.ms": "soon"}}]}
    with pytest.raises(SavedPlanError, match="1 problem"):
        saved_plan_document(plan_of(bad))


def test_a_plans_desired_state_names_its_keys_and_quota_entities() -> None:
    entity: dict[str, str | None] = {"user": "alice"}
    quota = QuotaPlan(
        entity=entity, changes=(QuotaChange(key="producer_byte_rate", current=1.0, wanted=2.0),)
    )
    made = plan_of(FILE).model_copy(update={"quotas": (quota,)})
    desired = plan_desired_state(made)
    assert {topic.name: dict(topic.configs) for topic in desired.topics} == {
        "orders": {"retention.ms": "86400000", "cleanup.policy": "compact"},
        "payments": {"max.message.bytes": "2000000"},
    }
    assert [(spec.entity, spec.values) for spec in desired.quotas] == [
        (entity, {"producer_byte_rate": 2.0})
    ]
    now = ClusterState(quotas={ClientQuotaEntity(entity): {"producer_byte_rate": 5.0}})
    [key] = stale_quotas(made, now)[ClientQuotaEntity(entity)]
    assert (key.key, key.planned, key.now) == ("producer_byte_rate", "1", "5")
    same = ClusterState(quotas={ClientQuotaEntity(entity): {"producer_byte_rate": 1.0}})
    assert stale_quotas(made, same) == {}


def test_the_difference_of_two_plans_names_each_change_not_made_alike() -> None:
    shown = plan_of({"version": 1, "topics": [FILE["topics"][0]]})
    now = plan_of(FILE)
    [added] = plan_difference(shown, now)
    assert (added.subject, added.key, added.shown, added.now) == (
        "topic 'payments'",
        "max.message.bytes",
        None,
        "SET 2000000",
    )
    assert plan_difference(now, now) == ()
    assert plan_difference(shown, now, leaving=[OTHER]) == ()
    [hidden] = plan_difference(secret_plan("s3cret-one"), Plan())
    assert hidden.shown == f"SET {HIDDEN}" and hidden.now is None


def test_the_digest_covers_every_field_of_a_config_change_and_follows_a_copy() -> None:
    assert set(_DIGEST_CHANGE_FIELDS) == set(ConfigChange.model_fields)
    made = plan_of(FILE)
    assert made.model_copy(update={"cluster_id": "c9"}).digest != made.digest


def test_a_sensitive_value_is_sealed_before_it_is_hashed_in() -> None:
    """The digest's input holds no secret, not even a plain hash of it: each is sealed
    (PBKDF2) with a salt of its resource and key, also in a topic to create."""
    canonical = json.dumps(_canonical(secret_plan("s3cret-one")))
    assert "s3cret" not in canonical
    plain = hashlib.sha256(b"s3cret-one").hexdigest()
    assert plain not in canonical and "sealed:" in canonical
    topic = ConfigResource(ResourceType.TOPIC, "new")
    change = secret_plan("s3cret-one").resources[0].changes[0]
    creation = TopicCreation(
        name="new", partitions=1, replication_factor=1, configs={change.key: "s3cret-one"}
    )
    item = ResourcePlan(
        resource=topic, action=ResourceAction.CREATE, create=creation, changes=(change,)
    )
    assert "s3cret" not in json.dumps(_canonical(Plan(resources=(item,))))


def test_partition_changes_are_never_saved() -> None:
    partitions = PartitionPlan(
        topic="orders",
        current_partitions=1,
        wanted_partitions=3,
        current_replication_factor=1,
        wanted_replication_factor=1,
    )
    item = ResourcePlan(resource=ORDERS, action=ResourceAction.ALTER, partitions=partitions)
    with pytest.raises(SavedPlanError, match="partition changes of topic 'orders'"):
        saved_plan_document(Plan(resources=(item,), cluster_id="c1"))
