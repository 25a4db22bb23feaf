"""Which overrides a plan of a desired state deletes: one rule the planner and the state
reader share.

:func:`make_plan` deletes, of each resource the file names, the overrides it sets to null and,
with ``prune``, those it does not name (:func:`pruned_keys`), unless one is kept
(:func:`kept_reason`). :func:`read_state` offers the broker those deletions with
``validate_only`` before any plan is made (:func:`planned_deletions`), so that reading the
state never plans.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import Config, ConfigResource, OpType, ResourceType
from ._check import check_value
from ._model import (
    BROKER_THROTTLE_KEYS,
    TOPIC_THROTTLE_KEYS,
    DesiredState,
    IgnoreSpec,
    ResourceSpec,
)
from ._state import ClusterState, is_override

__all__ = ["kept_reason", "planned_deletions", "pruned_keys"]

#: Overrides that tools other than this file set for a while (a reassignment's replication
#: throttles): pruned only when the file names them.
_PROTECTED = {ResourceType.TOPIC: TOPIC_THROTTLE_KEYS, ResourceType.BROKER: BROKER_THROTTLE_KEYS}
_THROTTLE_REASON = (
    "a replication throttle (reassignment tools set it for a while): pruned only when the "
    "file names it"
)


def pruned_keys(
    resource: ConfigResource, spec: ResourceSpec, config: Config, ignore: IgnoreSpec
) -> Iterator[str]:
    """The overrides of ``resource`` a prune deletes or keeps: those set on the resource
    itself, not read-only, that the file neither names nor ignores.

    Every logger a broker lists is "set" (DYNAMIC_BROKER_LOGGER_CONFIG): pruning would reset
    every logger the file does not name, so loggers are never pruned.
    """
    if resource.type is ResourceType.BROKER_LOGGER:
        return
    for key in config:
        if key in spec.configs or ignore.ignores(resource, key):
            continue
        entry = config[key]
        if is_override(resource, entry) and not entry.is_read_only:
            yield key


def kept_reason(state: ClusterState, resource: ConfigResource, key: str) -> str | None:
    """Why a prune keeps the override ``key`` of ``resource`` (None: it deletes it): the
    broker refused to remove it, or another tool sets it for a while."""
    reason = state.undeletable_reason(resource, key)
    if reason is None and key in _PROTECTED.get(resource.type, ()):
        return _THROTTLE_REASON
    return reason


def planned_deletions(
    desired: DesiredState, state: ClusterState, *, prune: bool
) -> dict[ConfigResource, list[str]]:
    """Each resource's overrides a plan of ``desired`` would delete, before the broker says
    which it refuses to remove (``state.undeletable``), in the plan's order: the keys the file
    sets to null, then with ``prune`` those it does not name.

    A resource whose describe failed, and a key the checks refuse, get no deletion (as in the
    plan); a sensitive key neither, as a plan without ``include_sensitive`` skips it.
    """
    deletions: dict[ConfigResource, list[str]] = {}
    for resource, spec in desired.resources(state.existing_topics()).items():
        config = state.configs.get(resource)
        if config is None or resource in state.errors:
            continue
        keys = [
            key
            for key, wanted in spec.configs.items()
            if wanted is None
            and is_override(resource, config.get(key))
            and check_value(state, resource, key, None, OpType.DELETE) is None
        ]
        if prune:
            keys += [
                key
                for key in pruned_keys(resource, spec, config, desired.ignore)
                if key not in _PROTECTED.get(resource.type, ())
            ]
        keys = [key for key in keys if not state.is_sensitive(resource, key)]
        if keys:
            deletions[resource] = keys
    return deletions
