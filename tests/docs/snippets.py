"""Find the Python snippets of the docs: every ```python block of README.md and docs/**/*.md.

A snippet runs as it is, in a namespace shared with the page's earlier snippets (as in one
interpreter session, top-level ``await`` and ``async with`` included). An HTML comment on the
line right before the fence says otherwise; readers never see it:

- ``<!-- snippet: kafka -->``: needs a broker. It runs against the test session's real cluster;
  the address ``127.0.0.1:9092`` (or ``localhost:9092``) in it is replaced by the cluster's, and
  the topics in ``DOCS_TOPICS`` exist.
- ``<!-- snippet: not-run REASON -->``: illustrative, not run; the reason is required.

docs/contributing.md explains this to whoever writes a page.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")))

#: Topics that exist, with default configs, when a ``kafka`` snippet runs.
DOCS_TOPICS = ("orders", "payments")
#: The addresses a ``kafka`` snippet may use for "the broker"; replaced by the real one.
PLACEHOLDER_ADDRESSES = ("127.0.0.1:9092", "localhost:9092")
KINDS = ("plain", "kafka", "not-run")

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)\s*(?P<info>[^\n]*)$")
_MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(?P<kind>[\w-]+)\s*(?P<reason>.*?)\s*-->\s*$")


class SnippetMarkerError(ValueError):
    """A snippet marker that is not one of the known kinds, or a not-run without a reason."""


@dataclass(frozen=True)
class Snippet:
    """One fenced Python block of a page."""

    page: Path
    line: int  # of the opening fence, 1-based
    index: int  # among the page's Python blocks
    code: str
    kind: str
    reason: str = ""

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def _marker(previous: str, where: str) -> tuple[str, str]:
    match = _MARKER.match(previous)
    if match is None:
        return "plain", ""
    kind, reason = match.group("kind"), match.group("reason")
    if kind not in KINDS:
        raise SnippetMarkerError(f"{where}: unknown snippet kind {kind!r}; use one of {KINDS}")
    if kind == "not-run" and not reason:
        raise SnippetMarkerError(f"{where}: <!-- snippet: not-run --> needs a reason")
    return kind, reason


def snippets_of(page: Path) -> list[Snippet]:
    """The page's ```python blocks in order, with what their markers say."""
    lines = page.read_text().splitlines()
    found: list[Snippet] = []
    number = 0
    while number < len(lines):
        opening = _FENCE.match(lines[number])
        if opening is None:
            number += 1
            continue
        fence, indent = opening.group("fence"), opening.group("indent")
        body_start = number + 1
        end = body_start
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        language = opening.group("info").split(" ")[0].strip("{}.").lower()
        if language in ("python", "py"):
            where = f"{page.relative_to(ROOT)}:{number + 1}"
            kind, reason = _marker(lines[number - 1] if number else "", where)
            body = [line.removeprefix(indent) for line in lines[body_start:end]]
            code = textwrap.dedent("\n".join(body)) + "\n"
            found.append(Snippet(page, number + 1, len(found), code, kind, reason))
        number = end + 1
    return found


def all_snippets() -> list[Snippet]:
    return [snippet for page in PAGES for snippet in snippets_of(page)]


def with_bootstrap(code: str, bootstrap: str) -> str:
    """The snippet's code aimed at the real cluster instead of the placeholder address."""
    for address in PLACEHOLDER_ADDRESSES:
        code = code.replace(address, bootstrap)
    return code
