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
    from ._apply import DEFAULT_READ_BACK_TIMEOUT as DEFAULT_READ_BACK_TIMEOUT
    from ._apply import ApplyRecorder as ApplyRecorder
    from ._apply import ApplyReport as ApplyReport
    from ._apply import PlanRejectedError as PlanRejectedError
    from ._apply import QuotaOutcome as QuotaOutcome
    from ._apply import ResourceOutcome as ResourceOutcome
    from ._apply import ScramOutcome as ScramOutcome
    from ._apply import apply_plan as apply_plan
    from ._audit import Shadowed as Shadowed
    from ._audit import evaluate_quota_rules as evaluate_quota_rules
    from ._audit import evaluate_scram_rules as evaluate_scram_rules
    from ._audit import evaluate_state as evaluate_state
    from ._audit import find_shadowed as find_shadowed
    from ._changes import BROKER_GONE_AFTER as BROKER_GONE_AFTER
    from ._changes import ChangeKind as ChangeKind
    from ._changes import ObservedState as ObservedState
    from ._changes import ObservedValue as ObservedValue
    from ._changes import ResourceObservation as ResourceObservation
    from ._changes import StateChange as StateChange
    from ._changes import diff_states as diff_states
    from ._changes import next_state as next_state
    from ._changes import observed_state as observed_state
    from ._changes import observed_values as observed_values
    from ._check import LOG_LEVELS as LOG_LEVELS
    from ._check import Problem as Problem
    from ._check import check_desired as check_desired
    from ._check import check_ops as check_ops
    from ._check import check_value as check_value
    from ._check import is_locked as is_locked
    from ._check import key_hint as key_hint
    from ._check import unknown_key_warnings as unknown_key_warnings
    from ._deprecated import kafka_string as kafka_string
    from ._documentation import documentation_html as documentation_html
    from ._documentation import documentation_text as documentation_text
    from ._export import Export as Export
    from ._export import ExportFailedError as ExportFailedError
    from ._export import export_document as export_document
    from ._export import quota_entries as quota_entries
    from ._export import read_export as read_export
    from ._guard import FindingStatus as FindingStatus
    from ._guard import RuleCheck as RuleCheck
    from ._guard import RuleFinding as RuleFinding
    from ._guard import RuleRefusedError as RuleRefusedError
    from ._guard import UnknownRuleError as UnknownRuleError
    from ._guard import check_overrides as check_overrides
    from ._guard import check_plan_rules as check_plan_rules
    from ._guard import refusal_summary as refusal_summary
    from ._key_rules import key_rules as key_rules
    from ._key_rules import update_mode_words as update_mode_words
    from ._kinds import ResourceKind as ResourceKind
    from ._listing import ScopeListing as ScopeListing
    from ._listing import list_scope as list_scope
    from ._load import DesiredStateError as DesiredStateError
    from ._load import FileError as FileError
    from ._load import connection_rules as connection_rules
    from ._load import load_desired_state as load_desired_state
    from ._load import load_rules_file as load_rules_file
    from ._load import parse_desired_state as parse_desired_state
    from ._model import BROKER_THROTTLE_KEYS as BROKER_THROTTLE_KEYS
    from ._model import TOPIC_THROTTLE_KEYS as TOPIC_THROTTLE_KEYS
    from ._model import DesiredState as DesiredState
    from ._model import IgnoreSpec as IgnoreSpec
    from ._model import ResourceSpec as ResourceSpec
    from ._model import TopicSpec as TopicSpec
    from ._nearest import nearest_keys as nearest_keys
    from ._observe import observe_cluster as observe_cluster
    from ._observe import observe_once as observe_once
    from ._outcomes import OutcomeStatus as OutcomeStatus
    from ._partitions import PartitionPlan as PartitionPlan
    from ._partitions import place_replicas as place_replicas
    from ._patterns import MATCH_SECONDS as MATCH_SECONDS
    from ._patterns import PatternTimeoutError as PatternTimeoutError
    from ._patterns import UserPattern as UserPattern
    from ._patterns import find_matching as find_matching
    from ._patterns import list_matching_topics as list_matching_topics
    from ._patterns import match_budget as match_budget
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
    from ._quotas import QUOTA_KEYS as QUOTA_KEYS
    from ._quotas import QuotaChange as QuotaChange
    from ._quotas import QuotaPlan as QuotaPlan
    from ._quotas import QuotaSpec as QuotaSpec
    from ._read_state import describe_state as describe_state
    from ._read_state import read_scram_credentials as read_scram_credentials
    from ._read_state import read_state as read_state
    from ._read_state import unlisted_brokers as unlisted_brokers
    from ._reassign import DEFAULT_REASSIGNMENT_TIMEOUT as DEFAULT_REASSIGNMENT_TIMEOUT
    from ._reassign import PartitionOutcome as PartitionOutcome
    from ._references import has_reference as has_reference
    from ._references import is_reference as is_reference
    from ._rotation import ReadRotation as ReadRotation
    from ._rows import ENTRY_COLUMNS as ENTRY_COLUMNS
    from ._rows import ERROR_COLUMNS as ERROR_COLUMNS
    from ._rows import OUTCOME_COLUMNS as OUTCOME_COLUMNS
    from ._rows import RESOURCE_COLUMNS as RESOURCE_COLUMNS
    from ._rows import SYNONYM_COLUMNS as SYNONYM_COLUMNS
    from ._rows import entry_row as entry_row
    from ._rows import error_row as error_row
    from ._rows import error_values as error_values
    from ._rows import resource_row as resource_row
    from ._rules import Rule as Rule
    from ._rules import RuleOperator as RuleOperator
    from ._rules import Violation as Violation
    from ._rules import evaluate_rules as evaluate_rules
    from ._saved import SAVED_PLAN_FORMAT as SAVED_PLAN_FORMAT
    from ._saved import SAVED_PLAN_KIND as SAVED_PLAN_KIND
    from ._saved import SavedPlanError as SavedPlanError
    from ._saved import desired_state_of as desired_state_of
    from ._saved import plan_desired_state as plan_desired_state
    from ._saved import read_saved_plan as read_saved_plan
    from ._saved import saved_plan_document as saved_plan_document
    from ._scope import ResourceScope as ResourceScope
    from ._scram_users import ScramChange as ScramChange
    from ._scram_users import ScramCredentialSpec as ScramCredentialSpec
    from ._scram_users import ScramPlan as ScramPlan
    from ._state import ClusterState as ClusterState
    from ._state import is_override as is_override
    from ._state import override_source as override_source
    from ._state import schema_resources as schema_resources
    from ._types import SET_LIKE_KEYS as SET_LIKE_KEYS
    from ._types import TypedValue as TypedValue
    from ._types import expected_type as expected_type
    from ._types import is_set_like as is_set_like
    from ._types import java_equals_ignore_case as java_equals_ignore_case
    from ._types import java_trim as java_trim
    from ._types import parse_typed as parse_typed
    from ._types import same_value as same_value
    from ._upcoming import UPCOMING_CHANGES as UPCOMING_CHANGES
    from ._upcoming import UpcomingChange as UpcomingChange
    from ._upcoming import UpcomingWarning as UpcomingWarning
    from ._upcoming import desired_warnings as desired_warnings
    from ._upcoming import state_warnings as state_warnings
    from ._upcoming import upcoming_changes as upcoming_changes
    from ._upcoming import upcoming_warning as upcoming_warning
    from ._values import DURATION_UNITS as DURATION_UNITS
    from ._values import SIZE_UNITS as SIZE_UNITS
    from ._values import human_units as human_units
    from ._values import kafka_string_for as kafka_string_for
    from ._values import parse_duration_ms as parse_duration_ms
    from ._values import parse_size_bytes as parse_size_bytes
    from ._verdict import BrokerVerdict as BrokerVerdict
    from ._verdict import Proposal as Proposal
    from ._verdict import Refusal as Refusal
    from ._verdict import ask_broker as ask_broker
    from ._verdict import is_refusal as is_refusal
    from ._warning import ConfigWarning as ConfigWarning

