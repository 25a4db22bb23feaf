"""``python -m kafka_config_admin`` and the ``kafka-config-admin`` script: the command line.

It needs the ``cli`` extra (click, rich); without it, one line says how to install it.
"""

from __future__ import annotations

import sys


def run() -> None:
    """Start the command line, or say which extra is missing."""
    try:
        from .cli import main

        main()  # a command's module (rich...) is imported when the command is chosen
    except ModuleNotFoundError as missing:
        if missing.name not in ("click", "rich"):
            raise
        sys.exit(
            f"kafka-config-admin: {missing.name} is missing: pip install 'kafka-config-admin[cli]'"
        )


if __name__ == "__main__":
    run()
