"""Input checks, routing and response shaping: everything between the caller and the wire."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from kafka_config_admin import (
    AlterConfigOp,
    BrokerError,
    ConfigResource,
    ConfigSource,
    ConfigType,
    InvalidArgumentError,
    OpType,
    PolicyViolationError,
    ResourceType,
)
from kafka_config_admin._ops.base import Operation, route
from kafka_config_admin._ops.configs import (
    AlterConfigs,
    DescribeConfigs,
    EntryCache,
    IncrementalAlterConfigs,
)
from kafka_config_admin._protocol import ALTER_CONFIGS, INCREMENTAL_ALTER_CONFIGS

TOPIC = ConfigResource(ResourceType.TOPIC, "orders")
OTHER = ConfigResource(ResourceType.TOPIC, "payments")
BROKER_1 = ConfigResource(ResourceType.BROKER, "1")
BROKER_2 = ConfigResource(ResourceType.BROKER, "2")
DEFAULT = ConfigResource(ResourceType.BROKER, "")
LOGGER_2 = ConfigResource(ResourceType.BROKER_LOGGER, "2")
GROUP = ConfigResource(ResourceType.GROUP, "g")


def describe(resources: Any, **kwargs: bool) -> DescribeConfigs:
    return DescribeConfigs.build(
        resources,
        include_synonyms=kwargs.get("synonyms", False),
        include_documentation=kwargs.get("docs", False),
    )


def test_routing_batches_per_broker_and_sends_the_rest_anywhere() -> None:
    resources = [TOPIC, BROKER_1, DEFAULT, LOGGER_2, BROKER_2, GROUP, OTHER]
    requests = route(resources, 100, describe(resources).destination)
    assert requests == [
        (None, [TOPIC, DEFAULT, GROUP, OTHER]),
        (1, [BROKER_1]),
        (2, [LOGGER_2, BROKER_2]),
    ]


def test_newer_resource_types_go_in_requests_of_their_own() -> None:
    # A broker that does not know GROUP fails every resource of the request that holds one.
    metrics = ConfigResource(ResourceType.CLIENT_METRICS, "m")
    resources = [TOPIC, GROUP, BROKER_1, metrics, OTHER]
    operation = describe(resources)
    assert route(resources, 100, operation.destination, operation.kept_apart) == [
        (None, [TOPIC, OTHER]),
        (None, [GROUP]),
        (1, [BROKER_1]),
        (None, [metrics]),
    ]


def test_routing_splits_large_groups_into_requests_of_at_most_the_limit() -> None:
    topics = [ConfigResource(ResourceType.TOPIC, f"t{i}") for i in range(5)]
    requests = route([*topics, BROKER_1], 2, describe([*topics, BROKER_1]).destination)
    assert requests == [
        (None, topics[:2]),
        (None, topics[2:4]),
        (None, topics[4:]),
        (1, [BROKER_1]),
    ]


@pytest.mark.parametrize(
    ("resources", "message"),
    [
        ([ConfigResource(ResourceType.TOPIC, "")], "need a name"),
        ([TOPIC, TOPIC], "twice"),
        ([ConfigResource(ResourceType.BROKER, "one")], "broker id"),
        ([ConfigResource(ResourceType.BROKER_LOGGER, "")], "broker id"),
        ([ConfigResource(ResourceType.UNKNOWN, "x")], "unknown resource type"),
        (["orders"], "expected a ConfigResource"),
        (TOPIC, "collection of ConfigResource"),
        ({TOPIC: "retention.ms"}, "collection of names, not str"),
        ({TOPIC: ["a", "a"]}, "twice"),
        (None, "collection of ConfigResource, got NoneType"),
        ({TOPIC: 5}, "collection of names, not int"),
        ([ConfigResource(ResourceType.BROKER, "\u00b2")], "broker id"),  # isdigit(), not int()
        ([ConfigResource(ResourceType.BROKER, "\u0661")], "broker id"),  # an Arabic one
        ([ConfigResource(ResourceType.BROKER, "4294967296")], "broker id"),
        ([ConfigResource(ResourceType.TOPIC, "t\ud800")], "cannot be encoded as UTF-8"),
        ([ConfigResource(ResourceType.TOPIC, "t" * 32_768)], "32768 bytes long"),
        ([ConfigResource(ResourceType.TOPIC, "\u00e9" * 16_384)], "32768 bytes long"),
        ({TOPIC: ["k" * 40_000]}, "40000 bytes long"),
    ],
)
def test_describe_rejects_bad_input_before_sending(resources: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        describe(resources)


def test_describe_body_degrades_for_older_versions() -> None:
    operation = describe({TOPIC: ["retention.ms"], OTHER: None}, synonyms=True, docs=True)
    body = operation.body([TOPIC, OTHER], 4)
    assert body["resources"] == [
        {"resource_type": 2, "resource_name": "orders", "configuration_keys": ["retention.ms"]},
        {"resource_type": 2, "resource_name": "payments", "configuration_keys": None},
    ]
    assert body["include_synonyms"] and body["include_documentation"]
    assert operation.body([TOPIC], 2)["include_documentation"] is False
    assert operation.body([TOPIC], 0)["include_synonyms"] is False


def raw_entry(**overrides: Any) -> dict[str, Any]:
    entry = {
        "name": "retention.ms",
        "value": "1000",
        "read_only": False,
        "is_default": False,
        "config_source": 1,
        "is_sensitive": False,
        "synonyms": [{"name": "log.retention.ms", "value": None, "source": 5}],
        "config_type": 5,
        "documentation": "How long.",
    }
    entry.update(overrides)
    return entry


def test_describe_outcomes_shape_entries_and_keep_errors_per_resource() -> None:
    operation = describe([TOPIC, OTHER, BROKER_1])
    response = {
        "throttle_time_ms": 0,
        "results": [
            {
                "error_code": 0,
                "error_message": None,
                "resource_type": 2,
                "resource_name": "orders",
                "configs": [raw_entry(), raw_entry(name="x", config_source=99, config_type=77)],
            },
            {
                "error_code": 3,
                "error_message": "no such topic",
                "resource_type": 2,
                "resource_name": "payments",
                "configs": [],
            },
        ],
    }
    outcomes = dict(operation.outcomes([TOPIC, OTHER, BROKER_1], response))
    config = outcomes[TOPIC]
    assert not isinstance(config, BaseException)
    entry = config["retention.ms"]
    assert (entry.value, entry.source, entry.type, entry.documentation) == (
        "1000",
        ConfigSource.TOPIC_CONFIG,
        ConfigType.LONG,
        "How long.",
    )
    assert entry.synonyms[0].source is ConfigSource.DEFAULT_CONFIG and not entry.is_default
    assert (config["x"].source, config["x"].type) == (ConfigSource.UNKNOWN, ConfigType.UNKNOWN)
    missing = outcomes[OTHER]
    assert isinstance(missing, BrokerError) and missing.code == 3
    assert missing.resource == OTHER and "no such topic" in str(missing)
    unanswered = outcomes[BROKER_1]
    assert isinstance(unanswered, BrokerError) and "no answer" in str(unanswered)


def test_describe_v0_derives_the_source_as_java_does() -> None:
    operation = describe([TOPIC, BROKER_1])
    response = {
        "throttle_time_ms": 0,
        "results": [
            {
                "error_code": 0,
                "error_message": None,
                "resource_type": t,
                "resource_name": n,
                "configs": [
                    raw_entry(name="d", config_source=-1, is_default=True, synonyms=[]),
                    raw_entry(name="s", config_source=-1, is_default=False, synonyms=[]),
                ],
            }
            for t, n in ((2, "orders"), (4, "1"))
        ],
    }
    outcomes = dict(operation.outcomes([TOPIC, BROKER_1], response))
    topic, broker = outcomes[TOPIC], outcomes[BROKER_1]
    assert not isinstance(topic, BaseException) and not isinstance(broker, BaseException)
    assert topic["d"].source is ConfigSource.DEFAULT_CONFIG and topic["d"].is_default
    assert topic["s"].source is ConfigSource.TOPIC_CONFIG
    assert broker["s"].source is ConfigSource.STATIC_BROKER_CONFIG


def one_result(resource: ConfigResource, configs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "throttle_time_ms": 0,
        "results": [
            {
                "error_code": 0,
                "error_message": None,
                "resource_type": int(resource.type),
                "resource_name": resource.name,
                "configs": configs,
            }
        ],
    }


def shaped(cache: EntryCache, resource: ConfigResource, configs: list[dict[str, Any]]) -> Any:
    operation = DescribeConfigs.build(
        [resource], include_synonyms=True, include_documentation=True, entries=cache
    )
    [(_, config)] = operation.outcomes([resource], one_result(resource, configs))
    return config


def test_identical_entries_are_one_model_across_calls() -> None:
    cache = EntryCache()
    first = shaped(cache, TOPIC, [raw_entry(), raw_entry(name="x")])
    second = shaped(cache, OTHER, [raw_entry(), raw_entry(name="x", value="2")])
    assert first["retention.ms"] is second["retention.ms"]
    assert first["retention.ms"].synonyms[0] is second["retention.ms"].synonyms[0]
    assert (first["x"].value, second["x"].value) == ("1000", "2")


def test_the_same_decoded_configs_again_give_the_same_config() -> None:
    cache = EntryCache()
    configs = [raw_entry(), raw_entry(name="x", config_source=-1)]
    first = shaped(cache, TOPIC, configs)
    assert shaped(cache, OTHER, configs) is first
    broker = shaped(cache, BROKER_1, configs)  # at v0 the source depends on the type
    assert broker is not first and broker["x"].source is ConfigSource.STATIC_BROKER_CONFIG
    assert shaped(cache, TOPIC, list(configs)) == first


def test_one_decoded_entry_shapes_by_resource_type() -> None:
    # The decoder may hand the same object to a topic and a broker; at v0 the source differs.
    cache = EntryCache()
    raw = raw_entry(config_source=-1, synonyms=[])
    assert shaped(cache, TOPIC, [raw])["retention.ms"].source is ConfigSource.TOPIC_CONFIG
    broker_entry = shaped(cache, BROKER_1, [raw])["retention.ms"]
    assert broker_entry.source is ConfigSource.STATIC_BROKER_CONFIG


def test_the_entry_cache_starts_again_past_its_limit() -> None:
    cache = EntryCache(limit=3)
    cache.wire_memo.of("DescribeConfigsResponse", 4).items[b"seen"] = raw_entry()
    for index in range(10):
        config = shaped(cache, TOPIC, [raw_entry(name=f"k{index}", value=str(index))])
        assert config[f"k{index}"].value == str(index)
        assert len(cache._by_identity) <= 4 and len(cache._by_content) <= 4
    assert len(cache.wire_memo) == 0


@pytest.mark.parametrize(
    ("ops", "message"),
    [
        ([AlterConfigOp("retention.ms", op=OpType.SET)], "needs a value"),
        ([AlterConfigOp("cleanup.policy", op=OpType.APPEND)], "needs a value"),
        ([AlterConfigOp("a", "1"), AlterConfigOp("a", "2")], "twice"),
        (["retention.ms=1"], "expected AlterConfigOp"),
        (None, "must be a list of AlterConfigOp, got NoneType"),
        ("retention.ms", "must be a list of AlterConfigOp, got str"),
        ([AlterConfigOp("retention.ms", "1" * 40_000)], "value of 'retention.ms' .* 40000 bytes"),
        ([AlterConfigOp("k\udfff", "1")], "config name 'k\\\\udfff' of topic"),
    ],
)
def test_incremental_alter_rejects_bad_ops(ops: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        IncrementalAlterConfigs.build({TOPIC: ops}, validate_only=False)


@pytest.mark.parametrize("flag", ["no", 1, None, "False"])
def test_flags_must_be_booleans(flag: Any) -> None:
    with pytest.raises(InvalidArgumentError, match="validate_only must be True or False"):
        IncrementalAlterConfigs.build({TOPIC: [AlterConfigOp("a", "1")]}, validate_only=flag)
    with pytest.raises(InvalidArgumentError, match="validate_only must be True or False"):
        AlterConfigs.build_legacy({TOPIC: {"a": "1"}}, validate_only=flag)
    for name in ("include_synonyms", "include_documentation"):
        flags = {"include_synonyms": False, "include_documentation": False, name: flag}
        with pytest.raises(InvalidArgumentError, match=f"{name} must be True or False"):
            DescribeConfigs.build([TOPIC], **flags)


def test_incremental_alter_body_and_redacted_errors() -> None:
    secret = AlterConfigOp("ssl.keystore.password", "hunter2")
    operation = IncrementalAlterConfigs.build(
        {
            TOPIC: [AlterConfigOp("retention.ms", "1"), AlterConfigOp("x", op=OpType.DELETE)],
            BROKER_1: [secret],
        },
        validate_only=True,
    )
    assert operation.body([TOPIC], 1) == {
        "validate_only": True,
        "resources": [
            {
                "resource_type": 2,
                "resource_name": "orders",
                "configs": [
                    {"name": "retention.ms", "config_operation": 0, "value": "1"},
                    {"name": "x", "config_operation": 1, "value": None},
                ],
            }
        ],
    }
    response = {
        "throttle_time_ms": 0,
        "responses": [
            {
                "error_code": 44,
                "error_message": "value hunter2 refused",
                "resource_type": 4,
                "resource_name": "1",
            }
        ],
    }
    [(_, error)] = operation.outcomes([BROKER_1], response)
    assert isinstance(error, PolicyViolationError)
    assert "hunter2" not in str(error) and "[hidden]" in str(error)


def test_legacy_alter_checks_and_builds() -> None:
    operation = AlterConfigs.build_legacy(
        {TOPIC: {"retention.ms": 1000, "cleanup.policy": None}}, validate_only=False
    )
    sent = ALTER_CONFIGS.decode_request(
        0, ALTER_CONFIGS.encode_request(0, operation.body([TOPIC], 0))
    )
    assert sent["resources"][0]["configs"] == [
        {"name": "retention.ms", "value": "1000"},
        {"name": "cleanup.policy", "value": None},
    ]
    with pytest.raises(InvalidArgumentError, match="mapping"):
        AlterConfigs.build_legacy({TOPIC: ["retention.ms"]}, validate_only=False)  # type: ignore[dict-item]
    secret = object()
    with pytest.raises(InvalidArgumentError, match=r"'a.password' .* got object") as caught:
        AlterConfigs.build_legacy({TOPIC: {"a.password": secret}}, validate_only=False)
    assert repr(secret) not in str(caught.value)


def alter_response(*answers: tuple[int, str, int]) -> dict[str, Any]:
    return {
        "throttle_time_ms": 0,
        "responses": [
            {
                "error_code": code,
                "error_message": None,
                "resource_type": kind,
                "resource_name": name,
            }
            for kind, name, code in answers
        ],
    }


def test_outcomes_match_answers_in_any_order_and_ignore_the_unasked() -> None:
    operation = IncrementalAlterConfigs.build(
        {resource: [AlterConfigOp("retention.ms", "1")] for resource in (TOPIC, OTHER, GROUP)},
        validate_only=False,
    )
    in_order = alter_response((2, "orders", 0), (2, "payments", 3), (32, "g", 0))
    outcomes = list(operation.outcomes([TOPIC, OTHER, GROUP], in_order))
    assert [resource for resource, _ in outcomes] == [TOPIC, OTHER, GROUP]
    assert isinstance(outcomes[1][1], BrokerError) and outcomes[1][1].resource == OTHER
    # As many answers as resources, but not in the order asked, and one for another resource
    # (a topic named like the group): matched by type and name, never by place.
    shuffled = alter_response((32, "g", 3), (2, "g", 0), (2, "orders", 0))
    by_resource = dict(operation.outcomes([TOPIC, OTHER, GROUP], shuffled))
    assert by_resource[TOPIC] is None
    group = by_resource[GROUP]
    assert isinstance(group, BrokerError) and group.code == 3
    assert "no answer" in str(by_resource[OTHER])


def test_a_type_the_broker_does_not_know_is_answered_as_unknown_and_still_matched() -> None:
    # Kafka 2.5 fails a request with a GROUP resource, naming it with type UNKNOWN (0).
    operation = IncrementalAlterConfigs.build(
        {GROUP: [AlterConfigOp("x", "y")]}, validate_only=False
    )
    [(resource, error)] = operation.outcomes([GROUP], alter_response((0, "g", 42)))
    assert resource == GROUP
    assert isinstance(error, BrokerError) and error.code == 42 and error.resource == GROUP
    # A topic of that name is never taken for it.
    topic = ConfigResource(ResourceType.TOPIC, "g")
    operation = IncrementalAlterConfigs.build(
        {topic: [AlterConfigOp("x", "y")]}, validate_only=False
    )
    [(_, unanswered)] = operation.outcomes([topic], alter_response((0, "g", 42)))
    assert "no answer" in str(unanswered)


def test_one_ops_list_for_many_resources_encodes_as_separate_lists_would() -> None:
    ops = [AlterConfigOp("retention.ms", "1"), AlterConfigOp("cleanup.policy", "compact", "APPEND")]
    shared = IncrementalAlterConfigs.build(
        {TOPIC: ops, OTHER: ops, GROUP: [AlterConfigOp("x", "y")], DEFAULT: ops},
        validate_only=False,
    )
    copied = IncrementalAlterConfigs.build(
        {TOPIC: list(ops), OTHER: list(ops), GROUP: [AlterConfigOp("x", "y")], DEFAULT: list(ops)},
        validate_only=False,
    )
    for version in (0, 1):
        body = shared.body(shared.resources, version)
        resources = body["resources"]
        assert resources[0]["configs"] is resources[1]["configs"]  # built once
        encoded = INCREMENTAL_ALTER_CONFIGS.encode_request(version, body)
        assert encoded == INCREMENTAL_ALTER_CONFIGS.encode_request(
            version, copied.body(copied.resources, version)
        )
        decoded = INCREMENTAL_ALTER_CONFIGS.decode_request(version, encoded)
        assert [len(r["configs"]) for r in decoded["resources"]] == [2, 2, 1, 2]


class _Named(Operation[str, int]):
    """An operation keyed by plain names, as the topic calls are."""

    codec = INCREMENTAL_ALTER_CONFIGS  # unused: no request is sent
    throttle_from_version = 0
    _results_key = "topics"

    def answered(self, result: Mapping[str, Any]) -> str:
        name: str = result["name"]
        return name

    def value(self, resource: str, result: Mapping[str, Any]) -> int:
        count: int = result["count"]
        return count

    def subject(self, resource: str) -> object:
        return ConfigResource(ResourceType.TOPIC, resource)


def _named_result(name: str, code: int = 0) -> dict[str, Any]:
    return {"name": name, "count": len(name), "error_code": code, "error_message": None}


def test_operations_keyed_by_other_types_match_by_position_or_by_key() -> None:
    named = _Named()
    assert named.destination("a") is None
    assert route(["a", "b", "c"], 2, named.destination) == [(None, ["a", "b"]), (None, ["c"])]
    in_order = {"topics": [_named_result("a"), _named_result("bb")]}
    assert list(named.outcomes(["a", "bb"], in_order)) == [("a", 1), ("bb", 2)]
    shuffled = {"topics": [_named_result("ccc", 36), _named_result("zz"), _named_result("a")]}
    outcomes = dict(named.outcomes(["a", "ccc", "missing"], shuffled))
    assert outcomes["a"] == 1 and set(outcomes) == {"a", "ccc", "missing"}
    exists, missing = outcomes["ccc"], outcomes["missing"]
    assert isinstance(exists, BrokerError) and exists.code == 36
    assert exists.resource == ConfigResource(ResourceType.TOPIC, "ccc")
    assert "topic 'ccc'" in str(exists)
    assert isinstance(missing, BrokerError) and "no answer" in str(missing)
