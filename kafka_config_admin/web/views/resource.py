"""A resource's configs (topic, broker, cluster default, broker logger, group, client-metrics):
each value in human units beside the raw one, its type, documentation, source in words and
synonym chain, and where the config catalog of the cluster's release knows the key, its
default, valid values and update mode; the typed widgets that edit it and the check as the
user types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import (
    AdminClient,
    AlterConfigOp,
    CatalogKey,
    CatalogMatch,
    ConfigEntry,
    ConfigResource,
    ConfigType,
    OpType,
    ResourceType,
    is_sensitive,
)
from ...changeset import Proposal, ask_broker
from ...desired import make_plan
from ...state import (
    LOG_LEVELS,
    ClusterState,
    ConfigWarning,
    DesiredState,
    Problem,
    check_value,
    human_units,
    is_locked,
    is_override,
    is_reference,
    key_rules,
    read_state,
    unknown_key_warnings,
    upcoming_warning,
    update_mode_words,
)
from .._edits import Edits
from .._render import render, resource_title, resource_url, source_words
from .base import (
    cluster_client,
    edit_answer,
    form_text,
    kept_topics,
    path_resource,
    require_writes,
    session,
    wanted_value,
)

__all__ = ["check", "edit", "page", "rotate_keystore"]

DURATION_UNITS = ("ms", "s", "min", "h", "d", "w")
#: The key store types Kafka's default SSL engine factory reads.
KEYSTORE_TYPES = ("PKCS12", "JKS", "PEM")
SIZE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB")


@dataclass(frozen=True)
class Row:
    """One config as the page shows it (never a sensitive value)."""

    name: str
    value: str | None
    human: str | None
    type: str
    source: str
    override: bool
    read_only: bool
    sensitive: bool
    synonyms: tuple[tuple[str, str, str | None], ...]
    documentation: str | None
    widget: str
    pending: str | None
    has_pending: bool
    #: From the config catalog of the cluster's release (None where it does not know the key).
    default: str | None = None
    default_human: str | None = None
    valid: str | None = None
    update_mode: str | None = None
    #: The rules Kafka states for a broker key beyond its valid values (as ``docs KEY``).
    rules: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()


def widget_of(
    resource: ConfigResource, name: str, kind: ConfigType, sensitive: bool, choices: bool = False
) -> str:
    """Which input edits a key: switch, duration, size, level, choice (an enum whose members
    the catalog knows), list, password or text."""
    if sensitive:
        return "password"
    if resource.type is ResourceType.BROKER_LOGGER:
        return "level"
    if choices:
        return "choice"
    if kind is ConfigType.BOOLEAN:
        return "switch"
    if kind in (ConfigType.INT, ConfigType.LONG, ConfigType.SHORT, ConfigType.UNKNOWN):
        if name.endswith(".ms"):
            return "duration"
        if name.endswith(".bytes"):
            return "size"
    if kind is ConfigType.LIST:
        return "list"
    return "text"


def catalog_key(
    match: CatalogMatch | None, resource: ConfigResource, name: str
) -> CatalogKey | None:
    """What the config catalog of the cluster's release says of a key (None: no catalog, or a
    key it does not have; broker loggers have none). A broker's per-listener key is the key it
    prefixes, as the checks take it."""
    if match is None or resource.type is ResourceType.BROKER_LOGGER:
        return None
    return match.catalog.lookup(resource.type, name)


def row_of(
    resource: ConfigResource,
    entry: ConfigEntry,
    edits: Edits,
    match: CatalogMatch | None,
) -> Row:
    spec = catalog_key(match, resource, entry.name)
    sensitive = entry.sensitive
    value = None if sensitive else entry.value
    wanted = edits.configs.get(resource, {})
    valid = spec.valid if spec is not None else None
    choices = valid.members if valid is not None and not valid.is_list else None
    if choices and value is not None and value.lower() not in {c.lower() for c in choices}:
        choices = (value, *choices)  # a value this release would refuse is still shown as it is
    default = None if sensitive or spec is None else spec.default
    return Row(
        name=entry.name,
        value=value,
        human=human_units(entry.name, value),
        type=entry.type.name,
        source=source_words(entry.source),
        override=is_override(resource, entry),
        read_only=is_locked(resource, entry.name, read_only=entry.is_read_only),
        sensitive=sensitive,
        synonyms=tuple(
            (synonym.name, source_words(synonym.source), None if sensitive else synonym.value)
            for synonym in entry.synonyms
        ),
        documentation=entry.documentation,
        widget=widget_of(resource, entry.name, entry.type, sensitive, bool(choices)),
        pending=None if sensitive else wanted.get(entry.name),
        has_pending=entry.name in wanted,
        default=default,
        default_human=human_units(entry.name, default),
        valid=(valid.describe() or None) if valid is not None else None,
        update_mode=None if spec is None or match is None else update_mode_words(spec, match),
        rules=() if spec is None or match is None else tuple(key_rules(spec, match)),
        choices=choices or (),
    )


async def page(request: Request) -> Response:
    """``GET /c/{cluster}/r/{kind}/{name}``: every config, or only the modified ones."""
    cluster, admin = await cluster_client(request)
    resource = path_resource(request)
    modified = request.query_params.get("modified") == "1"
    lacking = await admin.config_types_lacking([resource.type])
    if lacking:  # a group on Kafka 3.9: its describe would fail the request
        raise HTTPException(404, f"{resource_title(resource)}: {lacking[resource.type]}")
    described = admin.describe_configs(
        [resource], include_synonyms=True, include_documentation=True
    )
    config = await described.values[resource]
    match = await admin.config_catalog()
    edits = session(request).edits_of(cluster)
    rows = sorted(
        (
            row_of(resource, entry, edits, match)
            for entry in config.values()
            if not modified or is_override(resource, entry)
        ),
        key=lambda row: (not row.override, row.name),  # what is set here first
    )
    return render(
        request,
        "resource.html",
        {
            "title": resource_title(resource),
            "resource": resource,
            "rows": rows,
            "modified": modified,
            "levels": sorted(LOG_LEVELS),
            "duration_units": DURATION_UNITS,
            "size_units": SIZE_UNITS,
            "check_url": resource_url(cluster, resource, "check"),
            "edit_url": resource_url(cluster, resource, "edit"),
            "page_url": resource_url(cluster, resource),
            "catalog": None if match is None else match.catalog.release,
            "listeners": listener_names(resource, config.get("listeners")),
            "rotate_url": resource_url(cluster, resource, "rotate"),
            "keystore_types": KEYSTORE_TYPES,
        },
    )


@dataclass(frozen=True)
class Checked:
    """An edit form's resource, key and wanted value (None: reset), why it is refused, and
    what deserves a warning (never a refusal): what a coming Kafka release has announced it
    will refuse of it, and ``warnings`` found against the cluster's state (a broker key its
    release does not define)."""

    resource: ConfigResource
    key: str
    value: str | None
    reason: str | None
    sensitive: bool
    warnings: tuple[ConfigWarning, ...] = ()

    @property
    def warning(self) -> str | None:
        found = upcoming_warning(self.resource, self.key, self.value, sensitive=self.sensitive)
        messages = [warning.message for warning in (found, *self.warnings) if warning]
        return "; ".join(messages) or None

    def shown(self) -> dict[str, Any]:
        """What the page may show of it (never a sensitive value; a config provider
        reference is shown: it names where the secret is, not the secret)."""
        hidden = self.sensitive and not is_reference(self.value)
        value = None if hidden else self.value
        return {
            "key": self.key,
            "reason": self.reason,
            "warning": self.warning,
            "value": value,
            "human": human_units(self.key, value),
            "reset": self.value is None,
            "sensitive": hidden,
        }


async def _checked(request: Request) -> Checked:
    """The edit a form asks for, checked with ``desired``'s checks against what the broker
    reports now (the value's type, unknown and read-only keys, log levels), then by the broker
    itself (validate_only). Nothing is changed."""
    cluster, admin = await cluster_client(request)
    resource = path_resource(request)
    form = await request.form()
    key = form_text(form, "key").strip()
    if not key or any(char.isspace() for char in key):
        return Checked(resource, key, None, "name a config key (no spaces)", False)
    value: str | None = None
    if form_text(form, "action") != "reset":
        try:
            value = wanted_value(key, form)
        except ValueError as error:
            return Checked(resource, key, None, str(error), is_sensitive(key))
    reason, state = await _judged(request, cluster, admin, resource, {key: value})
    op = AlterConfigOp(name=key, value=value, op=OpType.SET if value is not None else OpType.DELETE)
    warnings = tuple(unknown_key_warnings({resource: [op]}, state))
    return Checked(resource, key, value, reason, state.is_sensitive(resource, key), warnings)


async def _judged(
    request: Request,
    cluster: str,
    admin: AdminClient,
    resource: ConfigResource,
    values: dict[str, str | None],
) -> tuple[str | None, ClusterState]:
    """Why edits of one resource (None: reset), sent together as one change set, would be
    refused (None: they would not), and the state they were checked against: ``desired``'s
    checks of each key, then the broker's verdict on all of them at once (validate_only)."""
    edits = Edits()
    for key, value in values.items():
        edits.set(resource, key, value)
    desired = edits.desired()
    topics = await kept_topics(request, cluster, admin, desired)
    state = await read_state(admin, desired, topics=topics, named_keys_only=True)
    failure = state.errors.get(resource)
    if failure is not None:
        return f"could not be described: {failure}", state
    for key, value in values.items():
        op = OpType.SET if value is not None else OpType.DELETE
        problem: Problem | None = check_value(state, resource, key, value, op)
        if problem is not None:
            return (problem.message if len(values) == 1 else f"{key}: {problem.message}"), state
    return await _broker_refusal(admin, desired, state), state


async def _broker_refusal(
    admin: AdminClient, desired: DesiredState, state: ClusterState
) -> str | None:
    """Why the broker refuses the edit (asked with validate_only, as ``plan`` asks: the same
    verdict), or None when it accepts it or could not be asked (a check that cannot tell
    never blocks an edit)."""
    made = make_plan(desired, state, include_sensitive=True)
    if made.problems:
        return None  # a resource the plan cannot make (a topic gone meanwhile): the plan says
    verdict = await ask_broker(admin, Proposal.of_plan(made))
    refusals = verdict.refusals()
    return f"the broker refuses it: {refusals[0].reason}" if refusals else None


async def check(request: Request) -> Response:
    """``POST .../check/{kind}/{name}``: the reason a value would be refused, as it is typed."""
    checked = await _checked(request)
    return render(request, "check.html", checked.shown())


async def edit(request: Request) -> Response:
    """``POST .../edit/{kind}/{name}``: add a checked edit to the pending plan."""
    require_writes(request)
    checked = await _checked(request)
    cluster = request.path_params["cluster"]
    if checked.reason is None:
        session(request).edits_of(cluster).set(checked.resource, checked.key, checked.value)
    if request.headers.get("HX-Request"):
        return render(request, "check.html", checked.shown() | {"added": checked.reason is None})
    if checked.reason is not None:
        title = resource_title(checked.resource)
        raise HTTPException(400, f"{title}, {checked.key}: refused: {checked.reason}")
    return RedirectResponse(resource_url(cluster, checked.resource), status_code=303)


def listener_names(resource: ConfigResource, listeners: ConfigEntry | None) -> tuple[str, ...]:
    """The listeners of one broker id (from its ``listeners``, ``NAME://host:port``), whose
    key stores the page can rotate; none for the cluster default (a listener's SSL keys are
    set per broker) and where the broker does not show them."""
    if resource.type is not ResourceType.BROKER or not resource.name:
        return ()
    if listeners is None or not listeners.value:
        return ()
    names = (item.partition("://")[0].strip() for item in listeners.value.split(","))
    return tuple(name.lower() for name in names if name)


def keystore_settings(form: Any) -> dict[str, str | None]:
    """The per-listener keys a key store rotation form sets, one change set: the new
    location, its type and the passwords given (a password left empty is not changed).
    ValueError names what is missing."""
    listener = form_text(form, "listener").strip().lower()
    location = form_text(form, "location").strip()
    if not listener or not location:
        raise ValueError("name the listener and the new key store's location")
    prefix = f"listener.name.{listener}."
    settings: dict[str, str | None] = {
        f"{prefix}ssl.keystore.location": location,
        f"{prefix}ssl.keystore.type": form_text(form, "type").strip() or "PKCS12",
    }
    for field, key in (("password", "ssl.keystore.password"), ("key_password", "ssl.key.password")):
        secret = form_text(form, field)
        if secret:
            settings[f"{prefix}{key}"] = secret
    return settings


async def rotate_keystore(request: Request) -> Response:
    """``POST .../rotate/broker/{id}``: a listener's new key store (location, type,
    passwords) checked by the broker as one change set, then added to the plan together; a
    refusal is said beside the form under htmx (what was typed kept), else on a page (400)."""
    require_writes(request)
    cluster, admin = await cluster_client(request)
    resource = path_resource(request)
    if resource.type is not ResourceType.BROKER or not resource.name:
        raise HTTPException(404, "a key store is rotated on one broker id")
    try:
        settings = keystore_settings(await request.form())
    except ValueError as error:
        reason: str | None = str(error)
    else:
        reason, _ = await _judged(request, cluster, admin, resource, settings)
    if reason is None:
        edits = session(request).edits_of(cluster)
        for key, value in settings.items():
            edits.set(resource, key, value)
    if reason is None and not request.headers.get("HX-Request"):
        return RedirectResponse(resource_url(cluster, resource), status_code=303)
    # under htmx, said beside the form, which keeps what was typed; else a page (400)
    return edit_answer(request, f"{resource_title(resource)}, key store", reason)
