"""Which describe calls may share one request, and what that request asks for."""

from __future__ import annotations

from kafka_config_admin import ConfigResource, ResourceType
from kafka_config_admin._coalesce import Gathering
from kafka_config_admin._operations import DescribeConfigs

A, B, C = (ConfigResource(ResourceType.TOPIC, name) for name in "abc")


def describe(resources: object, synonyms: bool = False) -> DescribeConfigs:
    return DescribeConfigs.build(
        resources,  # type: ignore[arg-type]
        include_synonyms=synonyms,
        include_documentation=True,
    )


def test_calls_join_until_the_request_is_full() -> None:
    gathering = Gathering((None, False, True, None), None, describe([A]), [A], limit=2)
    assert gathering.join(describe([A, B]), [A, B])  # A is asked once
    assert not gathering.join(describe([C]), [C])


def test_a_resource_asked_with_other_names_does_not_join() -> None:
    gathering = Gathering(
        (None, False, True, None), None, describe({A: ["retention.ms"]}), [A], limit=10
    )
    assert not gathering.join(describe([A]), [A])
    assert not gathering.join(describe({A: ["cleanup.policy"]}), [A])
    assert gathering.join(describe({A: ["retention.ms"], B: None}), [A, B])


def test_the_shared_body_asks_for_every_resource_once_with_the_leaders_flags() -> None:
    gathering = Gathering(
        (None, False, True, None),
        None,
        describe({A: ["retention.ms"]}, synonyms=True),
        [A],
        limit=10,
    )
    assert gathering.join(describe({B: None, A: ["retention.ms"]}, synonyms=True), [B, A])
    assert gathering.body(4) == {
        "resources": [
            {"resource_type": 2, "resource_name": "a", "configuration_keys": ["retention.ms"]},
            {"resource_type": 2, "resource_name": "b", "configuration_keys": None},
        ],
        "include_synonyms": True,
        "include_documentation": True,
    }
