"""``python -m benchmarks cli``: one change to N topics with our CLI and with kafka-configs.sh.

Both tools run as a user runs them: a new process per command, on one real broker holding the
benchmark topics (``dataset``). The change: ``retention.ms`` of every topic, to a value that
differs each round so that every apply has work to do.

- ours: ``plan FILE`` (a file naming every topic; exit 3: changes needed), ``apply FILE
  --yes`` (validate, apply, read back), the ``plan`` again (exit 0: nothing left), and the same
  change as one ``alter --match REGEX --set ... --yes``.
- Kafka's ``kafka.admin.ConfigCommand`` (``kafka-configs.sh``, from the broker's jars): it has
  no plan, so the nearest step, ``--describe --entity-type topics`` of every topic in one
  process; and ``--alter`` takes one entity per process, so it alters a sample of topics one
  process each, reported per topic and scaled to N.

Options: ``--topics N`` (2000), ``--sample N`` (50, spread over the rounds), ``--rounds N`` (3),
``--out DIR``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kafka_config_admin.testing import KAFKA_VERSION, start_cluster
from kafka_config_admin.testing._artifacts import broker_lib_dir

from . import dataset

HERE = Path(__file__).parent
CONFIG_COMMAND = "kafka.admin.ConfigCommand"
PATTERN = "bench-.*"


def timed(command: Sequence[str], expect: int = 0) -> float:
    """Seconds one command took, start to exit; fails unless it exits with ``expect``."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != expect:
        raise RuntimeError(
            f"{' '.join(command[:6])}... exited {done.returncode}, not {expect}:\n{done.stderr}"
        )
    return seconds


def ours(bootstrap: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "kafka_config_admin", *args, "--bootstrap-server", bootstrap]


def config_command(bootstrap: str, *args: str) -> list[str]:
    classpath = f"{broker_lib_dir()}/*"
    return ["java", "-cp", classpath, CONFIG_COMMAND, "--bootstrap-server", bootstrap, *args]


def desired_file(path: Path, topics: list[str], retention_ms: int) -> Path:
    """A desired-state file naming every topic, as a team's file would."""
    entries = "".join(
        f"  - name: {name}\n    configs: {{retention.ms: {retention_ms}}}\n" for name in topics
    )
    path.write_text(f"version: 1\ntopics:\n{entries}")
    return path


def one_round(
    bootstrap: str, topics: list[str], sample: list[str], index: int, work: Path
) -> dict[str, Any]:
    """Every measured step once; each changes retention.ms to a value of its own.

    ``sample``: the topics kafka-configs.sh alters this round, one process each.
    """
    base = 7_200_000 + index * 4 * 60_000
    file = desired_file(work / "desired.yaml", topics, base)
    plan = timed(ours(bootstrap, "plan", str(file)), expect=3)
    apply = timed(ours(bootstrap, "apply", str(file), "--yes"))
    replan = timed(ours(bootstrap, "plan", str(file)), expect=0)
    alter = timed(
        ours(
            bootstrap,
            "alter",
            "--match",
            PATTERN,
            "--set",
            f"retention.ms={base + 60_000}",
            "--yes",
        )
    )
    describe_all = timed(config_command(bootstrap, "--describe", "--entity-type", "topics"))
    per_topic = [
        timed(
            config_command(
                bootstrap,
                "--alter",
                "--entity-type",
                "topics",
                "--entity-name",
                name,
                "--add-config",
                f"retention.ms={base + 120_000}",
            )
        )
        for name in sample
    ]
    return {
        "ours_plan": plan,
        "ours_apply": apply,
        "ours_replan": replan,
        "ours_alter_match": alter,
        "kafka_configs_describe_all": describe_all,
        "kafka_configs_alter_each_topic": per_topic,
    }


def write(results: dict[str, Any], out: Path) -> str:
    """results/cli.json and results/cli.md; the markdown text."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "cli.json").write_text(json.dumps(results, indent=2) + "\n")
    n, rounds = results["topics"], results["rounds"]

    def cell(key: str) -> str:
        values = [run[key] for run in results["runs"]]
        return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"

    per_topic = [s for run in results["runs"] for s in run["kafka_configs_alter_each_topic"]]
    per_topic_cell = (
        f"{statistics.median(per_topic):.2f} ({min(per_topic):.2f}-{max(per_topic):.2f})"
    )
    scaled = statistics.median(per_topic) * n
    lines = [
        f"CLI benchmark: Apache Kafka {results['kafka']} (single KRaft node), {n} topics, "
        f"{rounds} rounds; every command a new process, timed start to exit. Seconds: median "
        "(min-max) of the rounds.",
        "",
        f"| step | kafka-config-admin | kafka-configs.sh ({CONFIG_COMMAND}) |",
        "|---|---|---|",
        f"| see what is there / what would change for {n} topics | plan: {cell('ours_plan')} "
        f"| --describe --entity-type topics: {cell('kafka_configs_describe_all')} (no plan) |",
        f"| change retention.ms of {n} topics | apply: {cell('ours_apply')}; "
        f"alter --match: {cell('ours_alter_match')} | --alter, one process per topic: "
        f"{per_topic_cell} per topic (median of {len(per_topic)} topics over the rounds), "
        f"so about {scaled:.0f} s for {n} |",
        f"| check nothing is left to change | plan again: {cell('ours_replan')} (exit 0) | - |",
        "",
    ]
    text = "\n".join(lines)
    (out / "cli.md").write_text(text)
    return text


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks cli")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    with start_cluster(brokers=1) as cluster, tempfile.TemporaryDirectory() as tmp:
        bootstrap = cluster.bootstrap_servers
        print(f"creating {args.topics} topics on {bootstrap} ...", flush=True)
        topics = asyncio.run(dataset.create(bootstrap, args.topics))
        # The sample: spread over the topics, and over the rounds (one process per topic).
        sample = topics[:: max(1, len(topics) // args.sample)][: args.sample]
        runs = []
        for index in range(args.rounds):
            print(f"[round {index + 1}/{args.rounds}] ...", flush=True)
            share = sample[index :: args.rounds]
            runs.append(one_round(bootstrap, topics, share, index, Path(tmp)))
    results = {
        "kafka": KAFKA_VERSION,
        "topics": args.topics,
        "sample": args.sample,
        "rounds": args.rounds,
        "runs": runs,
    }
    print(write(results, args.out))


if __name__ == "__main__":
    main()
