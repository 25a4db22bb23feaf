"""Find the Python snippets of the docs: every ```python block of README.md and docs/**/*.md.

A snippet runs as it is, in a namespace shared with the page's earlier snippets (as in one
interpreter session, top-level ``await`` and ``async with`` included). An HTML comment on the
line right before the fence says what else it needs; readers never see it:

- ``<!-- snippet: kafka -->``: a broker. It runs against the test session's real cluster;
  the address ``127.0.0.1:9092`` (or ``localhost:9092``) in it is replaced by the cluster's, and
  the topics in ``DOCS_TOPICS`` exist.
- ``<!-- snippet: spark -->``: that cluster and a real Spark session (``local[2]``), which
  ``SparkSession.builder.getOrCreate()`` in the snippet returns.
- ``<!-- snippet: cluster -->``: starts Kafka clusters of its own (``start_cluster``).
- ``<!-- snippet: tls -->``: a one-broker cluster with TLS listeners (the ``kafka_tls_cluster``
  fixture): the addresses of ``TLS_PLACEHOLDERS`` name its SSL, MTLS and SASL_SSL listeners,
  ``certs/`` holds its CA and a client certificate, and the SCRAM user ``TLS_USER`` exists.
- ``<!-- snippet: pytest -->``: a test module of a reader's own project. It runs alone, with
  ``pytest`` in an empty directory (no configuration), so the package's pytest plugin starts
  the broker its tests ask for; every test in it must pass, none skip.

There is no "not run" marker: a fragment is rewritten until it is a program that runs.

Paths under ``/data/`` in a snippet are replaced by a directory of the test session holding the
files of ``tests/docs/files/`` (``/data/kafka.yaml``, ``/data/fleet.yaml``), with the cluster's
address in them. Blocks in other languages are not run: ``OTHER_LANGUAGES`` says why for each,
and what checks them instead. docs/contributing.md explains this to whoever writes a page.
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
#: Where a snippet's files are; replaced by a directory holding copies of ``FILES``.
PLACEHOLDER_DIRECTORY = "/data/"
FILES = ROOT / "tests" / "docs" / "files"
KINDS = ("plain", "kafka", "spark", "cluster", "pytest", "tls")
#: What each kind needs from the test session, beyond the kinds of the page's earlier snippets.
NEEDS = {"kafka": {"kafka"}, "spark": {"kafka", "spark"}, "cluster": {"cluster"}, "tls": {"tls"}}
#: The TLS listeners a ``tls`` snippet names by these addresses; replaced by the real ones.
TLS_PLACEHOLDERS = {
    "broker-1.example:9093": "SSL",
    "broker-1.example:9094": "MTLS",
    "broker-1.example:9095": "SASL_SSL",
}
#: The directory of a ``tls`` snippet's PEM files (``ca.pem``, ``client.pem``,
#: ``client-key.pem`` encrypted with ``TLS_KEY_PASSPHRASE``), and its SCRAM user.
TLS_CERTS = "certs/"
TLS_KEY_PASSPHRASE = "key passphrase"
TLS_USER = ("config-admin", "change-me")
PYTHON = ("python", "py")
#: Blocks in other languages are not Python programs. Why each is not run, and what checks it
#: instead; a block in a language missing here fails ``test_every_block_is_accounted_for``.
OTHER_LANGUAGES = {
    "sh": "shell command lines (installing, nox sessions, the CLI): CI runs the sessions, and "
    "test_cli_command_lines parses every kafka-config-admin line with the real CLI",
    "console": "a shell session, as sh",
    "yaml": "a file's contents: test_data_blocks_parse parses it",
    "json": "a document the tools write: test_data_blocks_parse parses it",
    "properties": "a Kafka client config (--command-config): test_data_blocks_parse reads it "
    "with the CLI's parser",
    "text": "output shown to the reader, made by the code above it",
}

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)\s*(?P<info>[^\n]*)$")
_MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(?P<kind>[\w-]+)\s*-->\s*$")


class SnippetMarkerError(ValueError):
    """A snippet marker that is not one of the known kinds."""


@dataclass(frozen=True)
class Block:
    """One fenced block of a page, in any language."""

    page: Path
    line: int  # of the opening fence, 1-based
    language: str  # lower case, "" when the fence names none
    code: str
    previous: str  # the line before the fence, where a marker goes

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass(frozen=True)
class Snippet:
    """One fenced Python block of a page."""

    page: Path
    line: int  # of the opening fence, 1-based
    index: int  # among the page's Python blocks
    code: str
    kind: str

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks_of(page: Path) -> list[Block]:
    """The page's fenced blocks in order."""
    lines = page.read_text().splitlines()
    found: list[Block] = []
    number = 0
    while number < len(lines):
        opening = _FENCE.match(lines[number])
        if opening is None:
            number += 1
            continue
        fence, indent = opening.group("fence"), opening.group("indent")
        end = number + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        language = opening.group("info").split(" ")[0].strip("{}.").lower()
        body = [line.removeprefix(indent) for line in lines[number + 1 : end]]
        code = textwrap.dedent("\n".join(body)) + "\n"
        found.append(Block(page, number + 1, language, code, lines[number - 1] if number else ""))
        number = end + 1
    return found


def _kind(block: Block) -> str:
    match = _MARKER.match(block.previous)
    if match is None:
        return "plain"
    kind = match.group("kind")
    if kind not in KINDS:
        raise SnippetMarkerError(f"{block.id}: unknown snippet kind {kind!r}; use one of {KINDS}")
    return kind


def snippets_of(page: Path) -> list[Snippet]:
    """The page's ```python blocks in order, with what their markers say."""
    python = [block for block in blocks_of(page) if block.language in PYTHON]
    return [
        Snippet(page, block.line, index, block.code, _kind(block))
        for index, block in enumerate(python)
    ]


def all_blocks() -> list[Block]:
    return [block for page in PAGES for block in blocks_of(page)]


def all_snippets() -> list[Snippet]:
    return [snippet for page in PAGES for snippet in snippets_of(page)]


def with_bootstrap(code: str, bootstrap: str) -> str:
    """The snippet's code aimed at the real cluster instead of the placeholder address."""
    for address in PLACEHOLDER_ADDRESSES:
        code = code.replace(address, bootstrap)
    return code


def with_directory(code: str, directory: Path) -> str:
    """The snippet's code reading and writing its files in ``directory``, not ``/data/``."""
    return code.replace(PLACEHOLDER_DIRECTORY, f"{directory}/")


def needs(snippet: Snippet) -> frozenset[str]:
    """What a snippet needs: its own kind's, and what the page's earlier snippets made with."""
    page = snippets_of(snippet.page)[: snippet.index + 1]
    return frozenset(need for earlier in page for need in NEEDS.get(earlier.kind, ()))


def in_page_session(snippet: Snippet) -> bool:
    """Whether the snippet runs in its page's shared namespace (a test module runs alone)."""
    return snippet.kind != "pytest"
