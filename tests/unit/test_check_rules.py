"""The rules ``check_value`` takes from Kafka (pure logic, against the shipped catalogs):
per-listener keys, per-listener-only SSL keys, the thread-pool resize rule, connection limits,
KIP-1161 lists, "did you mean" and values kept short in messages."""

from __future__ import annotations

import pytest

from kafka_config_admin import AlterConfigOp, CatalogMatch, ConfigResource, ConfigType, OpType
from kafka_config_admin import ResourceType as RT
from kafka_config_admin.state import (
    ClusterState,
    check_value,
    is_locked,
    nearest_keys,
    unknown_key_warnings,
)
from kafka_config_admin.toolkit import cut_short, load_catalog

from .desired_helpers import BROKER, DEFAULT, TOPIC, broker_config, entry, topic_config

GROUP = ConfigResource(RT.GROUP, "payments")


def state(release: str = "4.4.0", *extra_broker_entries: object) -> ClusterState:
    broker = broker_config(
        entry("listeners", "PLAINTEXT://:9092,CONTROLLER://:9093", kind=ConfigType.LIST),
        entry("controller.listener.names", "CONTROLLER", kind=ConfigType.LIST),
        entry("num.io.threads", "8", kind=ConfigType.INT),
        *extra_broker_entries,  # type: ignore[arg-type]
    )
    return ClusterState(
        configs={TOPIC: topic_config(), BROKER: broker},
        schemas={RT.BROKER: broker, RT.TOPIC: topic_config()},
        catalog=CatalogMatch(catalog=load_catalog(release), exact=True),
    )


def refusal(
    key: str, value: str | None, resource: ConfigResource = BROKER, release: str = "4.4.0"
) -> str | None:
    problem = check_value(state(release), resource, key, value)
    return None if problem is None else str(problem)


@pytest.mark.parametrize("release", ["2.5.1", "3.9.1", "4.4.0"])
@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("listener.name.plaintext.ssl.keystore.type", "PKCS12"),
        ("listener.name.plaintext.ssl.client.auth", "required"),
        ("listener.name.plaintext.max.connections", "100"),
        ("listener.name.plaintext.ssl.key.password", "secret"),
        ("listener.name.plaintext.plain.sasl.jaas.config", "x required;"),
        ("listener.name.plaintext.sasl.enabled.mechanisms", "PLAIN"),
    ],
)
def test_per_listener_keys_are_known_and_taken_per_broker(
    release: str, key: str, value: str
) -> None:
    assert refusal(key, value, release=release) is None


def test_a_per_listener_key_is_checked_as_the_key_it_prefixes() -> None:
    refused = refusal("listener.name.plaintext.ssl.client.auth", "sometimes")
    assert refused is not None and "not an allowed value" in refused
    refused = refusal("listener.name.plaintext.max.connections", "many")
    assert refused is not None and "not an integer" in refused


def test_a_controller_listeners_key_of_a_read_only_key_is_left_to_the_broker() -> None:
    # Kafka checks a listener's keys with the ConfigDef of its dynamic keys, and a listener
    # the broker serves checks all of its own
    assert refusal("listener.name.controller.sasl.login.retry.backoff.ms", "soon") is None
    assert refusal("listener.name.plaintext.sasl.login.retry.backoff.ms", "soon") is not None
    assert refusal("listener.name.controller.max.connections", "many") is not None


def test_a_listener_key_set_and_described_read_only_still_takes_changes() -> None:
    # once set, a broker describes a listener's keys read-only: a key store rotated once can
    # be rotated again, where an unprefixed read-only key stays refused
    location = "listener.name.ssl.ssl.keystore.location"
    set_keys = (
        entry(location, "/etc/kafka/a.p12", is_read_only=True),
        entry("listener.name.ssl.ssl.key.password", None, is_read_only=True, is_sensitive=True),
        entry("broker.rack", "a", is_read_only=True),
    )
    checked = state("4.4.0", *set_keys)
    assert check_value(checked, BROKER, location, "/etc/kafka/b.p12") is None
    assert check_value(checked, BROKER, "listener.name.ssl.ssl.key.password", "s") is None
    refused = check_value(checked, BROKER, "broker.rack", "b")
    assert refused is not None and "read-only" in refused.message


