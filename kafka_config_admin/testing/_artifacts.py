"""Fetch the broker jars with Maven and compile the test AlterConfigPolicy, both cached on disk.

Both steps run once per machine: the results live under :func:`cache_root` and are published
with an atomic rename under an exclusive ``flock``, so concurrent test processes (e.g.
pytest-xdist workers) wait for one another instead of corrupting the cache.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

from ._errors import BackendUnavailableError
from ._generations import generation_of
from ._settings import ENV_KAFKA_LIBS, SCALA_VERSION, cache_root, kafka_version

#: log4j2 binding for slf4j 1.x: Kafka 4.x still publishes slf4j-api 1.7 in its POM and its
#: POM carries no binding, so without this the broker would log nothing at all.
_LOG4J_VERSION = "2.25.4"
#: Brokers before Kafka 4 call log4j 1 themselves (their logger config is read and changed
#: through it), which their POM leaves out: reload4j is its maintained drop-in, with its binding.
_RELOAD4J_VERSION = "1.2.25"
_SLF4J_RELOAD4J_VERSION = "1.7.36"
_MARKER = "RESOLVED"
_POLICY_SOURCES = Path(__file__).parent / "java"

_POM_TEMPLATE = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>kafka-config-admin.testing</groupId>
  <artifactId>kafka-broker-jars</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{kafka}</version>
    </dependency>
{logging}
  </dependencies>
</project>
"""
_DEPENDENCY = """\
    <dependency>
      <groupId>{group}</groupId>
      <artifactId>{artifact}</artifactId>
      <version>{version}</version>
    </dependency>"""


def _logging_dependencies(version: str) -> str:
    """The logging jars a broker of ``version`` needs beside what its POM brings."""
    if generation_of(version).log4j2:
        wanted = [
            ("org.apache.logging.log4j", "log4j-core", _LOG4J_VERSION),
            ("org.apache.logging.log4j", "log4j-slf4j-impl", _LOG4J_VERSION),
        ]
    else:
        wanted = [
            ("ch.qos.reload4j", "reload4j", _RELOAD4J_VERSION),
            ("org.slf4j", "slf4j-reload4j", _SLF4J_RELOAD4J_VERSION),
        ]
    return "\n".join(
        _DEPENDENCY.format(group=group, artifact=artifact, version=version)
        for group, artifact, version in wanted
    )


@contextlib.contextmanager
def exclusive_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``path`` (created if missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def broker_lib_dir(version: str | None = None) -> Path:
    """Return a directory of jars that runs ``kafka.Kafka`` ``version`` (default: the configured
    one), resolving it on first use."""
    override = os.environ.get(ENV_KAFKA_LIBS)
    if override:
        return Path(override).expanduser()
    version = version or kafka_version()
    return _resolved(f"kafka-{version}", version, f"kafka_{SCALA_VERSION}")


#: Where ``kafka-configs.sh``'s class lives: in the broker's jar until Kafka 4.4 moved it to the
#: tools module (``kafka-tools``, which the broker does not need and its POM does not bring).
_CONFIG_COMMAND_IN_BROKER = "kafka.admin.ConfigCommand"
_CONFIG_COMMAND_IN_TOOLS = "org.apache.kafka.tools.ConfigCommand"


def config_command(version: str | None = None) -> tuple[str, str]:
    """The classpath and main class of ``kafka-configs.sh`` of ``version`` (Kafka's
    ConfigCommand), resolving the tools jars on first use where the release keeps it there."""
    lib = broker_lib_dir(version)
    version = version or kafka_version()
    broker_jar = lib / f"kafka_{SCALA_VERSION}-{version}.jar"
    with zipfile.ZipFile(broker_jar) as jar:
        names = set(jar.namelist())
    if _CONFIG_COMMAND_IN_BROKER.replace(".", "/") + ".class" in names:
        return f"{lib}/*", _CONFIG_COMMAND_IN_BROKER
    tools = _resolved(f"kafka-{version}-tools", version, "kafka-tools")
    return f"{lib}/*:{tools}/*", _CONFIG_COMMAND_IN_TOOLS


def _resolved(name: str, version: str, artifact: str) -> Path:
    """``cache_root()/name/lib``: ``artifact`` of Kafka ``version`` and its runtime jars."""
    version_dir = cache_root() / name
    lib = version_dir / "lib"
    if (version_dir / _MARKER).exists():
        return lib
    with exclusive_lock(cache_root() / f"{name}.lock"):
        if not (version_dir / _MARKER).exists():  # another process may have finished meanwhile
            _resolve_into(version_dir, version, artifact)
    return lib


def _resolve_into(version_dir: Path, version: str, artifact: str) -> None:
    """Run Maven in a scratch dir, then move the jars into ``version_dir/lib`` atomically."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise BackendUnavailableError(
            "the jvm backend needs Maven ('mvn' on PATH) to fetch the Kafka jars once; "
            f"install it or set {ENV_KAFKA_LIBS} to a directory of Kafka jars"
        )
    version_dir.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="resolve-", dir=version_dir))
    try:
        pom = _POM_TEMPLATE.format(
            artifact=artifact, kafka=version, logging=_logging_dependencies(version)
        )
        (scratch / "pom.xml").write_text(pom)
        command = [
            mvn,
            "-q",
            "-B",
            "dependency:copy-dependencies",
            "-DincludeScope=runtime",
            "-DoutputDirectory=lib",
        ]
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BackendUnavailableError(
                f"Maven could not resolve {artifact}:{version}:\n"
                f"{(done.stdout + done.stderr)[-4000:]}"
            )
        shutil.rmtree(version_dir / "lib", ignore_errors=True)  # a half-published earlier try
        os.replace(scratch / "lib", version_dir / "lib")
        (version_dir / _MARKER).write_text(version + "\n")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _policy_source_files() -> list[Path]:
    return sorted(_POLICY_SOURCES.rglob("*.java"))


def _policy_digest(version: str) -> str:
    """Hash the policy sources and Kafka version: a change to either means recompiling."""
    digest = hashlib.sha256(version.encode())
    for source in _policy_source_files():
        digest.update(source.relative_to(_POLICY_SOURCES).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def policy_classes_dir(lib: Path, version: str | None = None) -> Path:
    """Return a directory with the compiled AlterConfigPolicy, compiling it with javac if needed."""
    target = cache_root() / f"policy-{_policy_digest(version or kafka_version())}"
    if target.is_dir():
        return target
    with exclusive_lock(cache_root() / "policy.lock"):
        if not target.is_dir():
            _compile_policy(lib, target)
    return target


def _compile_policy(lib: Path, target: Path) -> None:
    javac = shutil.which("javac")
    if javac is None:
        raise BackendUnavailableError(
            "policy=True needs 'javac' (a JDK, not just a JRE) on PATH to compile the test "
            "policy; without one, leave the policy out (pytest: --kafka-no-policy)"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="policy-build-", dir=target.parent))
    try:
        command = [
            javac,
            "-nowarn",
            "-encoding",
            "UTF-8",
            "-cp",
            f"{lib}/*",
            "-d",
            str(scratch),
            *map(str, _policy_source_files()),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BackendUnavailableError(f"javac failed on the test policy:\n{done.stderr}")
        os.replace(scratch, target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
