"""The ``kafka-config-admin`` command line, thin over the SDK and :mod:`kafka_config_admin.desired`.

Needs the ``cli`` extra: ``pip install 'kafka-config-admin[cli]'``. See docs/cli.md.
"""

from __future__ import annotations

from . import (  # noqa: F401  (registers the commands)
    _alter,
    _describe,
    _desired,
    _diff,
    _export,
    _watch,
    _web,
)
from ._main import ExitCode, cli, main

__all__ = ["ExitCode", "cli", "main"]