def test_is_locked_is_the_read_only_mark_but_for_a_brokers_listener_keys() -> None:
    assert is_locked(BROKER, "broker.rack", read_only=True)
    assert not is_locked(BROKER, "broker.rack", read_only=False)
    assert not is_locked(BROKER, "listener.name.ssl.ssl.keystore.type", read_only=True)
    assert not is_locked(DEFAULT, "listener.name.ssl.max.connections", read_only=True)
    assert is_locked(TOPIC, "listener.name.ssl.ssl.keystore.type", read_only=True)


def test_on_the_cluster_default_only_the_cluster_level_listener_keys_are_taken() -> None:
    assert refusal("listener.name.plaintext.max.connections", "100", DEFAULT) is None
    refused = refusal("listener.name.plaintext.ssl.keystore.type", "PKCS12", DEFAULT)
    assert refused is not None and "per-broker only" in refused
    refused = refusal("listener.name.plaintext.no.such.key", "1", DEFAULT)
    assert refused is not None and "per-broker only" in refused


@pytest.mark.parametrize("resource", [BROKER, DEFAULT])
def test_ssl_keystore_keys_are_taken_only_per_listener(resource: ConfigResource) -> None:
    refused = refusal("ssl.keystore.type", "PKCS12", resource)
    assert refused is not None
    assert "listener.name.<listener>.ssl.keystore.type" in refused


@pytest.mark.parametrize(
    ("value", "refused"),
    [("8", False), ("4", False), ("16", False), ("3", True), ("17", True), ("0", True)],
)
def test_a_thread_pool_resizes_within_half_and_double(value: str, refused: bool) -> None:
    problem = refusal("num.io.threads", value)
    assert (problem is not None) is refused
    if refused and value != "0":
        assert problem is not None and "(4 to 16)" in problem
    if value != "0":  # 0 is below the key's range anywhere
        assert refusal("num.io.threads", value, DEFAULT) is None  # which broker answers: unknown


@pytest.mark.parametrize(
    "key", ["max.connections", "listener.name.plaintext.max.connection.creation.rate"]
)
def test_connection_limits_are_at_least_one(key: str) -> None:
    refused = refusal(key, "0")
    assert refused is not None and "at least 1" in refused
    assert refusal(key, "1") is None


def test_a_controllers_listener_does_not_check_connection_limits() -> None:
    assert refusal("listener.name.controller.max.connections", "0") is None


def test_a_listeners_own_connection_limit_stands_instead_of_the_brokers() -> None:
    own = entry("listener.name.plaintext.max.connections", "10", kind=ConfigType.INT)
    overridden = ClusterState(
        configs={BROKER: broker_config(own)},
        catalog=CatalogMatch(catalog=load_catalog("4.4.0"), exact=True),
    )
    assert check_value(overridden, BROKER, "max.connections", "0") is None


def test_empty_list_members_are_refused_only_where_the_release_refuses_them() -> None:
    refused = refusal("cleanup.policy", "delete,,compact", TOPIC, "4.4.0")
    assert refused is not None and "member is empty" in refused
    assert refusal("leader.replication.throttled.replicas", "0:1,,1:2", TOPIC) is None
    assert refusal("sasl.enabled.mechanisms", "GSSAPI,,", release="3.9.1") is None
    # a repeated member is dropped by Kafka, not refused
    assert refusal("cleanup.policy", "delete,delete", TOPIC) is None


def test_unknown_keys_say_what_was_meant() -> None:
    refused = refusal("min.insync.replica", "2", TOPIC)
    assert refused is not None and "did you mean min.insync.replicas" in refused
    refused = refusal("log.cleaner.threads", "2", TOPIC)
    assert refused is not None and "it is a broker key" in refused
    refused = refusal("consumer.session.timeout.msx", "45000", GROUP)
    assert refused is not None and "did you mean consumer.session.timeout.ms" in refused
    assert nearest_keys(["retention.ms", "segment.ms"], "zzz") == []


