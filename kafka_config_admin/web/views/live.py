"""The live page: what changes on the open cluster, whoever changes it (this editor, the
CLI, another tool), pushed to the page with server-sent events.

The stream reads the cluster every ``live_interval`` seconds with the change feed's own poll
and diff (:func:`~kafka_config_admin.desired.observe_cluster`,
:func:`~kafka_config_admin.desired.next_state`, :func:`~kafka_config_admin.desired.diff_states`,
which ``watch`` and Spark's ``kafka-config-changes`` use): the first read is the baseline,
each later one sends a ``change`` event per key added, removed or changed (the feed's row as
JSON; a secret's values are never read) and a ``problem`` event when the cluster or a
resource cannot be read. A page reads it with ``static/live.js`` (no inline script)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ... import AdminClient, InvalidArgumentError
from ...feed import ChangeKind, ObservedState, diff_states, next_state, observe_cluster
from ...state import ResourceKind, ResourceScope
from ...toolkit import error_line
from .._live import LiveStreams, Poll
from .._render import render
from .base import cluster_client, cluster_name

__all__ = ["live", "live_events"]

#: What the live page of a whole cluster follows: its topics, its brokers, the cluster default.
CLUSTER_KINDS = (ResourceKind.TOPIC, ResourceKind.BROKER, ResourceKind.CLUSTER_DEFAULT)


def _scope(params: Mapping[str, str]) -> tuple[ResourceScope, str | None]:
    """The scope of a query (``topic=NAME``: that topic only; else :data:`CLUSTER_KINDS`)."""
    topic = params.get("topic", "").strip() or None
    try:
        if topic is not None:
            return ResourceScope(kinds=(ResourceKind.TOPIC,), topics=(topic,)), topic
        return ResourceScope(kinds=CLUSTER_KINDS), None
    except InvalidArgumentError as error:
        raise HTTPException(400, error_line(error)) from None


async def live(request: Request) -> Response:
    """``GET /c/{cluster}/live`` (``?topic=NAME``): the page the changes are pushed to."""
    cluster = cluster_name(request)
    _, topic = _scope(request.query_params)
    query = f"?{request.url.query}" if request.url.query else ""
    context = {
        "title": f"Live changes of {topic}" if topic else f"Live changes of {cluster}",
        "topic": topic,
        "events": f"/c/{quote(cluster, safe='')}/live/events{query}",
    }
    return render(request, "live.html", context)


async def live_events(request: Request) -> Response:
    """``GET /c/{cluster}/live/events`` (``?topic=NAME``): the event stream."""
    cluster, admin = await cluster_client(request)
    scope, topic = _scope(request.query_params)
    streams: LiveStreams = request.app.state.live
    interval: float = request.app.state.settings.live_interval
    return StreamingResponse(
        _events(streams, (cluster, topic), _poll(admin, scope, cluster, interval), interval),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _events(
    streams: LiveStreams, key: tuple[str, str | None], poll: Poll, interval: float
) -> AsyncIterator[str]:
    """The stream: the browser's reconnection delay, then the events of the poll loop every
    page of ``key`` shares, until the client goes (Starlette cancels it) or the app stops."""
    yield f"retry: {int(interval * 1000)}\n\n"  # milliseconds
    async for event in streams.stream(key, poll, interval):
        yield event


def _poll(admin: AdminClient, scope: ResourceScope, cluster: str, interval: float) -> Poll:
    """One read of ``scope`` and what changed since the state kept: a ``ready`` event once the
    baseline is read, then a ``change`` (or ``problem``) event per row of the feed."""

    async def poll(state: ObservedState | None) -> tuple[ObservedState, list[str], str | None]:
        observed = await observe_cluster(admin, scope, cluster)
        after = next_state(state, observed)
        events = [
            _event("problem" if change.change is ChangeKind.ERROR else "change", change.to_dict())
            for change in diff_states(state, after)
        ]
        ready = None
        if (state is None or not state.known) and after.known:
            ready = _event("ready", {"resources": len(after.resources), "interval": interval})
        return after, events, ready

    return poll


def _event(kind: str, data: dict[str, Any]) -> str:
    """One server-sent event (JSON has no newline, so one ``data`` line)."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"
