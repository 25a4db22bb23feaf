"""The scale benchmark's pure logic: which sizes run where, issue 35's target checks, and the
answer lines compared with the Java client's (the run itself needs brokers: `nox -s bench`)."""

from __future__ import annotations

import argparse
import hashlib
from typing import Any

from benchmarks import answers, scale
from benchmarks.report import OURS
from kafka_config_admin import (
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigSynonym,
    ConfigType,
    ResourceType,
)


def _args(sizes: list[int], brokers: list[int], fewest: bool) -> argparse.Namespace:
    return argparse.Namespace(
        sizes=sizes, brokers=brokers, topics_per_broker=7000, fewest_brokers=fewest
    )


def test_each_size_runs_on_the_fewest_brokers_that_hold_it() -> None:
    args = _args([2000, 5000, 20000], [1, 3], fewest=True)
    assert scale.sizes_on(1, args) == [2000, 5000]
    assert scale.sizes_on(3, args) == [20000]


def test_without_fewest_brokers_every_cluster_runs_every_size_it_holds() -> None:
    args = _args([2000, 5000, 20000], [1, 3], fewest=False)
    assert scale.sizes_on(1, args) == [2000, 5000]
    assert scale.sizes_on(3, args) == [2000, 5000, 20000]


def test_reps_shrink_above_5000_topics_but_not_below_the_least() -> None:
    assert scale.reps_at(2000, 5, 3) == 5
    assert scale.reps_at(20000, 5, 3) == 3
    assert scale.reps_at(20000, 5) == 1


def _run(seconds: float, cpu: float | None = None, written: float | None = None) -> dict[str, Any]:
    w1: dict[str, object] = {"seconds": [seconds]}
    if cpu is not None:
        w1 |= {"broker_cpu_seconds": [cpu], "broker_bytes_written": [written]}
    return {"w1": w1}


def test_targets_hold_ours_against_no_documentation_and_every_peer() -> None:
    size = {
        "runs": {
            OURS: _run(1.0, cpu=1.4, written=1.2e6),
            scale.NO_DOCS: _run(0.9, cpu=1.0, written=1.0e6),
            scale.FLOOR: _run(0.5),
            "aiokafka": _run(0.8),
            "java": _run(2.0),
            "confluent-kafka": {"w1": {"unsupported": "failed: not done in 420 s"}},
        }
    }
    checks = {
        what: (round(ratio, 2) if ratio else None, met)
        for what, ratio, _, met in scale.target_checks(size)
    }
    assert checks == {
        "bytes, with documentation / without": (1.2, True),
        "brokers' CPU, with documentation / without": (1.4, False),
        "wall time, ours / aiokafka": (1.25, False),
        "wall time, ours / java": (0.5, True),
        "wall time, ours / confluent-kafka": (None, None),
    }


def test_answer_lines_are_written_as_the_java_client_writes_them() -> None:
    entry = ConfigEntry(
        name="cleanup.policy",
        value="compact\tdelete",
        source=ConfigSource.TOPIC_CONFIG,
        synonyms=(
            ConfigSynonym(name="cleanup.policy", value="compact", source=ConfigSource.TOPIC_CONFIG),
            ConfigSynonym(
                name="log.cleanup.policy", value=None, source=ConfigSource.DEFAULT_CONFIG
            ),
        ),
        type=ConfigType.LIST,
        documentation="A\nB",
    )
    topic = ConfigResource(ResourceType.TOPIC, "t1")
    [line] = answers.entry_lines({topic: Config(entries=(entry,))})
    assert line.split("\t") == [
        "t1",
        "cleanup.policy",
        "compact\\tdelete",
        "DYNAMIC_TOPIC_CONFIG",
        "false",
        "false",
        "LIST",
        hashlib.sha256(b"A\nB").hexdigest(),
        "cleanup.policy",
        "compact",
        "DYNAMIC_TOPIC_CONFIG",
        "log.cleanup.policy",
        "\\N",
        "DEFAULT_CONFIG",
    ]


def test_each_part_says_the_heap_its_brokers_had() -> None:
    machine = {"commit": "abc1234", "load": [1.0, 2.0, 3.0]}
    before = {"command": "scale", "recorded": "now", "machine": machine}  # before the option
    asked = dict(before, broker_heap="2g")
    assert "brokers' heap (-Xmx) 512m," in scale._part_line(0, before)
    assert "brokers' heap (-Xmx) 2g," in scale._part_line(1, asked)
