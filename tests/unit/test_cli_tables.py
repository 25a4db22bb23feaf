"""The CLI's plain tables on a pipe are drawn character for character as rich draws them."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.table import Table
from rich.text import Text

from kafka_config_admin.cli._output import _plain_table, _Surface, print_table

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
