"""Every Python snippet of the docs runs: plain ones here, ``kafka`` ones on the real cluster.

How a page marks its snippets: ``tests/docs/snippets.py`` and docs/contributing.md.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import itertools
import json
import shlex
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import yaml
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization

from kafka_config_admin import AdminClient, UserScramCredentialUpsertion
from kafka_config_admin.connect import parse_clusters_file, parse_command_config
from kafka_config_admin.desired import parse_desired_state
from kafka_config_admin.testing import KafkaCluster

from .snippets import (
    DOCS_TOPICS,
    FILES,
    OTHER_LANGUAGES,
    PYTHON,
    ROOT,
    TLS_CERTS,
    TLS_KEY_PASSPHRASE,
    TLS_PLACEHOLDERS,
    TLS_USER,
    Block,
    Snippet,
    all_blocks,
    all_snippets,
    in_page_session,
    needs,
    snippets_of,
    with_bootstrap,
    with_directory,
)
from .topics import ensure_topics

SNIPPETS = [snippet for snippet in all_snippets() if in_page_session(snippet)]
TEST_MODULES = [snippet for snippet in all_snippets() if not in_page_session(snippet)]
BLOCKS = all_blocks()


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


@pytest.fixture(scope="session")
def docs_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory standing for ``/data/``: the files of tests/docs/files, as they are."""
    directory = tmp_path_factory.mktemp("data")
    for source in FILES.iterdir():
        (directory / source.name).write_text(source.read_text())
    return directory


@pytest.fixture(scope="session")
def docs_spark() -> Iterator[None]:
    """A light ``local[2]`` Spark session: what ``SparkSession.builder.getOrCreate()`` returns."""
    from tests.spark.conftest import spark_builder

    session = spark_builder("local[2]").getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield
    session.stop()


@pytest.fixture(scope="session")
def docs_tls(
    kafka_tls_cluster: KafkaCluster, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    """What a ``tls`` snippet's placeholders stand for on the TLS cluster: its listeners' addresses,
    a ``certs/`` directory (the client key encrypted with the snippet's passphrase), and the
    snippet's SCRAM user, made on the cluster."""
    tls = kafka_tls_cluster.tls_files
    assert tls is not None
    certs = tmp_path_factory.mktemp("certs")
    (certs / "ca.pem").write_bytes(tls.ca_certificate.read_bytes())
    (certs / "client.pem").write_bytes(tls.client_certificate.read_bytes())
    key = serialization.load_pem_private_key(
        tls.client_key.read_bytes(), tls.client_key_passphrase.encode()
    )
    (certs / "client-key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(TLS_KEY_PASSPHRASE.encode()),
        )
    )

    async def add_user() -> None:
        async with AdminClient(kafka_tls_cluster.bootstrap_servers) as admin:
            upsert = UserScramCredentialUpsertion(TLS_USER[0], "SCRAM-SHA-512", TLS_USER[1])
            await admin.alter_user_scram_credentials([upsert]).all()

    asyncio.run(add_user())
    replacements = {
        address: kafka_tls_cluster.tls_bootstrap_servers(listener)  # type: ignore[arg-type]
        for address, listener in TLS_PLACEHOLDERS.items()
    }
    return {**replacements, TLS_CERTS: f"{certs}/"}


class Environment:
    """What a snippet runs with: the cluster's address, the ``/data/`` directory, and what the
    placeholders of a ``tls`` snippet stand for."""

    def __init__(
        self, bootstrap: str | None, files: Path, replacements: dict[str, str] | None = None
    ) -> None:
        self.bootstrap = bootstrap
        self.files = files
        self.replacements = replacements or {}

    def code(self, snippet: Snippet) -> str:
        code = with_directory(snippet.code, self.files)
        for placeholder, value in self.replacements.items():
            code = code.replace(placeholder, value)
        return code if self.bootstrap is None else with_bootstrap(code, self.bootstrap)


async def _run(snippet: Snippet, environment: Environment) -> None:
    compiled = compile(
        environment.code(snippet),
        str(snippet.page),
        "exec",
        flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
        dont_inherit=True,
    )
    # Line numbers in a traceback point into the page.
    compiled = compiled.replace(co_firstlineno=snippet.line + 1)
    session = _sessions.setdefault(snippet.page, PageSession())
    session.ran.add(snippet.index)
    if compiled.co_flags & inspect.CO_COROUTINE:  # top-level await: run in the test's loop
        await eval(compiled, session.namespace)
    else:  # a program of its own, perhaps calling asyncio.run(): in a thread, as it would run
        await asyncio.to_thread(exec, compiled, session.namespace)


async def _run_in_order(snippet: Snippet, environment: Environment) -> None:
    """Run the snippet after the page's earlier ones (run first when selected alone)."""
    session = _sessions.setdefault(snippet.page, PageSession())
    for earlier in snippets_of(snippet.page)[: snippet.index]:
        if in_page_session(earlier) and earlier.index not in session.ran:
            await _run(earlier, environment)
    await _run(snippet, environment)


@pytest.mark.parametrize("snippet", [pytest.param(s, id=s.id) for s in SNIPPETS if not needs(s)])
async def test_docs_snippet(snippet: Snippet, docs_files: Path) -> None:
    await _run_in_order(snippet, Environment(None, docs_files))