def test_a_broker_takes_keys_it_does_not_define() -> None:
    assert refusal("my.plugin.setting", "1") is None


def test_a_long_value_is_shown_by_its_start_and_length() -> None:
    refused = refusal("cleanup.policy", "x" * 10_000_000, TOPIC)
    assert refused is not None and len(refused) < 400
    assert "(10000000 characters)" in refused
    refused = refusal("segment.bytes", "9" * 5000, TOPIC)
    assert refused is not None and "out of range for INT" in refused
    assert "4300" not in refused and "set_int_max_str_digits" not in refused
    assert cut_short("short") == "short" and cut_short("x" * 81).endswith("... (81 characters)")


def test_numbers_java_reads_are_taken() -> None:
    assert refusal("segment.bytes", "\u0661\u0660\u0664\u0668\u0665\u0667\u0666", TOPIC) is None
    refused = refusal("segment.bytes", "\u00a01048576", TOPIC)
    assert refused is not None and "not an integer" in refused


def test_config_providers_are_left_to_the_broker() -> None:
    assert refusal("config.providers", ",") is None


@pytest.mark.parametrize(
    ("key", "value", "refused"),
    [
        ("log.roll.ms", "0", True),
        ("log.roll.ms", "1", False),
        ("log.roll.jitter.ms", "-1", True),
        ("log.retention.ms", "0", True),
        ("log.retention.ms", "-5", False),  # any negative is unlimited
        ("log.cleaner.threads", "0", True),
    ],
)
def test_a_brokers_own_requirements_of_a_value(key: str, value: str, refused: bool) -> None:
    assert (refusal(key, value) is not None) is refused
    if key != "log.cleaner.threads":  # below the key's own range anywhere
        assert refusal(key, value, DEFAULT) is None  # a broker's own value may stand


def test_the_dedupe_buffer_needs_more_than_a_mebibyte_per_cleaner_thread() -> None:
    # the broker has 1 cleaner thread (broker_config)
    refused = refusal("log.cleaner.dedupe.buffer.size", str(1024 * 1024))
    assert refused is not None and "1 MiB per cleaner thread" in refused
    assert refusal("log.cleaner.dedupe.buffer.size", str(1024 * 1024 + 1)) is None
    assert refusal("log.cleaner.dedupe.buffer.size", "0", DEFAULT) is None  # which broker: unknown


@pytest.mark.parametrize("resource", [TOPIC, DEFAULT, BROKER])
@pytest.mark.parametrize(
    ("value", "refused"), [("-1", False), ("1", False), ("9", False), ("0", True), ("10", True)]
)
def test_the_gzip_level_is_one_to_nine_or_minus_one(
    resource: ConfigResource, value: str, refused: bool
) -> None:
    for release in ("3.9.1", "4.4.0"):
        problem = refusal("compression.gzip.level", value, resource, release)
        assert (problem is not None) is refused, (release, problem)


@pytest.mark.parametrize(
    "key",
    [
        "log.cleanup.policy",
        "ssl.enabled.protocols",
        "listener.name.plaintext.ssl.enabled.protocols",
    ],
)
def test_a_brokers_list_refuses_a_member_twice_from_kafka_4_4(key: str) -> None:
    value = " TLSv1.2 , TLSv1.2 " if "ssl" in key else "delete,delete"
    refused = refusal(key, value)
    assert refused is not None and "given twice" in refused
    # left to the broker before 4.4 (4.3.1's broker takes it), and on the cluster default
    for release in ("4.3.1", "4.2.2", "4.1.2"):
        assert refusal(key, value, release=release) is None
    assert "given twice" not in (refusal(key, value, DEFAULT) or "")
    # members that differ in case are not the same member
    assert refusal("sasl.enabled.mechanisms", "PLAIN,plain") is None


def test_a_topics_list_with_a_member_twice_is_left_to_the_broker() -> None:
    assert refusal("cleanup.policy", "delete,delete", TOPIC) is None


