"""What a key's catalog entry tells a user before any request: the update mode as the cluster
applies it now, and the rules Kafka states for a broker key beyond its valid values. One home
for the words ``docs KEY`` prints and the web editor's key widgets show."""

from __future__ import annotations

from .. import CatalogKey, CatalogMatch, ResourceType, UpdateMode

__all__ = ["key_rules", "update_mode_words"]

_UPDATE_MODES = {
    UpdateMode.READ_ONLY: "read-only (the broker's properties file, with a restart)",
    UpdateMode.PER_BROKER: "per-broker (one broker id, never the cluster default)",
    UpdateMode.CLUSTER_WIDE: "cluster-wide (the cluster default, or one broker id)",
}


def update_mode_words(spec: CatalogKey, match: CatalogMatch) -> str | None:
    """The update mode of a broker key as the cluster applies it now (None: not a broker key):
    a cluster-wide key the cluster takes only on its default while a feature is on
    (min.insync.replicas with ELR) says so."""
    if spec.update_mode is None:
        return None
    only = match.cluster_default_only(spec.name)
    if only is not None:
        return f"cluster default only (never one broker id), while {only}"
    return _UPDATE_MODES[spec.update_mode]


def key_rules(spec: CatalogKey, match: CatalogMatch) -> list[str]:
    """The rules Kafka states for a key beyond its valid values, known before asking."""
    if spec.resource_type is not ResourceType.BROKER:
        allowed = match.catalog.allowed_range(spec.resource_type, spec.name)
        return [] if allowed is None else [allowed[2]]
    rules = []
    if match.catalog.per_listener_only(spec.name):
        rules.append(f"only per listener, as listener.name.<listener>.{spec.name}")
    if match.catalog.resize_limited(spec.name):
        rules.append("a broker resizes this pool at run time to between half and double its size")
    refused = match.catalog.refused_range(spec.name)
    if refused is not None:
        rules.append(refused[2])
    return rules
