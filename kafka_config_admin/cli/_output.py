"""What commands print: the stable JSON/YAML documents and the tables beside them.

The JSON shape of ``describe`` (also the snapshot ``diff`` reads); a resource, an entry and an
error have the columns of :mod:`kafka_config_admin.desired`'s rows (``resource_row``,
``entry_row``, ``error_row``), as the Spark snapshot and the change feed do::

    {"kind": "describe", "version": 2, "cluster": "prod",
     "resources": [
       {"resource_type": "TOPIC", "resource_name": "orders",
        "error": null, "error_message": null,
        "configs": {"retention.ms": {"name": "retention.ms", "value": "86400000",
                                     "source": "TOPIC_CONFIG", "is_default": false,
                                     "is_read_only": false, "is_sensitive": false,
                                     "config_type": "LONG",
                                     "documentation": "...",          (only with --docs)
                                     "synonyms": [{"name", "value", "source"}]}}}]}  (--synonyms)

Sensitive values are ``null`` (the broker never sends them) and show as ``[hidden]`` in tables.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import HIDDEN as HIDDEN
from .. import Config, ConfigEntry, ConfigResource, ResourceType
from ..state import entry_row, error_row, override_source, resource_row
from ..toolkit import cut_short, error_line
from ._exit import ExitCode, say, say_lines
from ._options import OutputFormat

if TYPE_CHECKING:
    from ..changeset import BrokerVerdict
    from ..state import ConfigWarning

#: 2: the columns of the Spark snapshot and the change feed (``resource_type``,
#: ``resource_name``, ``config_type``, ``error``/``error_message``; ``diff`` reads 1 too).
DESCRIBE_FORMAT_VERSION = 2


#: Data goes to stdout; messages, progress and errors to stderr.
#: Piped tables are not cut to 80 columns: a script or a log reads whole rows.
PIPED_WIDTH = 200


class _Console(Console):
    """rich's console, but a closed pipe is the command line's to say (exit 141, one line:
    ``_main``), not rich's silent ``SystemExit(1)``."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


stdout = _Console(highlight=False, width=None if sys.stdout.isatty() else PIPED_WIDTH)
stderr = _Console(stderr=True, highlight=False, soft_wrap=True)  # an error stays on one line


@dataclass(frozen=True)
class DescribeView:
    """What ``describe`` shows of each entry."""

    all: bool = False
    docs: bool = False
    synonyms: bool = False
    keys: frozenset[str] | None = None

    def shown(self, resource: ConfigResource, config: Config) -> list[ConfigEntry]:
        """The entries of ``resource``'s ``config`` to show, by name."""
        if self.keys is not None:
            keys = self.keys
            entries = [entry for entry in config.entries if entry.name in keys]
        elif self.all:
            entries = list(config.entries)
        else:
            own = override_source(resource)  # once per resource, not per entry
            entries = [entry for entry in config.entries if entry.source is own]
        return sorted(entries, key=_name)


def _name(entry: ConfigEntry) -> str:
    return entry.name


def describe_document(
    cluster: str,
    outcomes: Mapping[ConfigResource, Config | BaseException],
    view: DescribeView,
) -> dict[str, Any]:
    """The describe document (see the module docstring)."""
    resources = []
    for resource, outcome in outcomes.items():
        item: dict[str, Any] = resource_row(resource)
        if isinstance(outcome, BaseException):
            item |= error_row(outcome) | {"configs": {}}
        else:
            shown = view.shown(resource, outcome)
            item |= error_row(None) | {
                "configs": {
                    entry.name: entry_row(entry, documentation=view.docs, synonyms=view.synonyms)
                    for entry in shown
                }
            }
        resources.append(item)
    return {
        "kind": "describe",
        "version": DESCRIBE_FORMAT_VERSION,
        "cluster": cluster,
        "resources": resources,
    }


