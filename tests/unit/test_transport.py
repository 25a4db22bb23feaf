"""The transport's parts that need no broker: version negotiation (the highest version both
sides speak, or a clear error), broker choice (lanes, hedge targets), throttling, and which
bootstrap failure is said."""

from __future__ import annotations

import random
import time

import anyio
import pytest

from kafka_config_admin import (
    AuthenticationError,
    KafkaConfigAdminError,
    KafkaConnectionError,
    UnsupportedVersionError,
)
from kafka_config_admin._net.bootstrap import clearest_failure
from kafka_config_admin._net.brokers import CHANGES, READS, BrokerChoice, lane_of
from kafka_config_admin._net.connections import BrokerAddress, ConnectionPool
from kafka_config_admin._net.security import SecurityOptions
from kafka_config_admin._net.throttle import Throttles
from kafka_config_admin._net.wire import negotiate_version
from kafka_config_admin._protocol import DESCRIBE_CONFIGS, INCREMENTAL_ALTER_CONFIGS


@pytest.mark.parametrize(
    ("broker_range", "chosen"), [((0, 4), 4), ((1, 9), 4), ((0, 2), 2), ((3, 3), 3)]
)
def test_the_highest_common_version_is_chosen(broker_range: tuple[int, int], chosen: int) -> None:
    assert negotiate_version(DESCRIBE_CONFIGS, broker_range) == chosen


def test_a_broker_without_the_api_is_a_clear_error() -> None:
    with pytest.raises(
        UnsupportedVersionError,
        match=r"broker 2 does not support IncrementalAlterConfigs .*release before 2\.3",
    ):
        negotiate_version(INCREMENTAL_ALTER_CONFIGS, None, "broker 2")
    with pytest.raises(UnsupportedVersionError, match="no common DescribeConfigs version"):
        negotiate_version(DESCRIBE_CONFIGS, (5, 7))


def test_security_options_never_show_the_password() -> None:
    options = SecurityOptions("SASL_PLAINTEXT", "PLAIN", "admin", "hunter2")
    assert "hunter2" not in repr(options) and "admin" in repr(options)


# --- broker choice: lanes kept apart, hedges elsewhere ----------------------------------------


def _choice(brokers: list[int], open_: set[int] | None = None) -> BrokerChoice:
    return BrokerChoice(
        lambda: brokers, lambda node, lane: node in (brokers if open_ is None else open_)
    )


def test_each_lane_keeps_its_broker_while_its_connection_is_open() -> None:
    connected = {1, 2, 3}
    choice = BrokerChoice(lambda: [1, 2, 3], lambda node, lane: node in connected)
    reads = choice.any_broker(READS)
    assert all(choice.any_broker(READS) == reads for _ in range(20))
    connected.discard(reads)
    moved = choice.any_broker(READS)
    assert moved != reads and moved in connected


@pytest.mark.parametrize("seed", range(10))
def test_reads_and_changes_go_to_different_brokers_while_there_are_two(seed: int) -> None:
    random.seed(seed)
    choice = _choice([1, 2, 3])
    assert choice.any_broker(READS) != choice.any_broker(CHANGES)
    alone = _choice([7])
    assert alone.any_broker(READS) == alone.any_broker(CHANGES) == 7


def test_a_connected_broker_is_chosen_before_one_without_a_connection() -> None:
    assert {_choice([1, 2, 3], open_={2}).any_broker(READS) for _ in range(20)} == {2}


@pytest.mark.parametrize("seed", range(10))
def test_a_lane_without_a_connection_avoids_the_broker_another_lane_is_connected_to(
    seed: int,
) -> None:
    """Each lane has its own connections: the reads' open connection to the bootstrap broker is
    no reason for the changes to go there too (they did, and reads waited behind them)."""
    random.seed(seed)
    connected = {(2, READS)}
    choice = BrokerChoice(lambda: [1, 2, 3], lambda node, lane: (node, lane) in connected)
    assert choice.any_broker(READS) == 2
    assert choice.any_broker(CHANGES) in {1, 3}


def test_no_broker_in_the_metadata_is_a_connection_error() -> None:
    with pytest.raises(KafkaConnectionError, match="lists no brokers"):
        _choice([]).any_broker(READS)


@pytest.mark.parametrize("seed", range(10))
def test_hedges_go_to_every_other_broker_avoiding_the_other_lanes(seed: int) -> None:
    random.seed(seed)
    choice = _choice([1, 2, 3, 4])
    choice.prefer(CHANGES, 3)
    targets = choice.hedge_targets(READS, 1)
    assert sorted(targets) == [2, 4]  # 3 carries the changes
    choice.prefer(CHANGES, 2)
    assert sorted(choice.hedge_targets(READS, 1)) == [3, 4]
    two = _choice([1, 2])
    two.prefer(CHANGES, 2)
    assert two.hedge_targets(READS, 1) == [2]  # the other lane's broker, as there is no other


def test_a_hedge_that_won_takes_the_lane_unless_another_lane_has_it() -> None:
    choice = _choice([1, 2, 3])
    choice.prefer(READS, 1)
    choice.prefer(CHANGES, 3)
    choice.hedge_won(READS, 2)
    assert choice.any_broker(READS) == 2
    choice.hedge_won(READS, 3)
    assert choice.any_broker(READS) == 2 and choice.any_broker(CHANGES) == 3