#: Where each public name lives: the one list of them (``__all__`` is made from it, and the
#: ``TYPE_CHECKING`` imports above, for type checkers, are tested against it). A name is
#: imported the first time it is asked for (PEP 562):
#: a command that needs one reader (``describe`` needs :func:`override_source`) loads
#: neither the change feed, the rules nor apply's modules.
_HOMES: dict[str, tuple[str, ...]] = {
    "._apply": (
        "DEFAULT_READ_BACK_TIMEOUT",
        "ApplyRecorder",
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
    "._guard": (
        "FindingStatus",
        "RuleCheck",
        "RuleFinding",
        "RuleRefusedError",
        "UnknownRuleError",
        "check_overrides",
        "check_plan_rules",
        "refusal_summary",
    ),
    "._key_rules": ("key_rules", "update_mode_words"),
    "._kinds": ("ResourceKind",),
    "._load": (
        "DesiredStateError",
        "FileError",
        "connection_rules",
        "load_desired_state",
        "load_rules_file",
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
    "._saved": (
        "SAVED_PLAN_FORMAT",
        "SAVED_PLAN_KIND",
        "SavedPlanError",
        "desired_state_of",
        "plan_desired_state",
        "read_saved_plan",
        "saved_plan_document",
    ),
    "._quotas": (
        "QUOTA_KEYS",
        "QuotaChange",
        "QuotaPlan",
        "QuotaSpec",
    ),
    "._read_state": (
        "describe_state",
        "read_scram_credentials",
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
    "._rotation": ("ReadRotation",),
    "._rows": (
        "ENTRY_COLUMNS",
        "ERROR_COLUMNS",
        "OUTCOME_COLUMNS",
        "RESOURCE_COLUMNS",
        "SYNONYM_COLUMNS",
        "entry_row",
        "error_row",
        "error_values",
        "resource_row",
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
    "._documentation": ("documentation_html", "documentation_text"),
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
__all__ = _exported_names(_HOMES)
__getattr__, __dir__ = _lazy_exports(globals(), _HOMES)
