"""The SCRAM-credential calls (KIP-554): what they send, and their results (no I/O).

Both go to any broker, which forwards alterations to the controller. A describe is one request
(null asks for every user with credentials), so its result has one future for the whole answer,
from which each user's description, or that user's own error, is read. An alter has one future
per user: the broker takes one change per user per request, and says yes or no per user.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._exceptions import BrokerError, InvalidArgumentError, ResourceNotFoundError, error_for_code
from .._models.scram import (
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialsDescription,
    UserScramCredentialUpsertion,
    _user,
)
from .._protocol import ALTER_USER_SCRAM_CREDENTIALS, DESCRIBE_USER_SCRAM_CREDENTIALS
from .base import Operation
from .results import _Result

__all__ = [
    "AlterUserScramCredentials",
    "AlterUserScramCredentialsResult",
    "DescribeUserScramCredentials",
    "DescribeUserScramCredentialsResult",
    "ScramUsers",
]

#: Both APIs expect the client to wait out a throttle from their first version.
_THROTTLE_FROM_VERSION = 0

UserOutcome = UserScramCredentialsDescription | BrokerError


@dataclass(frozen=True)
class ScramUsers:
    """What one describe asks for: these users, or (None) every user with credentials."""

    names: tuple[str, ...] | None

    def __str__(self) -> str:
        if self.names is None:
            return "the SCRAM credentials of every user"
        return "the SCRAM credentials of " + ", ".join(f"user {name!r}" for name in self.names)


@dataclass
class DescribeUserScramCredentials(Operation[ScramUsers, dict[str, UserOutcome]]):
    """DescribeUserScramCredentials: each user's mechanisms and iterations, never a secret."""

    users: ScramUsers

    codec = DESCRIBE_USER_SCRAM_CREDENTIALS
    throttle_from_version = _THROTTLE_FROM_VERSION

    @classmethod
    def build(cls, users: Iterable[str] | None) -> DescribeUserScramCredentials:
        if users is None:
            return cls(users=ScramUsers(None))
        if isinstance(users, str) or not isinstance(users, Iterable):
            raise InvalidArgumentError(
                f"users must be a collection of user names, got {type(users).__name__}"
            )
        names = [_user(name) for name in users]
        if not names:  # the broker would read an empty list as every user
            raise InvalidArgumentError("users is empty: pass None to describe every user")
        if len(set(names)) != len(names):
            twice = next(name for name in names if names.count(name) > 1)
            raise InvalidArgumentError(f"user {twice!r} appears twice in one call")
        return cls(users=ScramUsers(tuple(names)))

    @property
    def resources(self) -> list[ScramUsers]:
        return [self.users]

    def body(self, resources: Sequence[ScramUsers], version: int) -> dict[str, Any]:
        # Every user is asked for with an empty list, as Java's client does, not with null:
        # brokers (4.3 at least) fail on a null list when they refuse the request, and then
        # never answer it.
        return {"users": [{"name": name} for name in self.users.names or ()]}

    def outcomes(
        self, resources: Sequence[ScramUsers], response: Mapping[str, Any]
    ) -> Iterator[tuple[ScramUsers, dict[str, UserOutcome] | BrokerError]]:
        code = response["error_code"]
        if code:
            yield self.users, error_for_code(code, response["error_message"], resource=self.users)
            return
        described: dict[str, UserOutcome] = {}
        for result in response["results"]:
            user = result["user"]
            if result["error_code"]:
                described[user] = error_for_code(
                    result["error_code"], result["error_message"], resource=f"user {user!r}"
                )
            else:
                infos = tuple(
                    ScramCredentialInfo(ScramMechanism(info["mechanism"]), info["iterations"])
                    for info in result["credential_infos"]
                )
                described[user] = UserScramCredentialsDescription(user, infos)
        yield self.users, described