def test_a_broker_that_answered_lately_is_busy_not_silent() -> None:
    choice = _choice([1, 2])
    assert not choice.answered_within(1, 5.0)
    choice.answered_at[1] = time.monotonic()
    assert choice.answered_within(1, 5.0) and not choice.answered_within(2, 5.0)
    choice.answered_at[2] = time.monotonic() - 10
    assert not choice.answered_within(2, 5.0)


def test_lanes_of_reads_and_changes() -> None:
    assert lane_of(False) == READS and lane_of(True) == CHANGES and READS != CHANGES


# --- throttling ------------------------------------------------------------------------------


def test_a_throttled_broker_is_held_until_its_time_passes() -> None:
    throttles = Throttles()
    assert not throttles.holds(1)
    throttles.hold(1, 50)
    assert throttles.holds(1) and not throttles.holds(2)

    async def wait_then_check() -> bool:
        await throttles.wait(1)
        return throttles.holds(1)

    assert anyio.run(wait_then_check) is False
    throttles.hold(2, 0)
    assert not throttles.holds(2)


# --- bootstrap: the clearest failure ---------------------------------------------------------


def _clearest(*failures: tuple[str, KafkaConfigAdminError]) -> KafkaConfigAdminError:
    async def main() -> KafkaConfigAdminError:
        pool = ConnectionPool("unused:9092", {})
        listed = [(BrokerAddress(address, 9092), failure) for address, failure in failures]
        return await clearest_failure(
            pool, listed, "a:9092,b:9092", ssl_context=None, oauth=False, probe_timeout=1.0
        )

    return anyio.run(main)


def test_the_first_clear_bootstrap_failure_is_the_error() -> None:
    refused = KafkaConnectionError("a:9092: connection refused")
    denied = AuthenticationError("b:9092: SASL authentication failed")
    assert _clearest(("a", refused), ("b", denied)) is denied


def test_unclear_bootstrap_failures_are_said_together() -> None:
    first = KafkaConnectionError("a:9092: connection refused")
    assert _clearest(("a", first)) is first
    both = _clearest(("a", first), ("b", KafkaConnectionError("b:9092: timed out")))
    assert type(both) is KafkaConnectionError
    assert str(both) == (
        "could not bootstrap from a:9092,b:9092: a:9092: connection refused; b:9092: timed out"
    )


@pytest.mark.parametrize("seconds", [2.0, 4.0])
async def test_a_silent_server_is_said_whatever_the_call_timeout(seconds: float) -> None:
    """A call timeout shorter than the connection's request timeout (15 s) still says what the
    server did: accepted the connection and sent nothing."""
    import asyncio

    from kafka_config_admin import AdminClient, KafkaTimeoutError

    accepted: list[asyncio.StreamWriter] = []
    server = await asyncio.start_server(
        lambda _reader, writer: accepted.append(writer), "127.0.0.1", 0
    )
    port = server.sockets[0].getsockname()[1]
    try:
        with pytest.raises(KafkaTimeoutError) as silent:
            async with AdminClient(f"127.0.0.1:{port}", timeout=seconds):
                pass
    finally:
        for writer in accepted:
            writer.close()
        server.close()
        await server.wait_closed()
    assert str(silent.value) == (
        f"could not reach the cluster at 127.0.0.1:{port} within {seconds:g}s: 127.0.0.1:{port} "
        f"accepted the connection and sent nothing in {seconds:g}s (no answer to ApiVersions): "
        "a broker that is frozen or overloaded, or a server that is not a Kafka listener"
    )


# --- the pool: a connection per broker and lane ----------------------------------------------


class _FakeConnection:
    """A connection that opens at once; the pool needs no more of it here."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.open = False

    async def connect(self) -> None:
        self.open = True

    def connected(self) -> bool:
        return self.open


def _pool_of(brokers: dict[int, BrokerAddress]) -> ConnectionPool:
    pool = ConnectionPool("unused:9092", {})
    pool.brokers = dict(brokers)
    pool.new = _FakeConnection  # type: ignore[assignment,method-assign]
    return pool


def test_reads_and_changes_have_their_own_connection_to_one_broker() -> None:
    """A broker answers one connection's requests in order: a read on the connection of a
    change forwarded to the controller would wait for it."""
    pool = _pool_of({1: BrokerAddress("b1", 9092)})

    async def main() -> None:
        reads = await pool.connection(1, READS)
        changes = await pool.connection(1, CHANGES)
        assert reads is not changes
        assert await pool.connection(1, READS) is reads  # each lane keeps its own
        assert pool.open_connection(1, CHANGES) is changes
        assert len(pool.connections()) == 2

    anyio.run(main)


def test_a_lane_opens_nothing_for_another_lane() -> None:
    pool = _pool_of({1: BrokerAddress("b1", 9092), 2: BrokerAddress("b2", 9092)})

    async def main() -> None:
        await pool.connection(2, READS)
        assert pool.open_connection(2, CHANGES) is None
        assert pool.open_connection(1, READS) is None

    anyio.run(main)
