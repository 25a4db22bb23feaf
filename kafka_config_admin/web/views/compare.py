"""Compare two clusters: every topic and the cluster default, key by key (the state layer's
:func:`~kafka_config_admin.state.compare_overrides`, which the CLI's ``diff`` uses), and
"make the right like the left" for one resource or for every difference: the edits join the
right cluster's pending plan, which is reviewed, confirmed and applied as every edit is;
nothing is written from here. Or a desired-state file beside a cluster (the keys its plan
would change, :func:`~kafka_config_admin.state.desired_overrides`), "make the cluster like
the file" being the file's own plan page (the desired-state flow)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import (
    AuthenticationError,
    ConfigResource,
    KafkaConfigAdminError,
    KafkaConnectionError,
    KafkaTimeoutError,
    ResourceType,
)
from ...desired import DesiredStateError, parse_desired_state
from ...state import (
    DesiredState,
    KeyMatch,
    Overrides,
    PatternTimeoutError,
    ResourceComparison,
    compare_overrides,
    desired_overrides,
    overrides_read,
)
from ...toolkit import error_line
from .._render import render
from .base import cluster_name, form_text, require_writes, session
from .desired import file_text

__all__ = ["compare", "compare_file", "make_like"]

_DEFAULT = ConfigResource(ResourceType.BROKER, "")
#: How the page names a file's side.
_FILE_SIDE = "the file"


@dataclass
class _Side:
    """One cluster as read for the comparison: its overrides, or why it could not be read."""

    name: str
    overrides: Overrides | None = None
    error: str | None = None


async def compare(request: Request) -> Response:
    """``GET /compare?left=A&right=B``: the two clusters' topics and cluster default side by
    side; without both names, the form that picks them. A name the editor does not know or a
    cluster that cannot be read is said on the page."""
    names = request.app.state.clusters.names
    left, right = (request.query_params.get(side, "") for side in ("left", "right"))
    page: dict[str, object] = {"title": "Compare clusters", "left": left, "right": right}
    if not (left and right):
        return render(request, "compare.html", page)
    unknown = [name for name in (left, right) if name not in names]
    if unknown:
        page["errors"] = [f"no cluster named {name!r}" for name in unknown]
        return render(request, "compare.html", page, status=404)
    page["title"] = f"Compare {left} with {right}"
    sides = [_Side(left), _Side(right)]
    async with anyio.create_task_group() as group:
        for side in sides:
            group.start_soon(_read, request, side, None)
    errors = [side.error for side in sides if side.error is not None]
    if errors:
        page["errors"] = errors
        return render(request, "compare.html", page, status=503)
    assert sides[0].overrides is not None and sides[1].overrides is not None
    page |= _compared(compare_overrides(sides[0].overrides, sides[1].overrides))
    return render(request, "compare.html", page)


async def compare_file(request: Request) -> Response:
    """``POST /compare/file``: a desired-state file (``text`` pasted, or ``file`` uploaded)
    beside cluster ``cluster``: the keys the file names, on every resource it is about, as
    its plan without prune sees them. A file that does not parse is said beside its field,
    with what was typed kept; nothing is written from here."""
    unreadable = None
    async with request.form() as form:
        cluster = form_text(form, "cluster")
        try:
            text = await file_text(form)
        except HTTPException as error:  # an upload too large or not UTF-8
            text, unreadable = "", error.detail
    page: dict[str, object] = {
        "title": f"Compare the file with {cluster}",
        "left": _FILE_SIDE,
        "right": cluster,
        "file_text": text,
    }
    if unreadable is not None:
        page["file_error"] = unreadable
        return render(request, "compare.html", page, status=400)
    if cluster not in request.app.state.clusters.names:
        page["errors"] = [f"no cluster named {cluster!r}"]
        return render(request, "compare.html", page, status=404)
    try:
        desired = parse_desired_state(text, source="the pasted file")
    except DesiredStateError as error:
        page["file_error"] = str(error)
        return render(request, "compare.html", page, status=400)
    side = _Side(cluster)
    try:
        await _read(request, side, None, desired)
        if side.overrides is not None:
            page |= _compared(compare_overrides(*desired_overrides(desired, side.overrides)))
    except PatternTimeoutError as error:
        page["file_error"] = str(error)
        return render(request, "compare.html", page, status=400)
    if side.error is not None:
        page["errors"] = [side.error]
        return render(request, "compare.html", page, status=503)
    return render(request, "compare.html", page)


def _compared(compared: list[ResourceComparison]) -> dict[str, object]:
    """The page's table: the cluster default first, then by name."""
    compared.sort(key=lambda item: (item.resource != _DEFAULT, item.resource.name))
    return {
        "compared": compared,
        "differing": sum(not item.same for item in compared),
        "KeyMatch": KeyMatch,
    }


