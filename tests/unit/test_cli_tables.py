"""The CLI's plain tables on a pipe are drawn character for character as rich draws them."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kafka_config_admin.cli import _output
from kafka_config_admin.cli._output import (
    DescribeView,
    _plain_table,
    _Surface,
    print_describe_tables,
    print_rows,
    print_table,
    resource_title,
    shown_value,
)

ROWS = [
    ["topic orders", "alter", "retention.ms", "SET", "3600000", "7200000"],
    ["topic 注文", "alter", "cleanup.policy", "SET", "delete", "compact,delete"],
    ["broker 1", "keep", "min.insync.replicas", "", "[hidden]", "kept: [a-z]+ :smile: x:y"],
    ["cluster default", "", "", "", "", ""],
]


def table(
    rows: list[list[str]], *, title: str | None = "plan for x", caption: str | None = None
) -> Table:
    made = Table(title=title, title_justify="left", caption=caption)
    for column in ("resource", "action", "key", "op", "current", "wanted"):
        made.add_column(column, overflow="fold")
    for row in rows:
        made.add_row(*row)
    return made


def consoles(width: int) -> list[Console]:
    """stdout's kind (a fixed width) and stderr's (soft wrap), as the CLI makes them."""
    return [
        Console(file=io.StringIO(), highlight=False, width=width),
        Console(file=io.StringIO(), highlight=False, soft_wrap=True, width=width),
    ]


def printed(console: Console, shown: Table, *, by_rich: bool) -> str:
    if by_rich:
        console.print(shown)
    else:
        print_table(console, shown)
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


@pytest.mark.parametrize(
    ("rows", "title", "caption"),
    [
        (ROWS, "plan for x", None),
        (ROWS[:1], "plan for a cluster whose name is long", None),
        ([], "t", "no overrides (--all shows every config)"),
        (ROWS, None, "odd"),
        (ROWS, "t", "even"),
        (ROWS, "", ""),
        ([[Text("topic a"), "b", "c", "d", "e", "f"]], "t", None),
    ],
)
@pytest.mark.parametrize("width", [80, 200])
def test_a_plain_table_is_drawn_as_rich_draws_it(
    rows: list[list[str]], title: str | None, caption: str | None, width: int
) -> None:
    for rich_console, our_console in zip(consoles(width), consoles(width), strict=True):
        drawn = _plain_table(_Surface.of(our_console), table(rows, title=title, caption=caption))
        assert drawn is not None or width < 100  # ROWS need 97 columns: rich folds them in 80
        ours = printed(our_console, table(rows, title=title, caption=caption), by_rich=False)
        theirs = printed(rich_console, table(rows, title=title, caption=caption), by_rich=True)
        assert ours == theirs


@pytest.mark.parametrize(
    "rows",
    [
        [["a" * 90, "b", "c", "d", "e", "f"]],  # wider than the console: rich folds it
        [["two\nlines", "b", "c", "d", "e", "f"]],
        [["a\ttab", "b", "c", "d", "e", "f"]],
    ],
)
def test_what_only_rich_can_draw_is_left_to_rich(rows: list[list[str]]) -> None:
    for rich_console, our_console in zip(consoles(80), consoles(80), strict=True):
        assert _plain_table(_Surface.of(our_console), table(rows)) is None
        assert printed(our_console, table(rows), by_rich=False) == printed(
            rich_console, table(rows), by_rich=True
        )


def test_a_terminal_is_left_to_rich() -> None:
    terminal = Console(file=io.StringIO(), force_terminal=True, width=120)
    assert _plain_table(_Surface.of(terminal), table(ROWS)) is None


def describe_entry(value: str | None, *, sensitive: bool = False) -> dict[str, object]:
    return {
        "value": value,
        "source": "TOPIC_CONFIG",
        "config_type": "LONG",
        "is_sensitive": sensitive,
        "documentation": "How long [b]logs[/b] are kept: a long text " * 3,
        "synonyms": [{"name": "log.retention.ms", "value": value, "source": "DEFAULT_CONFIG"}],
    }


DESCRIBED: dict[str, Any] = {
    "cluster": "prod [eu]",  # brackets: printed as they are, never read as markup
    "resources": [
        {
            "resource_type": "TOPIC",
            "resource_name": "orders",
            "error": None,
            "configs": {
                "retention.ms": describe_entry("3600000"),
                "sasl.jaas.config": describe_entry(None, sensitive=True),
                "cleanup.policy": describe_entry("compact,delete"),
            },
        },
        {"resource_type": "TOPIC", "resource_name": "注文", "error": None, "configs": {}},
        {
            "resource_type": "BROKER",
            "resource_name": "",
            "error": None,
            "configs": {"a": describe_entry("x:y")},
        },
    ],
}


def rich_describe_tables(console: Console, view: DescribeView) -> None:
    """The describe tables as rich draws them (how describe made them before), under the
    line naming the cluster."""
    console.print("cluster prod [eu]", markup=False)
    for item in DESCRIBED["resources"]:
        made = Table(
            title=resource_title(item["resource_type"], item["resource_name"]),
            title_justify="left",
            show_lines=view.docs,
        )
        for column in ("key", "value", "source", "type"):
            made.add_column(column, overflow="fold")
        if view.synonyms:
            made.add_column("synonyms", overflow="fold")
        if view.docs:
            made.add_column("documentation", overflow="fold", ratio=1)
        for key, entry in item["configs"].items():
            row = [key, shown_value(entry["value"], entry["is_sensitive"]), "TOPIC_CONFIG", "LONG"]
            if view.synonyms:
                row.append(f"DEFAULT_CONFIG: {shown_value(entry['value'], entry['is_sensitive'])}")
            if view.docs:
                row.append(entry["documentation"])
            made.add_row(*row)
        if not item["configs"]:
            made.caption = "no overrides (--all shows every config)" if not view.all else ""
        console.print(made)


@pytest.mark.parametrize(
    "view",
    [DescribeView(), DescribeView(all=True), DescribeView(synonyms=True), DescribeView(docs=True)],
)
@pytest.mark.parametrize("width", [60, 200])
def test_describe_tables_are_drawn_as_rich_draws_them(
    view: DescribeView, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours, theirs = consoles(width)[0], consoles(width)[0]
    monkeypatch.setattr(_output, "stdout", ours)
    print_describe_tables(DESCRIBED, view)
    rich_describe_tables(theirs, view)
    assert isinstance(ours.file, io.StringIO) and isinstance(theirs.file, io.StringIO)
    assert ours.file.getvalue() == theirs.file.getvalue()


@pytest.mark.parametrize(
    "rows",
    [
        ROWS,
        [],
        [[Text("topic a"), "b", "c", "d", "e", "f"]],
        [["two\nlines", "b", "c", "d", "e", "f"]],  # left to rich
        [["a" * 90, "b", "c", "d", "e", "f"]],  # folded by rich at 80 columns
    ],
)
@pytest.mark.parametrize("width", [80, 200])
def test_rows_are_printed_as_rich_prints_their_table(rows: list[list[str]], width: int) -> None:
    columns = ("resource", "action", "key", "op", "current", "wanted")
    for rich_console, our_console in zip(consoles(width), consoles(width), strict=True):
        print_rows(our_console, "plan for x", columns, rows)
        assert isinstance(our_console.file, io.StringIO)
        assert our_console.file.getvalue() == printed(rich_console, table(rows), by_rich=True)


def test_the_changes_table_shows_hidden_and_bracketed_values_as_they_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kafka_config_admin import AlterConfigOp, ConfigResource, OpType, ResourceType
    from kafka_config_admin.changeset import ChangeSet
    from kafka_config_admin.changeset._build import build_plan
    from kafka_config_admin.cli import _alter
    from kafka_config_admin.state import ClusterState

    printed = io.StringIO()
    monkeypatch.setattr(_alter, "stderr", Console(file=printed, width=200))
    broker = ConfigResource(ResourceType.BROKER, "1")
    ops = [
        AlterConfigOp("listener.name.ssl.ssl.keystore.password", "s3cret-pw", OpType.SET),
        AlterConfigOp("sasl.enabled.mechanisms", "[PLAIN]", OpType.SET),
    ]
    plan, _ = build_plan(ChangeSet(configs={broker: ops}), ClusterState(configs={}), {}, {}, {})
    _alter.print_changes(plan, "one")
    shown = printed.getvalue()
    assert "[hidden]" in shown and "[PLAIN]" in shown and "s3cret-pw" not in shown
    assert "changes to one" in shown
