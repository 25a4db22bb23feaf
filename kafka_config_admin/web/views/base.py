"""What every view needs: the cluster's client, the resource of the URL, the session, the
user, the read-only check, the value a form asks for and the topics the editor has listed."""

from __future__ import annotations

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import AdminClient, ConfigResource, ResourceType
from ...journal import Journal, JournalStore, Origin, Recorder
from ...state import DesiredState, Rule, kafka_string_for
from ...toolkit import is_broker_id
from .._render import KINDS, render
from .._sessions import Session

__all__ = [
    "cluster_client",
    "cluster_name",
    "cluster_rules",
    "edit_answer",
    "form_text",
    "journal",
    "kept_topics",
    "override_rules",
    "path_resource",
    "require_writes",
    "session",
    "user",
    "wanted_value",
    "web_recorder",
]


def cluster_name(request: Request) -> str:
    """The cluster of the URL; 404 when the editor has none of that name."""
    name = request.path_params["cluster"]
    if name not in request.app.state.clusters.names:
        raise HTTPException(404, f"no cluster named {name!r}")
    assert isinstance(name, str)
    return name


async def cluster_client(request: Request) -> tuple[str, AdminClient]:
    """The cluster of the URL and its open client."""
    name = cluster_name(request)
    return name, await request.app.state.clusters.client(name)


def cluster_rules(request: Request, cluster: str) -> tuple[Rule, ...]:
    """The rules the cluster's clusters-file entry names, which guard every change to it."""
    rules: tuple[Rule, ...] = request.app.state.clusters.rules(cluster)
    return rules


def override_rules(form: FormData) -> list[str]:
    """The rules whose confirmation the user ticked (``override_rule``, one per rule)."""
    return [name for name in form.getlist("override_rule") if isinstance(name, str)]


def path_resource(request: Request) -> ConfigResource:
    """The resource of the URL (``/topic/orders``, ``/broker/1``, ``/broker/`` for the cluster
    default); 404 for an unknown kind or a name the kind cannot have."""
    kind = KINDS.get(request.path_params["kind"])
    name = request.path_params["name"]
    if kind is None:
        raise HTTPException(404, f"no resource kind {request.path_params['kind']!r}")
    if kind in (ResourceType.BROKER, ResourceType.BROKER_LOGGER):
        if not (is_broker_id(name) or (name == "" and kind is ResourceType.BROKER)):
            raise HTTPException(404, f"a broker is named by its id, not {name!r}")
    elif not name:
        raise HTTPException(404, "the resource's name is empty")
    return ConfigResource(kind, name)


def session(request: Request) -> Session:
    """The request's session."""
    found = request.state.session
    assert isinstance(found, Session)
    return found


def user(request: Request) -> str:
    """Who makes the request."""
    name = request.state.user
    assert isinstance(name, str)
    return name


def journal(request: Request, cluster: str | None = None) -> JournalStore:
    """The journal the editor records its applies in and its history page reads: the topic
    ``cluster``'s clusters-file entry names (``journal:``), else the settings' file, else the
    one :func:`~kafka_config_admin.journal.journal_path` names now."""
    file = Journal.at(request.app.state.settings.journal)
    return file if cluster is None else request.app.state.clusters.journal(cluster, file)


def web_recorder(request: Request, cluster: str, *, note: str = "") -> Recorder:
    """What records an apply of ``cluster``: the signed-in user's changes, from the web face,
    in :func:`journal` (``note``: what the changes were for, ``undo of change 12``)."""
    origin = Origin(face="web", user=user(request), cluster=cluster, note=note)
    return Recorder(journal(request, cluster), origin)


def require_writes(request: Request) -> None:
    """403 unless the editor was started with ``--allow-writes``."""
    if not request.app.state.settings.allow_writes:
        raise HTTPException(
            403, "read-only: the editor was started without --allow-writes; nothing was changed"
        )


def form_text(form: FormData, name: str, default: str = "") -> str:
    """A form field's last value (a switch sends its hidden ``false`` before ``true``)."""
    values = [value for value in form.getlist(name) if isinstance(value, str)]
    return values[-1] if values else default


def wanted_value(key: str, form: FormData) -> str:
    """The value a form asks for ``key``, as the Kafka string (a number with the unit picked:
    ``7`` + ``d`` -> ``604800000``); ValueError names what is wrong."""
    text = form_text(form, "value")
    unit = form_text(form, "unit")
    if unit.lower() not in ("", "ms", "b") and text.strip():
        text = f"{text.strip()}{unit}"
    converted = kafka_string_for(key, text)
    assert converted is not None
    return converted


async def kept_topics(
    request: Request, cluster: str, admin: AdminClient, desired: DesiredState
) -> set[str] | None:
    """The topics of the listing the editor keeps, when it knows every topic ``desired``
    names (a plan or a check of an edit then needs no listing of its own: 10,000 topics take
    the broker hundreds of milliseconds to list); else None. The apply always plans against
    a listing of its own."""
    listing = await request.app.state.listings.of(cluster, admin)
    names = {topic.name for topic in listing.topics if not topic.is_internal}
    return names if all(spec.name in names for spec in desired.named_topics) else None


def edit_answer(request: Request, subject: str, reason: str | None) -> Response:
    """What a list page's edit form gets back: under htmx, a line beside the form (why the
    edit is refused, or that it joined the plan, with the plan link's new count; the form
    keeps what was typed); without it, the pending plan, or a page saying why (400)."""
    if request.headers.get("HX-Request"):
        return render(request, "edit_status.html", {"subject": subject, "reason": reason})
    if reason is not None:
        raise HTTPException(400, f"{subject}: refused: {reason}")
    return RedirectResponse(f"/c/{cluster_name(request)}/plan", status_code=303)
