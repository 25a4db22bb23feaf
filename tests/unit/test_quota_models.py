"""Client-quota entities, filters and alterations: shape, equality and every refusal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kafka_config_admin import (
    ClientQuotaAlteration,
    ClientQuotaEntity,
    ClientQuotaFilter,
    ClientQuotaFilterComponent,
    InvalidArgumentError,
    QuotaEntityType,
    QuotaMatchType,
)
from kafka_config_admin.toolkit import quota_value_text


def test_entity_is_a_hashable_mapping_in_kafkas_order() -> None:
    entity = ClientQuotaEntity({"client-id": "app", QuotaEntityType.USER: "alice"})
    assert list(entity) == ["user", "client-id"]
    assert entity["user"] == "alice" and dict(entity) == {"user": "alice", "client-id": "app"}
    same = ClientQuotaEntity({"user": "alice", "client-id": "app"})
    assert entity == same and hash(entity) == hash(same) and {entity: 1}[same] == 1
    assert entity != ClientQuotaEntity({"user": "alice"})
    assert str(entity) == "user 'alice', client-id 'app'"
    assert str(ClientQuotaEntity({"user": None})) == "default user"
    assert repr(ClientQuotaEntity({"ip": None})) == "ClientQuotaEntity({'ip': None})"


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({}, "non-empty mapping"),
        ([("user", "a")], "non-empty mapping"),
        ({"group": "g"}, "unknown entity type 'group'"),
        ({"user": ""}, "non-empty str, or None"),
        ({"user": 5}, "non-empty str, or None"),
    ],
)
def test_bad_entities_are_refused(entries: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        ClientQuotaEntity(entries)


def test_decoded_entities_keep_types_this_client_does_not_know() -> None:
    entity = ClientQuotaEntity._decoded([("tenant", "t1"), ("user", None)])
    assert list(entity) == ["user", "tenant"] and entity["tenant"] == "t1"


def test_filter_components() -> None:
    exact = ClientQuotaFilterComponent.exact("user", "alice")
    assert (exact.entity_type, exact.match_type, exact.match) == (
        QuotaEntityType.USER,
        QuotaMatchType.EXACT,
        "alice",
    )
    default = ClientQuotaFilterComponent.default(QuotaEntityType.CLIENT_ID)
    assert (default.match_type, default.match) == (QuotaMatchType.DEFAULT, None)
    assert ClientQuotaFilterComponent.any("ip").match_type is QuotaMatchType.ANY
    only = ClientQuotaFilter.contains_only([exact, default])
    assert only.strict and only.components == (exact, default)
    assert str(only) == "quota entities of user 'alice' and default client-id and no other type"
    assert not ClientQuotaFilter.contains([exact]).strict
    assert str(ClientQuotaFilter()) == "every quota entity"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: ClientQuotaFilterComponent.exact("group", "g"), "unknown entity type"),
        (lambda: ClientQuotaFilterComponent.exact("user", ""), "EXACT match needs"),
        (lambda: ClientQuotaFilterComponent("user", QuotaMatchType.ANY, "x"), "takes no name"),
        (lambda: ClientQuotaFilterComponent("user", 7), "must be a QuotaMatchType"),
        (
            lambda: ClientQuotaFilter(
                [ClientQuotaFilterComponent.any("user"), ClientQuotaFilterComponent.default("user")]
            ),
            "'user' appears twice",
        ),
        (lambda: ClientQuotaFilter(["user"]), "expected a ClientQuotaFilterComponent"),  # type: ignore[list-item]
        (lambda: ClientQuotaFilter(ClientQuotaFilterComponent.any("ip")), "a collection"),  # type: ignore[arg-type]
        (lambda: ClientQuotaFilter(strict=1), "strict must be a bool"),  # type: ignore[arg-type]
    ],
)
def test_bad_filters_are_refused(make: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        make()


def test_alteration_sets_and_removes() -> None:
    entity = ClientQuotaEntity({"user": "alice"})
    alteration = ClientQuotaAlteration(
        entity, {"producer_byte_rate": 1024, "consumer_byte_rate": None}
    )
    assert alteration.ops == (("producer_byte_rate", 1024.0), ("consumer_byte_rate", None))
    assert isinstance(alteration.ops[0][1], float)


@pytest.mark.parametrize(
    ("entity", "ops", "message"),
    [
        ({"user": "a"}, {"k": 1}, "expected a ClientQuotaEntity"),
        (ClientQuotaEntity({"user": "a"}), [("k", 1)], "must map each key"),
        (ClientQuotaEntity({"user": "a"}), {"": 1}, "non-empty str"),
        (ClientQuotaEntity({"user": "a"}), {"k": "100"}, "finite number"),
        (ClientQuotaEntity({"user": "a"}), {"k": True}, "finite number"),
        (ClientQuotaEntity({"user": "a"}), {"k": float("nan")}, "finite number"),
        (ClientQuotaEntity({"user": "a"}), {"k": float("inf")}, "finite number"),
        (ClientQuotaEntity({"user": "a"}), {"k": 10**400}, "finite number"),
        # As Kafka 3.x and 4.x brokers: "Quota producer_byte_rate must be greater than 0".
        (ClientQuotaEntity({"user": "a"}), {"k": -1}, "above 0 .Kafka refuses 0 and below"),
        (ClientQuotaEntity({"user": "a"}), {"k": 0.0}, "above 0 .Kafka refuses 0 and below"),
    ],
)
def test_bad_alterations_are_refused(entity: Any, ops: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        ClientQuotaAlteration(entity, ops)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1048576.0, "1048576"),
        (1048576, "1048576"),
        (12.5, "12.5"),
        (0.001, "0.001"),
        (1e20, "100000000000000000000"),
        (2.0**63, "9223372036854775808"),
        (float("inf"), "inf"),
    ],
)
def test_a_quota_value_has_one_text(value: float, text: str) -> None:
    assert quota_value_text(value) == text


def test_no_quota_value_has_no_text() -> None:
    """None (a quota unset, or removed by a change) stays None: no face wraps the call."""
    assert quota_value_text(None) is None
    package = Path(__file__).parents[2] / "kafka_config_admin"
    wrapped = re.compile(r"is None else quota_value_text\(")
    assert [p for p in package.rglob("*.py") if wrapped.search(p.read_text("utf-8"))] == []


def test_a_filter_of_exactly_one_entity() -> None:
    entity = ClientQuotaEntity({"user": "alice", "client-id": None})
    only = ClientQuotaFilter.exactly(entity)
    assert only == ClientQuotaFilter.contains_only(
        [
            ClientQuotaFilterComponent.exact("user", "alice"),
            ClientQuotaFilterComponent.default("client-id"),
        ]
    )
    assert ClientQuotaFilterComponent.named("ip", None) == ClientQuotaFilterComponent.default("ip")
    assert ClientQuotaFilterComponent.named("ip", "10.0.0.1").match == "10.0.0.1"


def test_no_module_writes_its_own_filter_of_one_entity() -> None:
    """The change pipeline and the CLI build "this entity alone" from ClientQuotaFilter.exactly
    and ClientQuotaFilterComponent.named, not each from .exact and .default."""
    package = Path(__file__).parents[2] / "kafka_config_admin"
    own_way = re.compile(r"ClientQuotaFilterComponent\.(exact|default)\(")
    found = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if own_way.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_no_module_formats_quota_numbers_its_own_way() -> None:
    """The CLI, desired, the change feed, the web editor and Spark all call quota_value_text."""
    package = Path(__file__).parents[2] / "kafka_config_admin"
    own_way = re.compile(r"is_integer\(\)|== int\(value\)")
    found = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if own_way.search(path.read_text(encoding="utf-8"))
    ]
    assert found == ["_models/quotas.py"]
