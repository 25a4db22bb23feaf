"""The config catalog against the real broker: the catalog of the running release is chosen,
it agrees with every key the broker describes, and its checks refuse invalid values before
anything is sent."""

from __future__ import annotations

import pytest

from kafka_config_admin import (
    AdminClient,
    AlterConfigOp,
    CatalogMatch,
    Config,
    ConfigCatalog,
    ConfigResource,
    ConfigSource,
    ConfigType,
    ResourceType,
)
from kafka_config_admin.changeset import PlanRejectedError, apply_plan
from kafka_config_admin.desired import make_plan, parse_desired_state
from kafka_config_admin.state import read_state
from kafka_config_admin.testing import KafkaCluster
from kafka_config_admin.toolkit import catalog_releases

from .cli_helpers import make_topic, run_cli
from .conftest import SentRequests
from .helpers import new_topic

pytestmark = pytest.mark.integration

_CHANGES = {"IncrementalAlterConfigs", "AlterConfigs", "CreateTopics"}


async def _catalog(admin: AdminClient, cluster: KafkaCluster) -> CatalogMatch:
    match = await admin.config_catalog()
    if cluster.kafka_version not in catalog_releases():
        pytest.skip(f"no catalog ships for Kafka {cluster.kafka_version}")
    assert match is not None, "a shipped release must find its catalog"
    return match


@pytest.mark.compat
async def test_the_catalog_of_the_running_release_is_chosen(
    admin_client: AdminClient, kafka_cluster: KafkaCluster
) -> None:
    match = await _catalog(admin_client, kafka_cluster)
    assert match.catalog.release == kafka_cluster.kafka_version and match.exact
    assert await admin_client.config_catalog() is match  # asked once per client


def _disagreements(catalog: ConfigCatalog, resource: ConfigResource, config: Config) -> list[str]:
    """Where the broker's describe and the catalog differ: a key only one has, a KIP-569 type,
    a default (for keys the broker shows at their default)."""
    found: list[str] = []
    for entry in config.values():
        key = catalog.get(resource.type, entry.name)
        if key is None:
            if entry.source is ConfigSource.DEFAULT_CONFIG:
                found.append(f"{entry.name}: described by the broker, not in the catalog")
            continue
        if entry.type is not ConfigType.UNKNOWN and entry.type is not key.type:
            found.append(f"{entry.name}: type {entry.type.name} != catalog {key.type.name}")
        if (
            entry.source is ConfigSource.DEFAULT_CONFIG
            and not entry.is_sensitive
            and entry.value != key.default
            and not _from_the_broker(resource, key.default)
        ):
            found.append(f"{entry.name}: default {entry.value!r} != catalog {key.default!r}")
    return found


def _from_the_broker(resource: ConfigResource, default: str | None) -> bool:
    """A group key without a default of its own (Kafka 4.4's ``streams.assignor.name``) shows
    what the broker's own group settings give it (``group.streams.assignors``)."""
    return resource.type is ResourceType.GROUP and default is None


@pytest.mark.compat
async def test_the_catalog_agrees_with_every_key_the_broker_describes(
    admin_client: AdminClient,
    kafka_cluster: KafkaCluster,
    kafka_bootstrap: str,
    kafka_release: tuple[int, ...],
) -> None:
    """Types (KIP-569, where the broker reports them: not before Kafka 2.6) and defaults of
    every topic and broker key the running broker describes, and of every group (4.0 on) and
    client-metrics (3.7 on) key: each of the release's keys, none missing."""
    catalog = (await _catalog(admin_client, kafka_cluster)).catalog
    topic = ConfigResource(ResourceType.TOPIC, await new_topic(admin_client, kafka_bootstrap))
    broker = ConfigResource(ResourceType.BROKER, str(kafka_cluster.broker_ids[0]))
    # Before Kafka 4.1 a client-metrics resource describes only what it sets; from 4.1, every
    # key (as a group does from 4.0, when group configs came).
    kinds = [ResourceType.GROUP] if kafka_release >= (4, 0) else []
    kinds += [ResourceType.CLIENT_METRICS] if kafka_release >= (4, 1) else []
    others = [ConfigResource(kind, "catalog-check") for kind in kinds if catalog.covers(kind)]
    described = admin_client.describe_configs([topic, broker, *others], include_documentation=True)
    configs = await described.all()
    for resource in (topic, broker):
        config = configs[resource]
        known = [entry for entry in config.values() if catalog.get(resource.type, entry.name)]
        assert len(config) > 20 and len(known) >= 0.9 * len(config)
        assert _disagreements(catalog, resource, config) == [], resource
    for resource in others:
        config = configs[resource]
        assert set(config) == set(catalog.names(resource.type)), resource
        assert _disagreements(catalog, resource, config) == [], resource


