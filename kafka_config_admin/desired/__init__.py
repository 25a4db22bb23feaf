"""The desired-state file: a declarative YAML file of Kafka configs, its diff into a plan, audit.

The flow, each step usable on its own::

    from kafka_config_admin import AdminClient
    from kafka_config_admin.changeset import Proposal, apply_plan, ask_broker
    from kafka_config_admin.desired import evaluate_state, load_desired_state, make_plan
    from kafka_config_admin.state import read_state

    # A DesiredStateError names the file, line and key of a mistake.
    desired = load_desired_state("kafka.yaml")
    async with AdminClient("localhost:9092") as admin:
        state = await read_state(admin, desired)  # describes, KIP-569 types
        plan = make_plan(desired, state, prune=False)  # pure: no I/O
        print(plan.to_json())  # plan.problems: every type error
        verdict = await ask_broker(admin, Proposal.of_plan(plan))  # validate_only
        report = await apply_plan(admin, plan)  # validate, apply, read back
        violations = evaluate_state(desired.rules, state, desired=desired)  # rules

Here: reading the YAML (:func:`load_desired_state`, :func:`parse_desired_state`,
:func:`load_rules_file`, :func:`connection_rules`; every mistake a :class:`DesiredStateError`),
the diff (:func:`make_plan` -> :class:`Plan`, pure), the audit of a cluster's state against
the file's rules (:func:`evaluate_state`, :func:`evaluate_quota_rules`,
:func:`evaluate_scram_rules`) and a cluster's overrides as a file (:func:`read_export`).

Beneath it, the layer every face shares (:mod:`kafka_config_admin.state`: the model of a
desired state, reading a cluster, values and checks, rows); above it, sending a plan
(:mod:`kafka_config_admin.changeset`: the broker's verdict, the guardrails, apply, saved
plans). The change feed is :mod:`kafka_config_admin.feed`. The names that moved to those
packages are still read here for one release, each with a ``DeprecationWarning``. Where
clusters are and how to log in is :mod:`kafka_config_admin.connect`.

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

#: Type checkers read the moved names from their new homes (the runtime warns: ``_MOVED``).
if _typing.TYPE_CHECKING:
    from ..changeset import DEFAULT_READ_BACK_TIMEOUT as DEFAULT_READ_BACK_TIMEOUT
    from ..changeset import DEFAULT_REASSIGNMENT_TIMEOUT as DEFAULT_REASSIGNMENT_TIMEOUT
    from ..changeset import SAVED_PLAN_FORMAT as SAVED_PLAN_FORMAT
    from ..changeset import SAVED_PLAN_KIND as SAVED_PLAN_KIND
    from ..changeset import ApplyRecorder as ApplyRecorder
    from ..changeset import ApplyReport as ApplyReport
    from ..changeset import BrokerVerdict as BrokerVerdict
    from ..changeset import FindingStatus as FindingStatus
    from ..changeset import PartitionOutcome as PartitionOutcome
    from ..changeset import PlanRejectedError as PlanRejectedError
    from ..changeset import Proposal as Proposal
    from ..changeset import QuotaOutcome as QuotaOutcome
    from ..changeset import Refusal as Refusal
    from ..changeset import ResourceOutcome as ResourceOutcome
    from ..changeset import RuleCheck as RuleCheck
    from ..changeset import RuleFinding as RuleFinding
    from ..changeset import RuleRefusedError as RuleRefusedError
    from ..changeset import SavedPlanError as SavedPlanError
    from ..changeset import ScramOutcome as ScramOutcome
    from ..changeset import UnknownRuleError as UnknownRuleError
    from ..changeset import apply_plan as apply_plan
    from ..changeset import ask_broker as ask_broker
    from ..changeset import check_overrides as check_overrides
    from ..changeset import check_plan_rules as check_plan_rules
    from ..changeset import desired_state_of as desired_state_of
    from ..changeset import is_refusal as is_refusal
    from ..changeset import plan_desired_state as plan_desired_state
    from ..changeset import read_saved_plan as read_saved_plan
    from ..changeset import refusal_summary as refusal_summary
    from ..changeset import saved_plan_document as saved_plan_document
    from ..feed import BROKER_GONE_AFTER as BROKER_GONE_AFTER
    from ..feed import ChangeKind as ChangeKind
    from ..feed import ObservedState as ObservedState
    from ..feed import ObservedValue as ObservedValue
    from ..feed import ResourceObservation as ResourceObservation
    from ..feed import StateChange as StateChange
    from ..feed import diff_states as diff_states
    from ..feed import next_state as next_state
    from ..feed import observe_cluster as observe_cluster
    from ..feed import observe_once as observe_once
    from ..feed import observed_state as observed_state
    from ..feed import observed_values as observed_values
    from ..state import BROKER_THROTTLE_KEYS as BROKER_THROTTLE_KEYS
    from ..state import DURATION_UNITS as DURATION_UNITS
    from ..state import ENTRY_COLUMNS as ENTRY_COLUMNS
    from ..state import ERROR_COLUMNS as ERROR_COLUMNS
    from ..state import LOG_LEVELS as LOG_LEVELS
    from ..state import MATCH_SECONDS as MATCH_SECONDS
    from ..state import OUTCOME_COLUMNS as OUTCOME_COLUMNS
    from ..state import QUOTA_KEYS as QUOTA_KEYS
    from ..state import RESOURCE_COLUMNS as RESOURCE_COLUMNS
    from ..state import SET_LIKE_KEYS as SET_LIKE_KEYS
    from ..state import SIZE_UNITS as SIZE_UNITS
    from ..state import SYNONYM_COLUMNS as SYNONYM_COLUMNS
    from ..state import TOPIC_THROTTLE_KEYS as TOPIC_THROTTLE_KEYS
    from ..state import UPCOMING_CHANGES as UPCOMING_CHANGES
    from ..state import ClusterState as ClusterState
    from ..state import ConfigWarning as ConfigWarning
    from ..state import DesiredState as DesiredState
    from ..state import IgnoreSpec as IgnoreSpec
    from ..state import OutcomeStatus as OutcomeStatus
    from ..state import PatternTimeoutError as PatternTimeoutError
    from ..state import Problem as Problem
    from ..state import QuotaChange as QuotaChange
    from ..state import QuotaPlan as QuotaPlan
    from ..state import QuotaSpec as QuotaSpec
    from ..state import ResourceKind as ResourceKind
    from ..state import ResourceScope as ResourceScope
    from ..state import ResourceSpec as ResourceSpec
    from ..state import Rule as Rule
    from ..state import RuleOperator as RuleOperator
    from ..state import ScopeListing as ScopeListing
    from ..state import ScramChange as ScramChange
    from ..state import ScramCredentialSpec as ScramCredentialSpec
    from ..state import ScramPlan as ScramPlan
    from ..state import TopicSpec as TopicSpec
    from ..state import TypedValue as TypedValue
    from ..state import UpcomingChange as UpcomingChange
    from ..state import UpcomingWarning as UpcomingWarning
    from ..state import UserPattern as UserPattern
    from ..state import Violation as Violation
    from ..state import check_desired as check_desired
    from ..state import check_ops as check_ops
    from ..state import check_value as check_value
    from ..state import describe_state as describe_state
    from ..state import desired_warnings as desired_warnings
    from ..state import entry_row as entry_row
    from ..state import error_row as error_row
    from ..state import error_values as error_values
    from ..state import evaluate_rules as evaluate_rules
    from ..state import expected_type as expected_type
    from ..state import find_matching as find_matching
    from ..state import has_reference as has_reference
    from ..state import human_units as human_units
    from ..state import is_locked as is_locked
    from ..state import is_override as is_override
    from ..state import is_reference as is_reference
    from ..state import is_set_like as is_set_like
    from ..state import java_equals_ignore_case as java_equals_ignore_case
    from ..state import java_trim as java_trim
    from ..state import kafka_string_for as kafka_string_for
    from ..state import key_hint as key_hint
    from ..state import key_rules as key_rules
    from ..state import list_matching_topics as list_matching_topics
    from ..state import list_scope as list_scope
    from ..state import match_budget as match_budget
    from ..state import nearest_keys as nearest_keys
    from ..state import override_source as override_source
    from ..state import parse_duration_ms as parse_duration_ms
    from ..state import parse_size_bytes as parse_size_bytes
    from ..state import parse_typed as parse_typed
    from ..state import read_scram_credentials as read_scram_credentials
    from ..state import read_state as read_state
    from ..state import resource_row as resource_row
    from ..state import same_value as same_value
    from ..state import schema_resources as schema_resources
    from ..state import state_warnings as state_warnings
    from ..state import unknown_key_warnings as unknown_key_warnings
    from ..state import unlisted_brokers as unlisted_brokers
    from ..state import upcoming_changes as upcoming_changes
    from ..state import upcoming_warning as upcoming_warning
    from ..state import update_mode_words as update_mode_words

    kafka_string = kafka_string_for  # renamed: see _MOVED

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
#: Names that moved out of this package, or were renamed (name to what it is now, in full):
#: each is still read here for one release, with a ``DeprecationWarning`` naming its new home.
_MOVED: dict[str, str] = {
    # renamed so that kafka_config_admin.kafka_string is the one function of that name
    "kafka_string": "kafka_config_admin.state.kafka_string_for",
    "DEFAULT_READ_BACK_TIMEOUT": "kafka_config_admin.changeset.DEFAULT_READ_BACK_TIMEOUT",
    "DEFAULT_REASSIGNMENT_TIMEOUT": "kafka_config_admin.changeset.DEFAULT_REASSIGNMENT_TIMEOUT",
    "SAVED_PLAN_FORMAT": "kafka_config_admin.changeset.SAVED_PLAN_FORMAT",
    "SAVED_PLAN_KIND": "kafka_config_admin.changeset.SAVED_PLAN_KIND",
    "ApplyRecorder": "kafka_config_admin.changeset.ApplyRecorder",
    "ApplyReport": "kafka_config_admin.changeset.ApplyReport",
    "BrokerVerdict": "kafka_config_admin.changeset.BrokerVerdict",
    "FindingStatus": "kafka_config_admin.changeset.FindingStatus",
    "PartitionOutcome": "kafka_config_admin.changeset.PartitionOutcome",
    "PlanRejectedError": "kafka_config_admin.changeset.PlanRejectedError",
    "Proposal": "kafka_config_admin.changeset.Proposal",
    "QuotaOutcome": "kafka_config_admin.changeset.QuotaOutcome",
    "Refusal": "kafka_config_admin.changeset.Refusal",
    "ResourceOutcome": "kafka_config_admin.changeset.ResourceOutcome",
    "RuleCheck": "kafka_config_admin.changeset.RuleCheck",
    "RuleFinding": "kafka_config_admin.changeset.RuleFinding",
    "RuleRefusedError": "kafka_config_admin.changeset.RuleRefusedError",
    "SavedPlanError": "kafka_config_admin.changeset.SavedPlanError",
    "ScramOutcome": "kafka_config_admin.changeset.ScramOutcome",
    "UnknownRuleError": "kafka_config_admin.changeset.UnknownRuleError",
    "apply_plan": "kafka_config_admin.changeset.apply_plan",
    "ask_broker": "kafka_config_admin.changeset.ask_broker",
    "check_overrides": "kafka_config_admin.changeset.check_overrides",
    "check_plan_rules": "kafka_config_admin.changeset.check_plan_rules",
    "desired_state_of": "kafka_config_admin.changeset.desired_state_of",
    "is_refusal": "kafka_config_admin.changeset.is_refusal",
    "plan_desired_state": "kafka_config_admin.changeset.plan_desired_state",
    "read_saved_plan": "kafka_config_admin.changeset.read_saved_plan",
    "refusal_summary": "kafka_config_admin.changeset.refusal_summary",
    "saved_plan_document": "kafka_config_admin.changeset.saved_plan_document",
    "BROKER_GONE_AFTER": "kafka_config_admin.feed.BROKER_GONE_AFTER",
    "ChangeKind": "kafka_config_admin.feed.ChangeKind",
    "ObservedState": "kafka_config_admin.feed.ObservedState",
    "ObservedValue": "kafka_config_admin.feed.ObservedValue",
    "ResourceObservation": "kafka_config_admin.feed.ResourceObservation",
    "StateChange": "kafka_config_admin.feed.StateChange",
    "diff_states": "kafka_config_admin.feed.diff_states",
    "next_state": "kafka_config_admin.feed.next_state",
    "observe_cluster": "kafka_config_admin.feed.observe_cluster",
    "observe_once": "kafka_config_admin.feed.observe_once",
    "observed_state": "kafka_config_admin.feed.observed_state",
    "observed_values": "kafka_config_admin.feed.observed_values",
    "BROKER_THROTTLE_KEYS": "kafka_config_admin.state.BROKER_THROTTLE_KEYS",
    "DURATION_UNITS": "kafka_config_admin.state.DURATION_UNITS",
    "ENTRY_COLUMNS": "kafka_config_admin.state.ENTRY_COLUMNS",
    "ERROR_COLUMNS": "kafka_config_admin.state.ERROR_COLUMNS",
    "LOG_LEVELS": "kafka_config_admin.state.LOG_LEVELS",
    "MATCH_SECONDS": "kafka_config_admin.state.MATCH_SECONDS",
    "OUTCOME_COLUMNS": "kafka_config_admin.state.OUTCOME_COLUMNS",
    "QUOTA_KEYS": "kafka_config_admin.state.QUOTA_KEYS",
    "RESOURCE_COLUMNS": "kafka_config_admin.state.RESOURCE_COLUMNS",
    "SET_LIKE_KEYS": "kafka_config_admin.state.SET_LIKE_KEYS",
    "SIZE_UNITS": "kafka_config_admin.state.SIZE_UNITS",
    "SYNONYM_COLUMNS": "kafka_config_admin.state.SYNONYM_COLUMNS",
    "TOPIC_THROTTLE_KEYS": "kafka_config_admin.state.TOPIC_THROTTLE_KEYS",
    "UPCOMING_CHANGES": "kafka_config_admin.state.UPCOMING_CHANGES",
    "ClusterState": "kafka_config_admin.state.ClusterState",
    "ConfigWarning": "kafka_config_admin.state.ConfigWarning",
    "DesiredState": "kafka_config_admin.state.DesiredState",
    "IgnoreSpec": "kafka_config_admin.state.IgnoreSpec",
    "OutcomeStatus": "kafka_config_admin.state.OutcomeStatus",
    "PatternTimeoutError": "kafka_config_admin.state.PatternTimeoutError",
    "Problem": "kafka_config_admin.state.Problem",
    "QuotaChange": "kafka_config_admin.state.QuotaChange",
    "QuotaPlan": "kafka_config_admin.state.QuotaPlan",
    "QuotaSpec": "kafka_config_admin.state.QuotaSpec",
    "ResourceKind": "kafka_config_admin.state.ResourceKind",
    "ResourceScope": "kafka_config_admin.state.ResourceScope",
    "ResourceSpec": "kafka_config_admin.state.ResourceSpec",
    "Rule": "kafka_config_admin.state.Rule",
    "RuleOperator": "kafka_config_admin.state.RuleOperator",
    "ScopeListing": "kafka_config_admin.state.ScopeListing",
    "ScramChange": "kafka_config_admin.state.ScramChange",
    "ScramCredentialSpec": "kafka_config_admin.state.ScramCredentialSpec",
    "ScramPlan": "kafka_config_admin.state.ScramPlan",
    "TopicSpec": "kafka_config_admin.state.TopicSpec",
    "TypedValue": "kafka_config_admin.state.TypedValue",
    "UpcomingChange": "kafka_config_admin.state.UpcomingChange",
    "UpcomingWarning": "kafka_config_admin.state.UpcomingWarning",
    "UserPattern": "kafka_config_admin.state.UserPattern",
    "Violation": "kafka_config_admin.state.Violation",
    "check_desired": "kafka_config_admin.state.check_desired",
    "check_ops": "kafka_config_admin.state.check_ops",
    "check_value": "kafka_config_admin.state.check_value",
    "describe_state": "kafka_config_admin.state.describe_state",
    "desired_warnings": "kafka_config_admin.state.desired_warnings",
    "entry_row": "kafka_config_admin.state.entry_row",
    "error_row": "kafka_config_admin.state.error_row",
    "error_values": "kafka_config_admin.state.error_values",
    "evaluate_rules": "kafka_config_admin.state.evaluate_rules",
    "expected_type": "kafka_config_admin.state.expected_type",
    "find_matching": "kafka_config_admin.state.find_matching",
    "has_reference": "kafka_config_admin.state.has_reference",
    "human_units": "kafka_config_admin.state.human_units",
    "is_locked": "kafka_config_admin.state.is_locked",
    "is_override": "kafka_config_admin.state.is_override",
    "is_reference": "kafka_config_admin.state.is_reference",
    "is_set_like": "kafka_config_admin.state.is_set_like",
    "java_equals_ignore_case": "kafka_config_admin.state.java_equals_ignore_case",
    "java_trim": "kafka_config_admin.state.java_trim",
    "kafka_string_for": "kafka_config_admin.state.kafka_string_for",
    "key_hint": "kafka_config_admin.state.key_hint",
    "key_rules": "kafka_config_admin.state.key_rules",
    "list_matching_topics": "kafka_config_admin.state.list_matching_topics",
    "list_scope": "kafka_config_admin.state.list_scope",
    "match_budget": "kafka_config_admin.state.match_budget",
    "nearest_keys": "kafka_config_admin.state.nearest_keys",
    "override_source": "kafka_config_admin.state.override_source",
    "parse_duration_ms": "kafka_config_admin.state.parse_duration_ms",
    "parse_size_bytes": "kafka_config_admin.state.parse_size_bytes",
    "parse_typed": "kafka_config_admin.state.parse_typed",
    "read_scram_credentials": "kafka_config_admin.state.read_scram_credentials",
    "read_state": "kafka_config_admin.state.read_state",
    "resource_row": "kafka_config_admin.state.resource_row",
    "same_value": "kafka_config_admin.state.same_value",
    "schema_resources": "kafka_config_admin.state.schema_resources",
    "state_warnings": "kafka_config_admin.state.state_warnings",
    "unknown_key_warnings": "kafka_config_admin.state.unknown_key_warnings",
    "unlisted_brokers": "kafka_config_admin.state.unlisted_brokers",
    "upcoming_changes": "kafka_config_admin.state.upcoming_changes",
    "upcoming_warning": "kafka_config_admin.state.upcoming_warning",
    "update_mode_words": "kafka_config_admin.state.update_mode_words",
}
__all__ = _exported_names(_HOMES)
__getattr__, __dir__ = _lazy_exports(globals(), _HOMES, moved=_MOVED)
