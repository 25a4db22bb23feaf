"""What an audit finds in one cluster's snapshot rows, by the ``desired`` module's own rules.

Spark hands each cluster's rows to :func:`cluster_findings` (a grouped map on the executors).
It rebuilds the SDK's models from the rows, and lets :mod:`kafka_config_admin.desired` decide:
:func:`~kafka_config_admin.desired.evaluate_state` for the audit rules and
:func:`~kafka_config_admin.desired.make_plan` for drift from the desired state. Nothing here
compares config values itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyarrow as pa

import kafka_config_admin

from .. import (
    Config,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConfigSynonym,
    ConfigType,
    KafkaConfigAdminError,
    ResourceType,
)
from ..desired import ResourceAction, evaluate_state, make_plan
from ..state import KEY_COLUMN, ClusterState, DesiredState, schema_resources

__all__ = ["FINDINGS_ARROW_SCHEMA", "cluster_findings", "cluster_state"]

#: One finding per row. kind: ``rule`` (an audit rule is broken), ``drift`` (the desired state
#: wants another value: op and value fix it), ``problem`` (the desired state cannot be applied
#: as written), ``missing`` (a topic the desired state names and the cluster lacks) or
#: ``error`` (the resource could not be described).
FINDINGS_ARROW_SCHEMA = pa.schema(
    [
        ("kind", pa.string()),
        ("cluster", pa.string()),
        ("resource_type", pa.string()),
        ("resource_name", pa.string()),
        (KEY_COLUMN, pa.string()),
        ("actual", pa.string()),
        ("expected", pa.string()),
        ("op", pa.string()),
        ("value", pa.string()),
        ("rule", pa.string()),
        ("reason", pa.string()),
        ("snapshot_time", pa.timestamp("us", tz="UTC")),
    ]
)


def cluster_findings(rows: pa.Table, desired: DesiredState, *, prune: bool) -> pa.Table:
    """Every finding in one cluster's snapshot rows, as a table in ``FINDINGS_ARROW_SCHEMA``."""
    records = rows.to_pylist()
    if not records:
        return FINDINGS_ARROW_SCHEMA.empty_table()
    cluster = records[0]["cluster"]
    when = records[0]["snapshot_time"]
    state = cluster_state(records)
    found: list[dict[str, Any]] = []
    for resource, error in state.errors.items():
        found.append(_finding("error", resource, reason=f"{type(error).__name__}: {error}"))
    # A snapshot holds configs, not quotas or SCRAM credentials: only config rules apply.
    config_rules = [rule for rule in desired.rules if rule.resource.is_config]
    for violation in evaluate_state(config_rules, state):
        assert violation.resource is not None  # config rules name a resource
        found.append(
            _finding(
                "rule",
                violation.resource,
                key=violation.key,
                actual=violation.actual,
                rule=str(violation.rule),
                reason=violation.reason,
            )
        )
    plan = make_plan(desired, state, prune=prune)
    for problem in plan.problems:
        found.append(
            _finding(
                "problem",
                problem.resource,
                key=problem.key,
                actual=problem.value,
                reason=problem.message,
            )
        )
    for resource_plan in plan.resources:
        if resource_plan.action in (ResourceAction.MISSING, ResourceAction.CREATE):
            found.append(
                _finding(
                    "missing",
                    resource_plan.resource,
                    reason="the desired state names this topic and the cluster lacks it "
                    "(the CLI's apply creates topics)",
                )
            )
            continue
        for change in resource_plan.changes:
            shown = not change.sensitive
            found.append(
                _finding(
                    "drift",
                    resource_plan.resource,
                    key=change.key,
                    actual=change.current if shown else None,
                    expected=change.wanted if shown else None,
                    op=change.op.name,
                    value=change.value if shown else None,
                    reason=f"the desired state wants another value (now from "
                    f"{change.current_source.name})",
                )
            )
    for finding in found:
        finding["cluster"] = cluster
        finding["snapshot_time"] = when
    return pa.Table.from_pylist(found, schema=FINDINGS_ARROW_SCHEMA)


def cluster_state(records: Iterable[dict[str, Any]]) -> ClusterState:
    """The ``desired`` module's view of one cluster, rebuilt from its snapshot rows."""
    entries: dict[ConfigResource, list[ConfigEntry]] = {}
    errors: dict[ConfigResource, BaseException] = {}
    for record in records:
        if record["resource_type"] is None:
            continue  # the cluster itself failed: reported by the snapshot's own error row
        resource = ConfigResource(ResourceType[record["resource_type"]], record["resource_name"])
        if record["error"] is not None:
            errors[resource] = _error(record["error"], record["error_message"])
            continue
        described = entries.setdefault(resource, [])
        if record["name"] is not None:
            described.append(_entry(record))
    configs = {resource: Config(entries=tuple(found)) for resource, found in entries.items()}
    kinds = {resource.type for resource in configs}
    sources = schema_resources(kinds, (resource for resource, config in configs.items() if config))
    schemas = {kind: configs[resource] for kind, resource in sources.items()}
    topics = frozenset(
        resource.name
        for resource in [*configs, *errors]
        if resource.type is ResourceType.TOPIC and resource not in errors
    )
    return ClusterState(configs=configs, topics=topics, schemas=schemas, errors=errors)


def _entry(record: dict[str, Any]) -> ConfigEntry:
    return ConfigEntry(
        name=record["name"],
        value=record["value"],
        source=ConfigSource[record["source"]],
        is_default=record["is_default"],
        is_sensitive=record["is_sensitive"],
        is_read_only=record["is_read_only"],
        type=ConfigType[record["config_type"]],
        documentation=record["documentation"],
        synonyms=tuple(
            ConfigSynonym(
                name=synonym["name"],
                value=synonym["value"],
                source=ConfigSource[synonym["source"]],
            )
            for synonym in record["synonyms"] or ()
        ),
    )


def _error(name: str, message: str | None) -> KafkaConfigAdminError:
    """The typed error a snapshot row names, made again (its class, its message)."""
    cls = getattr(kafka_config_admin, name, None)
    if isinstance(cls, type) and issubclass(cls, KafkaConfigAdminError):
        return cls(message)
    return KafkaConfigAdminError(f"{name}: {message}")


def _finding(kind: str, resource: ConfigResource, **fields: Any) -> dict[str, Any]:
    return {
        "kind": kind,
        "resource_type": resource.type.name,
        "resource_name": resource.name,
        **fields,
    }