async def make_like(request: Request) -> Response:
    """``POST /c/{cluster}/compare/make-like``: the edits that make this cluster's overrides
    those of cluster ``like``, for one resource (``kind`` and ``name``) or for every resource
    both have, added to this cluster's pending plan (then shown: nothing is sent until its
    apply is confirmed). Keys whose value is secret are never copied (the broker does not
    return them); a topic only one cluster has is neither created nor deleted."""
    require_writes(request)
    target = cluster_name(request)
    form = await request.form()
    like = form_text(form, "like")
    if like not in request.app.state.clusters.names or like == target:
        raise HTTPException(404, f"no other cluster named {like!r} to copy from")
    resources = _named_resource(form_text(form, "kind"), form_text(form, "name"))
    sides = [_Side(like), _Side(target)]
    for side in sides:
        await _read(request, side, resources)
        if side.error is not None:
            raise HTTPException(503, side.error)
    assert sides[0].overrides is not None and sides[1].overrides is not None
    compared = compare_overrides(sides[0].overrides, sides[1].overrides)
    edits = session(request).edits_of(target)
    added, secret = 0, []
    for item in compared:
        if not (item.on_left and item.on_right):
            continue
        for key in item.differences:
            if key.hidden:
                secret.append(key.key)
                continue
            edits.set(
                item.resource, key.key, None if key.match is KeyMatch.RIGHT_ONLY else key.left
            )
            added += 1
    notice = f"{added} edit(s) to make {target} like {like} joined the plan"
    if secret:
        notice += f"; secret keys not copied (their values cannot be read): {', '.join(secret)}"
    session(request).notices[target] = notice
    return RedirectResponse(f"/c/{quote(target, safe='')}/plan", status_code=303)


def _named_resource(kind: str, name: str) -> list[ConfigResource] | None:
    """The one resource a form names (a topic, or the cluster default); None: every one."""
    if not kind:
        return None
    if kind == "topic" and name:
        return [ConfigResource(ResourceType.TOPIC, name)]
    if kind == "broker" and not name:
        return [_DEFAULT]
    raise HTTPException(400, "compare covers topics and the cluster default")


async def _read(
    request: Request,
    side: _Side,
    resources: list[ConfigResource] | None,
    desired: DesiredState | None = None,
) -> None:
    """Read a side's overrides (``resources``; None: every topic and the cluster default, or
    with ``desired`` every resource that file is about), or say why not (a cluster that
    cannot be reached gets a new client next time)."""
    clusters = request.app.state.clusters
    try:
        admin = await clusters.client(side.name)
        if resources is None:
            topics = [topic.name for topic in await admin.list_topics()]
            if desired is None:
                resources = [ConfigResource(ResourceType.TOPIC, topic) for topic in topics]
                resources.append(_DEFAULT)
            else:
                resources = list(desired.resources(topics))
        if not resources:  # a file about nothing: nothing to read
            side.overrides = {}
            return
        result = admin.describe_configs(resources, include_synonyms=False)
        await result.wait()
        side.overrides, failures = overrides_read(result)
    except PatternTimeoutError:  # the file's pattern, not the cluster, is at fault
        raise
    except KafkaConfigAdminError as error:
        if isinstance(error, KafkaConnectionError | KafkaTimeoutError | AuthenticationError):
            await clusters.drop(side.name)
        side.error = f"cluster {side.name}: {type(error).__name__}: {error_line(error)}"
        return
    if failures:
        lines = [f"{item.type.name.lower()} {item.name}: {error_line(e)}" for item, e in failures]
        side.error = f"cluster {side.name}: could not read {'; '.join(lines)}"
