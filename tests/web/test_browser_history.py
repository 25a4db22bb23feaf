"""The history page (the journal, filtered, with undo per change and per change set) and the
live page (the cluster's changes pushed with server-sent events), in Debian's Chromium driven
by Playwright, on the session's real Kafka cluster: every undo is read back from the broker."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect
from starlette.applications import Starlette

from kafka_config_admin import AdminClient, AlterConfigOp, ConfigResource, OpType, ResourceType
from kafka_config_admin.changeset import ChangeSet, apply, review
from kafka_config_admin.connect import Connection
from kafka_config_admin.journal import Journal, JournalEntry, JournalQuery, Origin, Recorder
from kafka_config_admin.testing import start_cluster
from kafka_config_admin.web import WebSettings, create_app

from .browser import serving, with_admin
from .helpers import create_topics, topic_value, unique_name
from .test_browser_design import assert_accessible

pytestmark = pytest.mark.integration

CLUSTER = "hist"
#: The live page's interval in these tests (seconds): a change must show within it. A read
#: of the session cluster takes 0.01-0.1 s; a fifth of the interval is kept for sending the
#: events to the page (:mod:`kafka_config_admin.web._live`): 0.6 s on a loaded machine.
INTERVAL = 3.0
#: Records, in the page, the wall-clock time (ms) the first row naming the topic and key of
#: its arguments is added to the live table: the moment the change shows, measured in the
#: browser (Python's time.time() reads the same clock).
WATCH_ROWS = """([topic, key]) => {
  window.liveShown = null;
  const rows = document.getElementById("live-changes");
  new MutationObserver(() => {
    if (window.liveShown === null && [...rows.rows].some(
        (row) => row.textContent.includes(topic) && row.textContent.includes(key))) {
      window.liveShown = Date.now();
    }
  }).observe(rows, {childList: true});
}"""


@pytest.fixture(scope="module")
def settings(kafka_bootstrap: str) -> WebSettings:
    return WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)},
        allow_writes=True,
        live_interval=INTERVAL,
        timeout=30,
    )


@pytest.fixture(scope="module")
def editor_app(settings: WebSettings) -> Starlette:
    return create_app(settings)


@pytest.fixture(scope="module")
def editor(settings: WebSettings, editor_app: Starlette) -> Iterator[str]:
    with serving(settings, editor_app) as url:
        yield url


def make_topics(bootstrap: str, names: list[str], configs: dict[str, str]) -> None:
    async def work(admin: AdminClient) -> None:
        await create_topics(admin, names, configs)

    with_admin(bootstrap, work)


def journaled_change(
    bootstrap: str, changes: dict[str, dict[str, str]], origin: Origin
) -> list[JournalEntry]:
    """Set ``changes`` (topic -> key -> value) through the change pipeline, journaled as
    ``origin`` (another face's change, as the CLI or Spark record theirs); its rows."""

    async def work(admin: AdminClient) -> str:
        configs = {
            ConfigResource(ResourceType.TOPIC, topic): [
                AlterConfigOp(key, value, OpType.SET) for key, value in keys.items()
            ]
            for topic, keys in changes.items()
        }
        reviewed = await review(admin, ChangeSet(configs=configs))
        report = await apply(admin, reviewed, recorder=Recorder(Journal.at(), origin))
        assert report.ok and report.change_set_id is not None, report
        return report.change_set_id

    change_set = with_admin(bootstrap, work)
    return Journal.at().entries(JournalQuery(change_set=change_set))


def other_tool_sets(bootstrap: str, topic: str, key: str, value: str) -> float:
    """A raw AdminClient alter: another tool's change, which the journal never sees; the
    wall-clock time the broker's answer to it arrived."""

    async def work(admin: AdminClient) -> float:
        resource = ConfigResource(ResourceType.TOPIC, topic)
        op = AlterConfigOp(key, value, OpType.SET)
        await admin.incremental_alter_configs({resource: [op]}).all()
        return time.time()

    return with_admin(bootstrap, work)


def value_of(bootstrap: str, topic: str, key: str) -> str | None:
    async def work(admin: AdminClient) -> str | None:
        return await topic_value(admin, topic, key)

    return with_admin(bootstrap, work)


def cli(user: str = "alice", face: str = "cli") -> Origin:
    return Origin(face=face, user=user, cluster=CLUSTER)


def confirm_undo(page: Page) -> None:
    page.get_by_label("on cluster").check()
    page.get_by_role("button", name="apply the undo").click()


def test_undo_of_one_change_from_history(page: Page, editor: str, kafka_bootstrap: str) -> None:
    topic = unique_name("hist")
    make_topics(kafka_bootstrap, [topic], {"retention.ms": "3600000"})
    rows = journaled_change(
        kafka_bootstrap, {topic: {"retention.ms": "7200000", "segment.ms": "600000"}}, cli()
    )
    retention = next(row for row in rows if row.key == "retention.ms")
    page.goto(f"{editor}/history?resource=topic:{topic}")
    row = page.locator(f"#change-{retention.id}")
    expect(row).to_contain_text("alice (cli)")
    expect(row.locator("td.old")).to_have_text("3600000 1 hour")  # the value, in words too
    expect(row.locator("td.new")).to_have_text("7200000 2 hours")
    page.get_by_role("button", name=f"undo change {retention.id}", exact=True).click()
    # the preview: what undo sends, the confirmation naming the cluster; nothing sent yet
    expect(page.locator("h1")).to_have_text(f"Undo change {retention.id}")
    expect(page.locator("table.diff")).to_contain_text("3600000")
    expect(page.locator("form.confirm label")).to_contain_text(f"1 topic on cluster {CLUSTER}")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "7200000"
    confirm_undo(page)
    expect(page.locator("h1")).to_have_text(f"Undone: change {retention.id}")
    expect(page.locator("table.outcomes")).to_contain_text("applied")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "3600000"
    assert value_of(kafka_bootstrap, topic, "segment.ms") == "600000"  # not undone: its own row
    # the undo is in the journal too: the web face, a note naming what it undid
    (undone,) = [
        e for e in Journal.at().entries(JournalQuery(resource=f"topic:{topic}")) if e.face == "web"
    ]
    assert (undone.key, undone.new_value, undone.note) == (
        "retention.ms",
        "3600000",
        f"undo of change {retention.id}",
    )


def test_undo_of_a_change_set_from_history(page: Page, editor: str, kafka_bootstrap: str) -> None:
    topics = [unique_name("histset") for _ in range(3)]
    make_topics(kafka_bootstrap, topics, {"retention.ms": "3600000"})
    rows = journaled_change(
        kafka_bootstrap, {topic: {"retention.ms": "7200000"} for topic in topics}, cli("bob")
    )
    change_set = rows[0].change_set
    page.goto(f"{editor}/history?change_set={change_set}")
    expect(page.locator("table.history tbody tr")).to_have_count(3)
    page.get_by_role("button", name=f"undo change set {change_set}", exact=True).click()
    expect(page.locator("table.diff tbody tr")).to_have_count(3)
    expect(page.locator("form.confirm label")).to_contain_text(f"3 topics on cluster {CLUSTER}")
    confirm_undo(page)
    expect(page.locator("table.outcomes tbody tr.applied")).to_have_count(3)
    for topic in topics:
        assert value_of(kafka_bootstrap, topic, "retention.ms") == "3600000"


def test_undo_leaves_a_key_changed_since_alone_unless_forced(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    topic = unique_name("histsince")
    make_topics(kafka_bootstrap, [topic], {"retention.ms": "3600000"})
    (row,) = journaled_change(kafka_bootstrap, {topic: {"retention.ms": "7200000"}}, cli())
    other_tool_sets(kafka_bootstrap, topic, "retention.ms", "9000000")
    page.goto(f"{editor}/history?resource=topic:{topic}")
    page.get_by_role("button", name=f"undo change {row.id}", exact=True).click()
    left = page.locator("table.left-alone tbody tr")
    expect(left).to_contain_text("changed since")
    expect(left).to_contain_text("9000000")  # what the cluster shows now
    expect(page.get_by_role("button", name="apply the undo")).to_have_count(0)
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "9000000"
    # ticked: undone all the same, through the same preview and confirmation
    page.get_by_label("undo the keys changed since all the same").check()
    page.get_by_role("button", name="plan the undo again").click()
    expect(page.locator("table.diff")).to_contain_text("9000000")
    expect(page.locator("table.diff")).to_contain_text("3600000")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "9000000"
    confirm_undo(page)
    expect(page.locator("table.outcomes")).to_contain_text("applied")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "3600000"


def test_an_undo_shown_then_outdated_sends_nothing(
    page: Page, editor: str, kafka_bootstrap: str
) -> None:
    """The key moves between the preview and the apply: the apply plans again, finds it
    changed since, and sends nothing."""
    topic = unique_name("histmoved")
    make_topics(kafka_bootstrap, [topic], {"retention.ms": "3600000"})
    (row,) = journaled_change(kafka_bootstrap, {topic: {"retention.ms": "7200000"}}, cli())
    page.goto(f"{editor}/c/{CLUSTER}/undo?change={row.id}")
    expect(page.locator("table.diff")).to_contain_text("3600000")
    other_tool_sets(kafka_bootstrap, topic, "retention.ms", "8000000")
    confirm_undo(page)
    expect(page.locator("h1")).to_contain_text("Not applied")
    expect(page.locator("table.left-alone")).to_contain_text("8000000")
    assert value_of(kafka_bootstrap, topic, "retention.ms") == "8000000"


def test_history_filters_keep_what_was_typed(page: Page, editor: str, kafka_bootstrap: str) -> None:
    topic = unique_name("histfilter")
    make_topics(kafka_bootstrap, [topic], {})
    journaled_change(kafka_bootstrap, {topic: {"retention.ms": "7200000"}}, cli("carol"))
    journaled_change(kafka_bootstrap, {topic: {"segment.ms": "600000"}}, cli("dave", "spark"))
    page.goto(f"{editor}/history")
    page.get_by_label("resource", exact=True).fill(f"topic:{topic}")
    page.get_by_label("user", exact=True).fill("dave")
    page.get_by_role("button", name="filter").click()
    rows = page.locator("table.history tbody tr")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("dave (spark)")
    expect(rows).to_contain_text("segment.ms")
    expect(page.get_by_label("user", exact=True)).to_have_value("dave")
    page.goto(f"{editor}/history?resource=topic:{topic}&face=cli&key=retention.ms")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("carol (cli)")
    page.goto(f"{editor}/history?resource=topic:{topic}&since=1h&until=2000-01-01")
    expect(rows).to_have_count(0)
    page.goto(f"{editor}/history?resource=topic:{topic}&since=1h")
    expect(rows).to_have_count(2)
    # a time that does not parse: said beside its field, what was typed kept
    page.get_by_label("since", exact=True).fill("last tuesday")
    page.get_by_role("button", name="filter").click()
    expect(page.locator("#error-since")).to_contain_text("'last tuesday': not a time")
    expect(page.get_by_label("since", exact=True)).to_have_value("last tuesday")
    expect(page.get_by_label("resource", exact=True)).to_have_value(f"topic:{topic}")
    exported = page.request.get(f"{editor}/history.json?resource=topic:{topic}&user=carol")
    (only,) = exported.json()["changes"]
    assert (only["user"], only["key"], only["new_value"]) == ("carol", "retention.ms", "7200000")


LIVE_PATHS = {
    "topic page": f"/c/{CLUSTER}/r/topic/{{topic}}",
    "live page of the topic": f"/c/{CLUSTER}/live?topic={{topic}}",
}


def live_latencies(page: Page, editor: str, bootstrap: str, path: str) -> list[float]:
    """Measured in the browser, from the broker's answer to the alter to the row in the page:
    the latencies of two changes to a new topic, the second half an interval after the first
    shows, so at another point of the polls' cycle (``path`` names the topic as ``{topic}``)."""
    topic = unique_name("live")
    make_topics(bootstrap, [topic], {"retention.ms": "3600000", "segment.ms": "3600000"})
    page.goto(editor + path.format(topic=topic))
    expect(page.locator("#live-status")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#live-status")).to_contain_text(f"within {INTERVAL:g} s")
    seen = []
    for key, value in [("retention.ms", "7200000"), ("segment.ms", "7200000")]:
        page.evaluate(WATCH_ROWS, [topic, key])
        done = other_tool_sets(bootstrap, topic, key, value)
        row = page.locator("#live-changes tr", has_text=topic).filter(has_text=key)
        expect(row).to_contain_text("3600000")  # before
        expect(row).to_contain_text(value)  # after
        seen.append(page.evaluate("window.liveShown") / 1000 - done)
        page.wait_for_timeout(INTERVAL * 500)  # the next change elsewhere in the cycle
    return seen


@pytest.mark.parametrize("scope", list(LIVE_PATHS))
def test_a_change_by_another_tool_appears_on_the_live_page_within_one_interval(
    page: Page, editor: str, kafka_bootstrap: str, scope: str
) -> None:
    """A topic's live view: each change under one interval."""
    seen = live_latencies(page, editor, kafka_bootstrap, LIVE_PATHS[scope])
    print(f"live ({scope}): changes by another tool shown after", [f"{s:.2f} s" for s in seen])
    assert all(0 < latency < INTERVAL for latency in seen), seen


def test_a_change_by_another_tool_appears_on_the_clusters_live_page_within_one_interval(
    page: Page,
) -> None:
    """A whole cluster's live page: each change under one interval, on a cluster whose reads
    take well under half the interval (the promise's condition, docs/web.md). The suite's own
    cluster is not one: by the end of a full run it holds thousands of topics, and each read
    of all of them takes seconds."""
    with start_cluster(brokers=1) as cluster:
        settings = WebSettings(
            clusters={CLUSTER: Connection(bootstrap_servers=cluster.bootstrap_servers)},
            live_interval=INTERVAL,
            timeout=30,
        )
        with serving(settings) as url:
            path = f"/c/{CLUSTER}/live"
            seen = live_latencies(page, url, cluster.bootstrap_servers, path)
    print("live (live page): changes by another tool shown after", [f"{s:.2f} s" for s in seen])
    assert all(0 < latency < INTERVAL for latency in seen), seen


def test_the_live_stream_for_a_read_only_user_ends_on_disconnect_and_on_stop(
    kafka_bootstrap: str,
) -> None:
    settings = WebSettings(
        clusters={CLUSTER: Connection(bootstrap_servers=kafka_bootstrap)},
        live_interval=INTERVAL,
        timeout=30,
    )
    app = create_app(settings)
    streams = app.state.live
    server = serving(settings, app)
    url = server.__enter__()
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            shown = client.get(f"/c/{CLUSTER}/live")
            assert shown.status_code == 200 and "read-only" in shown.text
            assert '<script src="/static/live.js"></script>' in shown.text
            assert "script-src 'self';" in shown.headers["content-security-policy"]
            # One topic's stream: its baseline is one read of one topic whatever the suite's
            # cluster holds by then, so "read as it opens" is under one interval.
            topic = unique_name("livebaseline")
            make_topics(kafka_bootstrap, [topic], {})
            events = f"/c/{CLUSTER}/live/events?topic={topic}"
            opened = time.monotonic()
            with client.stream("GET", events) as first, client.stream("GET", events) as second:
                assert first.headers["content-type"].startswith("text/event-stream")
                # kept: a reader dropped closes its connection
                first_lines, second_lines = first.iter_lines(), second.iter_lines()
                # first the reconnection delay, then the baseline, read as the stream opens
                retry, blank, ready = _until_ready(first_lines).splitlines()
                assert (retry, blank, ready) == (
                    f"retry: {INTERVAL * 1000:.0f}",
                    "",
                    "event: ready",
                )
                baseline = time.monotonic() - opened
                assert baseline < INTERVAL, baseline
                print(f"live: the baseline read and sent {baseline:.2f} s after the stream opened")
                assert "event: ready" in _until_ready(second_lines)
                time.sleep(0.5)
                assert (streams.open, streams.polling) == (2, 1)  # one poll loop for both
            closed = time.monotonic()
            while (streams.open or streams.polling) and time.monotonic() - closed < 10:
                time.sleep(0.05)
            assert (streams.open, streams.polling) == (0, 0)
            print(f"live: all ended {time.monotonic() - closed:.2f} s after the clients went")
            with client.stream("GET", events) as stream:
                lines = stream.iter_lines()
                _until_ready(lines)
                stopping = time.monotonic()
                server.__exit__(None, None, None)  # raises unless stopped within 30 s
                stopped = time.monotonic() - stopping
                list(lines)  # returns: the server ended the stream
        assert streams.open == 0 and stopped < 5, stopped
        print(f"live: server with an open stream stopped in {stopped:.2f} s")
    finally:
        if not streams.stopping:
            server.__exit__(None, None, None)


def test_a_stream_keeps_its_changes_when_the_stream_polling_for_it_goes(
    editor: str, kafka_bootstrap: str
) -> None:
    """Two pages follow one topic with one poll; the first (which ran the polls) closes; the
    second runs them from then on and still sees another tool's change."""
    topic = unique_name("livehandover")
    make_topics(kafka_bootstrap, [topic], {"retention.ms": "3600000"})
    events = f"/c/{CLUSTER}/live/events?topic={topic}"
    with httpx.Client(base_url=editor, timeout=30) as client:
        first = client.send(client.build_request("GET", events), stream=True)
        first_lines = first.iter_lines()
        _until_ready(first_lines)  # the first stream has read the baseline: it polls
        with client.stream("GET", events) as second:
            second_lines = second.iter_lines()
            _until_ready(second_lines)
            first.close()
            done = other_tool_sets(kafka_bootstrap, topic, "retention.ms", "7200000")
            for line in second_lines:
                if line.startswith("data:") and '"retention.ms"' in line:
                    assert '"after_value": "7200000"' in line, line
                    break
            seen = time.time() - done
    assert seen < INTERVAL, seen
    print(f"live: after a hand-over, a change shown after {seen:.2f} s")


def test_closing_the_live_page_ends_its_polls(
    page: Page, editor: str, editor_app: Starlette, kafka_bootstrap: str
) -> None:
    streams = editor_app.state.live
    topic = unique_name("liveclose")
    make_topics(kafka_bootstrap, [topic], {})
    before = (streams.open, streams.polling)  # pages of earlier tests may still be closing
    page.goto(f"{editor}/c/{CLUSTER}/live?topic={topic}")
    expect(page.locator("#live-status")).to_have_attribute("data-ready", "yes")
    assert streams.open >= 1 and streams.polling >= 1
    page.close()
    closed = time.monotonic()
    while (streams.open, streams.polling) > before and time.monotonic() - closed < 10:
        time.sleep(0.05)
    assert streams.open <= before[0] and streams.polling <= before[1]
    print(f"live: the page's polls ended {time.monotonic() - closed:.2f} s after it closed")


def test_a_broker_going_down_under_the_live_page_is_said_and_followed(page: Page) -> None:
    """The page says the cluster cannot be read (one row, the error and its message, no
    traceback), keeps its stream, and shows the changes made once the broker is back."""
    with start_cluster(brokers=1) as cluster:
        bootstrap = cluster.bootstrap_servers
        settings = WebSettings(
            clusters={CLUSTER: Connection(bootstrap_servers=bootstrap)},
            live_interval=INTERVAL,
            timeout=5,
        )
        topic = unique_name("livedown")
        make_topics(bootstrap, [topic], {"retention.ms": "3600000"})
        with serving(settings) as url:
            page.goto(f"{url}/c/{CLUSTER}/live?topic={topic}")
            status = page.locator("#live-status")
            expect(status).to_have_attribute("data-ready", "yes")
            (node,) = cluster.broker_ids
            cluster.stop_broker(node)
            problem = page.locator("#live-changes tr.problem")
            expect(problem).to_have_count(1, timeout=60_000)
            print("live: broker down, the page says:", problem.inner_text())
            expect(problem.locator("td").nth(3)).to_have_text("error")
            expect(problem).to_contain_text("could not talk to broker")
            expect(page.locator("body")).not_to_contain_text("Traceback")
            expect(status).not_to_contain_text("Connection lost")
            cluster.start_broker(node)
            other_tool_sets(bootstrap, topic, "retention.ms", "7200000")
            row = page.locator("#live-changes tr.change", has_text="retention.ms")
            expect(row).to_contain_text("7200000", timeout=60_000)
            expect(problem).to_have_count(1)  # said once, not once a poll


def test_the_web_command_stops_on_sigterm_with_a_live_stream_open(kafka_bootstrap: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "kafka_config_admin", "web", "-b", kafka_bootstrap]
    command += ["--port", str(port), "--live-interval", "1"]
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            index = _when_up(client, process)
            found = re.search(r'href="(/c/[^"/]+)"', index)
            assert found is not None, index
            with client.stream("GET", f"{found[1]}/live/events") as stream:
                _until_ready(stream.iter_lines())
                stopping = time.monotonic()
                process.send_signal(signal.SIGTERM)
                code = process.wait(timeout=30)
                stopped = time.monotonic() - stopping
        assert code == 0 and stopped < 5, (code, stopped)
        print(f"web: SIGTERM with a live stream open, stopped in {stopped:.2f} s")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        assert process.stdout is not None
        process.stdout.close()


def test_with_a_bound_per_poll_a_change_on_each_topic_shows_and_the_cost_line_follows(
    page: Page,
) -> None:
    """``web --live-max-per-poll 1`` on a cluster of three topics (five resources with its
    broker and the cluster default): each poll after the baseline reads one resource, in
    turn, yet a change on every topic shows within the time the page states (five intervals),
    and the cost line says what each read cost and counts them."""
    interval = 1.0
    with start_cluster(brokers=1) as cluster:
        bootstrap = cluster.bootstrap_servers
        topics = [unique_name("livebound") for _ in range(3)]
        make_topics(bootstrap, topics, {"retention.ms": "3600000"})
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        command = [sys.executable, "-m", "kafka_config_admin", "web", "-b", bootstrap]
        command += ["--port", str(port), "--live-interval", f"{interval:g}"]
        command += ["--live-max-per-poll", "1"]
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                found = re.search(r'href="(/c/[^"/]+)"', _when_up(client, process))
                assert found is not None
            page.goto(f"http://127.0.0.1:{port}{found[1]}/live")
            expect(page.locator("main")).to_contain_text(
                "at most 1 of the resources followed, in turn"
            )
            status, cost = page.locator("#live-status"), page.locator("#live-cost")
            expect(status).to_have_attribute("data-ready", "yes")
            promised = 5 * interval
            expect(status).to_have_text(
                f"Following 5 resources, at most 1 read each time, in turn, "
                f"each change shown within {promised:g} s."
            )
            expect(cost).to_contain_text(
                re.compile(r"Last read: 1 of 5 resources, \d+ requests, [\d,]+ bytes")
            )
            reads = int(cost.get_attribute("data-reads") or 0)
            seen = []
            for topic in topics:
                page.evaluate(WATCH_ROWS, [topic, "retention.ms"])
                done = other_tool_sets(bootstrap, topic, "retention.ms", "7200000")
                row = page.locator("#live-changes tr", has_text=topic)
                expect(row).to_contain_text("7200000", timeout=int(promised * 4000))
                seen.append(page.evaluate("window.liveShown") / 1000 - done)
            print("live, 1 resource a poll: changes shown after", [f"{s:.2f} s" for s in seen])
            assert all(0 < latency < promised for latency in seen), seen
            assert int(cost.get_attribute("data-reads") or 0) > reads  # it follows the reads
            since = r"Since this page opened: \d+ reads, [\d,]+ bytes\. At the last read's pace"
            expect(cost).to_contain_text(re.compile(since + r": [\d,]+ bytes a minute\."))
            print("live, 1 resource a poll: the page says:", status.inner_text(), cost.inner_text())
            assert_accessible(page, "live, bounded, with its cost line")
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
                assert process.stdout is not None
                process.stdout.close()


def _when_up(client: httpx.Client, process: subprocess.Popen[bytes]) -> str:
    """The editor's index page, once the process serves it (60 s at most)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "the editor ended before it served a page"
        try:
            return client.get("/").text
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError("the editor did not answer within 60 s")


def _until_ready(lines: Iterator[str]) -> str:
    """What the stream sent up to its ``ready`` event (the baseline read)."""
    read = ""
    for line in lines:
        read += line + "\n"
        if line == "event: ready":
            return read
    raise AssertionError(f"the stream ended before its baseline: {read!r}")
