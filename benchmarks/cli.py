"""``python -m benchmarks cli``: one change to N topics with our CLI and with kafka-configs.sh.

Both tools run as a user runs them: a new process per command, on one real broker holding the
benchmark topics (``dataset``). The change: ``retention.ms`` of every topic, to a value that
differs each round so that every apply has work to do.

- ours: ``plan FILE`` (a file naming every topic; exit 3: changes needed), ``apply FILE
  --yes`` (validate, apply, read back), the ``plan`` again (exit 0: nothing left), and the same
  change as one ``alter --match REGEX --set ... --yes``.
- Kafka's ConfigCommand (``kafka-configs.sh``, from the broker's jars or, from 4.4, its tools
  jars): it has
  no plan, so the nearest step, ``--describe --entity-type topics`` of every topic in one
  process; and ``--alter`` takes one entity per process, so it alters a sample of topics one
  process each, reported per topic and scaled to N.

The faces against the SDK (issue 23's "a command line that answers at once"), in the same
run, on the same topics, ``--repeats`` times (5), each time every step once, in turn:

- start: ``--help``, ``--version``, a usage error, ``plan --help`` and ``plan`` without its
  FILE against a bare ``python -c "import aiokafka, pydantic"``; ``import kafka_config_admin``
  and ``from kafka_config_admin import AdminClient`` (what a service or a Spark task pays)
  against it, beside pydantic's own ``BaseModel`` import (which ``import pydantic`` alone does
  not load);
- ``plan`` of N topics against the SDK reading what ``plan`` reads (the topic list and the
  key the file sets), and the ``describe --match`` table of N topics against the SDK's
  describe of every config of the same topics, as the table asks (``benchmarks/sdk_steps.py``,
  process start included);
- ``apply`` against the SDK doing the same requests (describe, validate, alter, read back);
  the SDK's alter step is the broker's own commit time.

Each figure: median wall seconds and median CPU seconds (user + system of the process, which a
loaded machine disturbs less), and the ratio to its baseline; the load average is printed.
Every command runs with byte-code caches written (``PYTHONDONTWRITEBYTECODE`` unset), as an
installed package runs.

``plan`` asking the broker (issue 29: at most 1.5x the SDK's describe of the same topics):
``--part verdict``, ``--repeats`` times, each time in turn: the SDK's describe of every config
of the N topics (``sdk_steps.py describe``), the SDK's reads as ``plan`` asks them
(``sdk_steps.py plan``), those reads and the validate_only alter ``plan`` sends
(``sdk_steps.py validate``), ``plan FILE`` (asks the broker) and ``plan FILE --offline``.

Where ``plan``'s fixed cost goes (imports layer by layer, the file, the plan, the table), on a
fake cluster state, no broker: ``--part breakdown`` (:mod:`benchmarks.cli_breakdown`).

What the journal adds to ``apply`` of N topics (issue 31: at most 5%): ``--part journal``,
``--repeats`` times, ``apply`` with the journal and without, alternated
(:mod:`benchmarks.cli_journal`).

Options: ``--topics N`` (2000), ``--sample N`` (50, spread over the rounds), ``--rounds N`` (3),
``--repeats N`` (5), ``--part faces|kafka-configs|breakdown|verdict|journal|all`` (all),
``--out DIR``.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kafka_config_admin.testing import KAFKA_VERSION, start_cluster
from kafka_config_admin.testing._artifacts import config_command

from . import cli_breakdown, cli_journal, dataset

HERE = Path(__file__).parent
PATTERN = "bench-.*"
#: Every command as an installed package runs: byte code cached, not compiled at each start.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
BARE_IMPORT = "import aiokafka, pydantic"


def timed(command: Sequence[str], expect: int = 0) -> float:
    """Seconds one command took, start to exit; fails unless it exits with ``expect``."""
    return measured(command, expect)[0]


def measured(
    command: Sequence[str], expect: int = 0, env_update: dict[str, str] | None = None
) -> tuple[float, float, str]:
    """One command's wall seconds, CPU seconds (user + system) and output; fails unless it
    exits with ``expect``. ``env_update``: variables set for it beside :data:`ENV`."""
    env = {**ENV, **(env_update or {})}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode != expect:
        raise RuntimeError(
            f"{' '.join(command[:6])}... exited {done.returncode}, not {expect}:\n{done.stderr}"
        )
    return seconds, cpu, done.stdout


def ours(bootstrap: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "kafka_config_admin", *args, "--bootstrap-server", bootstrap]


def kafka_configs(bootstrap: str, *args: str) -> list[str]:
    classpath, main = config_command()
    return ["java", "-cp", classpath, main, "--bootstrap-server", bootstrap, *args]


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
    describe_all = timed(kafka_configs(bootstrap, "--describe", "--entity-type", "topics"))
    per_topic = [
        timed(
            kafka_configs(
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


def command_line(*args: str) -> list[str]:
    """Our command line with no cluster option (start-up steps)."""
    return [sys.executable, "-m", "kafka_config_admin", *args]


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def sdk_steps(*args: str) -> list[str]:
    return [sys.executable, str(HERE / "sdk_steps.py"), *args]


#: The faces' steps: name, the baseline it is measured against, what it is.
FACE_STEPS = [
    ("help", "bare_import", "`kafka-config-admin --help`"),
    ("version", "bare_import", "`kafka-config-admin --version`"),
    ("usage_error", "bare_import", "`kafka-config-admin --no-such-option` (exit 2)"),
    ("command_help", "bare_import", "`kafka-config-admin plan --help`"),
    ("command_usage_error", "bare_import", "`kafka-config-admin plan` without FILE (exit 2)"),
    ("import_package", "bare_import", "`import kafka_config_admin`"),
    ("import_sdk", "bare_import", "`from kafka_config_admin import AdminClient`"),
    ("import_base_model", "bare_import", f"`{BARE_IMPORT}; from pydantic import BaseModel`"),
    ("plan", "sdk_plan", "`plan FILE` (exit 3: changes needed)"),
    ("table", "sdk_describe", "`describe --match REGEX` (the table)"),
    ("apply", "sdk_apply", "`apply FILE --yes`"),
]


def faces_round(
    bootstrap: str, topics: list[str], index: int, work: Path
) -> dict[str, dict[str, Any]]:
    """Every start-up step, ``plan``, the table and ``apply`` once, each beside its baseline."""
    base = 9_000_000 + index * 4 * 60_000
    names = work / "topics.txt"
    names.write_text("\n".join(topics))
    steps: dict[str, tuple[list[str], int]] = {
        "bare_import": (python(BARE_IMPORT), 0),
        "help": (command_line("--help"), 0),
        "version": (command_line("--version"), 0),
        "usage_error": (command_line("--no-such-option"), 2),
        "command_help": (command_line("plan", "--help"), 0),
        "command_usage_error": (command_line("plan"), 2),
        "import_package": (python("import kafka_config_admin"), 0),
        "import_sdk": (python("from kafka_config_admin import AdminClient"), 0),
        # What pydantic's models need and ``import pydantic`` alone does not load.
        "import_base_model": (python(f"{BARE_IMPORT}; from pydantic import BaseModel"), 0),
        "sdk_plan": (sdk_steps("plan", bootstrap, str(names)), 0),
        "sdk_describe": (sdk_steps("describe", bootstrap, str(names)), 0),
        "plan": (ours(bootstrap, "plan", str(desired_file(work / "plan.yaml", topics, base))), 3),
        "table": (ours(bootstrap, "describe", "--match", PATTERN), 0),
        "sdk_apply": (sdk_steps("apply", bootstrap, str(names), str(base + 60_000)), 0),
        "apply": (
            ours(
                bootstrap,
                "apply",
                str(desired_file(work / "a.yaml", topics, base + 120_000)),
                "--yes",
            ),
            0,
        ),
    }
    results: dict[str, dict[str, Any]] = {}
    for name, (command, expect) in steps.items():
        seconds, cpu, output = measured(command, expect)
        results[name] = {"seconds": seconds, "cpu": cpu}
        if name.startswith("sdk_"):
            results[name]["phases"] = json.loads(output.splitlines()[-1])
        if name == "table":
            results[name]["lines"] = output.count("\n")
    return results


#: The verdict part's steps: name, what it is.
VERDICT_STEPS = [
    ("sdk_describe", "the SDK's describe of every config of the topics (process included)"),
    ("sdk_plan", "the SDK's reads as plan asks them (topic list, the key the file sets)"),
    ("sdk_validate", "those reads, then the validate_only alter plan sends"),
    ("plan", "`plan FILE`: the brokers asked (exit 3)"),
    ("plan_offline", "`plan FILE --offline` (exit 3)"),
]


def verdict_round(bootstrap: str, topics: list[str], index: int, work: Path) -> dict[str, Any]:
    """Each step of ``VERDICT_STEPS`` once, in turn."""
    value = 9_500_000 + index * 60_000
    names = work / "topics.txt"
    names.write_text("\n".join(topics))
    file = str(desired_file(work / "verdict.yaml", topics, value))
    steps: dict[str, tuple[list[str], int]] = {
        "sdk_describe": (sdk_steps("describe", bootstrap, str(names)), 0),
        "sdk_plan": (sdk_steps("plan", bootstrap, str(names)), 0),
        "sdk_validate": (sdk_steps("validate", bootstrap, str(names), str(value)), 0),
        "plan": (ours(bootstrap, "plan", file), 3),
        "plan_offline": (ours(bootstrap, "plan", file, "--offline"), 3),
    }
    results: dict[str, Any] = {}
    for name, (command, expect) in steps.items():
        seconds, cpu, _ = measured(command, expect)
        results[name] = {"seconds": seconds, "cpu": cpu}
    return results


def verdict_markdown(part: dict[str, Any]) -> list[str]:
    runs: list[dict[str, dict[str, Any]]] = part["runs"]

    def median(step: str, what: str) -> float:
        return statistics.median(float(run[step][what]) for run in runs)

    lines = [
        "### plan asking the broker against the SDK",
        "",
        f"`{part['command']}` at commit {part['commit']}: Apache Kafka {part['kafka']} (single "
        f"KRaft node), {part['topics']} topics, a file setting retention.ms on each, "
        f"{len(runs)} repeats, each step once per repeat in turn; every command a new process. "
        f"Load average (1, 5, 15 min) before: {part['load_before']}; after: "
        f"{part['load_after']}. Medians; ratios to the SDK's describe of the same topics.",
        "",
        "| step | wall s | CPU s | wall / SDK describe | CPU / SDK describe |",
        "|---|---|---|---|---|",
    ]
    base_wall, base_cpu = median("sdk_describe", "seconds"), median("sdk_describe", "cpu")
    for step, said in VERDICT_STEPS:
        wall, cpu = median(step, "seconds"), median(step, "cpu")
        lines.append(
            f"| {said} | {wall:.2f} | {cpu:.2f} | {wall / base_wall:.2f} | {cpu / base_cpu:.2f} |"
        )
    ratios = [run["plan"]["seconds"] / run["sdk_describe"]["seconds"] for run in runs]
    lines += [
        "",
        f"plan (brokers asked) over the SDK's describe, per repeat: "
        f"{', '.join(f'{ratio:.2f}' for ratio in ratios)}.",
        "",
    ]
    return lines


def git_commit() -> str:
    """The commit measured, ``+`` when the tree has changes not committed."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD"], check=False).returncode != 0
    return head + ("+" if dirty else "")


