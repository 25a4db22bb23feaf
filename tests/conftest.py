"""What every test shares: the journal in the test's own directory, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _journal_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every change a test applies (through the CLI, a subprocess, the web editor, Spark) is
    journaled under ``tmp_path``; the XDG data directory points there too."""
    journal = tmp_path / "journal" / "journal.sqlite"
    monkeypatch.setenv("KAFKA_CONFIG_ADMIN_JOURNAL", str(journal))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return journal
