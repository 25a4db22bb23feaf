"""The resources a selection stands for on a cluster."""

from __future__ import annotations

from .. import AdminClient, ConfigResource, ResourceType
from ..state import list_matching_topics
from ._resources import Selection


async def selected_resources(admin: AdminClient, selection: Selection) -> list[ConfigResource]:
    """The resources named, then every node's of ``every_node`` (in node order; the brokers'
    followed by the cluster default, as kafka-configs.sh lists them), then the topics
    ``--match`` finds (each once, in that order)."""
    resources = list(selection.resources)
    for kind in selection.every_node:
        resources += [ConfigResource(kind, str(node)) for node in admin.broker_ids()]
        if kind is ResourceType.BROKER:
            resources.append(ConfigResource(ResourceType.BROKER, ""))
    if selection.match is not None:
        topics = await list_matching_topics(admin, selection.match, label="--match")
        resources += [ConfigResource(ResourceType.TOPIC, topic.name) for topic in topics]
    return list(dict.fromkeys(resources))
