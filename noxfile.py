"""Every check, locally and in CI: `nox -s tests`, `nox -s demo`, `nox -s lint`, `nox -s bench`."""

from __future__ import annotations

import nox

nox.options.sessions = ["lint", "tests"]
nox.options.reuse_existing_virtualenvs = True

PYTHON = "3.11"
LINT_TOOLS = ["ruff==0.17.6", "mypy==2.4.1"]


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Unit tests and integration tests against a real Kafka broker the suite starts itself."""
    session.install("-e", ".[test,cli]")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def tests_container(session: nox.Session) -> None:
    """The integration tests with every broker in a Docker container (needs a running engine)."""
    session.install("-e", ".[test]")
    session.run("kafka-config-admin-broker", "build-image")
    session.run(
        "pytest",
        "tests/integration",
        *session.posargs,
        env={"KAFKA_CONFIG_ADMIN_BACKEND": "container"},
    )


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
    session.install("-e", ".[test,cli]", *LINT_TOOLS, "nox")
    session.run("ruff", "format", "--check", ".")
    session.run("ruff", "check", ".")
    session.run("mypy", "--strict")


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks against every peer on one real broker; results in benchmarks/results/."""
    session.install("-e", ".", "-r", "benchmarks/requirements.txt")
    session.run("python", "-m", "benchmarks", *session.posargs)
