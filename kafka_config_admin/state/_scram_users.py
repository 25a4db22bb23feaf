"""SCRAM users in a desired-state file: the ``scram_users:`` section and its diff (no I/O).

Each user lists the credentials wanted, one per mechanism, with the iterations and the name of
the environment variable that holds the password when ``apply`` runs; a password is never
written in the file::

    scram_users:
      alice:
        - {mechanism: SCRAM-SHA-256, iterations: 8192, password_env: ALICE_PASSWORD}

Kafka never reveals a credential's password or salt, only its mechanism and iterations, so the
plan upserts a credential that is missing or has other iterations; one that has the wanted
iterations is left as it is (to change only a password, change the iterations too, or delete
the credential and apply again). Mechanisms the file does not list are deleted when pruning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .. import DEFAULT_SCRAM_ITERATIONS, MAX_SCRAM_ITERATIONS, MIN_SCRAM_ITERATIONS

__all__ = ["ScramChange", "ScramCredentialSpec", "ScramPlan", "plan_scram"]

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ScramCredentialSpec(BaseModel):
    """One SCRAM credential wanted for a user; the password is read from ``password_env``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    mechanism: Literal["SCRAM-SHA-256", "SCRAM-SHA-512"]
    iterations: int = Field(
        default=DEFAULT_SCRAM_ITERATIONS, ge=MIN_SCRAM_ITERATIONS, le=MAX_SCRAM_ITERATIONS
    )
    password_env: str

    @model_validator(mode="before")
    @classmethod
    def _no_password_in_the_file(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and "password" in data:
            raise ValueError(
                "a password is never written in the file: name the environment variable that "
                "holds it with password_env"
            )
        return data

    @field_validator("password_env")
    @classmethod
    def _env_name(cls, name: str) -> str:
        if not _ENV_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not an environment variable name")
        return name


class ScramChange(BaseModel):
    """One credential of one user to upsert (with its password's variable) or to delete."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    mechanism: str
    op: Literal["UPSERT", "DELETE"]
    current_iterations: int | None
    iterations: int | None = None
    password_env: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "mechanism": self.mechanism,
            "op": self.op,
            "current_iterations": self.current_iterations,
            "iterations": self.iterations,
            "password_env": self.password_env,
        }


class ScramPlan(BaseModel):
    """The credential changes of one user."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    user: str
    changes: tuple[ScramChange, ...]

    def shown_by(self, credentials: Mapping[str, int]) -> bool:
        """Whether the user's described credentials (mechanism: iterations) show this plan."""
        return all(
            credentials.get(change.mechanism) == change.iterations for change in self.changes
        )

    def to_dict(self) -> dict[str, Any]:
        return {"user": self.user, "changes": [change.to_dict() for change in self.changes]}


def plan_scram(
    users: Mapping[str, tuple[ScramCredentialSpec, ...]],
    current: Mapping[str, Mapping[str, int]],
    *,
    prune: bool,
) -> tuple[ScramPlan, ...]:
    """The users whose credentials differ from the file, with their changes, in file order."""
    plans = []
    for user, specs in users.items():
        have = current.get(user, {})
        changes = [
            ScramChange(
                mechanism=spec.mechanism,
                op="UPSERT",
                current_iterations=have.get(spec.mechanism),
                iterations=spec.iterations,
                password_env=spec.password_env,
            )
            for spec in specs
            if have.get(spec.mechanism) != spec.iterations
        ]
        if prune:
            wanted = {spec.mechanism for spec in specs}
            changes += [
                ScramChange(mechanism=mechanism, op="DELETE", current_iterations=iterations)
                for mechanism, iterations in sorted(have.items())
                if mechanism not in wanted
            ]
        if changes:
            plans.append(ScramPlan(user=user, changes=tuple(changes)))
    return tuple(plans)
