"""Medians, spread and ratios to our SDK, as a markdown table and JSON."""

from __future__ import annotations

import json
import statistics
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


def median(values: list[float]) -> float:
    return statistics.median(values)


def merge(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """One peer's runs of every round as one run: samples pooled, memory as the median round."""
    merged: dict[str, Any] = {"peer": rounds[0]["peer"], "workloads": {}}
    for key, first in rounds[0]["workloads"].items():
        pooled = dict(first)
        for name in ("seconds", "cpu_seconds", "p50_ms", "p99_ms"):
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
        "| workload | " + " | ".join(run["peer"] for run in runs) + " |",
        "|---|" + "---|" * len(runs),
    ]
    for key, title in TITLES.items():
        row = [cell(run["workloads"][key], ours.get(key)) for run in runs]
        lines.append(f"| {title} | " + " | ".join(row) + " |")
    lines += [
        "",
        "Client CPU time (ms, median of the same runs): what the client's process spent itself, "
        "while the broker's work and the waiting are left out (Python: time.process_time; "
        "Java: the CPU time of the JVM's Java threads, the JIT compiler's included and the GC's "
        "not).",
        "",
        "| workload | " + " | ".join(run["peer"] for run in runs) + " |",
        "|---|" + "---|" * len(runs),
    ]
    for key, title in TITLES.items():
        row = [cpu_cell(run["workloads"][key]) for run in runs]
        lines.append(f"| {title.split(' (')[0]} | " + " | ".join(row) + " |")
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
