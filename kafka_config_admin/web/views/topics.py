"""The topic list, fast at 10,000 topics: search by substring or regular expression, pages,
a "has overrides" filter, internal topics hidden unless asked; and bulk edits of the topics
picked by pattern or ticked."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ... import ConfigResource, ResourceType
from ...state import kafka_string_for
from .._listings import Listings
from .._patterns import matching
from .._render import render
from .base import (
    cluster_client,
    cluster_name,
    edit_answer,
    form_text,
    require_writes,
    session,
)

__all__ = ["bulk", "topics"]


@dataclass(frozen=True)
class TopicRow:
    name: str
    internal: bool
    partitions: int
    replication_factor: int | None
    overrides: int | None


async def topics(request: Request) -> Response:
    """``GET /c/{cluster}/topics?q=&regex=1&overrides=1&internal=1&page=2``."""
    cluster, admin = await cluster_client(request)
    params = request.query_params
    query = params.get("q", "")
    regex = params.get("regex") == "1"
    only_overridden = params.get("overrides") == "1"
    internal = params.get("internal") == "1"
    try:
        page = max(1, int(params.get("page", "1")))
    except ValueError:
        page = 1
    listings: Listings = request.app.state.listings
    listing = await listings.of(cluster, admin, fresh=params.get("refresh") == "1")
    listed = [t for t in listing.topics if internal or not t.is_internal]
    if regex and query:
        found = set(await matching(query, (t.name for t in listed), whole=False))
        chosen = [t for t in listed if t.name in found]
    else:
        chosen = [t for t in listed if query in t.name]
    size = request.app.state.settings.page_size
    if only_overridden:
        counts = await listing.count_overrides(admin, [t.name for t in chosen])
        chosen = [t for t in chosen if counts.get(t.name, 0) > 0]
    pages = max(1, -(-len(chosen) // size))
    page = min(page, pages)
    shown = chosen[(page - 1) * size : page * size]
    counts = await listing.count_overrides(admin, [t.name for t in shown])
    rows = [
        TopicRow(t.name, t.is_internal, t.num_partitions, t.replication_factor, counts.get(t.name))
        for t in shown
    ]
    base = {"q": query, "regex": "1" if regex else "", "overrides": "1" if only_overridden else ""}
    base["internal"] = "1" if internal else ""
    return render(
        request,
        "topics.html",
        {
            "title": f"Topics of {cluster}",
            "rows": rows,
            "total": len(chosen),
            "page": page,
            "pages": pages,
            "query": query,
            "regex": regex,
            "only_overridden": only_overridden,
            "internal": internal,
            "listed_ago": round(listing.age),
            "refresh_query": urlencode({k: v for k, v in base.items() if v} | {"refresh": "1"}),
            "page_query": lambda number: urlencode(
                {k: v for k, v in base.items() if v} | {"page": number}
            ),
        },
    )


async def bulk(request: Request) -> Response:
    """``POST /c/{cluster}/bulk``: set or reset a key on the ticked topics or on every topic
    whose whole name matches a pattern; the edits join the pending plan, which is shown next.
    Under htmx a refusal is said beside the form, which keeps what was typed; without it, on
    a page of its own (400)."""
    require_writes(request)
    cluster = cluster_name(request)
    try:
        await _bulk_edit(request)
    except HTTPException as error:
        if error.status_code != 400 or not request.headers.get("HX-Request"):
            raise
        return edit_answer(request, "bulk edit", error.detail)
    plan_url = f"/c/{quote(cluster, safe='')}/plan"
    if request.headers.get("HX-Request"):
        return Response(status_code=204, headers={"HX-Redirect": plan_url})
    return RedirectResponse(plan_url, status_code=303)


async def _bulk_edit(request: Request) -> None:
    cluster, admin = await cluster_client(request)
    form = await request.form()
    key = form_text(form, "key").strip()
    if not key or any(char.isspace() for char in key):
        raise HTTPException(400, "name a config key (no spaces)")
    pattern = form_text(form, "pattern").strip()
    names = [name for name in form.getlist("topic") if isinstance(name, str)]
    notice = None
    if pattern:
        # Matched against the topics as they are now: a listing taken after this request
        # arrived (the one kept is older, and may miss a topic created since).
        listings: Listings = request.app.state.listings
        listing = await listings.of(cluster, admin, fresh=True)
        topics = [topic.name for topic in listing.topics if not topic.is_internal]
        matched = await matching(pattern, topics, whole=True)
        listed = f"of the {len(topics)} topics listed {listing.age:.1f} s ago"
        if not matched and not names:
            raise HTTPException(400, f"no topic matches the pattern {pattern!r} {listed}")
        notice = f"the pattern {pattern!r} matched {len(matched)} {listed}"
        names += matched
    if not names:
        raise HTTPException(400, "no topic chosen: tick topics or give a pattern")
    value: str | None = None
    if form_text(form, "action") != "reset":
        try:
            value = kafka_string_for(key, form_text(form, "value"))
        except ValueError as error:
            raise HTTPException(400, f"{key}: {error}") from None
    edits = session(request).edits_of(cluster)
    for name in dict.fromkeys(names):
        edits.set(ConfigResource(ResourceType.TOPIC, name), key, value)
    if notice is not None:
        session(request).notices[cluster] = notice
