"""Fault rounds on a real 3-node cluster: ``python -m tests.faults.rounds --rounds N``.

Round after round, one kind after another (``scenarios.KINDS``), the client alters and
describes topics while one fault strikes: a node frozen, killed or stopped, or answers cut,
delayed, blackholed or replaced by a retriable error through a fault proxy. After every round
the topics are read back and each call judged (``checks``): calls that succeeded, that ended in
a typed error (outcome unknown among them), that ended past their deadline (hangs), changes
wrong or partly applied, and what the round leaked (asyncio tasks, file descriptors, JVMs).

``--record`` writes the per-round log to benchmarks/results/faults-rounds.txt and the figures
to benchmarks/results/reliability/faults.json. Exits 1 unless every round survived.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import anyio

from kafka_config_admin import AdminClient
from kafka_config_admin._client import DEFAULT_TIMEOUT
from kafka_config_admin.testing import JvmCluster, start_cluster
from tests.integration.test_sick_nodes import new_topics

from .checks import Snapshot, changes, judge, leaks, read_back
from .scenarios import KINDS, TOPICS_PER_CALL, WAVES, Kind, Round

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
#: A round gives up after this long (a fault that never clears must not stall the run).
ROUND_LIMIT = 4 * DEFAULT_TIMEOUT
#: Every count a round adds up; those after "hangs" must stay 0 for the round to survive.
FAILURES = ("hangs", "wrong", "untyped errors", "leaks", "aborted")


async def _round(
    cluster: JvmCluster, kind: Kind, round_: Round, before: dict[str, str]
) -> tuple[Counter[str], list[str], dict[str, str]]:
    """Run one round; its counts, what it leaked, and each topic's value after it."""
    snapshot = Snapshot.now()
    counts: Counter[str] = Counter()
    with anyio.move_on_after(ROUND_LIMIT) as limit:
        await kind.run(round_)
    counts["aborted"] += limit.cancelled_caught
    succeeded = {
        topic: call.value
        for call in round_.calls
        if call.kind == "alter"
        for topic, error in call.outcomes.items()
        if error is None
    }
    after = await read_back(cluster.bootstrap_servers, round_.topics, succeeded)
    by_topic = {topic: before[topic.name] for topic in round_.topics}
    counts.update(judge(round_.calls, by_topic, after))
    leaked = await leaks(snapshot, cluster)
    counts["leaks"] += len(leaked)
    now = {t.name: (after[t][0] if t in after else None) or before[t.name] for t in round_.topics}
    return counts, leaked, now


async def _main(rounds: int, record: bool, kinds: Sequence[Kind]) -> int:
    started, began_at, commit = time.monotonic(), datetime.now(UTC), _commit()
    lines: list[str] = []
    per_kind: dict[str, Counter[str]] = defaultdict(Counter)
    loads: list[float] = []

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    with start_cluster(brokers=3, backend="jvm") as cluster:
        assert isinstance(cluster, JvmCluster)
        async with AdminClient(cluster.bootstrap_servers) as admin:
            topics = await new_topics(cluster, admin, TOPICS_PER_CALL * len(WAVES) + 1)
            warm, topics = topics[0], topics[1:]
            await admin.incremental_alter_configs(dict.fromkeys(topics, changes("3599000"))).all()
        values = dict.fromkeys((topic.name for topic in topics), "3599000")
        for number, kind in zip(range(1, rounds + 1), itertools.cycle(kinds), strict=False):
            began = time.monotonic()
            round_ = Round(cluster, topics, warm, str(3_600_000 + number))
            counts, leaked, values = await _round(cluster, kind, round_, values)
            counts["rounds"] += 1
            counts["survived"] += not any(counts[name] for name in FAILURES)
            counts["seconds"] += round(time.monotonic() - began)
            loads.append(os.getloadavg()[0])
            _add(per_kind[kind.name], counts)
            took = f"{counts['seconds']} s, load {loads[-1]:.1f}"
            say(f"round {number}: {kind.name}: {_round_line(counts, leaked)} ({took})")
    totals: Counter[str] = Counter()
    for counts in per_kind.values():
        _add(totals, counts)
    seconds = time.monotonic() - started
    figures = _figures(totals, per_kind, seconds)
    for label, value in figures:
        say(f"{label}: {value}")
    if record:
        _record(rounds, lines, figures, per_kind, loads, began_at, commit)
    return 0 if totals["survived"] == totals["rounds"] else 1


def _add(total: Counter[str], counts: Counter[str]) -> None:
    """Add a round's counts to a total; the longest call is the longest of both."""
    longest = max(total["longest call ms"], counts["longest call ms"])
    total.update(counts)
    total["longest call ms"] = longest