def load_average() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


def faces_markdown(part: dict[str, Any]) -> list[str]:
    runs: list[dict[str, dict[str, Any]]] = part["runs"]

    def median(step: str, what: str) -> float:
        return statistics.median(float(run[step][what]) for run in runs)

    lines = [
        "### The faces against the SDK",
        "",
        f"`{part['command']}` at commit {part['commit']}: Apache Kafka {part['kafka']} (single "
        f"KRaft node), {part['topics']} topics, {len(runs)} repeats, each step once per repeat "
        f"in turn; every command a new process (byte code cached). Load average (1, 5, 15 min) "
        f"before: {part['load_before']}; after: {part['load_after']}. Medians; a ratio is a "
        "median over the median of its baseline, measured in the same repeats.",
        "",
        "| step | wall s | CPU s | baseline | wall ratio | CPU ratio |",
        "|---|---|---|---|---|---|",
    ]
    baselines = {
        "bare_import": f'bare `python -c "{BARE_IMPORT}"`',
        "sdk_plan": "the SDK's reads of the same topics, as plan asks (process included)",
        "sdk_describe": "the SDK's describe of the same topics, as the table asks (process "
        "included)",
        "sdk_apply": "the SDK's same requests as apply (process included)",
    }
    for baseline, said in baselines.items():
        lines.append(
            f"| {said} | {median(baseline, 'seconds'):.2f} | {median(baseline, 'cpu'):.2f} "
            "| - | 1.00 | 1.00 |"
        )
    for step, baseline, said in FACE_STEPS:
        wall = median(step, "seconds") / median(baseline, "seconds")
        cpu = median(step, "cpu") / median(baseline, "cpu")
        lines.append(
            f"| {said} | {median(step, 'seconds'):.2f} | {median(step, 'cpu'):.2f} "
            f"| {baseline.replace('_', ' ')} | {wall:.2f} | {cpu:.2f} |"
        )
    commit = statistics.median(run["sdk_apply"]["phases"]["alter"] for run in runs)
    apply_wall = median("apply", "seconds") - commit
    sdk_wall = median("sdk_apply", "seconds") - commit
    lines += [
        "",
        f"The broker's own commit time (the SDK's alter of {part['topics']} topics, the "
        f"median of its phase): {commit:.2f} s. Without it, apply takes {apply_wall:.2f} s "
        f"against the SDK's {sdk_wall:.2f} s: {apply_wall / sdk_wall:.2f}x. The table has "
        f"{runs[0]['table']['lines']} lines.",
        "",
    ]
    return lines


