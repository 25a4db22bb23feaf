"""Medians, spread and ratios to our SDK, as a markdown table and JSON."""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .runner import W3_REPS_PER_REP

OURS = "kafka-config-admin"
TITLES = {
    "w1": "W1 describe all configs of all topics (s)",
    "w2": "W2 1,000 single-topic describes (s; p50/p99 ms)",
    "w3": "W3 incremental alter of one key on each topic (s)",
    "w4": "W4 50 concurrent describes (s)",
}


#: The per-call figures a workload's runs may hold, pooled over rounds by :func:`merge`.
SAMPLES = (
    "seconds",
    "cpu_seconds",
    "p50_ms",
    "p99_ms",
    "broker_cpu_seconds",
    "broker_bytes_written",
    "bytes_received",
)


def median(values: list[float]) -> float:
    return statistics.median(values)


def merge(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """One peer's runs of every round as one run: samples pooled, memory as the median round."""
    merged: dict[str, Any] = {"peer": rounds[0]["peer"], "workloads": {}}
    for key, first in rounds[0]["workloads"].items():
        pooled = dict(first)
        for name in SAMPLES:
            if name in first:
                pooled[name] = [x for run in rounds for x in run["workloads"][key][name]]
        merged["workloads"][key] = pooled
    if "w1_memory" in rounds[0]:
        merged["w1_memory"] = {
            name: median([run["w1_memory"][name] for run in rounds])
            for name in rounds[0]["w1_memory"]
        }
    return merged


def cell(result: dict[str, Any], ours: dict[str, Any] | None) -> str:
    if "unsupported" in result:
        return f"n/a: {result['unsupported']}"
    seconds = result["seconds"]
    text = f"{median(seconds):.3f} ({min(seconds):.3f}-{max(seconds):.3f})"
    if "p50_ms" in result:
        text += f"; {median(result['p50_ms']):.2f}/{median(result['p99_ms']):.2f} ms"
    if ours is not None and "seconds" in ours:
        text += f"; {median(seconds) / median(ours['seconds']):.2f}x"
    if "note" in result:
        text += f" [{result['note']}]"
    return text


def table(
    runs: list[dict[str, Any]],
    row_title: Callable[[str], str],
    cell_of: Callable[[str, dict[str, Any]], str],
) -> list[str]:
    """A markdown table: a row per workload, a column per client."""
    lines = [
        "| workload | " + " | ".join(run["peer"] for run in runs) + " |",
        "|---|" + "---|" * len(runs),
    ]
    for key, title in TITLES.items():
        row = [cell_of(key, run["workloads"][key]) for run in runs]
        lines.append(f"| {row_title(title)} | " + " | ".join(row) + " |")
    return lines


def cpu_cell(result: dict[str, Any]) -> str:
    if "cpu_seconds" not in result:
        return "n/a"
    return f"{median(result['cpu_seconds']) * 1000:.1f}"


def markdown(runs: list[dict[str, Any]], context: dict[str, Any]) -> str:
    ours: dict[str, Any] = next((r["workloads"] for r in runs if r["peer"] == OURS), {})
    lines = [
        f"Broker: Apache Kafka {context['kafka']} (single KRaft node, JVM), {context['topics']} "
        f"topics. {context['rounds']} rounds, each client {context['reps']} repetitions a round "
        f"(W2: {max(1, context['reps'] // 2)} run of 1,000 calls a round; W3: "
        f"{W3_REPS_PER_REP * context['reps']}), clients in a rotating "
        "order. Cells: median (min-max) of all rounds; ratio = median / our median (lower is "
        "faster).",
        "",
        *table(runs, str, lambda key, result: cell(result, ours.get(key))),
        "",
        "Client CPU time (ms, median of the same runs): what the client's process spent itself, "
        "while the broker's work and the waiting are left out (Python: time.process_time; "
        "Java: the CPU time of the JVM's Java threads, the JIT compiler's included and the GC's "
        "not).",
        "",
        *table(runs, lambda title: title.split(" (")[0], lambda key, result: cpu_cell(result)),
    ]
    memory = [
        f"{run['peer']}: result {run['w1_memory']['result_mb']:.1f} MB, peak "
        f"{run['w1_memory']['peak_mb']:.1f} MB"
        for run in runs
        if "w1_memory" in run
    ]
    if memory:
        lines += ["", "W1 memory (tracemalloc, Python clients): " + "; ".join(memory)]
    return "\n".join(lines) + "\n"


def write(runs: list[dict[str, Any]], context: dict[str, Any], directory: Path) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    table = markdown(runs, context)
    (directory / "results.md").write_text(table)
    (directory / "results.json").write_text(
        json.dumps({"context": context, "runs": runs}, indent=2) + "\n"
    )
    return table