def _changes_sent(sent: SentRequests) -> list[str]:
    return [api for api in sent if api in _CHANGES]


@pytest.mark.compat
async def test_values_kafka_would_refuse_are_refused_before_anything_is_sent(
    admin_client: AdminClient,
    kafka_cluster: KafkaCluster,
    kafka_release: tuple[int, ...],
    kafka_bootstrap: str,
    sent_requests: SentRequests,
) -> None:
    await _catalog(admin_client, kafka_cluster)
    name = await new_topic(admin_client, kafka_bootstrap)
    desired = parse_desired_state(
        f"""
topics:
  - name: {name}
    configs:
      compression.type: ZSTD            # Kafka's ValidString compares case
      segment.bytes: 1000               # below the range's minimum (1 MiB; 14 before 4.1)
      cleanup.policy: [delete, purge]   # not a cleanup policy
      min.cleanable.dirty.ratio: lots   # not a DOUBLE (before 2.6 only the catalog says so)
      retention.ms: 1d                  # fine: planned only once the others are fixed
cluster_default:
  configs:
    listener.security.protocol.map: PLAINTEXT:PLAINTEXT   # per-broker only
""",
        source="catalog.yaml",
    )
    state = await read_state(admin_client, desired)
    plan = make_plan(desired, state)
    problems = {problem.key: str(problem) for problem in plan.problems}
    assert set(problems) == {
        "compression.type",
        "cleanup.policy",
        "min.cleanable.dirty.ratio",
        "listener.security.protocol.map",
    } | ({"segment.bytes"} if kafka_release >= (4, 1) else set())
    assert "DOUBLE" in problems["min.cleanable.dirty.ratio"]
    assert name in problems["compression.type"] and "'ZSTD'" in problems["compression.type"]
    assert "zstd" in problems["compression.type"]
    assert "'purge' not allowed" in problems["cleanup.policy"]
    assert "per-broker only" in problems["listener.security.protocol.map"]
    sent_requests.clear()
    with pytest.raises(PlanRejectedError):
        await apply_plan(admin_client, plan)
    assert _changes_sent(sent_requests) == []


@pytest.mark.compat
async def test_a_set_like_list_in_another_order_plans_nothing(
    admin_client: AdminClient, kafka_bootstrap: str
) -> None:
    name = await new_topic(admin_client, kafka_bootstrap, {"cleanup.policy": "compact,delete"})
    for wanted in ("[delete, compact]", "'delete, compact'", "[compact, delete, compact]"):
        desired = parse_desired_state(
            f"topics:\n  - name: {name}\n    configs:\n      cleanup.policy: {wanted}\n",
            source="set.yaml",
        )
        plan = make_plan(desired, await read_state(admin_client, desired))
        assert not plan.has_changes and not plan.problems, (wanted, plan.to_dict())


@pytest.mark.compat
def test_docs_shows_the_catalog_beside_the_live_documentation(
    kafka_bootstrap: str,
    kafka_cluster: KafkaCluster,
    kafka_release: tuple[int, ...],
    capsys: pytest.CaptureFixture[str],
) -> None:
    if kafka_cluster.kafka_version not in catalog_releases():
        pytest.skip(f"no catalog ships for Kafka {kafka_cluster.kafka_version}")
    make_topic(kafka_bootstrap)
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "compression.type")
    assert ran.code == 0, ran.err
    topic_part, broker_part = ran.out.split("compression.type (broker config)")
    assert "compression.type (topic config)" in topic_part
    for part in (topic_part, broker_part):
        assert "type: STRING" in part  # the catalog's, where the broker reports no type (2.5)
        assert "default: producer" in part
        assert f"the ConfigDef of Kafka {kafka_cluster.kafka_version}" in part
    members = "valid values: one of: uncompressed, zstd, lz4, snappy, gzip, producer"
    assert members in topic_part
    # The broker key has a validator in the 3.x catalogs on, not in the 2.x ones.
    assert (members in broker_part) is (kafka_release >= (3, 0))
    assert "update mode: cluster-wide" in broker_part and "update mode" not in topic_part
    if kafka_release >= (2, 6):  # the live documentation (DescribeConfigs v3, KIP-569)
        assert "codec" in topic_part
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "listener.security.protocol.map")
    assert "update mode: per-broker" in ran.out, ran.out
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "segment.bytes")
    # KIP-1030's 1 MiB reached the topic's own ConfigDef in 4.1 (4.0 raised log.segment.bytes)
    minimum = 1048576 if kafka_release >= (4, 1) else 14
    assert f"valid values: at least {minimum}" in ran.out, ran.out
    for empty in ("", "  "):
        ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, empty)
        assert (ran.code, ran.err.strip()) == (
            2,
            "error: KEY is empty: name a config key, such as retention.ms",
        )
    gone = "message.downconversion.enable"  # removed in Kafka 4.0
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, gone)
    if kafka_release >= (4, 0):
        assert ran.code == 2 and "3.9.1 had it" in ran.err, ran.err
    else:
        assert ran.code == 0 and "(topic config)" in ran.out, ran.err


