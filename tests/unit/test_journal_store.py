"""The journal's SQLite file: where it is, concurrent writers, filters, a file it cannot write,
a process killed after its write, an apply's rows written whole or not at all."""

from __future__ import annotations

import multiprocessing
import os
import signal
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from kafka_config_admin import InvalidArgumentError
from kafka_config_admin.journal import (
    Journal,
    JournalError,
    JournalQuery,
    Origin,
    journal_path,
)

from .journal_helpers import ENTRY


def test_the_path_is_the_argument_then_the_variable_then_xdg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert journal_path(tmp_path / "j.sqlite") == tmp_path / "j.sqlite"
    monkeypatch.setenv("KAFKA_CONFIG_ADMIN_JOURNAL", str(tmp_path / "env.sqlite"))
    assert journal_path() == tmp_path / "env.sqlite"
    monkeypatch.delenv("KAFKA_CONFIG_ADMIN_JOURNAL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert journal_path() == tmp_path / "data" / "kafka-config-admin" / "journal.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # not absolute: ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    expected = tmp_path / "home" / ".local" / "share" / "kafka-config-admin" / "journal.sqlite"
    assert journal_path() == expected


def test_rows_read_back_as_written_and_filtered(tmp_path: Path) -> None:
    journal = Journal.at(tmp_path / "deep" / "journal.sqlite")
    assert journal.entries() == []  # no file yet: no rows, and no file made by a read
    assert not journal.path.exists()
    later = replace(
        ENTRY,
        change_set="cs2",
        time=ENTRY.time + timedelta(hours=2),
        user="bob",
        face="web",
        resource_type="quota",
        resource_name="user=alice",
        entity={"user": "alice"},
        key="producer_byte_rate",
        old_value=None,
        new_value="1024",
    )
    ids = journal.record([ENTRY, later])
    assert ids == [1, 2]
    assert journal.entries() == [replace(ENTRY, id=1), replace(later, id=2)]
    assert journal.entry(2) == replace(later, id=2)
    assert journal.entry(3) is None

    def ids_of(**query: object) -> list[int | None]:
        return [entry.id for entry in journal.entries(JournalQuery(**query))]  # type: ignore[arg-type]

    assert ids_of(resource="topic:orders") == ids_of(resource="orders") == [1]
    assert ids_of(resource="quota:user=alice") == [2]
    assert ids_of(cluster="abc") == ids_of(cluster="prod") == [1, 2]
    assert ids_of(user="bob") == ids_of(face="web") == ids_of(change_set="cs2") == [2]
    assert ids_of(key="retention.ms") == [1]
    assert ids_of(since=ENTRY.time + timedelta(hours=1)) == [2]
    assert ids_of(until=ENTRY.time + timedelta(hours=1)) == [1]
    assert ids_of(limit=1) == [2]  # the newest


def test_an_applys_ids_follow_the_rows_already_written(tmp_path: Path) -> None:
    journal = Journal.at(tmp_path / "journal.sqlite")
    assert journal.record([ENTRY] * 2) == [1, 2]
    later = [replace(ENTRY, resource_name=f"t{index}") for index in range(3)]
    ids = journal.record(later)
    assert ids == [3, 4, 5]
    assert [journal.entry(id_) for id_ in ids] == [
        replace(entry, id=id_) for entry, id_ in zip(later, ids, strict=True)
    ]


def test_a_file_that_cannot_be_written_is_a_journal_error_naming_it(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    journal = Journal.at(blocker / "journal.sqlite")
    with pytest.raises(
        JournalError, match=r"the journal .*a-file/journal.sqlite cannot be written"
    ):
        journal.record([ENTRY])


def _write_many(path: str, writer: int, count: int) -> None:
    journal = Journal.at(path)
    for index in range(count):
        journal.record([replace(ENTRY, change_set=f"w{writer}-{index}")])


def test_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    writers, each = 4, 150
    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(target=_write_many, args=(path, writer, each)) for writer in range(writers)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
        assert process.exitcode == 0
    written = {entry.change_set for entry in Journal.at(path).entries()}
    assert written == {f"w{w}-{i}" for w in range(writers) for i in range(each)}


def _record_then_die(path: str, count: int) -> None:
    Journal.at(path).record([replace(ENTRY, change_set="before-the-crash")] * count)
    os.kill(os.getpid(), signal.SIGKILL)  # no close, no exit handler, no checkpoint


def test_rows_recorded_survive_the_process_killed_right_after(tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sqlite")
    process = multiprocessing.get_context("spawn").Process(
        target=_record_then_die, args=(path, 2000)
    )
    process.start()
    process.join(120)
    assert process.exitcode == -signal.SIGKILL
    rows = Journal.at(path).entries(JournalQuery(change_set="before-the-crash"))
    assert len(rows) == 2000


def test_an_applys_rows_are_written_all_or_none(tmp_path: Path) -> None:
    journal = Journal.at(tmp_path / "journal.sqlite")
    journal.record([replace(ENTRY, change_set="first")])
    unwritable = replace(ENTRY, change_set="second", time=datetime(2026, 11, 27, 6, 0))
    with pytest.raises(JournalError, match="a journal time needs its time zone"):
        journal.record([replace(ENTRY, change_set="second")] * 10 + [unwritable])
    assert [entry.change_set for entry in journal.entries()] == ["first"]


def test_an_origin_names_one_of_the_faces() -> None:
    assert Origin(face="sdk", user="alice", cluster="prod").face == "sdk"
    with pytest.raises(InvalidArgumentError, match="face 'mobile': a journal's face is one of"):
        Origin(face="mobile", user="alice", cluster="prod")