def kafka_configs_markdown(results: dict[str, Any]) -> list[str]:
    n, rounds = results["topics"], results["rounds"]

    def cell(key: str) -> str:
        values = [run[key] for run in results["runs"]]
        return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"

    per_topic = [s for run in results["runs"] for s in run["kafka_configs_alter_each_topic"]]
    per_topic_cell = (
        f"{statistics.median(per_topic):.2f} ({min(per_topic):.2f}-{max(per_topic):.2f})"
    )
    scaled = statistics.median(per_topic) * n
    where = (
        f"`{results['command']}` at commit {results['commit']}, load average before: "
        f"{results['load_before']}; after: {results['load_after']}. "
        if "command" in results
        else ""
    )
    return [
        "### Our CLI against kafka-configs.sh",
        "",
        f"{where}Apache Kafka {results['kafka']} (single KRaft node), {n} topics, "
        f"{rounds} rounds; every command a new process, timed start to exit. Seconds: median "
        "(min-max) of the rounds.",
        "",
        f"| step | kafka-config-admin | kafka-configs.sh ({config_command()[1]}) |",
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


def write(results: dict[str, Any], out: Path) -> str:
    """results/cli.json and results/cli.md with the parts measured now and those kept from an
    earlier run (each part names its own command, commit and load); the markdown text."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "cli.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = ["# CLI benchmark (`nox -s bench -- cli`)", ""]
    if "faces" in results:
        lines += faces_markdown(results["faces"])
    if "breakdown" in results:
        lines += cli_breakdown.markdown(results["breakdown"])
    if "verdict" in results:
        lines += verdict_markdown(results["verdict"])
    if "journal" in results:
        lines += cli_journal.markdown(results["journal"])
    if "kafka_configs" in results:
        lines += kafka_configs_markdown(results["kafka_configs"])
    text = "\n".join(lines)
    (out / "cli.md").write_text(text)
    return text


def earlier(out: Path) -> dict[str, Any]:
    """The parts of an earlier run (a file from before the parts: kafka-configs.sh only)."""
    path = out / "cli.json"
    if not path.exists():
        return {}
    found: dict[str, Any] = json.loads(path.read_text())
    return found if "runs" not in found else {"kafka_configs": found}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks cli")
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--part",
        choices=["faces", "kafka-configs", "breakdown", "verdict", "journal", "all"],
        default="all",
    )
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    command = " ".join(["python3 -m nox -s bench -- cli", *(argv or sys.argv[1:])])
    compileall.compile_dir(HERE.parent / "kafka_config_admin", quiet=1)
    results = earlier(args.out)
    context: dict[str, Any] = {"topics": args.topics, "commit": git_commit(), "command": command}
    if args.part in ("breakdown", "all"):
        load_before = load_average()
        print(f"[breakdown of plan's fixed cost, {args.topics} topics] ...", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            found = cli_breakdown.measure(args.topics, args.repeats, Path(tmp))
        results["breakdown"] = {
            **context,
            **found,
            "load_before": load_before,
            "load_after": load_average(),
        }
        if args.part == "breakdown":
            print(write(results, args.out))
            return
    with start_cluster(brokers=1) as cluster, tempfile.TemporaryDirectory() as tmp:
        bootstrap = cluster.bootstrap_servers
        print(f"creating {args.topics} topics on {bootstrap} ...", flush=True)
        topics = asyncio.run(dataset.create(bootstrap, args.topics))
        context["kafka"] = KAFKA_VERSION
        if args.part in ("faces", "all"):
            load_before = load_average()
            repeats = []
            for index in range(args.repeats):
                print(f"[faces {index + 1}/{args.repeats}] ...", flush=True)
                repeats.append(faces_round(bootstrap, topics, index, Path(tmp)))
            results["faces"] = {
                **context,
                "load_before": load_before,
                "load_after": load_average(),
                "runs": repeats,
            }
        if args.part in ("verdict", "all"):
            load_before = load_average()
            repeats = []
            for index in range(args.repeats):
                print(f"[verdict {index + 1}/{args.repeats}] ...", flush=True)
                repeats.append(verdict_round(bootstrap, topics, index, Path(tmp)))
            results["verdict"] = {
                **context,
                "load_before": load_before,
                "load_after": load_average(),
                "runs": repeats,
            }
        if args.part in ("journal", "all"):
            load_before = load_average()
            repeats = []
            for index in range(args.repeats):
                print(f"[journal {index + 1}/{args.repeats}] ...", flush=True)
                repeats.append(
                    cli_journal.journal_round(
                        bootstrap, topics, index, Path(tmp), measured, desired_file
                    )
                )
            results["journal"] = {
                **context,
                "load_before": load_before,
                "load_after": load_average(),
                "runs": repeats,
            }
        if args.part in ("kafka-configs", "all"):
            load_before = load_average()
            # The sample: spread over the topics, and over the rounds (one process per topic).
            sample = topics[:: max(1, len(topics) // args.sample)][: args.sample]
            runs = []
            for index in range(args.rounds):
                print(f"[round {index + 1}/{args.rounds}] ...", flush=True)
                share = sample[index :: args.rounds]
                runs.append(one_round(bootstrap, topics, share, index, Path(tmp)))
            results["kafka_configs"] = {
                **context,
                "load_before": load_before,
                "load_after": load_average(),
                "sample": args.sample,
                "rounds": args.rounds,
                "runs": runs,
            }
    print(write(results, args.out))


if __name__ == "__main__":
    main()
