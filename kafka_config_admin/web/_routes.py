"""Every route of the editor, in one place. Routes that may change something are POSTs and
all go through :func:`._csrf.protected`."""

from __future__ import annotations

from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ._csrf import Endpoint, protected
from ._render import TEMPLATES
from .views import (
    clusters,
    compare,
    desired,
    entities,
    history,
    live,
    login,
    plan,
    resource,
    topics,
    undo,
)

__all__ = ["routes"]

STATIC = TEMPLATES.parent / "static"
_RESOURCE = "{kind}/{name:path}"


def _post(path: str, endpoint: Endpoint) -> Route:
    return Route(path, protected(endpoint), methods=["POST"])


def routes() -> list[BaseRoute]:
    """The routes of :func:`create_app`."""
    return [
        Route("/", clusters.index),
        Route("/login", login.login_form),
        _post("/login", login.login),
        _post("/logout", login.logout),
        Route("/history", history.history),
        Route("/history.json", history.history_json),
        Route("/changes", history.changes),
        Route("/changes.json", history.changes),
        Route("/compare", compare.compare),
        _post("/compare/file", compare.compare_file),
        Route("/c/{cluster}", clusters.cluster),
        Route("/c/{cluster}/topics", topics.topics),
        _post("/c/{cluster}/bulk", topics.bulk),
        Route(f"/c/{{cluster}}/r/{_RESOURCE}", resource.page),
        _post(f"/c/{{cluster}}/check/{_RESOURCE}", resource.check),
        _post(f"/c/{{cluster}}/edit/{_RESOURCE}", resource.edit),
        _post(f"/c/{{cluster}}/rotate/{_RESOURCE}", resource.rotate_keystore),
        Route("/c/{cluster}/groups", entities.groups),
        Route("/c/{cluster}/client-metrics", entities.client_metrics),
        Route("/c/{cluster}/quotas", entities.quotas),
        _post("/c/{cluster}/quotas/edit", entities.edit_quota),
        Route("/c/{cluster}/users", entities.users),
        _post("/c/{cluster}/users/edit", entities.edit_user),
        Route("/c/{cluster}/plan", plan.plan),
        _post("/c/{cluster}/plan/check", plan.dry_run),
        _post("/c/{cluster}/plan/apply", plan.apply),
        _post("/c/{cluster}/plan/discard", plan.discard),
        Route("/c/{cluster}/undo", undo.undo_preview),
        _post("/c/{cluster}/undo", undo.undo_apply),
        Route("/c/{cluster}/live", live.live),
        Route("/c/{cluster}/live/events", live.live_events),
        Route("/c/{cluster}/export", desired.export),
        Route("/c/{cluster}/desired", desired.file_form),
        _post("/c/{cluster}/desired", desired.file_plan),
        _post("/c/{cluster}/desired/apply", desired.apply_file),
        _post("/c/{cluster}/compare/make-like", compare.make_like),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
