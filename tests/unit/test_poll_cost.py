"""A poll's cost, measured once for every face: what its clients carried (less what a client
kept across polls had carried before), the resources it read; and the Spark stream's kept cost,
read back as written, also from a file a stream wrote before the cost had its own home."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import cast

import pytest

from kafka_config_admin import AdminClient, WireTraffic
from kafka_config_admin.feed import ObservedState, PollCost, ReadRotation, ResourceObservation

T0 = datetime(2026, 1, 1, tzinfo=UTC)
READ = ObservedState("c", T0, {("TOPIC", f"t{i}"): ResourceObservation({}) for i in range(3)})


class _Carried:
    """A client as :meth:`PollCost.measure` reads it: only its traffic."""

    def __init__(self, requests: int, received: int) -> None:
        self.carried = WireTraffic(requests, 10 * requests, requests, received)

    def traffic(self) -> WireTraffic:
        return self.carried


def _clients(*carried: _Carried) -> Iterable[AdminClient]:
    return cast("list[AdminClient]", list(carried))


def test_a_poll_costs_what_its_clients_carried_and_the_resources_it_read() -> None:
    cost = PollCost.measure(READ, None, _clients(_Carried(2, 100), _Carried(3, 50)), 1.5)
    assert cost == PollCost(resources_read=3, requests=5, bytes_received=150, seconds=1.5)


def test_a_client_kept_across_polls_counts_only_this_polls_traffic() -> None:
    before = WireTraffic(4, 40, 4, 1000)
    cost = PollCost.measure(READ, None, _clients(_Carried(6, 1500)), 0.25, carried_before=before)
    assert (cost.requests, cost.bytes_received) == (2, 500)


def test_a_rotated_poll_counts_what_it_described_and_a_failed_one_nothing() -> None:
    rotation = ReadRotation(1)
    rotation.last_read = 1
    assert PollCost.measure(READ, rotation, _clients(), 0.1).resources_read == 1
    failed = ObservedState("c", T0, error=("KafkaConnectionError", "refused"), known=False)
    assert PollCost.measure(failed, None, _clients(_Carried(1, 9)), 0.1).resources_read == 0


def test_the_streams_kept_cost_reads_back_as_written_and_as_streams_wrote_it_before() -> None:
    pytest.importorskip("pyspark", reason="the spark extra is not installed")
    from kafka_config_admin.spark._feed import KeptCost

    kept = KeptCost(PollCost(7, 3, 4096, 0.5), resume_after=("TOPIC", "orders"))
    text = kept.to_json()
    fields = {"resources_read": 7, "requests": 3, "bytes_received": 4096, "seconds": 0.5}
    assert json.loads(text) == fields | {"resume_after": ["TOPIC", "orders"]}
    assert KeptCost.from_json(text) == kept
    # A stream of an earlier release kept its turn as an index, which names no resource: the
    # cost reads back, and the rotation starts again.
    assert KeptCost.from_json(json.dumps(fields | {"next_turn": 12})) == KeptCost(
        PollCost(7, 3, 4096, 0.5)
    )
    assert kept.columns() == {
        "poll_resources_read": 7,
        "poll_requests": 3,
        "poll_bytes_received": 4096,
        "poll_seconds": 0.5,
    }
