"""``describe`` of quota entities: client quotas and users' SCRAM credentials (their
``alter`` goes through the change pipeline: :mod:`._alter`).

``describe --entity-type users|clients|ips`` is one ``describe_client_quotas`` (entities of
exactly the types given, as ``kafka-configs.sh`` asks), plus for users (not the default user)
one ``describe_user_scram_credentials``: mechanisms and iterations, never a secret.

The JSON shape of the describe::

    {"kind": "quotas", "version": 1, "cluster": "prod",
     "quotas": [{"entity": {"user": "alice"}, "values": {"producer_byte_rate": 1024.0}}],
     "scram": [{"user": "alice", "credentials": [{"mechanism": "SCRAM-SHA-256",
                                                  "iterations": 8192}]}]}     (users only)
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from .. import AdminClient, ClientQuotaEntity, QuotaValues, UserScramCredentialsDescription
from ..desired import quota_entries
from ..toolkit import quota_value_text
from ._exit import ExitCode
from ._options import OutputFormat
from ._output import print_document, print_table, stdout
from ._resources import QuotaSelection
from ._running import run

QUOTAS_FORMAT_VERSION = 1


def describe_quotas(
    admin: AdminClient, label: str, selection: QuotaSelection, output: OutputFormat
) -> int:
    """Print the quotas (and SCRAM credentials) of the entities the selection matches."""

    async def work() -> tuple[dict[ClientQuotaEntity, QuotaValues], list[Any] | None]:
        async with admin:
            quotas = await admin.describe_client_quotas(selection.filter()).all()
            if not selection.has_scram:
                return quotas, None
            user = selection.one_user
            result = admin.describe_user_scram_credentials(None if user is None else [user])
            # A user without credentials is no error here: there is nothing to show.
            users = await result.users()
            return quotas, [await result.description(name) for name in users]

    quotas, scram = run(work)
    document: dict[str, Any] = {
        "kind": "quotas",
        "version": QUOTAS_FORMAT_VERSION,
        "cluster": label,
        "quotas": quota_entries(quotas),
    }
    if scram is not None:
        document["scram"] = [_scram_dict(description) for description in scram]
    if output is OutputFormat.TABLE:
        _print_tables(document, selection)
    else:
        print_document(document, output)
    return ExitCode.OK


def _scram_dict(description: UserScramCredentialsDescription) -> dict[str, Any]:
    return {
        "user": description.user,
        "credentials": [
            {"mechanism": info.mechanism.mechanism_name, "iterations": info.iterations}
            for info in sorted(description.credential_infos, key=lambda info: info.mechanism)
        ],
    }


def _print_tables(document: dict[str, Any], selection: QuotaSelection) -> None:
    table = Table(title=f"quotas of {selection} on {document['cluster']}", title_justify="left")
    for column in ("entity", "key", "value"):
        table.add_column(column, overflow="fold")
    for item in document["quotas"]:
        entity = entity_text(item["entity"])
        for key, value in item["values"].items():
            table.add_row(entity, key, quota_value_text(value))
    if not document["quotas"]:
        table.caption = "no quotas"
    print_table(stdout, table)
    if "scram" in document:
        scram = Table(title="SCRAM credentials", title_justify="left")
        for column in ("user", "mechanism", "iterations"):
            scram.add_column(column, overflow="fold")
        for item in document["scram"]:
            for credential in item["credentials"]:
                scram.add_row(item["user"], credential["mechanism"], str(credential["iterations"]))
        if not document["scram"]:
            scram.caption = "no SCRAM credentials"
        print_table(stdout, scram)


def entity_text(entity: dict[str, str | None]) -> str:
    """``user 'alice', client-id 'app'``; ``default user`` for a null name."""
    return ", ".join(
        f"default {kind}" if name is None else f"{kind} {name!r}" for kind, name in entity.items()
    )
