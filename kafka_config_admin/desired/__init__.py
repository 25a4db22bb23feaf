"""Desired state of Kafka configs: a declarative file, type checks, a diff, audit rules, apply.

The flow, each step usable on its own::

    from kafka_config_admin import AdminClient
    from kafka_config_admin.desired import (
        Proposal, apply_plan, ask_broker, evaluate_state, load_desired_state, make_plan,
        read_state,
    )

    # A DesiredStateError names the file, line and key of a mistake.
    desired = load_desired_state("kafka.yaml")
    async with AdminClient("localhost:9092") as admin:
        state = await read_state(admin, desired)  # describes, KIP-569 types
        plan = make_plan(desired, state, prune=False)  # pure: no I/O
        print(plan.to_json())  # plan.problems: every type error
        verdict = await ask_broker(admin, Proposal.of_plan(plan))  # validate_only
        report = await apply_plan(admin, plan)  # validate, apply, read back
        violations = evaluate_state(desired.rules, state, desired=desired)  # rules

The core is pure (no I/O): the models (:class:`DesiredState`, :class:`ResourceSpec`,
:class:`TopicSpec`, :class:`Rule`), value parsing (:func:`kafka_string_for` for human units,
:func:`parse_typed` / :func:`same_value` for KIP-569 types), the checks (:func:`check_value`,
:func:`check_ops`, :func:`check_desired` returning every :class:`Problem`), the diff
(:func:`make_plan` -> :class:`Plan`), the change feed's diff (:func:`diff_states` of two
:class:`ObservedState`, read by :func:`observe_cluster` for a :class:`ResourceScope`, which
also says what a Spark snapshot reads) and rules (:func:`evaluate_rules`,
:func:`evaluate_state`, :func:`evaluate_quota_rules`, :func:`evaluate_scram_rules`).
Reading YAML (:func:`load_desired_state`, :func:`parse_desired_state`) and talking to a cluster
(:func:`read_state`, :func:`ask_broker` for the broker's verdict on a plan's changes,
:func:`apply_plan`, :func:`read_export` for a cluster's overrides as a
file) live in their own modules.

Where clusters are and how to log in (the clusters file shared by the CLI and the Spark
pipeline, and Kafka tools' command configs) is :mod:`kafka_config_admin.connect`.

docs/desired-state.md describes the file format and the plan's JSON shape.
"""

import typing as _typing

from .._exports import exported_names as _exported_names
from .._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ._audit import Shadowed as Shadowed
    from ._audit import evaluate_quota_rules as evaluate_quota_rules
    from ._audit import evaluate_scram_rules as evaluate_scram_rules
    from ._audit import evaluate_state as evaluate_state
    from ._audit import find_shadowed as find_shadowed
    from ._deprecated import kafka_string as kafka_string
    from ._export import Export as Export
    from ._export import ExportFailedError as ExportFailedError
    from ._export import export_document as export_document
    from ._export import quota_entries as quota_entries
    from ._export import read_export as read_export
    from ._load import DesiredStateError as DesiredStateError
    from ._load import FileError as FileError
    from ._load import connection_rules as connection_rules
    from ._load import load_desired_state as load_desired_state
    from ._load import load_rules_file as load_rules_file
    from ._load import parse_desired_state as parse_desired_state
    from ._partitions import PartitionPlan as PartitionPlan
    from ._partitions import place_replicas as place_replicas
    from ._plan import PLAN_FORMAT_VERSION as PLAN_FORMAT_VERSION
    from ._plan import ConfigChange as ConfigChange
    from ._plan import KeptKey as KeptKey
    from ._plan import Plan as Plan
    from ._plan import PlanDifference as PlanDifference
    from ._plan import ResourceAction as ResourceAction
    from ._plan import ResourcePlan as ResourcePlan
    from ._plan import SkippedKey as SkippedKey
    from ._plan import StaleKey as StaleKey
    from ._plan import TopicCreation as TopicCreation
    from ._plan import make_plan as make_plan
    from ._plan import plan_difference as plan_difference
    from ._plan import stale_keys as stale_keys
    from ._plan import stale_quotas as stale_quotas
    from ._plan import without_stale as without_stale

