"""Every face writes through the one change pipeline (:mod:`kafka_config_admin.changeset`),
never through a write method of :class:`AdminClient` directly.

The source of every module under ``cli/``, ``web/``, ``spark/`` and ``testing/`` is parsed, and
any use of a write method (a call, or the method taken to be called later) is a failure unless
it is listed below with its reason. An entry no longer needed fails too, so that the list only
ever shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kafka_config_admin import AdminClient

PACKAGE = Path(__file__).resolve().parents[2] / "kafka_config_admin"
FACES = ("cli", "web", "spark", "testing")

#: Every method of AdminClient that changes a cluster.
WRITE_METHODS = frozenset(
    {
        "alter_client_quotas",
        "alter_configs",
        "alter_partition_reassignments",
        "alter_user_scram_credentials",
        "create_partitions",
        "create_topics",
        "incremental_alter_configs",
    }
)
#: Every other public member of AdminClient: it reads, or waits, and changes nothing.
READ_MEMBERS = frozenset(
    {
        "broker_ids",
        "broker_racks",
        "cluster_id",
        "config_catalog",
        "config_types_lacking",
        "describe_client_quotas",
        "describe_cluster",
        "describe_configs",
        "describe_topics",
        "describe_user_scram_credentials",
        "list_config_resources",
        "list_groups",
        "list_partition_reassignments",
        "list_topics",
        "traffic",
        "wait_for_topics",
    }
)

#: The test harness sets up the clusters it starts (the SCRAM users its brokers log in
#: with, set again after a restart): no user's change, and no face's.
HARNESS_SETUP = frozenset({("testing/_layout.py", "alter_user_scram_credentials")})

ALLOWED = HARNESS_SETUP


def direct_writes(source: str) -> set[str]:
    """The write methods of AdminClient that ``source`` uses (called or taken as a value)."""
    return {
        node.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr in WRITE_METHODS
    }


def faces_writes() -> set[tuple[str, str]]:
    """Every (module path under the package, write method) a face uses."""
    found = set()
    for face in FACES:
        for module in sorted((PACKAGE / face).rglob("*.py")):
            path = module.relative_to(PACKAGE).as_posix()
            found |= {(path, method) for method in direct_writes(module.read_text())}
    return found


def test_every_public_member_of_the_client_is_known_as_a_write_or_a_read() -> None:
    """A method added to AdminClient must be classed here, or a new write would go unseen."""
    public = {name for name in vars(AdminClient) if not name.startswith("_")}
    assert public == WRITE_METHODS | READ_MEMBERS


def test_no_face_calls_a_write_method_of_the_client() -> None:
    unexpected = faces_writes() - ALLOWED
    assert not unexpected, (
        "a face writes to the cluster directly; write through kafka_config_admin.changeset "
        f"(review, apply) instead: {sorted(unexpected)}"
    )


def test_the_command_line_has_no_exception() -> None:
    assert not {path for path, _ in ALLOWED if path.startswith("cli/")}


def test_every_exception_is_still_needed() -> None:
    """A face moved onto the pipeline takes its entry out of the list."""
    assert not ALLOWED - faces_writes(), sorted(ALLOWED - faces_writes())


@pytest.mark.parametrize(
    "source",
    [
        "async def f(admin):\n    await admin.incremental_alter_configs(ops).all()\n",
        "def f(admin):\n    alter = admin.create_topics\n",
        "from functools import partial\nsend = partial(AdminClient.alter_client_quotas, a)\n",
        "def f(self):\n    return self.admin.alter_user_scram_credentials([c])\n",
    ],
)
def test_a_direct_write_is_seen_however_it_is_spelled(source: str) -> None:
    assert direct_writes(source)


def test_a_read_or_a_docstring_naming_a_write_is_no_write() -> None:
    source = '"""Unlike create_topics, this reads."""\nasync def f(a):\n    a.describe_configs(r)\n'
    assert not direct_writes(source)
