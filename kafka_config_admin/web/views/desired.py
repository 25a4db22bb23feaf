"""A desired-state file pasted or uploaded: its plan, its audit rules' violations, and its
apply (with the stale check of the pending plan); and the cluster's current overrides as a
file to download (export)."""

from __future__ import annotations

from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ...changeset import Proposal, ask_broker, check_plan_rules
from ...desired import (
    DesiredStateError,
    evaluate_state,
    make_plan,
    parse_desired_state,
    read_export,
)
from ...state import PatternTimeoutError, read_state
from .._render import render
from .._summary import change_count, change_summary
from .base import cluster_client, cluster_rules, form_text, override_rules, session
from .plan import apply_desired, rules_context

__all__ = ["apply_file", "export", "file_form", "file_plan", "file_text"]

#: The largest file taken (bytes).
MAX_FILE = 5 * 1024 * 1024


async def file_form(request: Request) -> Response:
    """``GET /c/{cluster}/desired``: paste or upload a file."""
    return render(request, "desired.html", {"title": "Desired state", "text": ""})


async def _file_text(request: Request) -> str:
    # closed on the way out: an upload (even an empty file field) is a temporary file
    async with request.form() as form:
        return await file_text(form)


async def file_text(form: FormData) -> str:
    """A desired-state file from a form: the upload ``file`` if one was chosen, else the
    pasted ``text``; too large or not UTF-8: a 400."""
    upload = form.get("file")
    if not (isinstance(upload, UploadFile) and upload.filename):
        return form_text(form, "text")
    data = await upload.read(MAX_FILE + 1)
    if len(data) > MAX_FILE:
        raise HTTPException(400, f"the file is larger than {MAX_FILE} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(400, "the file is not UTF-8 text") from None


async def file_plan(request: Request) -> Response:
    """``POST /c/{cluster}/desired``: the file's plan and its rules' violations."""
    cluster, admin = await cluster_client(request)
    text = await _file_text(request)
    try:
        desired = parse_desired_state(text, source="the pasted file")
        state = await read_state(admin, desired)
        plan = make_plan(desired, state)
        violations = evaluate_state(desired.rules, state, desired=desired)
    except (DesiredStateError, PatternTimeoutError) as error:
        return _refused(request, text, error)
    # The brokers' verdict, as the CLI's plan asks it (validate_only; nothing changes).
    verdict = None if plan.problems else await ask_broker(admin, Proposal.of_plan(plan))
    session(request).files[cluster] = (desired, plan)
    guard = check_plan_rules(plan, (*desired.rules, *cluster_rules(request, cluster)))
    return render(
        request,
        "desired.html",
        {
            "title": "Desired state",
            "text": text,
            "plan": plan.to_dict(),
            "has_changes": plan.has_changes,
            "summary": change_summary(plan),
            "change_count": change_count(plan),
            "verdict": None if verdict is None else verdict.to_dict(),
            "violations": [str(violation) for violation in violations],
            **rules_context(guard),
        },
    )


async def apply_file(request: Request) -> Response:
    """``POST /c/{cluster}/desired/apply``: apply the file last planned (stale keys left)."""
    cluster, admin = await cluster_client(request)
    remembered = session(request).files.pop(cluster, None)
    if remembered is None:
        raise HTTPException(400, "no file was planned in this session: paste it again")
    desired, before = remembered
    overrides = override_rules(await request.form())
    try:
        return await apply_desired(request, cluster, admin, desired, before, overrides)
    except PatternTimeoutError as error:  # nothing was sent: the plan is made before
        return _refused(request, "", error)


def _refused(request: Request, text: str, error: Exception) -> Response:
    """The file's form again, with what is wrong with the file above it."""
    context = {"title": "Desired state", "text": text, "error": str(error)}
    return render(request, "desired.html", context, status=400)


async def export(request: Request) -> Response:
    """``GET /c/{cluster}/export``: the cluster's current overrides (topics, brokers, the
    cluster default, groups, client quotas) as a desired-state file to download, as the CLI's
    ``export`` writes it; sensitive values cannot be read: comments on top name those left
    out."""
    cluster, admin = await cluster_client(request)
    exported = await read_export(admin)
    stem = "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in cluster)
    disposition = f'attachment; filename="{stem}-overrides.yaml"'
    return Response(
        exported.to_yaml(),
        media_type="application/yaml",
        headers={"Content-Disposition": disposition},
    )
