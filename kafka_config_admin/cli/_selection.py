"""The resources a selection stands for on a cluster."""

from __future__ import annotations

from .. import AdminClient, ConfigResource, ResourceType
from ..desired import list_matching_topics
from ._resources import Selection


async def selected_resources(admin: AdminClient, selection: Selection) -> list[ConfigResource]:
    """The resources named, then the topics ``--match`` finds (each once, in that order)."""
    resources = list(selection.resources)
    if selection.match is not None:
        topics = await list_matching_topics(admin, selection.match, label="--match")
        resources += [ConfigResource(ResourceType.TOPIC, topic.name) for topic in topics]
    return list(dict.fromkeys(resources))