def _needing(need: str, *without: str) -> list[Any]:
    return [
        pytest.param(s, id=s.id)
        for s in SNIPPETS
        if need in needs(s) and not needs(s) & set(without)
    ]


@pytest.mark.integration
@pytest.mark.timeout(600)  # a Spark session starts in the first spark snippet: slow when busy
@pytest.mark.parametrize("snippet", _needing("kafka"))
async def test_docs_snippet_on_kafka(
    snippet: Snippet, docs_topics: str, docs_files: Path, request: pytest.FixtureRequest
) -> None:
    """Snippets that need a broker (and Spark) get the real ones, never a mock."""
    if "spark" in needs(snippet):
        request.getfixturevalue("docs_spark")
    for source in FILES.iterdir():  # the files name the cluster by its placeholder too
        (docs_files / source.name).write_text(with_bootstrap(source.read_text(), docs_topics))
    await _run_in_order(snippet, Environment(docs_topics, docs_files))


@pytest.mark.integration
@pytest.mark.parametrize("snippet", _needing("tls"))
async def test_docs_snippet_on_tls(
    snippet: Snippet, docs_files: Path, docs_tls: dict[str, str]
) -> None:
    """TLS snippets on a cluster with TLS listeners."""
    await _run_in_order(snippet, Environment(None, docs_files, docs_tls))


@pytest.mark.integration
@pytest.mark.parametrize("snippet", _needing("cluster", "kafka"))
async def test_docs_snippet_with_clusters_of_its_own(snippet: Snippet, docs_files: Path) -> None:
    await _run_in_order(snippet, Environment(None, docs_files))


@pytest.mark.integration
@pytest.mark.timeout(600)
@pytest.mark.parametrize("snippet", [pytest.param(s, id=s.id) for s in TEST_MODULES])
def test_docs_test_module(snippet: Snippet, tmp_path: Path) -> None:
    """A test module as a reader would run it: plain ``pytest`` in a project of its own."""
    (tmp_path / "test_from_the_docs.py").write_text(snippet.code)
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "test_from_the_docs.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=540,
        check=False,
    )
    summary = completed.stdout.strip().splitlines()[-1] if completed.stdout.strip() else ""
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    assert " passed" in summary and "skipped" not in summary, completed.stdout[-3000:]


def test_every_snippet_is_run() -> None:
    """Each Python snippet is one of the tests above (a kind without a test would drop it)."""
    tested = {s.id for s in SNIPPETS if not needs(s)}
    tested |= {p.id for p in [*_needing("kafka"), *_needing("cluster", "kafka"), *_needing("tls")]}
    tested |= {s.id for s in TEST_MODULES}
    assert tested == {s.id for s in all_snippets()}


def test_every_block_is_accounted_for() -> None:
    """Each fenced block is a Python snippet that runs, or in a language whose check is known."""
    unknown = [b.id for b in BLOCKS if b.language not in (*PYTHON, *OTHER_LANGUAGES)]
    assert not unknown, f"blocks in a language tests/docs/snippets.py does not know: {unknown}"


def _blocks(*languages: str) -> list[Any]:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.language in languages]


@pytest.mark.parametrize("block", _blocks("yaml", "json", "properties"))
def test_data_blocks_parse(block: Block) -> None:
    """Files and documents the pages show are well formed (a desired state loads whole)."""
    if block.language == "json":
        json.loads(block.code)
        return
    if block.language == "properties":
        parse_command_config(block.code, source=block.id, base_dir=ROOT)
        return
    document = yaml.safe_load(block.code)
    if isinstance(document, dict) and "clusters" in document:
        parse_clusters_file(block.code, source=block.id, base_dir=ROOT)
    elif isinstance(document, dict) and "topics" in document:
        parse_desired_state(block.code, source=block.id)


_OPERATORS = set("|&;<>()")


def command_lines(block: Block, program: str) -> Iterator[list[str]]:
    """The arguments of each line of a shell block that runs ``program``.

    Continuation lines are joined, a ``$`` prompt, ``VAR=value`` prefixes and comments are
    dropped, and the command ends at the first operator (a pipe, a redirection, ``&&``).
    """
    for line in block.code.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line.removeprefix("$ "), posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(itertools.takewhile(lambda word: not set(word) <= _OPERATORS, lexer))
        while words and "=" in words[0] and not words[0].startswith("-"):
            words.pop(0)
        if words[:1] == [program]:
            yield words[1:]


@pytest.mark.parametrize("block", _blocks("sh", "console"))
def test_cli_command_lines(block: Block) -> None:
    """Every ``kafka-config-admin`` line the pages show parses: its command and options exist."""
    from kafka_config_admin.cli import cli

    runner = CliRunner()
    for arguments in command_lines(block, "kafka-config-admin"):
        # --help after the arguments: click parses them all (an unknown command or option is
        # a usage error, exit 2) and then prints the help instead of connecting anywhere.
        result = runner.invoke(cli, [*arguments, "--help"])
        assert result.exit_code == 0, (
            f"{block.id}: kafka-config-admin {shlex.join(arguments)}: {result.output}"
        )


def test_the_docs_have_snippets() -> None:
    """The collector finds the blocks (a broken fence pattern would make every test vanish)."""
    assert any(snippet.page == ROOT / "README.md" for snippet in SNIPPETS)
    assert len(SNIPPETS) >= 5
