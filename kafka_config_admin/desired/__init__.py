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

from .._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ._apply import (
        DEFAULT_READ_BACK_TIMEOUT,
        ApplyReport,
        PlanRejectedError,
        QuotaOutcome,
        ResourceOutcome,
        ScramOutcome,
        apply_plan,
    )
    from ._audit import (
        Shadowed,
        evaluate_quota_rules,
        evaluate_scram_rules,
        evaluate_state,
        find_shadowed,
    )
    from ._changes import (
        BROKER_GONE_AFTER,
        ChangeKind,
        ObservedState,
        ObservedValue,
        ResourceObservation,
        StateChange,
        diff_states,
        next_state,
        observed_state,
        observed_values,
    )
    from ._check import (
        LOG_LEVELS,
        Problem,
        check_desired,
        check_ops,
        check_value,
        is_locked,
        key_hint,
        unknown_key_warnings,
    )
    from ._deprecated import kafka_string
    from ._export import Export, ExportFailedError, export_document, quota_entries, read_export
    from ._key_rules import key_rules, update_mode_words
    from ._kinds import ResourceKind
    from ._listing import ScopeListing, list_scope
    from ._load import DesiredStateError, FileError, load_desired_state, parse_desired_state
    from ._model import (
        BROKER_THROTTLE_KEYS,
        TOPIC_THROTTLE_KEYS,
        DesiredState,
        IgnoreSpec,
        ResourceSpec,
        TopicSpec,
    )
    from ._nearest import nearest_keys
    from ._observe import observe_cluster, observe_once
    from ._outcomes import OutcomeStatus
    from ._partitions import PartitionPlan, place_replicas
    from ._patterns import (
        MATCH_SECONDS,
        PatternTimeoutError,
        UserPattern,
        find_matching,
        list_matching_topics,
        match_budget,
    )
    from ._plan import (
        PLAN_FORMAT_VERSION,
        ConfigChange,
        KeptKey,
        Plan,
        ResourceAction,
        ResourcePlan,
        SkippedKey,
        StaleKey,
        TopicCreation,
        make_plan,
        stale_keys,
    )
    from ._quotas import QUOTA_KEYS, QuotaChange, QuotaPlan, QuotaSpec
    from ._read_state import describe_state, read_state, unlisted_brokers
    from ._reassign import DEFAULT_REASSIGNMENT_TIMEOUT, PartitionOutcome
    from ._references import has_reference, is_reference
    from ._rules import Rule, RuleOperator, Violation, evaluate_rules
    from ._scope import ResourceScope
    from ._scram_users import ScramChange, ScramCredentialSpec, ScramPlan
    from ._state import ClusterState, is_override, override_source, schema_resources
    from ._types import (
        SET_LIKE_KEYS,
        TypedValue,
        expected_type,
        is_set_like,
        java_equals_ignore_case,
        java_trim,
        parse_typed,
        same_value,
    )
    from ._upcoming import (
        UPCOMING_CHANGES,
        UpcomingChange,
        UpcomingWarning,
        desired_warnings,
        state_warnings,
        upcoming_changes,
        upcoming_warning,
    )
    from ._values import (
        DURATION_UNITS,
        SIZE_UNITS,
        human_units,
        kafka_string_for,
        parse_duration_ms,
        parse_size_bytes,
    )
    from ._verdict import BrokerVerdict, Proposal, Refusal, ask_broker, is_refusal
    from ._warning import ConfigWarning

__all__ = [
    "BROKER_GONE_AFTER",
    "BROKER_THROTTLE_KEYS",
    "DEFAULT_READ_BACK_TIMEOUT",
    "DEFAULT_REASSIGNMENT_TIMEOUT",
    "DURATION_UNITS",
    "LOG_LEVELS",
    "MATCH_SECONDS",
    "PLAN_FORMAT_VERSION",
    "QUOTA_KEYS",
    "SET_LIKE_KEYS",
    "SIZE_UNITS",
    "TOPIC_THROTTLE_KEYS",
    "UPCOMING_CHANGES",
    "ApplyReport",
    "BrokerVerdict",
    "ChangeKind",
    "ClusterState",
    "ConfigChange",
    "ConfigWarning",
    "DesiredState",
    "DesiredStateError",
    "Export",
    "ExportFailedError",
    "FileError",
    "IgnoreSpec",
    "KeptKey",
    "ObservedState",
    "ObservedValue",
    "OutcomeStatus",
    "PartitionOutcome",
    "PartitionPlan",
    "PatternTimeoutError",
    "Plan",
    "PlanRejectedError",
    "Problem",
    "Proposal",
    "QuotaChange",
    "QuotaOutcome",
    "QuotaPlan",
    "QuotaSpec",
    "Refusal",
    "ResourceAction",
    "ResourceKind",
    "ResourceObservation",
    "ResourceOutcome",
    "ResourcePlan",
    "ResourceScope",
    "ResourceSpec",
    "Rule",
    "RuleOperator",
    "ScopeListing",
    "ScramChange",
    "ScramCredentialSpec",
    "ScramOutcome",
    "ScramPlan",
    "Shadowed",
    "SkippedKey",
    "StaleKey",
    "StateChange",
    "TopicCreation",
    "TopicSpec",
    "TypedValue",
    "UpcomingChange",
    "UpcomingWarning",
    "UserPattern",
    "Violation",
    "apply_plan",
    "ask_broker",
    "check_desired",
    "check_ops",
    "check_value",
    "describe_state",
    "desired_warnings",
    "diff_states",
    "evaluate_quota_rules",
    "evaluate_rules",
    "evaluate_scram_rules",
    "evaluate_state",
    "expected_type",
    "export_document",
    "find_matching",
    "find_shadowed",
    "has_reference",
    "human_units",
    "is_locked",
    "is_override",
    "is_reference",
    "is_refusal",
    "is_set_like",
    "java_equals_ignore_case",
    "java_trim",
    "kafka_string",
    "kafka_string_for",
    "key_hint",
    "key_rules",
    "list_matching_topics",
    "list_scope",
    "load_desired_state",
    "make_plan",
    "match_budget",
    "nearest_keys",
    "next_state",
    "observe_cluster",
    "observe_once",
    "observed_state",
    "observed_values",
    "override_source",
    "parse_desired_state",
    "parse_duration_ms",
    "parse_size_bytes",
    "parse_typed",
    "place_replicas",
    "quota_entries",
    "read_export",
    "read_state",
    "same_value",
    "schema_resources",
    "stale_keys",
    "state_warnings",
    "unknown_key_warnings",
    "unlisted_brokers",
    "upcoming_changes",
    "upcoming_warning",
    "update_mode_words",
]

