"""Benchmarks: kafka-config-admin against every peer, on one real broker (`nox -s bench`).

- ``dataset``: the topics the workloads read and change.
- ``peers``: one module per client, each used the way its own docs recommend, plus ``floor``,
  the same requests pre-encoded over a plain socket with responses read but not decoded.
- ``runner``: runs one client's workloads in a subprocess of its own and prints JSON.
- ``report``: medians, spread and ratios to our SDK, as markdown and JSON.
- ``spark`` (``python -m benchmarks spark``): snapshot throughput and memory of the Spark source.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: What a Kafka broker's command line holds (the JVM backend's brokers are ``kafka.Kafka``).
BROKER_MAIN = b"kafka.Kafka"
#: The environment variable naming the measured cluster's broker processes (comma-separated
#: pids) to a client's process: each timed call then records the brokers' CPU and bytes written.
BROKER_PIDS = "BENCH_BROKER_PIDS"


def run_json_module(
    module: str, *args: str, tree: Path | None = None, timeout: float | None = None
) -> dict[str, Any]:
    """Run ``python -m module args`` from the repository root (or from another source ``tree``
    of it, whose packages it then imports); its last output line, as JSON. A process still
    running after ``timeout`` seconds is killed (``subprocess.TimeoutExpired``)."""
    output = subprocess.run(
        [sys.executable, "-m", module, *args],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        cwd=tree or Path(__file__).parent.parent,
        timeout=timeout,
    ).stdout
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result


def machine() -> dict[str, Any]:
    """What the figures were measured on, and how busy it was (load averages now)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent,
    ).stdout.strip()
    return {
        "cores": os.cpu_count(),
        "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30),
        "commit": commit or "unknown",
        "load": [round(value, 1) for value in os.getloadavg()],
        "open_files_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    }


def memory_mb(field: str = "VmRSS") -> float:
    """A memory figure of this process from /proc/self/status (Linux), in MB: ``VmRSS`` now,
    ``VmHWM`` its peak since :func:`reset_peak_rss`."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024 / 1e6  # kB
    raise RuntimeError(f"/proc/self/status has no {field}")


def reset_peak_rss() -> None:
    """Make the peak RSS (``VmHWM``) the current RSS: what follows is measured on its own.

    ``getrusage``'s peak cannot be reset, and a process forked from a larger one starts with
    that one's peak.
    """
    Path("/proc/self/clear_refs").write_text("5")


def processes() -> Iterator[tuple[Path, bytes]]:
    """Every process's ``/proc`` directory with its command line (those that end meanwhile, or
    that are not ours to read, are left out)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                yield entry, (entry / "cmdline").read_bytes()
            except OSError:
                continue


def broker_pids(directory: Path) -> list[int]:
    """The pids of the Kafka brokers whose command line names ``directory`` (a cluster's own)."""
    root = str(directory).encode()
    return sorted(
        int(entry.name)
        for entry, command in processes()
        if BROKER_MAIN in command and root in command
    )


def broker_counters(pids: list[int]) -> tuple[float, int]:
    """CPU seconds (user + system) and bytes written (``wchar``: sockets and files alike) so
    far by the processes ``pids``, together; a process gone meanwhile counts nothing."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu, written = 0.0, 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            io = Path(f"/proc/{pid}/io").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        cpu += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        written += next(int(line.split()[1]) for line in io.splitlines() if line[:6] == "wchar:")
    return cpu, written


def tree_cpu_seconds() -> dict[int, tuple[str, float]]:
    """CPU seconds used so far by this process and each process under it, by pid, each marked
    ``brokers`` (a Kafka broker it started) or ``rest`` (this process, Spark's JVMs and Python
    workers, any other child); :func:`cpu_between` makes two of these what the tree used in
    between. A child that ended counts with the parent that collected it (``cutime``)."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    seconds: dict[int, float] = {}
    brokers: set[int] = set()
    for directory, command in processes():
        try:
            stat = (directory / "stat").read_text()
        except OSError:
            continue
        # After "pid (command) ": state, ppid, ..., utime, stime, cutime, cstime (fields 14-17).
        fields = stat[stat.rindex(")") + 2 :].split()
        pid = int(directory.name)
        parents[pid] = int(fields[1])
        seconds[pid] = sum(int(field) for field in fields[11:15]) / tick
        if BROKER_MAIN in command:
            brokers.add(pid)
    children: defaultdict[int, list[int]] = defaultdict(list)
    for pid, parent in parents.items():
        children[parent].append(pid)
    tree: dict[int, tuple[str, float]] = {}
    under = [os.getpid()]
    while under:
        pid = under.pop()
        tree[pid] = ("brokers" if pid in brokers else "rest", seconds.get(pid, 0.0))
        under.extend(children[pid])
    return tree


def cpu_between(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> dict[str, float]:
    """CPU seconds the tree used between two :func:`tree_cpu_seconds`, brokers and the rest,
    from each process alive at the end. A process that ended meanwhile without its parent
    collecting its time (PySpark's daemon lets its workers go so) is missing: at least this."""
    used = {"brokers": 0.0, "rest": 0.0}
    for pid, (kind, seconds) in after.items():
        used[kind] += max(0.0, seconds - before.get(pid, (kind, 0.0))[1])
    return used
