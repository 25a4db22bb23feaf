"""Every check, locally and in CI: `nox -s tests`, `nox -s demo`, `nox -s lint`, `nox -s bench`,
`nox -s docs`; `nox -s web_demo` serves the web editor on a throwaway broker."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nox

nox.options.sessions = ["lint", "tests"]
nox.options.reuse_existing_virtualenvs = True

PYTHON = "3.11"
LINT_TOOLS = ["ruff==0.17.6", "mypy==2.4.1"]


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Unit tests and integration tests against a real Kafka broker the suite starts itself."""
    session.install("-e", ".[test,cli,spark,web]")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON)
def tests_container(session: nox.Session) -> None:
    """The integration tests with every broker in a Docker container (needs a running engine)."""
    session.install("-e", ".[test,cli,spark]")
    session.run("kafka-config-admin-broker", "build-image")
    session.run(
        "pytest",
        "tests/integration",
        *session.posargs,
        env={"KAFKA_CONFIG_ADMIN_BACKEND": "container"},
    )


#: The Kafka releases ``nox -s compat`` runs the ``compat`` tests on: the pinned 4.x KRaft
#: release, the 4.x line before it (the catalog and the checks per release), the last 3.x
#: (KRaft, log4j 1) and a ZooKeeper-era release from before Kafka 2.6 (DescribeConfigs v2: no
#: types, no documentation).
COMPAT_VERSIONS = [
    re.search(
        r'^KAFKA_VERSION = "(.+)"$',
        Path("kafka_config_admin/testing/_settings.py").read_text(),
        re.M,
    )[1],  # type: ignore[index]
    "4.3.1",
    "3.9.1",
    "2.5.1",
]


@nox.session(python=PYTHON)
def compat(session: nox.Session) -> None:
    """The ``compat`` tests on each broker generation, one single-broker cluster per release.

    ``nox -s compat -- 3.9.1`` tries only the releases given. Writes
    benchmarks/results/compat.json and benchmarks/results/reliability/generations.json.
    """
    session.install("-e", ".[test,cli]")  # the CLI's test modules are collected too
    versions = session.posargs or COMPAT_VERSIONS
    runs = session.create_tmp()
    for version in versions:
        session.run(
            "pytest",
            "-q",
            "-m",
            "compat",
            "tests/integration",
            f"--kafka-version={version}",
            "--kafka-brokers=1",
            "--kafka-backend=jvm",
            f"--junitxml={runs}/junit-{version}.xml",
            env={"KAFKA_CONFIG_ADMIN_COMPAT_RECORD": f"{runs}/apis-{version}.json"},
            success_codes=[0, 1],  # every release is tried; the report says which failed
        )
    command = " ".join(
        ["python3 -m nox -s compat", *(["--", *versions] if session.posargs else [])]
    )
    session.run(
        "python", "-m", "tests.compat_report", f"--runs={runs}", f"--command={command}", *versions
    )


@nox.session(python=PYTHON)
def demo(session: nox.Session) -> None:
    """Start an embedded Kafka broker and run examples/quickstart.py against it."""
    session.install("-e", ".")
    session.run(
        "python", "-m", "kafka_config_admin.testing", "--", "python", "examples/quickstart.py"
    )


@nox.session(python=PYTHON)
def web_demo(session: nox.Session) -> None:
    """The web config editor on a real broker with sample topics, until Ctrl-C (port 8080;
    ``nox -s web_demo -- --port 9000`` picks another)."""
    session.install("-e", ".[web]")
    session.run("python", "examples/web_editor_demo.py", *session.posargs)


@nox.session(python=PYTHON)
def screenshots(session: nox.Session) -> None:
    """Retake docs/images/web/*.png: the browser tests that take them, on one broker."""
    session.install("-e", ".[test,cli,web]")
    shots = ["tests/web/test_browser.py", "tests/web/test_browser_design.py"]
    session.run("pytest", *shots, "-q", "--kafka-brokers=1", *session.posargs)


