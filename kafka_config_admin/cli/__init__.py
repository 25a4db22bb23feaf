"""The ``kafka-config-admin`` command line, thin over the SDK and :mod:`kafka_config_admin.desired`.

Needs the ``cli`` extra: ``pip install 'kafka-config-admin[cli]'``. See docs/cli.md. A command's
module is imported when the command is chosen (``_main.COMMANDS``), so ``--help`` answers at once.
"""

from __future__ import annotations

from ._main import ExitCode, cli, main

__all__ = ["ExitCode", "cli", "main"]
