"""Groups, client-metrics resources, client quotas and SCRAM users: lists, and the quota and
credential edits (quota edits join the pending plan; a credential is changed at once, since
Kafka cannot validate one without changing it)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import (
    HIDDEN,
    AdminClient,
    ClientQuotaEntity,
    ConfigResource,
    KafkaConfigAdminError,
    QuotaEntityType,
    ResourceType,
    ScramMechanism,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
    error_line,
    quota_value_text,
)
from ...desired import QUOTA_KEYS, OutcomeStatus, QuotaSpec, human_units, kafka_string_for
from .._changelog import ChangeRow, now
from .._render import render, resource_url
from .base import cluster_client, cluster_name, form_text, require_writes, session, user

__all__ = ["client_metrics", "edit_quota", "edit_user", "groups", "quotas", "users"]


async def groups(request: Request) -> Response:
    """``GET /c/{cluster}/groups``: every group, its type and state; and the groups that exist
    only as config (``list_config_resources``, Kafka 4.1+), which no broker coordinates."""
    _, admin = await cluster_client(request)
    listed = await admin.list_groups().valid()
    page: dict[str, object] = {"title": "Groups", "groups": listed}
    page |= await _config_only(admin, {group.group_id for group in listed})
    return render(request, "groups.html", page)


async def _config_only(admin: AdminClient, coordinated: set[str]) -> dict[str, object]:
    """The groups listed as config resources that no broker coordinates, or why not known."""
    try:
        listing = await admin.list_config_resources([ResourceType.GROUP])
    except KafkaConfigAdminError as error:
        return {
            "config_only": [],
            "unseen": f"groups that exist only as config: {error_line(error)}",
        }
    only = [name for name in listing.names(ResourceType.GROUP) if name not in coordinated]
    return {"config_only": only, "unseen": listing.unseen.get(ResourceType.GROUP)}


async def client_metrics(request: Request) -> Response:
    """``GET /c/{cluster}/client-metrics?name=``: the client-metrics resources the cluster lists
    (``list_config_resources``), and one opened by name (to create it)."""
    cluster, admin = await cluster_client(request)
    name = request.query_params.get("name", "").strip()
    if name:
        resource = ConfigResource(ResourceType.CLIENT_METRICS, name)
        return RedirectResponse(resource_url(cluster, resource), status_code=303)
    listing = await admin.list_config_resources([ResourceType.CLIENT_METRICS])
    return render(
        request,
        "client_metrics.html",
        {
            "title": "Client metrics",
            "resources": listing.names(ResourceType.CLIENT_METRICS),
            "unseen": listing.unseen.get(ResourceType.CLIENT_METRICS),
        },
    )


def _entity_label(entity: ClientQuotaEntity) -> str:
    return str(entity)


async def quotas(request: Request) -> Response:
    """``GET /c/{cluster}/quotas``: every entity's quotas, and the form to set one."""
    _, admin = await cluster_client(request)
    described = await admin.describe_client_quotas().all()
    rows = [
        (
            _entity_label(entity),
            [
                (key, quota_value_text(value), human_units(key, quota_value_text(value)))
                for key, value in sorted(values.items())
            ],
        )
        for entity, values in sorted(described.items(), key=lambda item: str(item[0]))
    ]
    keys = sorted({key for names in QUOTA_KEYS.values() for key in names})
    return render(request, "quotas.html", {"title": "Client quotas", "rows": rows, "keys": keys})


async def edit_quota(request: Request) -> Response:
    """``POST /c/{cluster}/quotas/edit``: a quota of an entity to set or remove, into the
    pending plan (checked as a desired-state file's ``quotas`` entry is)."""
    require_writes(request)
    cluster = cluster_name(request)
    form = await request.form()
    kind = form_text(form, "entity_type")
    if kind not in {member.value for member in QuotaEntityType}:
        raise HTTPException(400, f"entity type must be user, client-id or ip, not {kind!r}")
    name = form_text(form, "entity_name").strip() or None
    key = form_text(form, "key").strip()
    raw = form_text(form, "value").strip()
    remove = form_text(form, "action") == "remove"
    try:
        # sizes with units for the *_byte_rate quotas, as a desired-state file takes them
        value = None if remove else kafka_string_for(key, raw)
        spec = QuotaSpec.model_validate({"entity": {kind: name}, "values": {key: value}})
    except ValueError as error:
        raise HTTPException(400, f"refused: {error_line(error)}") from None
    entity = spec.quota_entity
    session(request).edits_of(cluster).set_quota(entity, key, spec.values[key])
    return RedirectResponse(f"/c/{cluster}/plan", status_code=303)


async def users(request: Request) -> Response:
    """``GET /c/{cluster}/users``: every SCRAM user and their mechanisms (never a secret)."""
    _, admin = await cluster_client(request)
    result = admin.describe_user_scram_credentials()
    rows = []
    for name in await result.users():
        description = await result.description(name)
        rows.append(
            (
                name,
                [(i.mechanism.mechanism_name, i.iterations) for i in description.credential_infos],
            )
        )
    mechanisms = [mechanism.mechanism_name for mechanism in ScramMechanism if mechanism.value]
    return render(
        request, "users.html", {"title": "SCRAM users", "rows": rows, "mechanisms": mechanisms}
    )


async def edit_user(request: Request) -> Response:
    """``POST /c/{cluster}/users/edit``: upsert or delete a user's SCRAM credential at once.

    The password is salted here (RFC 5802) and never stored, shown or logged.
    """
    require_writes(request)
    cluster, admin = await cluster_client(request)
    form = await request.form()
    name = form_text(form, "user").strip()
    mechanism_name = form_text(form, "mechanism")
    delete = form_text(form, "action") == "delete"
    mechanisms = {m.mechanism_name: m for m in ScramMechanism if m.value}
    if not name:
        raise HTTPException(400, "name the user")
    if mechanism_name not in mechanisms:
        raise HTTPException(400, f"mechanism must be one of {', '.join(mechanisms)}")
    mechanism = mechanisms[mechanism_name]
    try:
        if delete:
            alteration: UserScramCredentialDeletion | UserScramCredentialUpsertion = (
                UserScramCredentialDeletion(name, mechanism)
            )
        else:
            password = form_text(form, "password")
            iterations = int(form_text(form, "iterations", "8192") or "8192")
            alteration = UserScramCredentialUpsertion(
                name, mechanism, password, iterations=iterations
            )
    except ValueError as error:
        raise HTTPException(400, f"refused: {error_line(error)}") from None
    outcome, message = OutcomeStatus.APPLIED, ""
    try:
        await admin.alter_user_scram_credentials([alteration]).all()
    except KafkaConfigAdminError as error:
        outcome, message = OutcomeStatus.FAILED, f"{type(error).__name__}: {error_line(error)}"
    request.app.state.changelog.record(
        [
            ChangeRow(
                time=now(),
                user=user(request),
                cluster=cluster,
                resource_type="SCRAM_USER",
                resource_name=name,
                key=mechanism_name,
                op="DELETE" if delete else "UPSERT",
                old_value=None,
                new_value=None if delete else HIDDEN,
                outcome=outcome,
                message=message,
            )
        ]
    )
    if outcome is OutcomeStatus.FAILED:
        raise HTTPException(502, f"user {name!r}, {mechanism_name}: {message}")
    return RedirectResponse(f"/c/{cluster}/users", status_code=303)
