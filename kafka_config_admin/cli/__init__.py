"""The ``kafka-config-admin`` command: thin over the SDK, ``state``, ``desired``, ``changeset``.

Needs the ``cli`` extra: ``pip install 'kafka-config-admin[cli]'``. See docs/cli.md. The commands
are declared in ``_commands`` (click alone) and import their work when they run, so ``--help`` and
usage errors answer at once.
"""

from __future__ import annotations

from ._commands import cli
from ._exit import ExitCode
from ._main import main

__all__ = ["ExitCode", "cli", "main"]
