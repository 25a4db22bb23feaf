"""Pages from Jinja2 templates, escaped throughout, with what every page shows."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse

from .. import HIDDEN, ConfigResource, ConfigSource, ResourceType
from ..state import ResourceKind, documentation_html, human_units
from ..toolkit import quota_value_text
from ._auth import PasswordLogin
from ._headers import secure

__all__ = [
    "KINDS",
    "TEMPLATES",
    "entity_words",
    "kind_of",
    "render",
    "resource_title",
    "resource_url",
]

TEMPLATES = Path(__file__).parent / "templates"

#: Resource kinds as URLs and pages name them.
KINDS: dict[str, ResourceType] = {
    kind.dashed: kind.resource_type
    for kind in ResourceKind
    if kind.resource_type is not None and kind is not ResourceKind.CLUSTER_DEFAULT
}
_KIND_NAMES = {kind: name for name, kind in KINDS.items()}

_SOURCE_WORDS = {
    ConfigSource.TOPIC_CONFIG: "set on this topic",
    ConfigSource.DYNAMIC_BROKER_CONFIG: "set on this broker (dynamic)",
    ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG: "the cluster-wide default (dynamic)",
    ConfigSource.STATIC_BROKER_CONFIG: "the broker's server.properties (static)",
    ConfigSource.DEFAULT_CONFIG: "Kafka's default",
    ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG: "set on this broker's logger",
    ConfigSource.CLIENT_METRICS_CONFIG: "set on this client-metrics resource",
    ConfigSource.GROUP_CONFIG: "set on this group",
    ConfigSource.UNKNOWN: "not reported",
}


def kind_of(resource_type: ResourceType) -> str:
    """The URL name of a resource type."""
    return _KIND_NAMES[resource_type]


def resource_url(cluster: str, resource: ConfigResource, action: str = "r") -> str:
    """The page (``r``) or an action (``check``, ``edit``) of a resource."""
    name = quote(resource.name, safe="")
    return f"/c/{quote(cluster, safe='')}/{action}/{kind_of(resource.type)}/{name}"


def resource_title(resource: ConfigResource) -> str:
    """A resource as people read it: ``topic orders``, ``broker 1``, ``cluster default``."""
    if resource.type is ResourceType.BROKER and resource.name == "":
        return "cluster default"
    return f"{kind_of(resource.type)} {resource.name}"


def source_words(source: ConfigSource | str | None) -> str:
    """Where a value comes from, in words (a plan gives its source by name: ``TOPIC_CONFIG``)."""
    if source is None:
        return "not set"
    if isinstance(source, str):
        known = ConfigSource.__members__.get(source)
        if known is None:
            return source.lower().replace("_", " ")
        source = known
    return _SOURCE_WORDS.get(source, source.name)


def entity_words(entity: Mapping[str, str | None]) -> str:
    """A quota entity as people read it: ``user alice, client-id app``, ``default user``."""
    return ", ".join(
        f"default {kind}" if name is None else f"{kind} {name}" for kind, name in entity.items()
    )


def _documentation(text: str | None) -> Markup | None:
    """Kafka's documentation as the few harmless tags it uses, everything else escaped."""
    shown = documentation_html(text)
    return None if shown is None else Markup(shown)


_ENVIRONMENT = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENVIRONMENT.globals.update(
    HIDDEN=HIDDEN,  # the SDK's one marker for a value never shown
    resource_url=resource_url,
    resource_title=resource_title,
    source_words=source_words,
    entity_words=entity_words,
    human_units=human_units,
    quota_text=quota_value_text,
    kind_of=kind_of,
    quote=lambda text: quote(text, safe=""),
)
_ENVIRONMENT.filters["documentation"] = _documentation


def render(
    request: Request, template: str, context: dict[str, Any] | None = None, status: int = 200
) -> HTMLResponse:
    """A page (or fragment), with the session's token, the user and the editor's mode."""
    state = request.app.state
    session = getattr(request.state, "session", None)
    cluster = request.path_params.get("cluster")
    pending = 0
    notice = None
    if session is not None and isinstance(cluster, str):
        pending = len(session.edits_of(cluster)) if cluster in state.clusters.names else 0
        if not request.headers.get("HX-Request"):  # a fragment would swallow it
            notice = session.notices.pop(cluster, None)
    page = {
        "request": request,
        "csrf_token": session.csrf_token if session is not None else "",
        "user": getattr(request.state, "user", None),
        "can_log_out": isinstance(state.settings.auth, PasswordLogin),
        "allow_writes": state.settings.allow_writes,
        "live_interval": state.settings.live_interval,
        "clusters": state.clusters.names,
        "cluster": cluster,
        "pending": pending,
        "notice": notice,
        **(context or {}),
    }
    html = _ENVIRONMENT.get_template(template).render(page)
    response = HTMLResponse(html, status_code=status)
    secure(response)
    return response
