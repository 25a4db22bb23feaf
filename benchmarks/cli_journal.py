"""``python -m benchmarks cli --part journal``: what the journal adds to ``apply`` of N topics.

The same command, ``apply FILE --yes`` of a file setting ``retention.ms`` of every topic (a
value of its own each time, so that every apply changes every topic), with the journal on
(the CLI as users run it: one row per topic in an SQLite file) and off (the same entry point
in the same kind of process, its recorder replaced by none: the journal is the only
difference), alternated ``--repeats`` times in the same run on the same broker and topics.
Issue 31 asks for at most 5% more. Each pair (one apply with, one without, back to back,
the order swapped every other pair) gives a ratio of with to without, of wall and of CPU
seconds (user + system of the process); the figure is the median of the pairs' ratios, which
a pair disturbed by another process's burst moves less than a ratio of medians. A loaded
machine disturbs CPU less than wall time: both are reported.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: ``apply`` as the CLI runs it, with the command's recorder replaced by none.
WITHOUT_JOURNAL = (
    "import sys\n"
    "import kafka_config_admin.cli._desired as desired\n"
    "desired.recorder = lambda *args, **kwargs: None\n"
    "from kafka_config_admin.cli._main import main\n"
    "main(sys.argv[1:])\n"
)


def journal_round(
    bootstrap: str,
    topics: list[str],
    index: int,
    work: Path,
    measured: Callable[..., tuple[float, float, str]],
    desired_file: Callable[[Path, list[str], int], Path],
) -> dict[str, dict[str, float]]:
    """``apply`` with the journal, then without (the order swapped every other round)."""
    base = 11_000_000 + index * 4 * 60_000
    journal = work / "journal.sqlite"
    commands: dict[str, list[str]] = {
        "with_journal": [sys.executable, "-m", "kafka_config_admin"],
        "without_journal": [sys.executable, "-c", WITHOUT_JOURNAL],
    }
    order = list(commands) if index % 2 == 0 else list(reversed(commands))
    results: dict[str, dict[str, float]] = {}
    for step, name in enumerate(order):
        file = desired_file(work / f"journal-{name}.yaml", topics, base + step * 60_000)
        command = [*commands[name], "apply", str(file), "--yes", "--bootstrap-server", bootstrap]
        seconds, cpu, _ = measured(command, env_update={"KAFKA_CONFIG_ADMIN_JOURNAL": str(journal)})
        results[name] = {"seconds": seconds, "cpu": cpu}
    return results


def pair_ratios(runs: Sequence[dict[str, dict[str, float]]], what: str) -> list[float]:
    """Each pair's ratio of with to without, of ``what`` (``seconds`` or ``cpu``)."""
    return [run["with_journal"][what] / run["without_journal"][what] for run in runs]


def markdown(part: dict[str, Any]) -> list[str]:
    """The part's table: each side's medians, and the median of the pairs' ratios."""
    runs: Sequence[dict[str, dict[str, float]]] = part["runs"]

    def median(name: str, what: str) -> float:
        return statistics.median(run[name][what] for run in runs)

    lines = [
        "### The journal's cost in `apply`",
        "",
        f"`{part['command']}` at commit {part['commit']}: Apache Kafka {part['kafka']} (single "
        f"KRaft node), `apply FILE --yes` of {part['topics']} topics (one row per topic "
        f"recorded), with the journal and without, {len(runs)} pairs back to back, the order "
        f"swapped every other pair. Load average (1, 5, 15 min) before: {part['load_before']}; "
        f"after: {part['load_after']}.",
        "",
        "| apply | median wall s | median CPU s |",
        "|---|---|---|",
    ]
    for name, said in (("without_journal", "without the journal"), ("with_journal", "with it")):
        lines.append(f"| {said} | {median(name, 'seconds'):.2f} | {median(name, 'cpu'):.2f} |")
    wall, cpu = pair_ratios(runs, "seconds"), pair_ratios(runs, "cpu")
    lines += [
        "",
        "With the journal over without, the median of the pairs' ratios: "
        f"wall {statistics.median(wall):.3f}x, CPU {statistics.median(cpu):.3f}x.",
        "",
        f"Per pair, wall: {', '.join(f'{ratio:.2f}' for ratio in wall)}; "
        f"CPU: {', '.join(f'{ratio:.2f}' for ratio in cpu)}.",
        "",
    ]
    return lines