@nox.session(python=PYTHON)
def pipeline(session: nox.Session) -> None:
    """The Spark audit end to end: two embedded clusters, planted violations, report, apply."""
    session.install("-e", ".[spark]")
    session.run("python", "examples/spark_audit_demo.py")


@nox.session(python=PYTHON)
def bad_input(session: nox.Session) -> None:
    """The SDK's and the CLI's bad-input matrices: benchmarks/results/reliability/bad-input.json."""
    session.install("-e", ".[test,cli,spark]")
    session.run("python", "-m", "tools.bad_input")


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff (format check and lint), mypy --strict, and the layering contracts (import-linter)."""
    session.install("-e", ".[test,cli,spark,web,docs]", *LINT_TOOLS, "nox")
    session.run("ruff", "format", "--check", ".")
    session.run("ruff", "check", ".")
    session.run("mypy", "--strict")
    session.run("lint-imports")  # contracts in pyproject.toml; docs/architecture.md explains them


@nox.session(python=PYTHON)
def faults(session: nox.Session) -> None:
    """Fault rounds on a real 3-node cluster, one kind after another (tests/faults/scenarios.py).

    ``nox -s faults -- 100`` runs 100 rounds (default 15, one of each kind; each takes ~5-60 s);
    ``nox -s faults -- 100 --record`` also writes benchmarks/results/faults-rounds.txt and
    benchmarks/results/reliability/faults.json.
    """
    session.install("-e", ".[test]")
    rounds, *options = session.posargs or ["15"]
    session.run("python", "-m", "tests.faults.rounds", "--rounds", rounds, *options)


@nox.session(python=PYTHON)
def fuzz(session: nox.Session) -> None:
    """Decoder fuzzing, longer than the unit tests: hypothesis, then atheris (libFuzzer).

    ``nox -s fuzz -- 600`` fuzzes with atheris for 600 s (default 120); hypothesis tries
    ``$KAFKA_CONFIG_ADMIN_FUZZ_EXAMPLES`` examples per test and message (default 400). The run
    is recorded in benchmarks/results/reliability/fuzz.json (docs/reliability.md shows it).
    """
    session.install("-e", ".[test]", "atheris==3.0.0")
    examples = os.environ.get("KAFKA_CONFIG_ADMIN_FUZZ_EXAMPLES", "400")
    seconds = session.posargs[0] if session.posargs else "120"
    work = session.create_tmp()
    session.run(
        "python",
        "-m",
        "tests.fuzz.record",
        f"--examples={examples}",
        f"--seconds={seconds}",
        f"--work={work}/fuzz",
    )


@nox.session(python=PYTHON)
def secrets(session: nox.Session) -> None:
    """The secrets capture on a TLS cluster: benchmarks/results/reliability/secrets.json."""
    session.install("-e", ".[test,cli]")
    session.run("python", "-m", "tests.integration.secrets_capture")


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks against every peer on one real broker; results in benchmarks/results/.

    ``nox -s bench -- spark`` runs the Spark snapshot benchmark instead (one broker, and a fleet
    of three clusters on local[2] and on a standalone cluster), ``nox -s bench -- feed``
    the change feed's poll cost and detection latency (two clusters), ``nox -s bench --
    documentation`` W1 with documentation against W1 without it (bytes, broker CPU, wall; the
    default run makes it too), ``nox -s bench -- cli`` only the CLI against kafka-configs.sh,
    ``nox -s bench -- peers`` only the clients,
    ``nox -s bench -- load`` concurrent alters and describes (600 and 200, for 20 s each, from
    one client, beside another process's alters, and from four), ``nox -s bench -- web`` the
    web editor's pages over 10,000 topics on 3 brokers (``-- web --part compare``: the compare
    page over two clusters of 2,000 topics), ``nox -s bench -- scale`` (slow: about an hour on
    two cores) W1 for every client at 1,000, 5,000 and 20,000 topics on 1 and 3
    brokers, time and memory.
    """
    session.install("-e", ".[spark,cli,web]", "-r", "benchmarks/requirements.txt")
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
