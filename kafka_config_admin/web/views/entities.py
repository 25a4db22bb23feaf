"""Groups, client-metrics resources, client quotas and SCRAM users: lists, and the quota and
credential edits, which join the pending plan like every other edit."""

from __future__ import annotations

from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import (
    AdminClient,
    ConfigResource,
    KafkaConfigAdminError,
    QuotaEntityType,
    ResourceType,
    ScramMechanism,
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from ...state import QUOTA_KEYS, QuotaSpec, human_units, kafka_string_for
from ...toolkit import argument_error, error_line, quota_value_text, shorten
from .._render import entity_words, render, resource_url
from .base import cluster_client, cluster_name, edit_answer, form_text, require_writes, session

#: The iterations the users form offers (and takes when the field is left empty).
ITERATIONS = 8192

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


async def quotas(request: Request) -> Response:
    """``GET /c/{cluster}/quotas``: every entity's quotas, and the form to set one."""
    _, admin = await cluster_client(request)
    described = await admin.describe_client_quotas().all()
    rows = [
        (
            entity_words(entity),
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
    name = form_text(form, "entity_name").strip() or None
    key = form_text(form, "key").strip()
    raw = form_text(form, "value").strip()
    remove = form_text(form, "action") == "remove"
    subject = f"quota {key} of {kind} {name or '(default)'}"
    if kind not in {member.value for member in QuotaEntityType}:
        return edit_answer(request, subject, "entity type must be user, client-id or ip")
    try:
        # sizes with units for the *_byte_rate quotas, as a desired-state file takes them
        value = None if remove else kafka_string_for(key, raw)
        spec = QuotaSpec.model_validate({"entity": {kind: name}, "values": {key: value}})
    except ValidationError as error:  # said as the SDK says a bad argument: each problem
        return edit_answer(request, subject, error_line(argument_error("quota", error)))
    except ValueError as error:
        return edit_answer(request, subject, error_line(error))
    session(request).edits_of(cluster).set_quota(spec.quota_entity, key, spec.values[key])
    return edit_answer(request, subject, None)


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
    page = {"title": "SCRAM users", "rows": rows, "mechanisms": mechanisms}
    return render(request, "users.html", page | {"default_iterations": ITERATIONS})


async def edit_user(request: Request) -> Response:
    """``POST /c/{cluster}/users/edit``: a user's SCRAM credential to upsert or delete, into
    the pending plan.

    The password is salted here at once (RFC 5802) and never kept, shown or logged; the salted
    credential waits in the session's pending edits until it is applied or discarded.
    """
    require_writes(request)
    cluster = cluster_name(request)
    form = await request.form()
    name = form_text(form, "user").strip()
    mechanism_name = form_text(form, "mechanism")
    subject = f"user {name}, {mechanism_name}"
    try:
        alteration = _credential_change(form, name, mechanism_name)
    except ValueError as error:
        return edit_answer(request, subject, error_line(error))
    session(request).edits_of(cluster).set_scram(alteration)
    return edit_answer(request, subject, None)


def _credential_change(
    form: FormData, name: str, mechanism_name: str
) -> UserScramCredentialAlteration:
    """The credential change a users form asks for; ValueError says what is wrong."""
    mechanisms = {m.mechanism_name: m for m in ScramMechanism if m.value}
    if not name:
        raise ValueError("name the user")
    if mechanism_name not in mechanisms:
        raise ValueError(f"mechanism must be one of {', '.join(mechanisms)}")
    mechanism = mechanisms[mechanism_name]
    if form_text(form, "action") == "delete":
        return UserScramCredentialDeletion(name, mechanism)
    iterations = form_text(form, "iterations").strip() or str(ITERATIONS)
    if not iterations.isdecimal():
        raise ValueError(f"iterations must be a whole number, not {shorten(iterations)}")
    password = form_text(form, "password")
    return UserScramCredentialUpsertion(name, mechanism, password, iterations=int(iterations))
