"""The layer every face shares: what a cluster has and what it should have, read and checked.

Nothing here knows a file format or a face: the CLI, the web editor, the Spark pipeline, the
change feed, the change pipeline (:mod:`kafka_config_admin.changeset`) and the desired-state
file (:mod:`kafka_config_admin.desired`) all build on it.

- the kinds of resource every face names and parses (:class:`ResourceKind`), which resources of
  a cluster to read (:class:`ResourceScope`, :func:`list_scope`) and users' regular expressions
  within a time budget (:class:`UserPattern`, :func:`find_matching`);
- reading a cluster: :func:`describe_state` (the one reader of configs) and :func:`read_state`
  (everything a desired state is about) into a :class:`ClusterState`; two sides' overrides
  compared key by key (:func:`compare_overrides`, the CLI's ``diff`` and the web's compare page),
  a desired state's overrides beside a cluster's (:func:`desired_overrides`);
- values and their checks: human units (:func:`kafka_string_for`), KIP-569 types
  (:func:`parse_typed`, :func:`same_value`), the client's checks (:func:`check_value`,
  :func:`check_ops`, :func:`check_desired`, each finding a :class:`Problem`), a key's update
  mode and Kafka's rules for it (:func:`key_rules`), config provider references
  (:func:`is_reference`), every warning as one :class:`ConfigWarning` (what Kafka's next major
  release will refuse: :func:`upcoming_warning`);
- the model of a desired state (:class:`DesiredState`, :class:`ResourceSpec`,
  :class:`TopicSpec`, quotas and SCRAM users, the audit :class:`Rule`), which the YAML file
  (:mod:`kafka_config_admin.desired`) and a saved plan both make;
- one row shape per concept, the column names of a resource, a config entry, an error and an
  outcome that the CLI's JSON, the Spark schemas and the change feed use (:func:`entry_row`,
  :func:`resource_row`, :func:`error_row`), and one outcome vocabulary (:class:`OutcomeStatus`).

These names moved here from :mod:`kafka_config_admin.desired`, where they stay readable, with a
``DeprecationWarning``, for one release.
"""

import typing as _typing

from .._exports import exported_names as _exported_names
from .._exports import lazy_exports as _lazy_exports

if _typing.TYPE_CHECKING:
    from ._check import LOG_LEVELS as LOG_LEVELS
    from ._check import Problem as Problem
    from ._check import check_desired as check_desired
    from ._check import check_ops as check_ops
    from ._check import check_value as check_value
    from ._check import is_locked as is_locked
    from ._check import key_hint as key_hint
    from ._check import unknown_key_warnings as unknown_key_warnings
    from ._compare import KeyComparison as KeyComparison
    from ._compare import KeyMatch as KeyMatch
    from ._compare import Overrides as Overrides
    from ._compare import ResourceComparison as ResourceComparison
    from ._compare import compare_overrides as compare_overrides
    from ._compare import desired_overrides as desired_overrides
    from ._compare import overrides_of as overrides_of
    from ._compare import overrides_read as overrides_read
    from ._documentation import documentation_html as documentation_html
    from ._documentation import documentation_text as documentation_text
    from ._key_rules import key_rules as key_rules
    from ._key_rules import update_mode_words as update_mode_words
    from ._kinds import ResourceKind as ResourceKind
    from ._listing import ScopeListing as ScopeListing
    from ._listing import list_scope as list_scope
    from ._model import BROKER_THROTTLE_KEYS as BROKER_THROTTLE_KEYS
    from ._model import TOPIC_THROTTLE_KEYS as TOPIC_THROTTLE_KEYS
    from ._model import DesiredState as DesiredState
    from ._model import IgnoreSpec as IgnoreSpec
    from ._model import ResourceSpec as ResourceSpec
    from ._model import TopicSpec as TopicSpec
    from ._nearest import nearest_keys as nearest_keys
    from ._outcomes import OutcomeStatus as OutcomeStatus
    from ._patterns import MATCH_SECONDS as MATCH_SECONDS
    from ._patterns import PatternTimeoutError as PatternTimeoutError
    from ._patterns import UserPattern as UserPattern
    from ._patterns import find_matching as find_matching
    from ._patterns import list_matching_topics as list_matching_topics
    from ._patterns import match_budget as match_budget
    from ._quotas import QUOTA_KEYS as QUOTA_KEYS
    from ._quotas import QuotaChange as QuotaChange
    from ._quotas import QuotaPlan as QuotaPlan
    from ._quotas import QuotaSpec as QuotaSpec
    from ._read_state import describe_state as describe_state
    from ._read_state import read_scram_credentials as read_scram_credentials
    from ._read_state import read_state as read_state
    from ._read_state import unlisted_brokers as unlisted_brokers
    from ._references import has_reference as has_reference
    from ._references import is_reference as is_reference
    from ._rows import ENTRY_COLUMNS as ENTRY_COLUMNS
    from ._rows import ERROR_COLUMNS as ERROR_COLUMNS
    from ._rows import KEY_COLUMN as KEY_COLUMN
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
    from ._warning import ConfigWarning as ConfigWarning