@pytest.mark.parametrize("release", ["3.9.1", "4.4.0"])
@pytest.mark.parametrize(
    ("value", "refused"),
    [
        ("100", False),
        ("3600000", False),
        ("300000", False),
        ("99", True),
        ("0", True),
        ("-1", True),
        ("3600001", True),
    ],
)
def test_a_client_metrics_push_interval_is_between_100_ms_and_an_hour(
    release: str, value: str, refused: bool
) -> None:
    subscription = ConfigResource(RT.CLIENT_METRICS, "every-client")
    problem = check_value(state(release), subscription, "interval.ms", value)
    assert (problem is not None) is refused, problem
    assert problem is None or "between 100 and 3600000" in str(problem)
    # a reset is the broker's to judge
    assert check_value(state(release), subscription, "interval.ms", None) is None


def warned(release: str, resource: ConfigResource, *ops: AlterConfigOp) -> list[str]:
    return [str(w) for w in unknown_key_warnings({resource: list(ops)}, state(release))]


@pytest.mark.parametrize("release", ["2.5.1", "3.9.1", "4.4.0"])
@pytest.mark.parametrize("resource", [BROKER, DEFAULT], ids=["broker", "cluster default"])
def test_a_broker_key_the_release_does_not_define_is_a_warning_never_a_refusal(
    release: str, resource: ConfigResource
) -> None:
    assert check_value(state(release), resource, "log.cleaner.thread", "2") is None
    [typo] = warned(release, resource, AlterConfigOp(name="log.cleaner.thread", value="2"))
    assert f"log.cleaner.thread is not a key Kafka {release} defines for brokers" in typo
    assert "did you mean log.cleaner.threads" in typo
    [topic_key] = warned(release, resource, AlterConfigOp(name="retention.ms", value="1"))
    assert "it is a topic key" in topic_key


@pytest.mark.parametrize(
    "op",
    [
        AlterConfigOp(name="log.cleaner.threads", value="2"),  # the catalog's
        AlterConfigOp(name="listener.name.plaintext.max.connections", value="9"),  # per listener
        AlterConfigOp(name="log.cleaner.thread", op=OpType.DELETE),  # removing it: no word
    ],
)
def test_no_warning_for_a_key_the_broker_knows_or_a_delete(op: AlterConfigOp) -> None:
    assert warned("4.4.0", BROKER, op) == []


def test_no_warning_for_a_key_the_broker_describes() -> None:
    plugin = state("4.4.0", entry("acme.quota.window", "5", kind=ConfigType.STRING))
    op = AlterConfigOp(name="acme.quota.window", value="6")
    assert unknown_key_warnings({BROKER: [op]}, plugin) == []
    assert len(unknown_key_warnings({BROKER: [op]}, state("4.4.0"))) == 1


def test_no_warning_without_the_catalog_of_the_exact_release() -> None:
    near = ClusterState(catalog=CatalogMatch(catalog=load_catalog("4.1.2"), exact=False))
    op = AlterConfigOp(name="log.cleaner.thread", value="2")
    assert unknown_key_warnings({BROKER: [op]}, near) == []
    assert unknown_key_warnings({BROKER: [op]}, ClusterState()) == []
    assert warned("4.4.0", TOPIC, op) == []  # a topic's unknown key is the checks' refusal


