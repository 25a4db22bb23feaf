"""The live page: what changes on the open cluster, whoever changes it (this editor, the
CLI, another tool), pushed to the page with server-sent events.

The stream reads the cluster often enough that a change shows within ``live_interval``
seconds (when the polls start: :mod:`.._live`), with the change feed's own poll and diff
(:func:`~kafka_config_admin.feed.observe_cluster`, :func:`~kafka_config_admin.feed.next_state`,
:func:`~kafka_config_admin.feed.diff_states`, which ``watch`` and Spark's
``kafka-config-changes`` use), without documentation or synonyms. With ``live_max_per_poll``
each poll describes at most that many resources, in turn (the feed's
:class:`~kafka_config_admin.feed.ReadRotation`, as ``watch --max-per-poll``): a change then
shows within ``ceil(resources / live_max_per_poll)`` intervals.

The first read is the baseline (a ``ready`` event), each later one sends a ``change`` event
per key added, removed or changed (the feed's row as JSON; a secret's values are never read)
and a ``problem`` event when the cluster or a resource cannot be read (once while the same
problem lasts: the feed repeats it every poll). Every poll ends with a ``cost`` event: what it
read, sent and received (the feed's :class:`~kafka_config_admin.feed.PollCost`, as
``watch --stats`` says it). A page
reads it with ``static/live.js`` (no inline script)"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from ... import AdminClient, InvalidArgumentError
from ...feed import (
    ChangeKind,
    ObservedState,
    PollCost,
    ReadRotation,
    ResourceKey,
    StateChange,
    diff_states,
    next_state,
    observe_cluster,
)
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
        "max_per_poll": request.app.state.settings.live_max_per_poll,
        "events": f"/c/{quote(cluster, safe='')}/live/events{query}",
    }
    return render(request, "live.html", context)


async def live_events(request: Request) -> Response:
    """``GET /c/{cluster}/live/events`` (``?topic=NAME``): the event stream."""
    cluster, admin = await cluster_client(request)
    scope, topic = _scope(request.query_params)
    streams: LiveStreams = request.app.state.live
    settings = request.app.state.settings
    interval: float = settings.live_interval
    poll = _poll(admin, scope, cluster, interval, settings.live_max_per_poll)
    return StreamingResponse(
        _events(streams, (cluster, topic), poll, interval),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _events(
    streams: LiveStreams, key: tuple[str, str | None], poll: Poll, interval: float
) -> AsyncIterator[str]:
    """The stream: the browser's reconnection delay, then the events of the poll loop every
    page of ``key`` shares, until the client goes (Starlette cancels it) or the app stops."""
    yield f"retry: {int(interval * 1000)}\n\n"  # milliseconds
    # Closed as this stream ends, not when the collector finds it: until its ``finally`` runs,
    # a page that has gone would still hold the scope's polls.
    async with aclosing(streams.stream(key, poll, interval)) as events:
        async for event in events:
            yield event


@dataclass(frozen=True)
class _Followed:
    """What a scope's polls keep between them: the state last read, the problems it had, and
    where the rotation's next turn starts (with a bound per poll)."""

    observed: ObservedState | None = None
    problems: frozenset[tuple[str | None, ...]] = frozenset()
    resume_after: ResourceKey | None = None


def _problem(change: StateChange) -> tuple[str | None, ...]:
    """What makes a problem the same one at the next poll: what failed, and how."""
    return (change.resource_type, change.resource_name, change.error, change.error_message)


def _poll(
    admin: AdminClient,
    scope: ResourceScope,
    cluster: str,
    interval: float,
    max_per_poll: int | None,
) -> Poll:
    """One read of ``scope`` (at most ``max_per_poll`` resources, in turn) and what changed
    since the state kept: a ``ready`` event once the baseline is read, a ``change`` event per
    row of the feed, a ``problem`` event per problem the last poll did not have, and the
    poll's ``cost`` event."""

    async def poll(followed: _Followed | None) -> tuple[_Followed, list[str], str | None]:
        last = followed or _Followed()
        rotation = None
        if max_per_poll is not None:
            rotation = ReadRotation(max_per_poll, resume_after=last.resume_after)
        started, traffic = time.monotonic(), admin.traffic()
        observed = await observe_cluster(
            admin, scope, cluster, rotation=rotation, before=last.observed
        )
        after = next_state(last.observed, observed)
        events, problems = [], set()
        for change in diff_states(last.observed, after):
            if change.change is not ChangeKind.ERROR:
                events.append(_event("change", change.to_dict()))
                continue
            problems.add(_problem(change))
            if _problem(change) not in last.problems:
                events.append(_event("problem", change.to_dict()))
        seconds = time.monotonic() - started
        cost = PollCost.measure(observed, rotation, [admin], seconds, carried_before=traffic)
        events.append(_event("cost", _cost_shown(cost, len(after.resources))))
        ready = None
        if (last.observed is None or not last.observed.known) and after.known:
            shown = {"resources": len(after.resources), "interval": interval}
            ready = _event("ready", shown | {"max_per_poll": max_per_poll})
        turn = last.resume_after if rotation is None else rotation.resume_after
        return _Followed(after, frozenset(problems), turn), events, ready

    return poll


def _cost_shown(cost: PollCost, resources: int) -> dict[str, Any]:
    """A poll's ``cost`` event: what it cost, and how many resources the feed holds."""
    return {
        "resources_read": cost.resources_read,
        "resources": resources,
        "requests": cost.requests,
        "bytes_received": cost.bytes_received,
        "seconds": round(cost.seconds, 3),
    }


def _event(kind: str, data: dict[str, Any]) -> str:
    """One server-sent event (JSON has no newline, so one ``data`` line)."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"