def print_document(document: Mapping[str, Any], output: OutputFormat) -> None:
    """A document as JSON or YAML on stdout."""
    if output is OutputFormat.JSON:
        sys.stdout.write(json.dumps(document, indent=2) + "\n")
    else:
        import yaml  # here, not at import: a table or JSON needs none of it

        sys.stdout.write(yaml.safe_dump(dict(document), sort_keys=False, allow_unicode=True))


def print_describe_tables(document: Mapping[str, Any], view: DescribeView) -> None:
    """One table per resource, or its error (:func:`print_rows`: on a pipe, 2,000 resources'
    tables spent half their CPU making rich ``Table`` objects), under one line naming the
    document's cluster (:func:`cluster_heading`)."""
    surface = _Surface.of(stdout)
    headers = ["key", "value", "source", "type"]
    if view.synonyms:
        headers.append("synonyms")
    if view.docs:
        headers.append("documentation")
    headed = False
    for item in document["resources"]:
        title = resource_title(item["resource_type"], item["resource_name"])
        if item["error"] is not None:
            message = f" {title}: {item['error_message']}"
            stderr.print(Text.assemble(("failed:", "red"), message), highlight=False)
            continue
        if not headed:  # above the first table: the cluster these tables are of
            stdout.print(cluster_heading(document["cluster"]), markup=False)
            headed = True
        rows = [_describe_row(key, entry, view) for key, entry in item["configs"].items()]
        caption = None
        if not item["configs"]:
            caption = "no overrides (--all shows every config)" if not view.all else ""
        if not view.docs:
            _print_rows(surface, title, headers, rows, caption=caption)
            continue
        # --docs draws lines between rows and gives documentation the width left: rich's.
        table = Table(title=title, title_justify="left", show_lines=True, caption=caption)
        for column in headers:
            ratio = 1 if column == "documentation" else None
            table.add_column(column, overflow="fold", ratio=ratio)
        for row in rows:
            table.add_row(*row)
        _print_table(surface, table)


def _describe_row(key: str, entry: Mapping[str, Any], view: DescribeView) -> list[str]:
    shown = shown_value(entry["value"], entry["is_sensitive"])
    row = [key, shown, entry["source"], entry["config_type"]]
    if view.synonyms:
        hidden = entry["is_sensitive"]
        row.append(
            "\n".join(
                f"{synonym['source']}: {shown_value(synonym['value'], hidden)}"
                for synonym in entry["synonyms"]
            )
        )
    if view.docs:
        # Here: only describe --docs reads Kafka's HTML (html.parser), not every command.
        from ..state import documentation_text

        row.append(documentation_text(entry["documentation"]) or "")
    return row


def print_rows(
    console: Console,
    title: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str | Text]],
    *,
    caption: str | None = None,
) -> None:
    """A table of ``rows`` under ``headers`` (each cell one line of text or markup), exactly
    as :func:`print_table` prints the rich ``Table`` the CLI would make of them (title left,
    every column folding); on a pipe, drawn from the rows without making that ``Table``."""
    _print_rows(_Surface.of(console), title, headers, rows, caption=caption)


def _print_rows(
    surface: _Surface,
    title: str,
    headers: Sequence[str],
    rows: Sequence[Sequence[str | Text]],
    *,
    caption: str | None = None,
) -> None:
    if surface.plain:
        columns = [list(cells) for cells in zip(*rows, strict=True)] or [[] for _ in headers]
        lines = _plain_lines(surface, title, headers, columns, caption)
        if lines is not None:
            surface.console.file.write("".join(f"{line}\n" for line in lines))
            return
    table = Table(title=title, title_justify="left", caption=caption)
    for column in headers:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*row)
    surface.console.print(table)


def print_table(console: Console, table: Table) -> None:
    """Print ``table`` exactly as ``console.print(table)`` would, fast for a plain table on a
    pipe: rich lays out every cell of a 2,000-row table one by one (seconds of CPU, more than
    the SDK's describe of those topics); without a terminal there is no style to draw, so a
    table that fits the width is drawn here in the same characters. Anything else (a
    terminal, a cell over several lines, a table that must fold) is left to rich."""
    _print_table(_Surface.of(console), table)