# Kafka 2.5.1's own parsing beyond the validators (ConfigCatalog.value_rule): each value
# refused is one the 2.5.1 broker refuses, each accepted one a value it takes (or another
# rule's to refuse); the cluster default and other releases are left to the broker.
REFUSED_ON_2_5_1 = [
    (BROKER, "compression.type", "x"),
    (BROKER, "compression.type", ""),
    (BROKER, "compression.type", "producer\xa0"),
    (BROKER, "listeners", "x"),
    (BROKER, "listeners", " "),
    (BROKER, "listeners", " , "),
    (BROKER, "advertised.listeners", "PLAINTEXT://:9092,x"),
    (BROKER, "advertised.listeners", ""),
    (BROKER, "max.connections.per.ip.overrides", "x"),
    (BROKER, "max.connections.per.ip.overrides", "\xa0"),
    (BROKER, "max.connections.per.ip.overrides", "a:1,,b:2"),
    (BROKER, "listener.security.protocol.map", "x"),
    (BROKER, "listener.security.protocol.map", ""),
    (BROKER, "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,SSL:SSL\xa0"),
    (BROKER, "listener.security.protocol.map", "PLAINTEXT:TLS"),
    (TOPIC, "message.format.version", "x"),
    (TOPIC, "message.format.version", ""),
    (TOPIC, "message.format.version", "2.5-IV0\xa0"),
    (TOPIC, "message.format.version", "2.6"),
    (TOPIC, "message.format.version", "2..5"),
    (TOPIC, "leader.replication.throttled.replicas", "0:x"),
    (TOPIC, "follower.replication.throttled.replicas", "nonsense-member"),
    (TOPIC, "follower.replication.throttled.replicas", "0:1,*"),
]

TAKEN_ON_2_5_1 = [
    (BROKER, "compression.type", "GZIP"),
    (BROKER, "compression.type", " zstd\t"),
    (BROKER, "listeners", "PLAINTEXT://:9092, SSL://[::1]:9093,"),
    (BROKER, "advertised.listeners", "PLAINTEXT://broker-1.example.com:9092"),
    (BROKER, "max.connections.per.ip.overrides", ""),
    (BROKER, "max.connections.per.ip.overrides", " "),
    (BROKER, "max.connections.per.ip.overrides", "host1:10, 10.0.0.1:5,"),
    (BROKER, "max.connections.per.ip.overrides", ","),
    (BROKER, "listener.security.protocol.map", "PLAINTEXT:plaintext, CONTROLLER:sasl_ssl"),
    (TOPIC, "message.format.version", "2.5"),
    (TOPIC, "message.format.version", "2.5.1"),
    (TOPIC, "message.format.version", "2.5."),
    (TOPIC, "message.format.version", "0.10.0"),
    (TOPIC, "message.format.version", "0.10.0.1"),
    (TOPIC, "message.format.version", " 1.0-IV0 "),
    (TOPIC, "leader.replication.throttled.replicas", "*"),
    (TOPIC, "leader.replication.throttled.replicas", "*,x"),
    (TOPIC, "leader.replication.throttled.replicas", "0:1, 1:2,"),
    (TOPIC, "leader.replication.throttled.replicas", ""),
]


@pytest.mark.parametrize(("resource", "key", "value"), REFUSED_ON_2_5_1)
def test_kafka_2_5_1_refuses_what_its_broker_cannot_parse(
    resource: ConfigResource, key: str, value: str
) -> None:
    assert refusal(key, value, resource, release="2.5.1") is not None


@pytest.mark.parametrize(("resource", "key", "value"), TAKEN_ON_2_5_1)
def test_kafka_2_5_1_takes_what_its_broker_parses(
    resource: ConfigResource, key: str, value: str
) -> None:
    assert refusal(key, value, resource, release="2.5.1") is None


@pytest.mark.parametrize(("resource", "key", "value"), REFUSED_ON_2_5_1)
def test_the_2_5_1_rules_hold_for_2_5_1_only_and_never_on_the_cluster_default(
    resource: ConfigResource, key: str, value: str
) -> None:
    catalog = load_catalog("2.5.1")
    assert catalog.value_rule(resource.type, key) is not None
    assert load_catalog("2.8.2").value_rule(resource.type, key) is None
    rule = check_value(state("2.5.1"), resource, key, value)
    assert rule is not None
    inexact = ClusterState(
        configs=state("2.5.1").configs,
        schemas=state("2.5.1").schemas,
        catalog=CatalogMatch(catalog=catalog, exact=False),
    )
    elsewhere = [check_value(inexact, resource, key, value)]
    if resource == BROKER:  # a broker's own value may stand instead of the default's
        elsewhere.append(check_value(state("2.5.1"), DEFAULT, key, value))
    assert all(problem is None or problem.message != rule.message for problem in elsewhere)
