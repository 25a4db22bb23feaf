"""The clusters the editor knows, and one cluster's page: its brokers, the cluster-wide
default's overrides and counts."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ... import ConfigResource, ResourceType
from .._render import render
from .base import cluster_client

__all__ = ["cluster", "index"]


async def index(request: Request) -> Response:
    """``GET /``: the clusters."""
    clusters = request.app.state.clusters
    listed = [(name, clusters.servers(name)) for name in clusters.names]
    return render(request, "index.html", {"title": "Clusters", "listed": listed})


async def cluster(request: Request) -> Response:
    """``GET /c/{cluster}``: brokers, the cluster default's overrides, topic and group counts;
    of a controller quorum, its controllers and the cluster default."""
    name, admin = await cluster_client(request)
    default = ConfigResource(ResourceType.BROKER, "")
    described = admin.describe_configs([default], include_synonyms=False)
    page = {
        "title": f"Cluster {name}",
        "brokers": sorted(admin.broker_ids()),
        "default": default,
        "quorum": request.app.state.clusters.quorum(name),
    }
    if not page["quorum"]:  # a quorum serves neither topics nor groups
        groups = admin.list_groups()
        listed = (await request.app.state.listings.of(name, admin)).topics
        page |= {
            "topics": sum(not topic.is_internal for topic in listed),
            "internal_topics": sum(topic.is_internal for topic in listed),
            "groups": len(await groups.valid()),
        }
    overrides = await described.values[default]
    page["overrides"] = sorted(overrides.values(), key=lambda entry: entry.name)
    return render(request, "cluster.html", page)
