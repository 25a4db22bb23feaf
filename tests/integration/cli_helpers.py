"""Running the command line in tests: in this process (through ``main``) or as a subprocess.

CLI tests are plain (not async) functions: the command runs its own event loop, so the
helpers that set up and read the cluster run theirs too, one call at a time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import pytest

from kafka_config_admin import (
    AdminClient,
    AuthenticationError,
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ResourceType,
)
from kafka_config_admin.cli import main
from kafka_config_admin.testing import KafkaCluster

from .helpers import new_topic, settled_entry

T = TypeVar("T")


@dataclass(frozen=True)
class Ran:
    """What a command line did: exit code, stdout and stderr."""

    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> Ran:
    """The command line through ``main``, in this process."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    captured = capsys.readouterr()
    code = exited.value.code
    return Ran(code if isinstance(code, int) else 1, captured.out, captured.err)


def run_process(*args: str, env: Mapping[str, str] | None = None) -> Ran:
    """The command line as a real subprocess (``python -m kafka_config_admin``), no stdin."""
    done = subprocess.run(
        [sys.executable, "-m", "kafka_config_admin", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=180,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def with_admin(bootstrap: str, work: Callable[[AdminClient], Awaitable[T]]) -> T:
    """Run ``work`` with a client of its own on a loop of its own."""

    async def session() -> T:
        async with AdminClient(bootstrap, timeout=30) as admin:
            return await work(admin)

    return anyio.run(session)


def make_topic(bootstrap: str, configs: dict[str, str] | None = None) -> str:
    """A new topic with a unique name."""
    return with_admin(bootstrap, lambda admin: new_topic(admin, bootstrap, configs))


def topic(name: str) -> ConfigResource:
    return ConfigResource(ResourceType.TOPIC, name)


def describe(bootstrap: str, resource: ConfigResource) -> Config:
    """The resource's configs now."""

    async def read(admin: AdminClient) -> Config:
        return await admin.describe_configs([resource]).values[resource]

    return with_admin(bootstrap, read)


def settled(bootstrap: str, resource: ConfigResource, key: str, value: str | None) -> ConfigEntry:
    """The entry once every broker shows ``value`` (alters reach brokers a moment apart)."""
    return with_admin(bootstrap, lambda admin: settled_entry(admin, resource, key, value))


_SET_HERE = {
    ResourceType.TOPIC: ConfigSource.TOPIC_CONFIG,
    ResourceType.BROKER: ConfigSource.DYNAMIC_BROKER_CONFIG,
    ResourceType.GROUP: ConfigSource.GROUP_CONFIG,
}


def overrides(bootstrap: str, resource: ConfigResource) -> dict[str, str | None]:
    """The values set on the resource itself."""
    source = _SET_HERE[resource.type]
    if resource.type is ResourceType.BROKER and resource.name == "":
        source = ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
    config = describe(bootstrap, resource)
    return {name: entry.value for name, entry in config.items() if entry.source is source}


def logs_in(cluster: KafkaCluster, user: str, password: str) -> bool:
    """Whether the user gets through SASL/SCRAM-SHA-256 on the cluster's SASL listener."""
    assert cluster.sasl_bootstrap_servers is not None

    async def attempt() -> bool:
        try:
            async with AdminClient(
                cluster.sasl_bootstrap_servers,
                security_protocol="SASL_PLAINTEXT",
                sasl_mechanism="SCRAM-SHA-256",
                sasl_plain_username=user,
                sasl_plain_password=password,
                timeout=10,
            ):
                return True
        except AuthenticationError:
            return False

    return anyio.run(attempt)