#: Where each public name lives: the one list of them (``__all__`` is made from it, and the
#: ``TYPE_CHECKING`` imports above, for type checkers, are tested against it). A name is
#: imported the first time it is asked for (PEP 562).
_HOMES: dict[str, tuple[str, ...]] = {
    "._audit": (
        "Shadowed",
        "evaluate_quota_rules",
        "evaluate_scram_rules",
        "evaluate_state",
        "find_shadowed",
    ),
    "._deprecated": ("kafka_string",),
    "._export": ("Export", "ExportFailedError", "export_document", "quota_entries", "read_export"),
    "._load": (
        "DesiredStateError",
        "FileError",
        "connection_rules",
        "load_desired_state",
        "load_rules_file",
        "parse_desired_state",
    ),
    "._partitions": ("PartitionPlan", "place_replicas"),
    "._plan": (
        "PLAN_FORMAT_VERSION",
        "ConfigChange",
        "KeptKey",
        "Plan",
        "PlanDifference",
        "ResourceAction",
        "ResourcePlan",
        "SkippedKey",
        "StaleKey",
        "TopicCreation",
        "make_plan",
        "plan_difference",
        "stale_keys",
        "stale_quotas",
        "without_stale",
    ),
}
#: Names that moved out of this package (name to the package it lives in now): each is still
#: read here for one release, with a ``DeprecationWarning`` naming its new home.
_MOVED: dict[str, str] = {
    "DEFAULT_READ_BACK_TIMEOUT": "kafka_config_admin.changeset",
    "DEFAULT_REASSIGNMENT_TIMEOUT": "kafka_config_admin.changeset",
    "SAVED_PLAN_FORMAT": "kafka_config_admin.changeset",
    "SAVED_PLAN_KIND": "kafka_config_admin.changeset",
    "ApplyRecorder": "kafka_config_admin.changeset",
    "ApplyReport": "kafka_config_admin.changeset",
    "BrokerVerdict": "kafka_config_admin.changeset",
    "FindingStatus": "kafka_config_admin.changeset",
    "PartitionOutcome": "kafka_config_admin.changeset",
    "PlanRejectedError": "kafka_config_admin.changeset",
    "Proposal": "kafka_config_admin.changeset",
    "QuotaOutcome": "kafka_config_admin.changeset",
    "Refusal": "kafka_config_admin.changeset",
    "ResourceOutcome": "kafka_config_admin.changeset",
    "RuleCheck": "kafka_config_admin.changeset",
    "RuleFinding": "kafka_config_admin.changeset",
    "RuleRefusedError": "kafka_config_admin.changeset",
    "SavedPlanError": "kafka_config_admin.changeset",
    "ScramOutcome": "kafka_config_admin.changeset",
    "UnknownRuleError": "kafka_config_admin.changeset",
    "apply_plan": "kafka_config_admin.changeset",
    "ask_broker": "kafka_config_admin.changeset",
    "check_overrides": "kafka_config_admin.changeset",
    "check_plan_rules": "kafka_config_admin.changeset",
    "desired_state_of": "kafka_config_admin.changeset",
    "is_refusal": "kafka_config_admin.changeset",
    "plan_desired_state": "kafka_config_admin.changeset",
    "read_saved_plan": "kafka_config_admin.changeset",
    "refusal_summary": "kafka_config_admin.changeset",
    "saved_plan_document": "kafka_config_admin.changeset",
    "BROKER_GONE_AFTER": "kafka_config_admin.feed",
    "ChangeKind": "kafka_config_admin.feed",
    "ObservedState": "kafka_config_admin.feed",
    "ObservedValue": "kafka_config_admin.feed",
    "ResourceObservation": "kafka_config_admin.feed",
    "StateChange": "kafka_config_admin.feed",
    "diff_states": "kafka_config_admin.feed",
    "next_state": "kafka_config_admin.feed",
    "observe_cluster": "kafka_config_admin.feed",
    "observe_once": "kafka_config_admin.feed",
    "observed_state": "kafka_config_admin.feed",
    "observed_values": "kafka_config_admin.feed",
    "BROKER_THROTTLE_KEYS": "kafka_config_admin.state",
    "DURATION_UNITS": "kafka_config_admin.state",
    "ENTRY_COLUMNS": "kafka_config_admin.state",
    "ERROR_COLUMNS": "kafka_config_admin.state",
    "LOG_LEVELS": "kafka_config_admin.state",
    "MATCH_SECONDS": "kafka_config_admin.state",
    "OUTCOME_COLUMNS": "kafka_config_admin.state",
    "QUOTA_KEYS": "kafka_config_admin.state",
    "RESOURCE_COLUMNS": "kafka_config_admin.state",
    "SET_LIKE_KEYS": "kafka_config_admin.state",
    "SIZE_UNITS": "kafka_config_admin.state",
    "SYNONYM_COLUMNS": "kafka_config_admin.state",
    "TOPIC_THROTTLE_KEYS": "kafka_config_admin.state",
    "UPCOMING_CHANGES": "kafka_config_admin.state",
    "ClusterState": "kafka_config_admin.state",
    "ConfigWarning": "kafka_config_admin.state",
    "DesiredState": "kafka_config_admin.state",
    "IgnoreSpec": "kafka_config_admin.state",
    "OutcomeStatus": "kafka_config_admin.state",
    "PatternTimeoutError": "kafka_config_admin.state",
    "Problem": "kafka_config_admin.state",
    "QuotaChange": "kafka_config_admin.state",
    "QuotaPlan": "kafka_config_admin.state",
    "QuotaSpec": "kafka_config_admin.state",
    "ResourceKind": "kafka_config_admin.state",
    "ResourceScope": "kafka_config_admin.state",
    "ResourceSpec": "kafka_config_admin.state",
    "Rule": "kafka_config_admin.state",
    "RuleOperator": "kafka_config_admin.state",
    "ScopeListing": "kafka_config_admin.state",
    "ScramChange": "kafka_config_admin.state",
    "ScramCredentialSpec": "kafka_config_admin.state",
    "ScramPlan": "kafka_config_admin.state",
    "TopicSpec": "kafka_config_admin.state",
    "TypedValue": "kafka_config_admin.state",
    "UpcomingChange": "kafka_config_admin.state",
    "UpcomingWarning": "kafka_config_admin.state",
    "UserPattern": "kafka_config_admin.state",
    "Violation": "kafka_config_admin.state",
    "check_desired": "kafka_config_admin.state",
    "check_ops": "kafka_config_admin.state",
    "check_value": "kafka_config_admin.state",
    "describe_state": "kafka_config_admin.state",
    "desired_warnings": "kafka_config_admin.state",
    "entry_row": "kafka_config_admin.state",
    "error_row": "kafka_config_admin.state",
    "error_values": "kafka_config_admin.state",
    "evaluate_rules": "kafka_config_admin.state",
    "expected_type": "kafka_config_admin.state",
    "find_matching": "kafka_config_admin.state",
    "has_reference": "kafka_config_admin.state",
    "human_units": "kafka_config_admin.state",
    "is_locked": "kafka_config_admin.state",
    "is_override": "kafka_config_admin.state",
    "is_reference": "kafka_config_admin.state",
    "is_set_like": "kafka_config_admin.state",
    "java_equals_ignore_case": "kafka_config_admin.state",
    "java_trim": "kafka_config_admin.state",
    "kafka_string_for": "kafka_config_admin.state",
    "key_hint": "kafka_config_admin.state",
    "key_rules": "kafka_config_admin.state",
    "list_matching_topics": "kafka_config_admin.state",
    "list_scope": "kafka_config_admin.state",
    "match_budget": "kafka_config_admin.state",
    "nearest_keys": "kafka_config_admin.state",
    "override_source": "kafka_config_admin.state",
    "parse_duration_ms": "kafka_config_admin.state",
    "parse_size_bytes": "kafka_config_admin.state",
    "parse_typed": "kafka_config_admin.state",
    "read_scram_credentials": "kafka_config_admin.state",
    "read_state": "kafka_config_admin.state",
    "resource_row": "kafka_config_admin.state",
    "same_value": "kafka_config_admin.state",
    "schema_resources": "kafka_config_admin.state",
    "state_warnings": "kafka_config_admin.state",
    "unknown_key_warnings": "kafka_config_admin.state",
    "unlisted_brokers": "kafka_config_admin.state",
    "upcoming_changes": "kafka_config_admin.state",
    "upcoming_warning": "kafka_config_admin.state",
    "update_mode_words": "kafka_config_admin.state",
}
__all__ = _exported_names(_HOMES)
__getattr__, __dir__ = _lazy_exports(globals(), _HOMES, moved=_MOVED)
