"""The resources a selection stands for on a cluster."""

from __future__ import annotations

from .._client import AdminClient
from .._models import ConfigResource
from ._resources import Selection


async def selected_resources(admin: AdminClient, selection: Selection) -> list[ConfigResource]:
    """The resources named."""
    del admin
    return list(selection.resources)
