"""``python -m benchmarks cli --part journal``: what the journal adds to ``apply`` of N topics.

The same command, ``apply FILE --yes`` of a file setting ``retention.ms`` of every topic (a
value of its own each time, so that every apply changes every topic), with the journal on
(the CLI as users run it: one row per topic in an SQLite file) and off (the same entry point
in the same kind of process, its recorder replaced by none: the journal is the only
difference), alternated ``--repeats`` times in the same run on the same broker and topics.
Issue 31 asks for at most 5% more. Each figure is the median wall and CPU seconds (user +
system of the process; a loaded machine disturbs CPU less than wall time).
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


def markdown(part: dict[str, Any]) -> list[str]:
    """The part's table: each side's medians and the ratio of with to without."""
    runs: Sequence[dict[str, dict[str, float]]] = part["runs"]

    def median(name: str, what: str) -> float:
        return statistics.median(run[name][what] for run in runs)

    lines = [
        "### The journal's cost in `apply`",
        "",
        f"`{part['command']}` at commit {part['commit']}: Apache Kafka {part['kafka']} (single "
        f"KRaft node), `apply FILE --yes` of {part['topics']} topics (one row per topic "
        f"recorded), with the journal and without, alternated, {len(runs)} repeats. Load "
        f"average (1, 5, 15 min) before: {part['load_before']}; after: {part['load_after']}. "
        "Medians.",
        "",
        "| apply | wall s | CPU s |",
        "|---|---|---|",
    ]
    for name, said in (("without_journal", "without the journal"), ("with_journal", "with it")):
        lines.append(f"| {said} | {median(name, 'seconds'):.2f} | {median(name, 'cpu'):.2f} |")
    wall = median("with_journal", "seconds") / median("without_journal", "seconds")
    cpu = median("with_journal", "cpu") / median("without_journal", "cpu")
    lines += ["", f"With the journal over without: wall {wall:.3f}x, CPU {cpu:.3f}x.", ""]
    return lines