#: Where each public name lives: the one list of them (``__all__`` is made from it, and the
#: ``TYPE_CHECKING`` imports above, for type checkers, are tested against it). A name is
#: imported the first time it is asked for (PEP 562): a command that needs one reader
#: (``describe`` needs :func:`override_source`) loads neither the checks nor the rules.
_HOMES: dict[str, tuple[str, ...]] = {
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
    "._compare": (
        "KeyComparison",
        "KeyMatch",
        "Overrides",
        "ResourceComparison",
        "compare_overrides",
        "desired_overrides",
        "overrides_of",
        "overrides_read",
    ),
    "._documentation": ("documentation_html", "documentation_text"),
    "._key_rules": ("key_rules", "update_mode_words"),
    "._kinds": ("ResourceKind",),
    "._listing": ("ScopeListing", "list_scope"),
    "._model": (
        "BROKER_THROTTLE_KEYS",
        "TOPIC_THROTTLE_KEYS",
        "DesiredState",
        "IgnoreSpec",
        "ResourceSpec",
        "TopicSpec",
    ),
    "._nearest": ("nearest_keys",),
    "._outcomes": ("OutcomeStatus",),
    "._patterns": (
        "MATCH_SECONDS",
        "PatternTimeoutError",
        "UserPattern",
        "find_matching",
        "list_matching_topics",
        "match_budget",
    ),
    "._quotas": ("QUOTA_KEYS", "QuotaChange", "QuotaPlan", "QuotaSpec"),
    "._read_state": ("describe_state", "read_scram_credentials", "read_state", "unlisted_brokers"),
    "._references": ("has_reference", "is_reference"),
    "._rows": (
        "ENTRY_COLUMNS",
        "ERROR_COLUMNS",
        "KEY_COLUMN",
        "OUTCOME_COLUMNS",
        "RESOURCE_COLUMNS",
        "SYNONYM_COLUMNS",
        "entry_row",
        "error_row",
        "error_values",
        "resource_row",
    ),
    "._rules": ("Rule", "RuleOperator", "Violation", "evaluate_rules"),
    "._scope": ("ResourceScope",),
    "._scram_users": ("ScramChange", "ScramCredentialSpec", "ScramPlan"),
    "._state": ("ClusterState", "is_override", "override_source", "schema_resources"),
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
    "._values": (
        "DURATION_UNITS",
        "SIZE_UNITS",
        "human_units",
        "kafka_string_for",
        "parse_duration_ms",
        "parse_size_bytes",
    ),
    "._warning": ("ConfigWarning",),
}
__all__ = _exported_names(_HOMES)
__getattr__, __dir__ = _lazy_exports(globals(), _HOMES)
