"""What a plan will change, counted by kind of resource, in the words its confirmation uses:
"12 topics, 1 broker, 2 quota entities, 1 SCRAM user"."""

from __future__ import annotations

from collections import Counter

from .. import ResourceType
from ..desired import Plan, ResourceAction

__all__ = ["change_count", "change_summary"]

#: Each kind's words, one and many, in the order the summary names them.
_WORDS: dict[str, tuple[str, str]] = {
    "topic": ("topic", "topics"),
    "default": ("cluster default", "cluster defaults"),
    "broker": ("broker", "brokers"),
    "logger": ("broker's loggers", "brokers' loggers"),
    "group": ("group", "groups"),
    "client-metrics": ("client-metrics resource", "client-metrics resources"),
    "quota": ("quota entity", "quota entities"),
    "scram": ("SCRAM user", "SCRAM users"),
}
_KINDS = {
    ResourceType.TOPIC: "topic",
    ResourceType.BROKER: "broker",
    ResourceType.BROKER_LOGGER: "logger",
    ResourceType.GROUP: "group",
    ResourceType.CLIENT_METRICS: "client-metrics",
}


def change_summary(plan: Plan) -> str:
    """How many resources, quota entities and SCRAM users ``plan`` changes, by kind ("nothing"
    when none)."""
    counts: Counter[str] = Counter()
    for item in plan.resources:
        if item.action in (ResourceAction.ALTER, ResourceAction.CREATE):
            kind = _KINDS.get(item.resource.type, item.resource.type.name.lower())
            is_default = item.resource.type is ResourceType.BROKER and not item.resource.name
            counts["default" if is_default else kind] += 1
    counts["quota"] += len(plan.quotas)
    counts["scram"] += len(plan.scram)
    parts = [
        f"{counts[kind]} {words[0] if counts[kind] == 1 else words[1]}"
        for kind, words in _WORDS.items()
        if counts[kind]
    ]
    return ", ".join(parts) or "nothing"


def change_count(plan: Plan) -> int:
    """How many changes ``plan`` makes: config keys, quota keys and SCRAM credentials."""
    return (
        sum(len(item.changes) for item in plan.resources)
        + sum(len(item.changes) for item in plan.quotas)
        + sum(len(item.changes) for item in plan.scram)
    )
