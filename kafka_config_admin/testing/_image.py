"""The container backend's broker image: the official one, or one built here without a registry.

Both hold a Java runtime on ``PATH`` and Kafka's jars in ``/opt/kafka/libs``, so the backend
starts brokers from either the same way. Which image is used, first match wins:

1. ``$KAFKA_CONFIG_ADMIN_IMAGE``, if set (it must be present or pullable);
2. ``kafka-config-admin/kafka:<version>``, built earlier by :func:`build_broker_image`;
3. ``apache/kafka:<version>``, present or pulled from a registry;
4. otherwise ``kafka-config-admin/kafka:<version>`` is built now.

The local build needs no registry: ``mmdebstrap`` (a Debian package) makes a Debian root file
system with ``openjdk-17-jre-headless`` from Debian's package mirrors, the jars the jvm backend
resolves with Maven are copied into it, and the engine imports the result as an image. It is
built once per Kafka version and reused from then on.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, TextIO

from ._artifacts import broker_lib_dir, exclusive_lock
from ._docker import docker_client, docker_module
from ._errors import BackendUnavailableError
from ._settings import cache_root, kafka_version

#: Use this image instead of choosing one (any image with ``java`` and ``/opt/kafka/libs``).
ENV_IMAGE = "KAFKA_CONFIG_ADMIN_IMAGE"
#: Repository of the image :func:`build_broker_image` makes; the tag is the Kafka version.
LOCAL_REPOSITORY = "kafka-config-admin/kafka"
#: Repository of the official image (used when present or pullable).
OFFICIAL_REPOSITORY = "apache/kafka"
#: Where both images keep Kafka's jars.
IMAGE_LIBS = "/opt/kafka/libs"

_DEBIAN_SUITE = "bookworm"
_JAVA_PACKAGE = "openjdk-17-jre-headless"
_VERSION_LABEL = "io.kafka-config-admin.kafka-version"
# Manual pages, docs and translations are a third of the file system and no broker needs them.
_EXCLUDED_PATHS = ("/usr/share/man/*", "/usr/share/doc/*", "/usr/share/locale/*")


def local_image() -> str:
    """The tag of the locally built image for the Kafka version in use."""
    return f"{LOCAL_REPOSITORY}:{kafka_version()}"


def official_image() -> str:
    """The tag of the official image for the Kafka version in use."""
    return f"{OFFICIAL_REPOSITORY}:{kafka_version()}"


def _present(client: Any, image: str) -> bool:
    docker = docker_module()
    try:
        client.images.get(image)
    except docker.errors.ImageNotFound:
        return False
    return True


def _pulled(client: Any, image: str) -> bool:
    """Pull ``image``; ``False`` when no registry has it or none answers."""
    repository, _, tag = image.rpartition(":")
    try:
        client.images.pull(repository, tag=tag)
    except Exception:  # no registry reachable, unknown tag, refused: all mean "not pulled"
        return False
    return True


def broker_image(client: Any) -> str:
    """The image to start brokers from (see the module docs), building it when needed."""
    chosen = os.environ.get(ENV_IMAGE, "").strip()
    if chosen:
        if not (_present(client, chosen) or _pulled(client, chosen)):
            raise BackendUnavailableError(
                f"{ENV_IMAGE}={chosen} is neither present nor pullable from a registry"
            )
        return chosen
    for image in (local_image(), official_image()):
        if _present(client, image):
            return image
    if _pulled(client, official_image()):
        return official_image()
    return build_broker_image(client)


def build_broker_image(
    client: Any | None = None, *, rebuild: bool = False, log: TextIO | None = None
) -> str:
    """Build ``kafka-config-admin/kafka:<version>`` unless it exists; return its tag.

    Args:
        client: a docker SDK client; by default one for the local engine.
        rebuild: build even when the image exists (e.g. after changing the jars).
        log: where ``mmdebstrap`` writes its progress; by default it is kept and shown only
            when the build fails.

    Raises:
        BackendUnavailableError: no Docker engine, no ``mmdebstrap``, no Maven for the jars, or
            the build failed (the message ends with the tool's output).
    """
    own_client = client is None
    engine = docker_client() if client is None else client
    try:
        image = local_image()
        with exclusive_lock(cache_root() / f"image-{kafka_version()}.lock"):
            if rebuild or not _present(engine, image):
                _build(engine, image, log)
        return image
    finally:
        if own_client:
            engine.close()


def _build(client: Any, image: str, log: TextIO | None) -> None:
    mmdebstrap = shutil.which("mmdebstrap")
    if mmdebstrap is None:
        raise BackendUnavailableError(
            f"building {image} needs 'mmdebstrap' (Debian: apt-get install mmdebstrap); "
            f"or make {official_image()} available, or set {ENV_IMAGE}"
        )
    libs = broker_lib_dir()
    cache_root().mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="image-build-", dir=cache_root()) as scratch:
        rootfs = Path(scratch) / "rootfs.tar"
        _run_mmdebstrap(mmdebstrap, libs, rootfs, log)
        client.api.import_image_from_file(
            str(rootfs),
            repository=LOCAL_REPOSITORY,
            tag=kafka_version(),
            changes=[f"LABEL {_VERSION_LABEL}={kafka_version()}", "WORKDIR /opt/kafka"],
        )
    if not _present(client, image):
        raise BackendUnavailableError(f"the engine did not import {image}")


def _run_mmdebstrap(mmdebstrap: str, libs: Path, rootfs: Path, log: TextIO | None) -> None:
    copy_jars = f'mkdir -p "$1{IMAGE_LIBS}" && cp -r {shlex.quote(str(libs))}/. "$1{IMAGE_LIBS}/"'
    command = [
        mmdebstrap,
        "--variant=essential",
        f"--include={_JAVA_PACKAGE}",
        *(f"--dpkgopt=path-exclude={path}" for path in _EXCLUDED_PATHS),
        # openjdk's install script writes a man page link, so that directory must exist.
        '--essential-hook=mkdir -p "$1/usr/share/man/man1"',
        f"--customize-hook={copy_jars}",
        _DEBIAN_SUITE,
        str(rootfs),
    ]
    with contextlib.ExitStack() as stack:
        output = log or stack.enter_context(
            tempfile.TemporaryFile("w+", prefix="mmdebstrap-", suffix=".log")
        )
        output.flush()
        done = subprocess.run(command, stdout=output, stderr=output, check=False)
        if done.returncode != 0:
            tail = ""
            if log is None:
                output.seek(0)
                tail = ":\n" + output.read()[-4000:]
            raise BackendUnavailableError(f"mmdebstrap failed (exit {done.returncode}){tail}")