#: Where each public name lives. A name is imported the first time it is asked for (PEP 562):
#: a command that needs one reader (``describe`` needs :func:`override_source`) loads
#: neither the change feed, the rules nor apply's modules.
_HOMES: dict[str, tuple[str, ...]] = {
    "._apply": (
        "DEFAULT_READ_BACK_TIMEOUT",
        "ApplyReport",
        "PlanRejectedError",
        "QuotaOutcome",
        "ResourceOutcome",
        "ScramOutcome",
        "apply_plan",
    ),
    "._audit": (
        "Shadowed",
        "evaluate_quota_rules",
        "evaluate_scram_rules",
        "evaluate_state",
        "find_shadowed",
    ),
    "._changes": (
        "BROKER_GONE_AFTER",
        "ChangeKind",
        "ObservedState",
        "ObservedValue",
        "ResourceObservation",
        "StateChange",
        "diff_states",
        "next_state",
        "observed_state",
        "observed_values",
    ),
    "._check": (
        "LOG_LEVELS",
        "Problem",
        "check_desired",
        "check_ops",
        "check_value",
        "is_locked",
        "key_hint",
        "unknown_key_warnings",
    ),
    "._export": (
        "Export",
        "ExportFailedError",
        "export_document",
        "quota_entries",
        "read_export",
    ),
    "._key_rules": ("key_rules", "update_mode_words"),
    "._kinds": ("ResourceKind",),
    "._load": (
        "DesiredStateError",
        "FileError",
        "load_desired_state",
        "parse_desired_state",
    ),
    "._nearest": ("nearest_keys",),
    "._model": (
        "BROKER_THROTTLE_KEYS",
        "TOPIC_THROTTLE_KEYS",
        "DesiredState",
        "IgnoreSpec",
        "ResourceSpec",
        "TopicSpec",
    ),
    "._observe": (
        "observe_cluster",
        "observe_once",
    ),
    "._outcomes": ("OutcomeStatus",),
    "._partitions": (
        "PartitionPlan",
        "place_replicas",
    ),
    "._patterns": (
        "MATCH_SECONDS",
        "PatternTimeoutError",
        "UserPattern",
        "find_matching",
        "list_matching_topics",
        "match_budget",
    ),
    "._plan": (
        "PLAN_FORMAT_VERSION",
        "ConfigChange",
        "KeptKey",
        "Plan",
        "ResourceAction",
        "ResourcePlan",
        "SkippedKey",
        "StaleKey",
        "TopicCreation",
        "make_plan",
        "stale_keys",
    ),
    "._quotas": (
        "QUOTA_KEYS",
        "QuotaChange",
        "QuotaPlan",
        "QuotaSpec",
    ),
    "._read_state": (
        "describe_state",
        "read_state",
        "unlisted_brokers",
    ),
    "._reassign": (
        "DEFAULT_REASSIGNMENT_TIMEOUT",
        "PartitionOutcome",
    ),
    "._references": (
        "has_reference",
        "is_reference",
    ),
    "._rules": (
        "Rule",
        "RuleOperator",
        "Violation",
        "evaluate_rules",
    ),
    "._listing": ("ScopeListing", "list_scope"),
    "._scope": ("ResourceScope",),
    "._scram_users": (
        "ScramChange",
        "ScramCredentialSpec",
        "ScramPlan",
    ),
    "._state": (
        "ClusterState",
        "is_override",
        "override_source",
        "schema_resources",
    ),
    "._types": (
        "SET_LIKE_KEYS",
        "TypedValue",
        "expected_type",
        "is_set_like",
        "java_equals_ignore_case",
        "java_trim",
        "parse_typed",
        "same_value",
    ),
    "._upcoming": (
        "UPCOMING_CHANGES",
        "UpcomingChange",
        "UpcomingWarning",
        "desired_warnings",
        "state_warnings",
        "upcoming_changes",
        "upcoming_warning",
    ),
    "._warning": ("ConfigWarning",),
    "._deprecated": ("kafka_string",),
    "._values": (
        "DURATION_UNITS",
        "SIZE_UNITS",
        "human_units",
        "kafka_string_for",
        "parse_duration_ms",
        "parse_size_bytes",
    ),
    "._verdict": (
        "BrokerVerdict",
        "Proposal",
        "Refusal",
        "ask_broker",
        "is_refusal",
    ),
}
__getattr__, __dir__ = _lazy_exports(globals(), _HOMES)
