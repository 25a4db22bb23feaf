"""``describe`` and ``alter`` of quota entities: client quotas and users' SCRAM credentials.

``describe --entity-type users|clients|ips`` is one ``describe_client_quotas`` (entities of
exactly the types given, as ``kafka-configs.sh`` asks), plus for users (not the default user)
one ``describe_user_scram_credentials``: mechanisms and iterations, never a secret. ``alter``
is one ``alter_client_quotas`` (``--dry-run``: the broker validates, nothing changes) or one
``alter_user_scram_credentials`` (which Kafka cannot validate alone: ``--dry-run`` checks it
here and sends nothing).

The JSON shape of the describe::

    {"kind": "quotas", "version": 1, "cluster": "prod",
     "quotas": [{"entity": {"user": "alice"}, "values": {"producer_byte_rate": 1024.0}}],
     "scram": [{"user": "alice", "credentials": [{"mechanism": "SCRAM-SHA-256",
                                                  "iterations": 8192}]}]}     (users only)
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from .. import (
    AdminClient,
    ClientQuotaEntity,
    QuotaValues,
    UserScramCredentialDeletion,
    UserScramCredentialsDescription,
    quota_value_text,
)
from ..desired import Proposal, ask_broker, quota_entries
from ._entities import QuotaChanges
from ._exit import ExitCode
from ._options import OutputFormat
from ._output import print_document, print_table, report_verdict, stderr, stdout
from ._resources import QuotaSelection
from ._running import confirmed, run

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


def alter_quotas(
    admin: AdminClient,
    label: str,
    selection: QuotaSelection,
    changes: QuotaChanges,
    *,
    dry_run: bool,
    yes: bool,
) -> int:
    """Show the change of the entity's quotas or SCRAM credentials, confirm it, and send it."""
    entity = selection.entity()

    async def work() -> int:
        async with admin:
            if changes.quotas:
                current = await admin.describe_client_quotas(selection.filter()).all()
                _print_quota_changes(entity, current.get(entity, {}), changes, label)
            else:
                _print_scram_changes(changes, label)
            if dry_run and changes.scram:
                stderr.print("dry run: SCRAM credentials checked here, nothing was sent")
                return ExitCode.OK
            if not dry_run and not confirmed(yes, f"Alter {entity} on {label}?"):
                return ExitCode.FAILED
            if not changes.quotas:
                # The broker takes one change per user and request: one request each, and
                # each done one printed, so that a failure leaves no doubt about the others.
                for change in changes.scram:
                    await admin.alter_user_scram_credentials([change]).all()
                    stderr.print(f"{entity}: {change.mechanism.mechanism_name} altered")
                return ExitCode.OK
            if dry_run:
                verdict = await ask_broker(admin, Proposal(quotas={entity: changes.quotas}))
                return report_verdict(verdict, f"the quotas of {entity}")
            await admin.alter_client_quotas({entity: changes.quotas}).all()
            stderr.print(f"{entity} altered")
            return ExitCode.OK

    return run(work)


def _print_quota_changes(
    entity: ClientQuotaEntity, current: QuotaValues, changes: QuotaChanges, label: str
) -> None:
    table = Table(title=f"changes to {label}", title_justify="left")
    for column in ("entity", "key", "op", "current", "new"):
        table.add_column(column, overflow="fold")
    for key, value in changes.quotas.items():
        now = current.get(key)
        table.add_row(
            entity_text(dict(entity)),
            key,
            "DELETE" if value is None else "SET",
            "" if now is None else quota_value_text(now),
            "" if value is None else quota_value_text(value),
        )
    print_table(stderr, table)


def _print_scram_changes(changes: QuotaChanges, label: str) -> None:
    table = Table(title=f"changes to {label}", title_justify="left")
    for column in ("user", "mechanism", "op", "iterations"):
        table.add_column(column, overflow="fold")
    for change in changes.scram:
        deleted = isinstance(change, UserScramCredentialDeletion)
        table.add_row(
            change.user,
            change.mechanism.mechanism_name,
            "DELETE" if deleted else "UPSERT",
            "" if isinstance(change, UserScramCredentialDeletion) else str(change.iterations),
        )
    print_table(stderr, table)
