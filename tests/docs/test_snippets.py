"""Every Python snippet of the docs runs: plain ones here, ``kafka`` ones on the real cluster.

How a page marks its snippets: ``tests/docs/snippets.py`` and docs/contributing.md.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from .snippets import DOCS_TOPICS, ROOT, Snippet, all_snippets, snippets_of, with_bootstrap
from .topics import ensure_topics

SNIPPETS = all_snippets()
RUN = [snippet for snippet in SNIPPETS if snippet.kind != "not-run"]


class PageSession:
    """The namespace a page's snippets share, and which of them have run in it."""

    def __init__(self) -> None:
        # A complete program in a page ends with `if __name__ == "__main__":`: run it.
        self.namespace: dict[str, Any] = {"__name__": "__main__"}
        self.ran: set[int] = set()


_sessions: dict[Path, PageSession] = {}


@pytest_asyncio.fixture(loop_scope="session")
async def docs_topics(kafka_bootstrap: str) -> AsyncIterator[str]:
    """The session cluster, with the topics the docs' examples name."""
    await ensure_topics(kafka_bootstrap, DOCS_TOPICS)
    yield kafka_bootstrap


async def _run(snippet: Snippet, bootstrap: str | None) -> None:
    code = snippet.code if bootstrap is None else with_bootstrap(snippet.code, bootstrap)
    compiled = compile(
        code, str(snippet.page), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True
    )
    # Line numbers in a traceback point into the page.
    compiled = compiled.replace(co_firstlineno=snippet.line + 1)
    session = _sessions.setdefault(snippet.page, PageSession())
    session.ran.add(snippet.index)
    if compiled.co_flags & inspect.CO_COROUTINE:  # top-level await: run in the test's loop
        await eval(compiled, session.namespace)
    else:  # a program of its own, perhaps calling asyncio.run(): in a thread, as it would run
        await asyncio.to_thread(exec, compiled, session.namespace)


def _needs_kafka(snippet: Snippet) -> bool:
    """A snippet after a ``kafka`` one on its page may use what that one made: it needs it too."""
    return any(s.kind == "kafka" for s in snippets_of(snippet.page)[: snippet.index + 1])


async def _run_in_order(snippet: Snippet, bootstrap: str | None) -> None:
    """Run the snippet after the page's earlier ones (run first when selected alone)."""
    session = _sessions.setdefault(snippet.page, PageSession())
    for earlier in snippets_of(snippet.page)[: snippet.index]:
        if earlier.kind != "not-run" and earlier.index not in session.ran:
            await _run(earlier, bootstrap)
    await _run(snippet, bootstrap)


@pytest.mark.parametrize("snippet", [pytest.param(s, id=s.id) for s in RUN if not _needs_kafka(s)])
async def test_docs_snippet(snippet: Snippet) -> None:
    await _run_in_order(snippet, None)


@pytest.mark.integration
@pytest.mark.parametrize("snippet", [pytest.param(s, id=s.id) for s in RUN if _needs_kafka(s)])
async def test_docs_snippet_on_kafka(snippet: Snippet, docs_topics: str) -> None:
    await _run_in_order(snippet, docs_topics)


def test_every_not_run_snippet_says_why() -> None:
    """Illustrative snippets are few (a third at most) and each gives its reason."""
    not_run = [snippet for snippet in SNIPPETS if snippet.kind == "not-run"]
    assert all(snippet.reason for snippet in not_run)
    assert len(not_run) <= len(SNIPPETS) // 3, [snippet.id for snippet in not_run]


def test_the_docs_have_snippets() -> None:
    """The collector finds the blocks (a broken fence pattern would make every test vanish)."""
    assert any(snippet.page == ROOT / "README.md" for snippet in SNIPPETS)
    assert len(SNIPPETS) >= 5
