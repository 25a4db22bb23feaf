"""Start and stop JVMs in their own process groups, and never leave one behind.

Every JVM this package starts is recorded in a registry; an ``atexit`` hook kills whatever is
still running when the interpreter exits (test failures, Ctrl-C, sys.exit). When started from
the main thread the JVM also gets ``PR_SET_PDEATHSIG`` so it dies even if Python is SIGKILLed.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

#: The maximum heap of a broker's JVM unless ``broker_heap`` asks for another.
DEFAULT_BROKER_HEAP = "512m"

#: Flags that keep a test broker light on a small (2-core) machine: the serial collector avoids
#: GC threads per core, C1-only JIT starts faster, and a small initial heap keeps RSS down.
JVM_FLAGS = (
    "-Xms64m",
    f"-Xmx{DEFAULT_BROKER_HEAP}",
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-XX:+PerfDisableSharedMem",
    "-Djava.awt.headless=true",
)

_PR_SET_PDEATHSIG = 1
_live: dict[int, subprocess.Popen[bytes]] = {}
_live_lock = threading.Lock()


def _die_with_parent() -> None:
    """Runs in the child before exec: ask the kernel to SIGKILL it when the parent dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _preexec() -> Callable[[], None] | None:
    # PDEATHSIG fires when the *thread* that forked exits, so only the main thread may use it;
    # otherwise a broker restarted from asyncio.to_thread would die with that worker thread.
    if threading.current_thread() is threading.main_thread() and os.uname().sysname == "Linux":
        return _die_with_parent
    return None


def spawn(command: Sequence[str], *, cwd: Path, console_log: Path) -> subprocess.Popen[bytes]:
    """Start ``command`` in a new session (its own process group), output to ``console_log``."""
    with console_log.open("ab") as out:
        process = subprocess.Popen(
            list(command),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_preexec(),
        )
    with _live_lock:
        _live[process.pid] = process
    return process


def _signal_group(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
        os.killpg(process.pid, sig)


def terminate(processes: Sequence[subprocess.Popen[bytes]], *, grace: float) -> None:
    """SIGTERM each process group, wait up to ``grace`` seconds, then SIGKILL what is left."""
    for process in processes:
        if process.poll() is None:
            _signal_group(process, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for process in processes:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _signal_group(process, signal.SIGKILL)
            process.wait()
        # The group may hold helpers even after the leader exits; make sure they are gone too.
        _signal_group(process, signal.SIGKILL)
        with _live_lock:
            _live.pop(process.pid, None)


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group at once, as a crash would end it, and reap it."""
    _signal_group(process, signal.SIGKILL)
    process.wait()
    with _live_lock:
        _live.pop(process.pid, None)


def live_pids() -> list[int]:
    """PIDs of JVMs started by this process that have not been stopped yet."""
    with _live_lock:
        return [pid for pid, process in _live.items() if process.poll() is None]


@atexit.register
def _kill_leftovers() -> None:
    with _live_lock:
        leftovers = list(_live.values())
    terminate(leftovers, grace=5.0)