@pytest.mark.compat
def test_docs_names_the_nearest_keys_the_rules_and_the_mode_the_cluster_applies(
    kafka_bootstrap: str,
    kafka_cluster: KafkaCluster,
    kafka_release: tuple[int, ...],
    capsys: pytest.CaptureFixture[str],
) -> None:
    if kafka_cluster.kafka_version not in catalog_releases():
        pytest.skip(f"no catalog ships for Kafka {kafka_cluster.kafka_version}")
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "log.cleaner.thread")
    assert ran.code == 2 and "did you mean log.cleaner.threads" in ran.err, ran.err
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "num.io.threads")
    assert "rule: a broker resizes this pool at run time to between half and double" in ran.out
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "ssl.keystore.type")
    assert "rule: only per listener, as listener.name.<listener>.ssl.keystore.type" in ran.out
    if kafka_release >= (3, 7):  # client metrics
        ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "interval.ms")
        assert "rule: a push interval must be between 100 and 3600000 ms (1 hour)" in ran.out
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "listener.name.plaintext.max.connections")
    assert ran.code == 0 and "(broker config)" in ran.out, ran.err
    assert "<code>" not in ran.out and "<p>" not in ran.out  # Kafka's HTML as plain text
    ran = run_cli(capsys, "docs", "-b", kafka_bootstrap, "min.insync.replicas")
    if kafka_release >= (4, 1):  # a new cluster has Eligible Leader Replicas on
        assert "update mode: cluster default only (never one broker id)" in ran.out, ran.out
    else:
        assert "update mode: cluster-wide (the cluster default, or one broker id)" in ran.out


@pytest.mark.compat
async def test_a_key_the_cluster_takes_on_the_default_only_is_refused_for_one_broker(
    admin_client: AdminClient,
    kafka_cluster: KafkaCluster,
    kafka_release: tuple[int, ...],
    sent_requests: SentRequests,
) -> None:
    """With Eligible Leader Replicas on (Kafka 4.1 on, new clusters), min.insync.replicas is
    taken on the cluster default only: the check says so from the features the broker reports,
    and the broker agrees; without ELR the same change passes both."""
    match = await _catalog(admin_client, kafka_cluster)
    elr = match.features.get("eligible.leader.replicas.version", 0)
    if kafka_release >= (4, 1):
        assert elr >= 1, match.features  # on by default for a new 4.1+ cluster
    if kafka_release < (2, 8):
        assert match.features == {}  # ApiVersions carries features from Kafka 2.8 (KIP-584)
    broker_id = kafka_cluster.broker_ids[0]
    desired = parse_desired_state(
        f"brokers:\n  {broker_id}:\n    configs:\n      min.insync.replicas: 1\n",
        source="elr.yaml",
    )
    plan = make_plan(desired, await read_state(admin_client, desired))
    broker = ConfigResource(ResourceType.BROKER, str(broker_id))
    probe = admin_client.incremental_alter_configs(
        {broker: [AlterConfigOp(name="min.insync.replicas", value="1")]}, validate_only=True
    )
    await probe.wait()
    broker_says = probe.values[broker].exception()
    if elr:
        [problem] = plan.problems
        assert "cluster-wide only" in str(problem) and str(broker_id) in str(problem)
        assert broker_says is not None, "the broker must refuse what the check refuses"
        sent_requests.clear()
        with pytest.raises(PlanRejectedError):
            await apply_plan(admin_client, plan)
        assert _changes_sent(sent_requests) == []
    else:
        assert not plan.problems and broker_says is None, (plan.problems, broker_says)


@pytest.mark.compat
def test_alter_refuses_what_the_catalog_refuses_before_anything_is_sent(
    kafka_bootstrap: str,
    kafka_cluster: KafkaCluster,
    sent_requests: SentRequests,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if kafka_cluster.kafka_version not in catalog_releases():
        pytest.skip(f"no catalog ships for Kafka {kafka_cluster.kafka_version}")
    name = make_topic(kafka_bootstrap)
    sent_requests.clear()
    ran = run_cli(
        capsys,
        "alter",
        "-b",
        kafka_bootstrap,
        name,
        "--set",
        "compression.type=ZSTD",
        "--append",
        "cleanup.policy=purge",
        "--yes",
    )
    assert ran.code == 2, (ran.out, ran.err)
    assert "compression.type" in ran.err and "zstd" in ran.err and "'purge'" in ran.err
    assert _changes_sent(sent_requests) == []
