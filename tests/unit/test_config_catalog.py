"""The config catalog: the generator's validator parsing, the shipped files, the choice of a
catalog from a broker's API versions, the checks it drives, and set-like lists."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kafka_config_admin import (
    AlterConfigOp,
    CatalogMatch,
    Config,
    ConfigCatalog,
    ConfigResource,
    ConfigType,
    InvalidArgumentError,
    OpType,
    ResourceType,
    UpdateMode,
    ValidValues,
)
from kafka_config_admin.desired import make_plan
from kafka_config_admin.state import (
    SET_LIKE_KEYS,
    ClusterState,
    DesiredState,
    check_ops,
    check_value,
    same_value,
)
from kafka_config_admin.toolkit import (
    catalog_releases,
    load_catalog,
    match_catalog,
    releases_with_key,
)
from tools.config_catalog import catalog_entry, valid_values

from .desired_helpers import BROKER, DEFAULT, TOPIC, T, broker_config, entry, topic_config

_KAFKA = "org.apache.kafka.common.config.ConfigDef$"


def _validator(name: str, text: str, **fields: Any) -> dict[str, Any]:
    return {"class": _KAFKA + name, "text": text, "fields": fields}


# --- the generator's reading of validators ---------------------------------------------------


def test_ranges_come_from_the_fields_else_from_the_text() -> None:
    assert valid_values(_validator("Range", "[1048576,...]", min="1048576", max=None)) == {
        "min": 1048576,
        "text": "[1048576,...]",
    }
    assert valid_values(_validator("Range", "[0.0,...,1.0]")) == {
        "min": 0.0,
        "max": 1.0,
        "text": "[0.0,...,1.0]",
    }
    assert valid_values(_validator("Range", "[...,5]"))["max"] == 5  # type: ignore[index]


def test_a_range_with_one_value_outside_it_from_a_validator_with_no_fields() -> None:
    # compression.gzip.level: a LambdaValidator from Kafka 4.0, an anonymous class in 3.8/3.9
    lambda_validator = _validator("LambdaValidator", "[1,...,9] or -1")
    anonymous = {"class": "org.apache.kafka.common.record.CompressionType$1$1"}
    expected = {"min": 1, "max": 9, "also": [-1], "text": "[1,...,9] or -1"}
    assert valid_values(lambda_validator) == expected
    assert valid_values({**anonymous, "text": "[1,...,9] or -1", "fields": {}}) == expected
    assert valid_values(_validator("LambdaValidator", "any of 1 or 2")) == {"text": "any of 1 or 2"}
    gzip = load_catalog("4.4.0").get(ResourceType.TOPIC, "compression.gzip.level")
    assert gzip is not None and gzip.valid is not None
    assert gzip.valid.describe() == "1 to 9, or -1"


def test_enums_lists_and_composites() -> None:
    exact = valid_values(_validator("ValidString", "[a, b]", validStrings=["a", "b"]))
    assert exact == {"members": ["a", "b"], "text": "[a, b]"}
    loose = valid_values(_validator("CaseInsensitiveValidString", "[x, Y]"))
    assert loose == {"members": ["x", "Y"], "case_insensitive": True, "text": "[x, Y]"}
    inner = _validator("ValidString", "[compact, delete]", validStrings=["compact", "delete"])
    new_list = _validator(
        "ValidList", "[compact, delete]", validString=inner, isEmptyAllowed="false"
    )
    assert valid_values(new_list) == {
        "list": True,
        "members": ["compact", "delete"],
        "empty_allowed": False,
        "text": "[compact, delete]",
    }
    old_list = _validator("ValidList", "[compact, delete]", validString=inner)
    assert valid_values(old_list)["empty_allowed"] is True  # type: ignore[index]
    assert "distinct_members" not in valid_values(old_list)  # type: ignore[operator]
    kip_1161 = _validator(
        "ValidList",
        "[compact, delete]",
        validString=inner,
        isEmptyAllowed="true",
        isNullAllowed="false",
    )
    assert valid_values(kip_1161)["distinct_members"] is True  # type: ignore[index]
    both = _validator(
        "CompositeValidator",
        "[0,...], non-empty string",
        validators=[_validator("Range", "[0,...]", min="0"), _validator("NonEmptyString", "x")],
    )
    assert valid_values(both) == {"min": 0, "non_empty": True, "text": "[0,...], non-empty string"}


def test_an_unknown_validator_keeps_its_words_and_no_check() -> None:
    other = {"class": "org.example.Odd", "text": "[1,...,9] or -1", "fields": {}}
    assert valid_values(other) == {"text": "[1,...,9] or -1"}
    assert valid_values(None) is None
    raw = {"type": "INT", "importance": "LOW", "required": True, "default": None}
    assert catalog_entry(raw) == {"type": "INT", "importance": "LOW", "required": True}


# --- the shipped catalogs ---------------------------------------------------------------------


def test_the_named_releases_are_shipped_and_small() -> None:
    releases = catalog_releases()
    # the latest patch of every 4.x line, and the releases nox -s compat runs
    assert {"4.0.2", "4.1.2", "4.2.2", "4.3.1", "4.4.0", "3.9.1", "2.5.1"} <= set(releases)
    assert any(r.startswith("3.") and r < "3.9" for r in releases)
    assert any(r.startswith("2.") and r >= "2.6" for r in releases)
    with pytest.raises(InvalidArgumentError, match=r"no config catalog for Kafka .9\.9\.9."):
        load_catalog("9.9.9")


def test_catalog_facts_match_kafkas_configdefs() -> None:
    catalog = load_catalog("4.4.0")
    policy = catalog.get(ResourceType.TOPIC, "cleanup.policy")
    assert policy is not None and policy.type is ConfigType.LIST and policy.default == "delete"
    assert policy.valid is not None and set(policy.valid.members or ()) == {"compact", "delete"}
    segment = catalog.get(ResourceType.TOPIC, "segment.bytes")
    assert segment is not None and segment.valid is not None
    assert segment.valid.minimum == 1024 * 1024
    listeners = catalog.get(ResourceType.BROKER, "listeners")
    assert listeners is not None and listeners.update_mode is UpdateMode.PER_BROKER
    threads = catalog.get(ResourceType.BROKER, "log.cleaner.threads")
    assert threads is not None and threads.update_mode is UpdateMode.CLUSTER_WIDE
    broker_id = catalog.get(ResourceType.BROKER, "node.id")
    assert broker_id is not None and broker_id.update_mode is UpdateMode.READ_ONLY
    assert catalog.covers(ResourceType.GROUP) and not load_catalog("3.9.1").covers(
        ResourceType.GROUP
    )
    assert not load_catalog("2.5.1").covers(ResourceType.CLIENT_METRICS)
    # message.downconversion.enable left the topic configs in Kafka 4.0.
    assert "2.5.1" in releases_with_key(ResourceType.TOPIC, "message.downconversion.enable")
    assert "4.4.0" not in releases_with_key(ResourceType.TOPIC, "message.downconversion.enable")


def test_group_configs_follow_each_release() -> None:
    """Group configs came in 4.0 and grew with each 4.x line (KIP-848, KIP-932, KIP-1071
    and later): each catalog has its own release's keys, none of a later one's."""
    first_with = {
        "consumer.session.timeout.ms": "4.0.2",
        "share.record.lock.duration.ms": "4.0.2",
        "streams.num.standby.replicas": "4.1.2",
        "share.delivery.count.limit": "4.3.1",
        "consumer.assignment.interval.ms": "4.3.1",
        "errors.deadletterqueue.topic.name": "4.4.0",
    }
    for key, first in first_with.items():
        having = releases_with_key(ResourceType.GROUP, key)
        assert having and having[0] == first, (key, having)
        assert having == [r for r in catalog_releases() if r >= first], key


def test_a_broker_gets_the_catalog_of_its_release_never_a_newer_one() -> None:
    for release in catalog_releases():
        versions = load_catalog(release).api_versions
        match = match_catalog({api: (0, top) for api, top in versions.items()})
        assert match is not None and match.catalog.release == release and match.exact
    newest = load_catalog(catalog_releases()[-1])
    later = {api: top + 1 for api, top in newest.api_versions.items()}
    match = match_catalog(later)
    assert match is not None and match.catalog is newest and not match.exact
    oldest = load_catalog(catalog_releases()[0])
    older = {api: top - 1 for api, top in oldest.api_versions.items() if top > 0}
    assert match_catalog(older) is None
    assert match_catalog({}) is None


# --- checks driven by the catalog -------------------------------------------------------------


def _state(release: str, *configs: tuple[ConfigResource, Config], **kw: Any) -> ClusterState:
    match = CatalogMatch(catalog=load_catalog(release), exact=True)
    return ClusterState(configs=dict(configs), catalog=match, **kw)


def _message(state: ClusterState, resource: ConfigResource, key: str, value: str | None) -> str:
    problem = check_value(state, resource, key, value)
    assert problem is not None, (key, value)
    return str(problem)


def test_enum_members_ranges_and_list_members_are_checked() -> None:
    state = _state("4.4.0", (TOPIC, topic_config()))
    ztsd = _message(state, TOPIC, "compression.type", "ZSTD")
    assert "'ZSTD'" in ztsd and "case matters" in ztsd and "zstd" in ztsd and "orders" in ztsd
    assert check_value(state, TOPIC, "compression.type", " zstd ") is None
    small = _message(state, TOPIC, "segment.bytes", "1000")
    assert "below the minimum 1048576" in small and "segment.bytes" in small
    purge = _message(state, TOPIC, "cleanup.policy", "delete,purge")
    assert "'purge' not allowed" in purge and "compact, delete" in purge
    assert check_value(state, TOPIC, "cleanup.policy", "compact, delete") is None
    assert check_value(state, TOPIC, "min.cleanable.dirty.ratio", "1.5") is not None
    assert check_value(state, TOPIC, "min.cleanable.dirty.ratio", "0.25") is None
    # A value's type problem comes first, and names the type.
    assert "INT" in _message(state, TOPIC, "segment.bytes", "big")
    # A broker of a later release than the closest catalog may allow more: its types and
    # update modes still hold, its valid values are left to the broker.
    later = ClusterState(
        configs={TOPIC: topic_config()},
        catalog=CatalogMatch(catalog=load_catalog("4.1.2"), exact=False),
    )
    assert check_value(later, TOPIC, "compression.type", "brotli") is None
    assert check_value(later, TOPIC, "segment.bytes", "big") is not None


def test_every_problem_of_a_file_is_reported_before_anything_is_sent() -> None:
    state = _state("4.4.0", (TOPIC, topic_config()), topics=frozenset({"orders"}))
    desired = DesiredState.model_validate(
        {
            "topics": [
                {
                    "name": "orders",
                    "configs": {
                        "compression.type": "ZSTD",
                        "segment.bytes": 1000,
                        "cleanup.policy": ["delete", "purge"],
                    },
                }
            ]
        }
    )
    plan = make_plan(desired, state)
    assert {problem.key for problem in plan.problems} == {
        "compression.type",
        "segment.bytes",
        "cleanup.policy",
    }
    assert not plan.has_changes


def test_update_modes_per_broker_keys_only_on_a_broker() -> None:
    state = _state(
        "4.4.0", (BROKER, broker_config()), schemas={ResourceType.BROKER: broker_config()}
    )
    refused = _message(state, DEFAULT, "listeners", "PLAINTEXT://:9092")
    assert "per-broker only" in refused and "cluster default" in refused
    assert check_value(state, BROKER, "log.cleaner.threads", "2") is None  # allowed per broker
    assert check_value(state, DEFAULT, "log.cleaner.threads", "2") is None
    read_only = _message(state, DEFAULT, "node.id", "3")
    assert "read-only" in read_only
    problems = check_ops({DEFAULT: [AlterConfigOp(name="listeners", value="x")]}, state)
    assert [problem.key for problem in problems] == ["listeners"]


def test_a_key_the_cluster_takes_on_the_cluster_default_only_while_a_feature_is_on() -> None:
    catalog = load_catalog("4.4.0")
    elr = CatalogMatch(catalog, exact=True, features={"eligible.leader.replicas.version": 1})
    state = ClusterState(
        configs={BROKER: broker_config()},
        schemas={ResourceType.BROKER: broker_config()},
        catalog=elr,
    )
    refused = _message(state, BROKER, "min.insync.replicas", "2")
    assert "cluster-wide only" in refused and "eligible.leader.replicas.version=1" in refused
    assert "broker '1'" in refused and "'2'" in refused
    assert check_value(state, DEFAULT, "min.insync.replicas", "2") is None
    assert check_value(state, BROKER, "min.insync.replicas", None, OpType.DELETE) is None
    assert check_value(state, BROKER, "log.retention.ms", "1000") is None  # cluster-wide too
    off = CatalogMatch(catalog, exact=True, features={"eligible.leader.replicas.version": 0})
    for match in (off, CatalogMatch(catalog, exact=True)):
        state = ClusterState(configs={BROKER: broker_config()}, catalog=match)
        assert check_value(state, BROKER, "min.insync.replicas", "2") is None


def test_keys_a_release_does_not_have_are_named_with_the_releases_that_do() -> None:
    state = _state("4.4.0", (TOPIC, topic_config()))
    gone = _message(state, TOPIC, "message.downconversion.enable", "true")
    assert "unknown config" in gone and "2.5.1" in gone and "Kafka 4.4.0 has no such key" in gone
    # Without a described resource the exact catalog still tells, for topics...
    fresh = ConfigResource(ResourceType.TOPIC, "new")
    assert check_value(state, fresh, "message.downconversion.enable", "true") is not None
    # ...but never for brokers: a broker takes keys its plugins read.
    assert check_value(state, DEFAULT, "my.plugin.key", "1") is None


def test_on_a_broker_before_kip569_the_catalog_gives_the_types() -> None:
    untyped = topic_config(
        s=entry("segment.bytes", "1073741824", kind=ConfigType.UNKNOWN),
        c=entry("cleanup.policy", "compact,delete", T, ConfigType.UNKNOWN),
    )
    state = _state("2.5.1", (TOPIC, untyped))
    assert state.entry_type(TOPIC, "segment.bytes") is ConfigType.INT
    assert "not an integer" in _message(state, TOPIC, "segment.bytes", "1GB")
    # Kafka 2.5 takes segments down to 14 bytes (a record overhead), 4.x from 1 MiB.
    assert "below the minimum 14" in _message(state, TOPIC, "segment.bytes", "10")
    desired = DesiredState.model_validate(
        {"topics": [{"name": "orders", "configs": {"cleanup.policy": " delete ,compact"}}]}
    )
    assert not make_plan(desired, state).has_changes
    without = ClusterState(configs={TOPIC: untyped})
    assert check_value(without, TOPIC, "segment.bytes", "1GB") is None  # only the broker knows


def test_valid_values_in_words() -> None:
    assert ValidValues(members=("a", "b")).describe() == "one of: a, b"
    assert ValidValues(members=("a",), case_insensitive=True).describe() == "one of: a (any case)"
    assert ValidValues(minimum=1, maximum=9).describe() == "1 to 9"
    assert (
        ValidValues(members=("x",), is_list=True, empty_allowed=False).describe()
        == "each member one of: x; not empty"
    )
    assert ValidValues(text="[1,...,9] or -1").describe() == "[1,...,9] or -1"


# --- set-like lists ---------------------------------------------------------------------------


def test_set_like_lists_compare_as_sets_and_ordered_lists_keep_order() -> None:
    assert "cleanup.policy" in SET_LIKE_KEYS and "ssl.cipher.suites" not in SET_LIKE_KEYS
    assert same_value(ConfigType.LIST, "compact,delete", "delete, compact", key="cleanup.policy")
    assert not same_value(ConfigType.LIST, "compact,delete", "delete,compact")
    suites = "TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384"
    flipped = "TLS_AES_256_GCM_SHA384,TLS_AES_128_GCM_SHA256"
    assert not same_value(ConfigType.LIST, suites, flipped, key="ssl.cipher.suites")
    # A set Kafka types STRING and splits itself, and a value with no type (before 2.6).
    protocols, reordered = "A:PLAINTEXT,B:SSL", "B:SSL, A:PLAINTEXT"
    for kind in (ConfigType.STRING, ConfigType.UNKNOWN):
        assert same_value(kind, protocols, reordered, key="listener.security.protocol.map")
        assert not same_value(kind, protocols, "A:SSL,B:SSL", key="listener.security.protocol.map")
        assert same_value(kind, "compact,delete", "delete,compact", key="cleanup.policy")
        assert not same_value(kind, "x,y", "y,x", key="security.inter.broker.protocol")


def test_a_set_like_list_plans_nothing_for_another_order_and_adds_members_anywhere() -> None:
    both = topic_config(c=entry("cleanup.policy", "compact,delete", T, ConfigType.LIST))
    state = ClusterState(configs={TOPIC: both}, topics=frozenset({"orders"}))

    def plan_for(value: Any) -> Any:
        desired = DesiredState.model_validate(
            {"topics": [{"name": "orders", "configs": {"cleanup.policy": value}}]}
        )
        return make_plan(desired, state)

    assert not plan_for(["delete", "compact"]).has_changes
    assert not plan_for("delete,compact,delete").has_changes
    [change] = plan_for(["delete"]).resources[0].changes
    assert (change.op, change.value) == (OpType.SUBTRACT, "compact")
    throttled = topic_config(
        r=entry("leader.replication.throttled.replicas", "0:1", T, ConfigType.LIST)
    )
    state = ClusterState(configs={TOPIC: throttled}, topics=frozenset({"orders"}))
    desired = DesiredState.model_validate(
        {
            "topics": [
                {
                    "name": "orders",
                    "configs": {"leader.replication.throttled.replicas": ["1:2", "0:1"]},
                }
            ]
        }
    )
    [change] = make_plan(desired, state).resources[0].changes
    assert (change.op, change.value) == (OpType.APPEND, "1:2")
    assert change.shows_wanted(TOPIC, entry(change.key, "0:1,1:2", T, ConfigType.LIST))


def test_catalog_files_are_compact_json() -> None:
    from importlib import resources

    for release in catalog_releases():
        text = resources.files("kafka_config_admin._models").joinpath("catalogs", f"{release}.json")
        data = json.loads(text.read_text())
        assert data["release"] == release and len(text.read_text()) < 100_000


def test_the_types_a_broker_has_no_configs_of_follow_its_catalog() -> None:
    """Groups from Kafka 4.0, client metrics from 3.7: a broker exactly a release without them
    lacks them; one between two catalogs may have them (the broker is the judge); one older
    than every catalog lacks both."""
    from kafka_config_admin._models.catalog import config_types_lacking

    newer = [ResourceType.GROUP, ResourceType.CLIENT_METRICS, ResourceType.TOPIC]

    def exactly(release: str) -> CatalogMatch:
        return CatalogMatch(catalog=load_catalog(release), exact=True)

    lacking = config_types_lacking(exactly("3.9.1"), newer)
    assert list(lacking) == [ResourceType.GROUP]
    assert lacking[ResourceType.GROUP] == (
        "the broker (Kafka 3.9.1) has no group configs (Kafka 4.0.2 has them): none are read"
    )
    assert config_types_lacking(exactly("4.0.2"), newer) == {}
    assert set(config_types_lacking(exactly("3.6.2"), newer)) == {
        ResourceType.GROUP,
        ResourceType.CLIENT_METRICS,
    }
    between = CatalogMatch(catalog=load_catalog("3.6.2"), exact=False)  # a 3.7 or 3.8 broker
    assert config_types_lacking(between, newer) == {}
    older = config_types_lacking(None, newer)
    assert set(older) == {ResourceType.GROUP, ResourceType.CLIENT_METRICS}
    assert "older than Kafka 2.5.1" in older[ResourceType.CLIENT_METRICS]


def test_lookup_finds_a_brokers_listener_keys_as_the_key_they_prefix() -> None:
    catalog = load_catalog("4.4.0")
    name = "listener.name.ssl.ssl.keystore.location"
    found = catalog.lookup(ResourceType.BROKER, name)
    assert found is not None and found.name == name and found.listener == "ssl"
    assert catalog.lookup(ResourceType.TOPIC, name) is None
    assert catalog.lookup(ResourceType.BROKER, "log.cleaner.threads") == catalog.get(
        ResourceType.BROKER, "log.cleaner.threads"
    )
    assert ConfigCatalog.is_listener_key(name) and not ConfigCatalog.is_listener_key("ssl.x")
