"""Type checks of wanted values and alter operations, before anything is sent.

Every check returns all the problems it finds, never only the first, so one run shows a user
everything to fix; callers send nothing while any problem is left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict

from .. import AlterConfigOp, ConfigEntry, ConfigResource, ConfigType, OpType, ResourceType
from .._models.configs import HIDDEN, is_sensitive_name
from ._model import DesiredState
from ._state import ClusterState
from ._types import expected_type, parse_typed

__all__ = ["LOG_LEVELS", "Problem", "check_desired", "check_ops", "check_value", "is_sensitive"]

#: The levels a broker logger takes (Kafka's LogLevelConfig), in upper case as the broker wants.
LOG_LEVELS = frozenset({"OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "ALL"})


class Problem(BaseModel):
    """Why a wanted value or an operation cannot be sent: resource, key, value and expected type.

    ``value`` is None for sensitive keys (never shown) and for problems about no value;
    ``key`` is None for problems about a whole resource (one that could not be described).
    """

    model_config = ConfigDict(frozen=True)

    resource: ConfigResource
    key: str | None
    value: str | None
    expected_type: ConfigType | None
    message: str

    def __str__(self) -> str:
        where = str(self.resource) if self.key is None else f"{self.resource}, {self.key}"
        shown = "" if self.value is None else f" = {self.value!r}"
        return f"{where}{shown}: {self.message}"


def is_sensitive(key: str, info: ConfigEntry | None) -> bool:
    """Whether a key's value must never be shown: the broker says so, its type is PASSWORD, or
    (type unknown) its name looks like a secret."""
    if info is not None and (info.is_sensitive or info.type is ConfigType.PASSWORD):
        return True
    return is_sensitive_name(key)


def check_value(
    state: ClusterState,
    resource: ConfigResource,
    key: str,
    value: str | None,
    op: OpType = OpType.SET,
) -> Problem | None:
    """The problem with ``op`` of ``key`` to ``value`` on ``resource``, or None if it may be sent.

    Refused: keys the broker does not know (when the state can tell), read-only keys, APPEND
    and SUBTRACT on keys that are not LIST, values that do not parse as the key's type, and
    broker logger levels that are not log4j levels.
    """
    info = state.key_info(resource, key)
    shown = HIDDEN if value is not None and is_sensitive(key, info) else value
    kind = info.type if info is not None else ConfigType.UNKNOWN

    def problem(message: str) -> Problem:
        return Problem(resource=resource, key=key, value=shown, expected_type=kind, message=message)

    if info is None:
        if state.knows_keys(resource):
            return problem("unknown config: the broker does not know this key")
    elif info.is_read_only:
        return problem("read-only: the broker does not take changes of this key at run time")
    if op in (OpType.APPEND, OpType.SUBTRACT) and kind not in (ConfigType.LIST, ConfigType.UNKNOWN):
        return problem(f"{op.name} needs a LIST config, and this one is {kind.name}")
    if value is None:
        return None
    if resource.type is ResourceType.BROKER_LOGGER and value.strip() not in LOG_LEVELS:
        return problem(f"not a log level: expected one of {', '.join(sorted(LOG_LEVELS))}")
    try:
        parse_typed(kind, value)
    except ValueError as error:
        return problem(f"{error}: expected {expected_type(kind)}")
    return None


def check_ops(
    ops: Mapping[ConfigResource, Iterable[AlterConfigOp]], state: ClusterState
) -> list[Problem]:
    """Every problem in alter operations (as for ``incremental_alter_configs``), in order."""
    found = [_describe_failure(resource, state) for resource in ops]
    problems = [problem for problem in found if problem is not None]
    for resource, resource_ops in ops.items():
        for op in resource_ops:
            problem = check_value(state, resource, op.name, op.value, op.op)
            if problem is not None:
                problems.append(problem)
    return problems


def check_desired(desired: DesiredState, state: ClusterState) -> list[Problem]:
    """Every problem in the values a desired state wants, against what the cluster reports.

    Resources whose describe failed are problems too (nothing about them can be checked).
    """
    problems: list[Problem] = []
    for resource, spec in desired.resources(state.existing_topics()).items():
        failure = _describe_failure(resource, state)
        if failure is not None:
            problems.append(failure)
            continue
        for key, value in spec.configs.items():
            op = OpType.SET if value is not None else OpType.DELETE
            problem = check_value(state, resource, key, value, op)
            if problem is not None:
                problems.append(problem)
    return problems


def _describe_failure(resource: ConfigResource, state: ClusterState) -> Problem | None:
    error = state.errors.get(resource)
    if error is None:
        return None
    return Problem(
        resource=resource,
        key=None,
        value=None,
        expected_type=None,
        message=f"could not be described: {error}",
    )