def _round_line(counts: Counter[str], leaked: list[str]) -> str:
    calls = counts["alter calls"] + counts["describe calls"]
    ok = counts["alter calls ok"] + counts["describe calls ok"]
    text = (
        f"calls ok {ok}/{calls} (alters {counts['alter calls ok']}/{counts['alter calls']}), "
        f"resources ok {counts['resources ok']}/{counts['resources']}, typed errors "
        f"{counts['calls typed error']} (outcome unknown {counts['calls outcome unknown']}), "
        f"hangs {counts['hangs']}, wrong {counts['wrong']}, untyped {counts['untyped errors']}, "
        f"longest call {counts['longest call ms'] / 1000:.1f} s"
    )
    errors = {name[6:]: n for name, n in counts.items() if name.startswith("error ")}
    if errors:
        text += ", errors " + ", ".join(f"{name} {n}" for name, n in sorted(errors.items()))
    if leaked:
        text += f", LEAKED {', '.join(leaked)}"
    if counts["aborted"]:
        text += f", ABORTED after {ROUND_LIMIT:g} s"
    return text


def _figures(
    totals: Counter[str], per_kind: dict[str, Counter[str]], seconds: float
) -> list[tuple[str, str]]:
    calls = totals["alter calls"] + totals["describe calls"]
    ok = totals["alter calls ok"] + totals["describe calls ok"]
    sick: Counter[str] = Counter()
    for name, counts in per_kind.items():
        if _kind(name).node_fault:
            _add(sick, counts)
    sick_calls = sick["alter calls"] + sick["describe calls"]
    sick_ok = sick["alter calls ok"] + sick["describe calls ok"]
    rate = f"{100 * sick_ok / sick_calls:.1f}%" if sick_calls else "n/a"
    return [
        ("rounds survived", f"{totals['survived']} of {totals['rounds']}"),
        ("calls succeeded", f"{ok} of {calls}"),
        ("resources succeeded", f"{totals['resources ok']} of {totals['resources']}"),
        ("calls ended in a typed error", str(totals["calls typed error"])),
        ("of which outcome unknown", str(totals["calls outcome unknown"])),
        ("untyped errors", str(totals["untyped errors"])),
        ("hangs (a call past its deadline + 2 s)", str(totals["hangs"])),
        ("partial or wrong changes", str(totals["wrong"])),
        ("leaks (tasks, descriptors, JVMs)", str(totals["leaks"])),
        (
            "calls succeeded with one node of three frozen or killed",
            f"{rate} ({sick_ok} of {sick_calls}, default {DEFAULT_TIMEOUT:g} s deadline)",
        ),
        ("run time", f"{seconds / 60:.0f} min"),
    ]


def _kind(name: str) -> Kind:
    return next(kind for kind in KINDS if kind.name == name)


def _record(
    rounds: int,
    lines: Sequence[str],
    figures: Sequence[tuple[str, str]],
    per_kind: dict[str, Counter[str]],
    loads: Sequence[float],
    began_at: datetime,
    commit: str,
) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "faults-rounds.txt").write_text("\n".join(lines) + "\n")
    load = sum(loads) / len(loads) if loads else 0.0
    document = {
        "title": "Fault rounds",
        "command": f"python3 -m nox -s faults -- {rounds} --record",
        "recorded": began_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": commit,
        "machine": f"{os.cpu_count()} cores, load average {load:.1f} (mean over the rounds, "
        f"{min(loads, default=0):.1f} to {max(loads, default=0):.1f})",
        "figures": [{"label": label, "value": value} for label, value in figures],
        "rows": [_row(name, counts) for name, counts in per_kind.items()],
    }
    (RESULTS / "reliability").mkdir(exist_ok=True)
    path = RESULTS / "reliability" / "faults.json"
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def _commit() -> str:
    """The code the rounds run (taken at the start: the tree may move on during a long run)."""
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()


def _row(name: str, counts: Counter[str]) -> dict[str, str | int]:
    return {
        "scenario": name,
        "rounds": counts["rounds"],
        "survived": counts["survived"],
        "alters ok": f"{counts['alter calls ok']} of {counts['alter calls']}",
        "describes ok": f"{counts['describe calls ok']} of {counts['describe calls']}",
        "typed errors": counts["calls typed error"],
        "outcome unknown": counts["calls outcome unknown"],
        "hangs": counts["hangs"],
        "wrong": counts["wrong"],
        "leaks": counts["leaks"],
        "longest call (s)": f"{counts['longest call ms'] / 1000:.1f}",
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=len(KINDS))
    parser.add_argument(
        "--record", action="store_true", help="write the results under benchmarks/results/"
    )
    parser.add_argument(
        "--kinds", default="", help="only the kinds whose name contains this (e.g. 'frozen')"
    )
    arguments = parser.parse_args(argv)
    kinds = [kind for kind in KINDS if arguments.kinds in kind.name]
    if not kinds:
        parser.error(f"no kind of round is named like {arguments.kinds!r}")
    sys.exit(anyio.run(_main, arguments.rounds, arguments.record, kinds))


if __name__ == "__main__":
    main()
