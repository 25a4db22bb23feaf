"""Every check, locally and in CI: `nox -s tests`, `nox -s demo`, `nox -s lint`, `nox -s bench`,
`nox -s docs`."""

from __future__ import annotations

import nox

nox.options.sessions = ["lint", "tests"]
nox.options.reuse_existing_virtualenvs = True

PYTHON = "3.11"
LINT_TOOLS = ["ruff==0.17.6", "mypy==2.4.1", "types-PyYAML==6.0.12.20261113"]


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Unit tests and integration tests against a real Kafka broker the suite starts itself."""
    session.install("-e", ".[test,cli]")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def demo(session: nox.Session) -> None:
    """Start an embedded Kafka broker and run examples/quickstart.py against it."""
    session.install("-e", ".")
    session.run(
        "python", "-m", "kafka_config_admin.testing", "--", "python", "examples/quickstart.py"
    )


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff (format check and lint) and mypy --strict."""
    session.install("-e", ".[test,cli,docs]", *LINT_TOOLS, "nox")
    session.run("ruff", "format", "--check", ".")
    session.run("ruff", "check", ".")
    session.run("mypy", "--strict")


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks against every peer on one real broker; results in benchmarks/results/."""
    session.install("-e", ".", "-r", "benchmarks/requirements.txt")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the documentation site into site/ in strict mode: any warning fails the build.

    `nox -s docs -- serve` serves it at http://127.0.0.1:8000 instead, rebuilding on changes.
    """
    session.install("-e", ".[docs]")
    session.env["NO_MKDOCS_2_WARNING"] = "1"  # mkdocs-material's banner about its successor
    command = session.posargs or ["build"]
    session.run("mkdocs", *command, "--strict")
