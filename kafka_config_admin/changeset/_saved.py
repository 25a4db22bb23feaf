"""A saved plan: the plan ``plan --out`` writes and ``apply PLAN`` applies, and nothing else.

The document is JSON: a ``kind`` marker, its ``format``, the plan's :attr:`Plan.digest` and
the plan itself (made against one cluster: its ``cluster_id``). Reading it back checks the
digest, so a file changed after it was saved is refused; the apply then re-reads the plan's
keys (:func:`plan_desired_state`, :func:`read_state`) and refuses the keys that moved since
(:func:`stale_keys`). A saved plan never holds a secret: a plan that sets a sensitive value
or a SCRAM credential cannot be saved (:func:`saved_plan_document` says which).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from .. import ClientQuotaEntity, ConfigResource, InvalidArgumentError, ResourceType
from ..desired import Plan
from ..state import DesiredState, QuotaSpec, ResourceSpec, TopicSpec, is_reference

__all__ = [
    "SAVED_PLAN_FORMAT",
    "SAVED_PLAN_KIND",
    "SavedPlanError",
    "desired_state_of",
    "plan_desired_state",
    "read_saved_plan",
    "saved_plan_document",
]

#: The ``kind`` of a saved plan's document: how ``apply`` tells it from a desired-state file.
SAVED_PLAN_KIND = "kafka-config-admin-saved-plan"
#: The ``format`` of the saved plan's document this release writes and reads.
SAVED_PLAN_FORMAT = 1


class SavedPlanError(InvalidArgumentError):
    """A plan that cannot be saved, or a saved plan that cannot be applied as it is: the
    message says why (never a secret's value)."""


def saved_plan_document(plan: Plan) -> dict[str, Any]:
    """``plan`` as a saved-plan document (JSON-ready), with its digest.

    Raises :class:`SavedPlanError` for a plan made without a cluster id, one with problems,
    or one that would hold a secret or changes a saved plan does not re-check (each named):
    a sensitive key's value (a config provider reference is no secret), a SCRAM credential,
    a partition count or replica change. Those are applied from the desired-state file.
    """
    if plan.cluster_id is None:
        raise SavedPlanError("a plan is saved with the id of the cluster it was made for")
    if plan.problems:
        raise SavedPlanError(f"the plan has {len(plan.problems)} problem(s): it cannot be saved")
    refused = _not_savable(plan)
    if refused:
        raise SavedPlanError(
            "a saved plan holds no secret nor partition change, and this plan has "
            + "; ".join(refused)
            + ": apply it from the desired-state file (apply FILE)"
        )
    return {
        "kind": SAVED_PLAN_KIND,
        "format": SAVED_PLAN_FORMAT,
        "digest": plan.digest,
        "plan": plan.model_dump(mode="json"),
    }


def read_saved_plan(text: str, source: str) -> Plan | None:
    """The plan a saved-plan document holds, or None when ``text`` is not one (a YAML file).

    Raises :class:`SavedPlanError` for a saved plan of another format, one whose digest no
    longer matches its plan (edited after it was saved), and for the JSON ``plan --output
    json`` prints (a plan to read, not one to apply). ``source`` names the file in messages.
    """
    if not text.lstrip().startswith("{"):
        return None
    try:
        document = json.loads(text)
    except ValueError:
        return None  # not JSON: a desired-state file's flow mapping, read as YAML
    if not isinstance(document, dict):
        return None
    if document.get("kind") != SAVED_PLAN_KIND:
        if "resources" in document and "digest" in document:
            raise SavedPlanError(
                f"{source} is a plan as 'plan --output json' prints it, not a saved plan: "
                "save one with 'plan FILE --out PLAN'"
            )
        return None
    if document.get("format") != SAVED_PLAN_FORMAT:
        raise SavedPlanError(
            f"{source} is a saved plan of format {document.get('format')!r}; this release "
            f"reads format {SAVED_PLAN_FORMAT}: make the plan again with this release"
        )
    try:
        plan = Plan.model_validate(document.get("plan"))
    except ValidationError as error:
        raise SavedPlanError(
            f"{source} is not a plan this release can read ({error.error_count()} error(s)): "
            "make the plan again"
        ) from None
    if plan.digest != document.get("digest"):
        raise SavedPlanError(
            f"{source} was changed after it was saved (its plan no longer matches its digest): "
            "make a new plan with 'plan FILE --out PLAN'"
        )
    return plan


def plan_desired_state(plan: Plan) -> DesiredState:
    """The desired state whose read gives ``plan``'s keys now (every key it changes, the
    topics it creates, its quota entities), for :func:`read_state` and :func:`stale_keys`."""
    configs = {
        item.resource: {change.key: change.wanted for change in item.changes}
        for item in plan.resources
        if item.changes
    }
    quotas = {quota.quota_entity: quota.alteration() for quota in plan.quotas}
    return desired_state_of(configs, quotas)


def desired_state_of(
    configs: Mapping[ConfigResource, Mapping[str, str | None]],
    quotas: Mapping[ClientQuotaEntity, Mapping[str, float | None]],
) -> DesiredState:
    """A desired state of these wanted values per resource (None resets a key) and quota
    values per entity (None removes one); each key named is pinned: set even when the value
    equals an inherited one, since it was asked for on this resource."""
    by_type: dict[ResourceType, dict[str, ResourceSpec]] = {}
    topics: list[TopicSpec] = []
    for resource, values in configs.items():
        if resource.type is ResourceType.TOPIC:
            topics.append(TopicSpec(name=resource.name, configs=dict(values), pin=True))
        else:
            spec = ResourceSpec(configs=dict(values), pin=True)
            by_type.setdefault(resource.type, {})[resource.name] = spec
    brokers = by_type.get(ResourceType.BROKER, {})
    return DesiredState(
        topics=tuple(topics),
        brokers={int(name): spec for name, spec in brokers.items() if name},
        cluster_default=brokers.get(""),
        broker_loggers={
            int(name): spec for name, spec in by_type.get(ResourceType.BROKER_LOGGER, {}).items()
        },
        groups=by_type.get(ResourceType.GROUP, {}),
        client_metrics=by_type.get(ResourceType.CLIENT_METRICS, {}),
        quotas=tuple(
            QuotaSpec(entity=dict(entity), values=dict(values)) for entity, values in quotas.items()
        ),
    )


def _not_savable(plan: Plan) -> list[str]:
    """What in ``plan`` a saved plan cannot hold, each named (never with its value)."""
    found = []
    for item in plan.resources:
        title = f"{item.resource.type.name.lower()} {item.resource.name!r}"
        secrets = [
            change.key
            for change in item.changes
            if change.sensitive and change.value is not None and not is_reference(change.value)
        ]
        if secrets:
            found.append(f"sensitive values of {title} ({', '.join(secrets)})")
        if item.partitions is not None:
            found.append(f"partition changes of {title}")
    found += [f"SCRAM credentials of user {user.user!r}" for user in plan.scram]
    return found