@dataclass
class AlterUserScramCredentials(Operation[str, None]):
    """AlterUserScramCredentials: upsert or delete one credential per user."""

    alterations: dict[str, UserScramCredentialAlteration]

    codec = ALTER_USER_SCRAM_CREDENTIALS
    # Not hedged: a deletion applied twice answers RESOURCE_NOT_FOUND the second time.
    mutates = True
    throttle_from_version = _THROTTLE_FROM_VERSION
    _results_key = "results"

    @classmethod
    def build(
        cls, alterations: Iterable[UserScramCredentialAlteration]
    ) -> AlterUserScramCredentials:
        if isinstance(alterations, UserScramCredentialUpsertion | UserScramCredentialDeletion):
            alterations = [alterations]
        if isinstance(alterations, str | Mapping) or not isinstance(alterations, Iterable):
            raise InvalidArgumentError(
                "alterations must be a collection of UserScramCredentialUpsertion and "
                f"UserScramCredentialDeletion, got {type(alterations).__name__}"
            )
        by_user: dict[str, UserScramCredentialAlteration] = {}
        for alteration in alterations:
            if not isinstance(
                alteration, UserScramCredentialUpsertion | UserScramCredentialDeletion
            ):
                raise InvalidArgumentError(
                    "expected a UserScramCredentialUpsertion or UserScramCredentialDeletion, "
                    f"got {type(alteration).__name__}"
                )
            if alteration.user in by_user:  # the broker takes one change per user per request
                raise InvalidArgumentError(
                    f"user {alteration.user!r} appears twice in one call: the broker takes one "
                    "credential change per user at a time"
                )
            by_user[alteration.user] = alteration
        return cls(alterations=by_user)

    @property
    def resources(self) -> list[str]:
        return list(self.alterations)

    def body(self, resources: Sequence[str], version: int) -> dict[str, Any]:
        changes = [self.alterations[user] for user in resources]
        return {
            "deletions": [
                {"name": c.user, "mechanism": c.mechanism}
                for c in changes
                if isinstance(c, UserScramCredentialDeletion)
            ],
            "upsertions": [
                {
                    "name": c.user,
                    "mechanism": c.mechanism,
                    "iterations": c.iterations,
                    "salt": c.salt,
                    "salted_password": c.salted_password,
                }
                for c in changes
                if isinstance(c, UserScramCredentialUpsertion)
            ],
        }

    def answered(self, result: Mapping[str, Any]) -> str:
        user: str = result["user"]
        return user

    def value(self, resource: str, result: Mapping[str, Any]) -> None:
        return None

    def subject(self, resource: str) -> str:
        return f"user {resource!r}"


class DescribeUserScramCredentialsResult(_Result[ScramUsers, dict[str, UserOutcome]]):
    """The result of :meth:`AdminClient.describe_user_scram_credentials`.

    ``await result.all()`` gives every user's description; ``await result.description(user)``
    one user's, raising only that user's error (a user without credentials raises
    :class:`ResourceNotFoundError`); ``await result.users()`` the users described.
    """

    async def _answer(self) -> dict[str, UserOutcome]:
        [answer] = (await self._all()).values()
        return answer

    async def all(self) -> dict[str, UserScramCredentialsDescription]:
        """Every user's description, or the first user's error (in the order asked)."""
        answer = await self._answer()
        [asked] = self.values
        return {user: await self.description(user) for user in asked.names or answer}

    async def users(self) -> list[str]:
        """The users described without an error."""
        answer = await self._answer()
        return [user for user, outcome in answer.items() if not isinstance(outcome, BrokerError)]

    async def description(self, user: str) -> UserScramCredentialsDescription:
        """One user's credentials; raises that user's error, whatever the other users got."""
        outcome = (await self._answer()).get(user)
        if outcome is None:
            raise ResourceNotFoundError(
                "the broker's answer does not describe this user", resource=f"user {user!r}"
            )
        if isinstance(outcome, BrokerError):
            raise outcome
        return outcome


class AlterUserScramCredentialsResult(_Result[str, None]):
    """The result of :meth:`AdminClient.alter_user_scram_credentials`.

    ``values[user]`` completes once that user's credential is changed, or fails with its own
    error; ``await result.all()`` returns when every user is done, or raises the first error.
    """

    async def all(self) -> None:
        """Wait for every user; raise the first error (in the order given)."""
        await self._all()
