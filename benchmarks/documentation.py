"""``python -m benchmarks documentation`` (``nox -s bench -- documentation``): W1 with
documentation against W1 without it, in one run.

One broker with N topics (2000). Each of ``--reps`` rounds describes every config of every
topic with synonyms, in turn:

- ``without``: no documentation asked;
- ``with, held``: documentation asked, by a client that holds every key's documentation
  already (every describe after a client's first);
- ``with, new client``: documentation asked by a client's first describe (it asks one
  topic's documentation of the broker, then fills every entry);
- ``with, every answer``: what the client sent before it held documentation, the broker
  writing every key's text into every topic's answer.

Each round starts one kind further along that list, so that none always runs first.

Each is measured by its wall time, the bytes the client received (``AdminClient.traffic``),
the CPU seconds the broker's JVM used (``/proc/<pid>/stat`` utime + stime, before and after)
and the client's own CPU. The answers with documentation are checked equal to the broker's
with documentation in every answer. Results: ``benchmarks/results/documentation.json`` and
``documentation.md``, with the commit and the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from kafka_config_admin import AdminClient, Config, ConfigResource, ResourceType
from kafka_config_admin._ops.configs import DescribeConfigs
from kafka_config_admin._ops.results import DescribeConfigsResult
from kafka_config_admin.testing import KAFKA_VERSION, start_cluster

from . import cpu_between, dataset, machine, tree_cpu_seconds

HERE = Path(__file__).parent
TIMEOUT = 300.0
#: The ways W1 is measured, in the order each round runs them.
KINDS = ("without", "with, held", "with, new client", "with, every answer")
#: The targets of issue 35: W1 with documentation against W1 without it.
TARGETS = {"bytes": 1.25, "broker_cpu": 1.3}

Described = dict[ConfigResource, Config]


async def every_answer(admin: AdminClient, topics: list[ConfigResource]) -> Described:
    """W1 as sent before: documentation asked in the request, in every topic's answer."""
    build = partial(
        DescribeConfigs.build, topics, include_synonyms=True, include_documentation=True
    )
    result: DescribeConfigsResult = admin._engine.call(build, DescribeConfigsResult, TIMEOUT)
    return await result.all()


async def w1(admin: AdminClient, topics: list[ConfigResource], documentation: bool) -> Described:
    return await admin.describe_configs(
        topics, include_synonyms=True, include_documentation=documentation
    ).all()


async def measured(
    admin: AdminClient, describe: Callable[[], Awaitable[Described]]
) -> dict[str, Any]:
    """One describe's wall, bytes received, broker CPU and client CPU."""
    received, cpu = admin.traffic().bytes_received, tree_cpu_seconds()
    start, start_cpu = time.perf_counter(), time.process_time()
    await describe()
    wall, client_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    used = cpu_between(cpu, tree_cpu_seconds())
    return {
        "wall_s": wall,
        "bytes": admin.traffic().bytes_received - received,
        "broker_cpu_s": used["brokers"],
        "client_cpu_s": client_cpu,
    }


async def one_round(
    bootstrap: str, topics: list[ConfigResource], turn: int
) -> dict[str, dict[str, Any]]:
    """Each kind once, starting ``turn`` places further along: no kind always goes first."""
    async with AdminClient(bootstrap, timeout=TIMEOUT) as held:
        await w1(held, topics, True)  # it now holds every key's documentation

        async def first_describe() -> dict[str, Any]:
            async with AdminClient(bootstrap, timeout=TIMEOUT) as new:
                await new.describe_cluster()  # connected, as the held client is
                return await measured(new, partial(w1, new, topics, True))

        runs: dict[str, Callable[[], Awaitable[dict[str, Any]]]] = {
            "without": partial(measured, held, partial(w1, held, topics, False)),
            "with, held": partial(measured, held, partial(w1, held, topics, True)),
            "with, new client": first_describe,
            "with, every answer": partial(measured, held, partial(every_answer, held, topics)),
        }
        order = KINDS[turn % len(KINDS) :] + KINDS[: turn % len(KINDS)]
        return {kind: await runs[kind]() for kind in order}


async def same_answers(bootstrap: str, topics: list[ConfigResource]) -> bool:
    """Whether W1 with documentation, new and held, equals the broker's every-answer W1."""
    async with AdminClient(bootstrap, timeout=TIMEOUT) as admin:
        first, again = await w1(admin, topics, True), await w1(admin, topics, True)
        return first == again == await every_answer(admin, topics)


def medians(rounds: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, float]]:
    return {
        kind: {
            figure: statistics.median(run[kind][figure] for run in rounds)
            for figure in rounds[0][kind]
        }
        for kind in KINDS
    }


def write(results: dict[str, Any], out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    (out / "documentation.json").write_text(json.dumps(results, indent=2) + "\n")
    figures = results["medians"]
    base = figures["without"]
    lines = [
        "# W1 with documentation",
        "",
        f"Kafka {results['kafka']}, one broker, {results['topics']} topics, every config with "
        f"synonyms; `{results['command']}` at commit {results['commit']}, machine load "
        f"{results['load_before']} before and {results['load_after']} after (1, 5, 15 min), "
        f"medians of {results['reps']} rounds. The answers with documentation equal the "
        f"broker's with documentation in every answer: {results['same_answers']}.",
        "",
        "| W1 | Wall (s) | Received (MB) | Broker CPU (s) | Client CPU (s) | Bytes vs without "
        "| Broker CPU vs without | Wall vs without |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kind in KINDS:
        run = figures[kind]
        lines.append(
            f"| {kind} | {run['wall_s']:.3f} | {run['bytes'] / 1e6:.2f} | "
            f"{run['broker_cpu_s']:.2f} | {run['client_cpu_s']:.2f} | "
            f"{run['bytes'] / base['bytes']:.2f} | "
            f"{run['broker_cpu_s'] / base['broker_cpu_s']:.2f} | "
            f"{run['wall_s'] / base['wall_s']:.2f} |"
        )
    lines += [
        "",
        f"Targets (issue 35): W1 with documentation at most {TARGETS['bytes']}x the bytes of W1 "
        f"without it and at most {TARGETS['broker_cpu']}x its broker CPU.",
    ]
    text = "\n".join(lines) + "\n"
    (out / "documentation.md").write_text(text)
    return text


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks documentation")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    command = "python -m benchmarks documentation" + (f" {' '.join(argv)}" if argv else "")
    load_before, commit = load(), machine()["commit"]  # the code that runs, not a later one
    with start_cluster(brokers=1) as cluster:
        bootstrap = cluster.bootstrap_servers
        names = asyncio.run(dataset.create(bootstrap, args.topics))
        topics = [ConfigResource(ResourceType.TOPIC, name) for name in names]
        same = asyncio.run(same_answers(bootstrap, topics))
        rounds = [asyncio.run(one_round(bootstrap, topics, turn)) for turn in range(args.reps)]
    results = {
        "command": command,
        "kafka": KAFKA_VERSION,
        "topics": args.topics,
        "reps": args.reps,
        "commit": commit,
        "load_before": load_before,
        "load_after": load(),
        "same_answers": same,
        "rounds": rounds,
        "medians": medians(rounds),
    }
    print(write(results, args.out))
