"""``watch --max-per-poll`` combined with ``--match`` and ``--stats`` as a real process, topics
created and deleted under it (issue 35's bounded poll at the terminal)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import anyio
import pytest

from kafka_config_admin import NewTopic

from .cli_helpers import with_admin
from .helpers import unique_name
from .test_cli_watch import Watcher, set_retention
from .test_issue35_hostile import delete_topic

pytestmark = pytest.mark.integration


@pytest.fixture
def watchers() -> Iterator[list[Watcher]]:
    started: list[Watcher] = []
    yield started
    for watcher in started:
        watcher.kill()


def create(bootstrap: str, *names: str) -> None:
    with_admin(
        bootstrap, lambda admin: admin.create_topics([NewTopic(name) for name in names]).all()
    )


def resources_read(line: str) -> int:
    found = re.search(r"(\d+) resources read", line)
    assert found, line
    return int(found.group(1))


def test_a_bound_above_the_matched_topics_reads_each_at_every_poll_and_sees_them_come_and_go(
    kafka_bootstrap: str, watchers: list[Watcher]
) -> None:
    prefix = unique_name() + "-"
    made = [f"{prefix}{i}" for i in range(3)]
    create(kafka_bootstrap, *made)
    watcher = Watcher(
        "-b",
        kafka_bootstrap,
        "--match",
        re.escape(prefix) + ".*",
        "--max-per-poll",
        "1000000",
        "--stats",
        "--interval",
        "1",
    )
    watchers.append(watcher)
    watcher.wait_for("err", "baseline of 3 resources")
    first = watcher.wait_for("err", "resources read")
    assert resources_read(first) == 3, first  # only the matched topics, the bound far above

    set_retention(kafka_bootstrap, made[1], "7200000")
    assert "retention.ms added" in watcher.wait_for("out", made[1], timeout=60)
    create(kafka_bootstrap, f"{prefix}new")
    anyio.run(delete_topic, kafka_bootstrap, made[0])
    watcher.wait_for("out", f"{prefix}new", timeout=60)
    watcher.wait_for("out", f"'{made[0]}'", timeout=60)
    assert watcher.interrupt() == 130
    reads = [resources_read(line) for line in watcher.err_lines if "resources read" in line]
    assert set(reads) <= {2, 3, 4}, reads  # never a topic --match leaves out
    assert not any("Traceback" in line for line in watcher.err_lines)
    # One line per event: the change, the topic that appeared, the topic that went.
    assert len(watcher.out_lines) == 3, watcher.out_lines