@dataclass(frozen=True)
class _Surface:
    """What a console is, read once for many tables: rich asks the terminal and the
    environment again each time its width or kind is read."""

    console: Console
    width: int
    #: Not a terminal, and UTF-8: a table may be drawn here without rich.
    plain: bool
    soft_wrap: bool

    @classmethod
    def of(cls, console: Console) -> _Surface:
        plain = not console.is_terminal and console.encoding.lower().startswith("utf")
        return cls(console, console.width, plain, console.soft_wrap)


def _print_table(surface: _Surface, table: Table) -> None:
    lines = _plain_table(surface, table)
    if lines is None:
        surface.console.print(table)
    else:
        surface.console.file.write("".join(f"{line}\n" for line in lines))


def _plain_table(surface: _Surface, table: Table) -> list[str] | None:
    """The lines rich would print for ``table``, or None where only rich knows them."""
    if not (surface.plain and _drawn_plainly(table)):
        return None
    return _plain_lines(
        surface,
        table.title,
        [column.header for column in table.columns],
        [list(column.cells) for column in table.columns],
        table.caption,
    )


def _plain_lines(
    surface: _Surface,
    title_given: object,
    headers_given: Sequence[object],
    columns_given: Sequence[Sequence[object]],
    caption_given: object,
) -> list[str] | None:
    """The lines rich would print for a table of these columns (each a list of cells) that
    :func:`_drawn_plainly` accepts, on a plain ``surface``; None where only rich knows them."""
    console = surface.console
    # rich draws no title or caption line for an empty one.
    title_given, caption_given = (text or None for text in (title_given, caption_given))
    headers = _plain_cells(console, headers_given)
    columns = [_plain_cells(console, cells) for cells in columns_given]
    if headers is None or any(cells is None for cells in columns):
        return None
    cells_of = [cells for cells in columns if cells is not None]
    widths = [
        max(map(cell_len, [header, *cells]))
        for header, cells in zip(headers, cells_of, strict=True)
    ]
    width = sum(widths) + 3 * len(widths) + 1
    title, caption = (_plain_cells(console, [text]) for text in (title_given, caption_given))
    if width > surface.width or any(
        given is not None and (plain is None or cell_len(plain[0]) > width)
        for given, plain in ((title_given, title), (caption_given, caption))
    ):
        return None

    def rule(left: str, line: str, middle: str, right: str) -> str:
        return left + middle.join(line * (w + 2) for w in widths) + right

    def row(edge: str, cells: Sequence[str]) -> str:
        inner = f" {edge} ".join(
            cell + " " * (w - cell_len(cell)) for cell, w in zip(cells, widths, strict=True)
        )
        return f"{edge} {inner} {edge}"

    def aligned(text: str, excess: int, left: int) -> str:
        # A soft-wrapping console (stderr's) prints title and caption as they are.
        return text if surface.soft_wrap else " " * left + text + " " * (excess - left)

    lines = []
    if title is not None:
        lines.append(aligned(title[0], width - cell_len(title[0]), 0))
    lines += [rule("┏", "━", "┳", "┓"), row("┃", headers), rule("┡", "━", "╇", "┩")]
    lines += [row("│", cells) for cells in zip(*cells_of, strict=True)]
    lines.append(rule("└", "─", "┴", "┘"))
    if caption is not None:
        excess = width - cell_len(caption[0])
        lines.append(aligned(caption[0], excess, excess // 2))
    return lines


def _drawn_plainly(table: Table) -> bool:
    """Whether rich would draw ``table``, on a plain surface, with no style and rich's defaults,
    as :func:`_plain_table` draws it (a table the CLI builds: title left, columns left)."""
    return (
        bool(table.columns)
        and table.box is box.HEAVY_HEAD
        and table.safe_box is None
        and (table.show_header, table.show_edge, table.pad_edge) == (True, True, True)
        and not (table.show_footer or table.show_lines or table.expand or table.leading)
        and (table.width, table.min_width) == (None, None)
        and table.padding == (0, 1, 0, 1)
        and (table.title_justify, table.caption_justify) == ("left", "center")
        and all(row.end_section is False for row in table.rows)
        and all(
            (column.justify, column.width, column.min_width, column.max_width, column.ratio)
            == ("left", None, None, None, None)
            for column in table.columns
        )
    )


def _plain_cells(console: Console, cells: Sequence[object]) -> list[str] | None:
    """Each cell's text as rich shows it (markup and emoji codes read as rich reads them), or
    None if one takes more than one plain line (or is not text)."""
    plain = []
    for cell in cells:
        if isinstance(cell, str):
            text = console.render_str(cell).plain if "[" in cell or ":" in cell else cell
        elif isinstance(cell, Text):
            text = cell.plain
        else:
            return None
        if not text.isprintable():
            return None
        plain.append(text)
    return plain


def cluster_heading(label: str) -> str:
    """The line that names the cluster a command's tables are of (its ``Connection.label``)."""
    return f"cluster {label}"


def resource_title(kind: str, name: str) -> str:
    """A resource as people read it: ``topic orders``, ``broker 1``, ``cluster default``."""
    if kind == ResourceType.BROKER.name and name == "":
        return 'cluster default (broker "")'
    return f"{kind.lower().replace('_', '-')} {name}"


def shown_value(value: str | None, sensitive: bool) -> str:
    """A value for a table: sensitive ones hidden, no value as ``null``."""
    if sensitive:
        return HIDDEN
    return "null" if value is None else value


def print_refusals(problems: Sequence[object]) -> None:
    """Input refused before anything was sent: one line per problem, one line for just one."""
    if len(problems) == 1:
        stderr.print(f"refused: {problems[0]} (nothing was sent)", markup=False)
        return
    for problem in problems:
        stderr.print(f"refused: {problem}", markup=False)
    stderr.print("nothing was sent")


def print_warnings(warnings: Iterable[ConfigWarning]) -> None:
    """Warnings (values a coming Kafka release will refuse, broker keys the release does not
    define), one line each on stderr: never a refusal."""
    for warning in warnings:
        stderr.print(f"warning: {warning}", markup=False)


#: Characters of a value a table cell shows, and of an error a line quotes, before they are
#: cut short: a broker's message may echo a value of tens of kilobytes.
CELL_LIMIT = 200
REASON_LIMIT = 500


def reason_line(error: BaseException) -> str:
    """An error as a message quotes it: its class, then its message on one line, cut short."""
    return f"{type(error).__name__}: {cut_short(error_line(error), REASON_LIMIT)}"


def failures_lines(
    failures: Iterable[tuple[ConfigResource, Iterable[str], BaseException]],
) -> list[str]:
    """Each failed resource as one line: resource, keys and reason."""
    return [
        f"{resource}: {', '.join(keys) or '-'}: {reason_line(error)}"
        for resource, keys, error in failures
    ]


def print_verdict(verdict: BrokerVerdict) -> None:
    """The brokers' refusals (``refused by the broker: ...``) and the changes they could not
    be asked about (``not validated: ...``), one line each: resource, keys, values, reason."""
    say_lines(
        [
            *(f"refused by the broker: {refusal}" for refusal in verdict.refusals()),
            *(f"not validated: {unknown}" for unknown in verdict.unknown()),
        ]
    )


def report_verdict(verdict: BrokerVerdict, what: str) -> int:
    """A dry run's verdict (the brokers' validate_only): each refusal on one line, naming
    resource, keys, values and the reason. Exit 2 when the brokers refuse a change (nothing
    was changed), 1 when they could not be asked, else 0."""
    print_verdict(verdict)
    refused, unknown = len(verdict.refusals()), len(verdict.unknown())
    if verdict.accepted:
        say(f"{what} validated (dry run, nothing changed)")
        return ExitCode.OK
    say(f"dry run of {what}: {refused} refused, {unknown} not validated; nothing was changed")
    return ExitCode.USAGE if refused else ExitCode.FAILED
