"""Which config calls may share one request, what that request carries, and who reads what."""

from __future__ import annotations

from typing import Any

from kafka_config_admin import AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin._engine.coalesce import GatheredCall, Gathering
from kafka_config_admin._ops.configs import (
    AlterConfigs,
    DescribeConfigs,
    IncrementalAlterConfigs,
    SharedConfigOperation,
)
from kafka_config_admin._ops.results import AlterConfigsResult, DescribeConfigsResult, _Result
from kafka_config_admin._protocol import INCREMENTAL_ALTER_CONFIGS

A, B, C = (ConfigResource(ResourceType.TOPIC, name) for name in "abc")


def describe(resources: object, synonyms: bool = False) -> GatheredCall:
    operation = DescribeConfigs.build(
        resources,  # type: ignore[arg-type]
        include_synonyms=synonyms,
        include_documentation=True,
    )
    return call(operation, DescribeConfigsResult(operation.resources))


def alter(configs: dict[ConfigResource, list[AlterConfigOp]]) -> GatheredCall:
    operation = IncrementalAlterConfigs.build(configs, validate_only=False)
    return call(operation, AlterConfigsResult(operation.resources))


def call(operation: SharedConfigOperation[Any], result: _Result[Any, Any]) -> GatheredCall:
    return GatheredCall(operation, result, timeout=5.0, expires=5.0)


def gathering(first: GatheredCall, limit: int = 10) -> Gathering:
    operation = first.operation
    key = (operation.codec.api_key, None, operation.gathering_flags, None)
    opened = Gathering(key, None, operation, limit)
    assert opened.join(first)
    return opened


def test_calls_join_until_the_request_is_full() -> None:
    shared = gathering(describe([A]), limit=2)
    assert shared.join(describe([A, B]))  # A is asked once
    assert not shared.join(describe([C]))
    assert len(shared.calls) == 2


def test_a_resource_asked_with_other_names_does_not_join() -> None:
    shared = gathering(describe({A: ["retention.ms"]}))
    assert not shared.join(describe([A]))
    assert not shared.join(describe({A: ["cleanup.policy"]}))
    assert shared.join(describe({A: ["retention.ms"], B: None}))


def test_the_shared_body_asks_for_every_resource_once_with_the_leaders_flags() -> None:
    shared = gathering(describe({A: ["retention.ms"]}, synonyms=True))
    assert shared.join(describe({B: None, A: ["retention.ms"]}, synonyms=True))
    assert shared.body(4) == {
        "resources": [
            {"resource_type": 2, "resource_name": "a", "configuration_keys": ["retention.ms"]},
            {"resource_type": 2, "resource_name": "b", "configuration_keys": None},
        ],
        "include_synonyms": True,
        "include_documentation": True,
    }


def test_a_resource_changed_by_another_call_never_joins_its_request() -> None:
    retention = [AlterConfigOp("retention.ms", "100000")]
    shared = gathering(alter({A: retention}))
    assert not shared.join(alter({A: retention}))  # even the very same change
    assert not shared.join(alter({B: retention, A: retention}))
    assert shared.join(alter({B: retention}))
    assert [len(call.operation.resources) for call in shared.calls] == [1, 1]


def test_alters_share_one_body_with_each_calls_own_ops() -> None:
    shared = gathering(alter({A: [AlterConfigOp("retention.ms", "100000")]}))
    assert shared.join(alter({B: [AlterConfigOp("cleanup.policy", "compact", OpType.APPEND)]}))
    body = shared.body(1)
    assert body == {
        "resources": [
            {
                "resource_type": 2,
                "resource_name": "a",
                "configs": [{"name": "retention.ms", "config_operation": 0, "value": "100000"}],
            },
            {
                "resource_type": 2,
                "resource_name": "b",
                "configs": [{"name": "cleanup.policy", "config_operation": 2, "value": "compact"}],
            },
        ],
        "validate_only": False,
    }
    encoded = INCREMENTAL_ALTER_CONFIGS.encode_request(1, body)
    assert b"retention.ms" in encoded and b"cleanup.policy" in encoded


def test_calls_that_must_not_share_have_other_keys() -> None:
    ops = [AlterConfigOp("retention.ms", "100000")]
    incremental = IncrementalAlterConfigs.build({A: ops}, validate_only=False)
    checked = IncrementalAlterConfigs.build({A: ops}, validate_only=True)
    legacy = AlterConfigs.build_legacy({A: {"retention.ms": "100000"}}, validate_only=False)
    keys = {(op.codec.api_key, op.gathering_flags) for op in (incremental, checked, legacy)}
    assert len(keys) == 3


def test_each_call_reads_its_own_results_in_its_own_order() -> None:
    first = alter({B: [AlterConfigOp("retention.ms", "100000")]})
    second = alter(
        {
            C: [AlterConfigOp("retention.ms", "1")],
            A: [AlterConfigOp("retention.ms", "100000")],
        }
    )
    shared = gathering(first)
    assert shared.join(second)

    def result(resource: ConfigResource, code: int) -> dict[str, Any]:
        return {
            "error_code": code,
            "error_message": "refused" if code else None,
            "resource_type": 2,
            "resource_name": resource.name,
        }

    response = {
        "throttle_time_ms": 0,
        "responses": [result(A, 0), result(B, 0), result(C, 44)],  # not in the order asked
    }
    assert shared.answer_for(first, response)["responses"] == [result(B, 0)]  # type: ignore[index]
    own = shared.answer_for(second, response)
    assert own["responses"] == [result(C, 44), result(A, 0)]  # type: ignore[index]
    outcomes = dict(second.operation.outcomes(second.operation.resources, own))  # type: ignore[arg-type]
    assert outcomes[A] is None
    assert type(outcomes[C]).__name__ == "PolicyViolationError"


def test_a_resource_the_broker_left_out_is_unanswered_for_its_call_only() -> None:
    first, second = (
        alter({A: [AlterConfigOp("retention.ms", "100000")]}),
        alter({B: [AlterConfigOp("retention.ms", "100000")]}),
    )
    shared = gathering(first)
    assert shared.join(second)
    response = {
        "throttle_time_ms": 0,
        "responses": [
            {"error_code": 0, "error_message": None, "resource_type": 2, "resource_name": "a"}
        ],
    }
    own = shared.answer_for(second, response)
    [(resource, outcome)] = second.operation.outcomes([B], own)  # type: ignore[arg-type]
    assert resource == B and "no answer" in str(outcome)
    [(resource, outcome)] = first.operation.outcomes([A], shared.answer_for(first, response))  # type: ignore[arg-type]
    assert resource == A and outcome is None


def test_a_call_out_of_time_before_the_request_is_written_stays_out_of_it() -> None:
    hasty, patient = (
        alter({A: [AlterConfigOp("retention.ms", "1")]}),
        alter({B: [AlterConfigOp("retention.ms", "2")]}),
    )
    shared = gathering(hasty)
    assert shared.join(patient)
    hasty.result._fail_pending(lambda resource: TimeoutError(f"{resource} not sent"))
    assert [r["resource_name"] for r in shared.body(1)["resources"]] == ["b"]
