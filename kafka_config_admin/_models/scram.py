"""SCRAM credentials of users (KIP-554): mechanisms, descriptions, upserts and deletions.

An upsertion never keeps the password: it is salted at once, as RFC 5802 defines
``SaltedPassword := Hi(password, salt, iterations)`` (``Hi`` is PBKDF2 with the mechanism's
HMAC), with a fresh random salt, and only the salt and the salted password are sent. The
password is encoded as UTF-8 without SASLprep, which is what Kafka's clients do when they log
in, so the credential matches what they compute. No repr, log line or error message shows a
password or a salted password.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from .._exceptions import InvalidArgumentError
from .configs import _ProtocolEnum
from .validation import check_string, given, shorten

__all__ = [
    "DEFAULT_SCRAM_ITERATIONS",
    "ScramCredentialInfo",
    "ScramMechanism",
    "UserScramCredentialAlteration",
    "UserScramCredentialDeletion",
    "UserScramCredentialUpsertion",
    "UserScramCredentialsDescription",
    "salted_password",
]

#: What ``kafka-configs.sh`` uses when no iteration count is given.
DEFAULT_SCRAM_ITERATIONS = 4096
#: The broker refuses fewer (RFC 7677 asks for at least 4096) or more iterations.
MIN_SCRAM_ITERATIONS = 4096
#: The most iterations the broker accepts.
MAX_SCRAM_ITERATIONS = 16384
#: Bytes of random salt made for each upsertion.
SALT_BYTES = 32


class ScramMechanism(_ProtocolEnum):
    """A SCRAM mechanism, by its Kafka id; ``ScramMechanism("SCRAM-SHA-256")`` works too."""

    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2

    @property
    def mechanism_name(self) -> str:
        """The SASL name: ``"SCRAM-SHA-256"`` or ``"SCRAM-SHA-512"``."""
        return self.name.replace("_", "-")

    @property
    def hash_name(self) -> str:
        """The hashlib name of the mechanism's hash: ``"sha256"`` or ``"sha512"``."""
        if self is ScramMechanism.UNKNOWN:
            raise InvalidArgumentError("the UNKNOWN SCRAM mechanism has no hash")
        return "sha" + self.name.rsplit("_", 1)[1]


def _mechanism(value: Any, user: str) -> ScramMechanism:
    try:
        mechanism = ScramMechanism(value)
    except ValueError as error:
        raise InvalidArgumentError(
            f"SCRAM credential of user {user!r}: the mechanism {error}"
        ) from None
    if mechanism is ScramMechanism.UNKNOWN:
        raise InvalidArgumentError(
            f"SCRAM credential of user {user!r}: use SCRAM-SHA-256 or SCRAM-SHA-512, not UNKNOWN"
        )
    return mechanism


def _user(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidArgumentError(f"a SCRAM user name must be a non-empty str, got {given(value)}")
    check_string(f"the SCRAM user name {shorten(value)}", value)
    return value


def salted_password(
    password: str, salt: bytes, iterations: int, mechanism: ScramMechanism
) -> bytes:
    """RFC 5802's ``SaltedPassword``: PBKDF2 over the mechanism's HMAC, the password as UTF-8."""
    hash_name = mechanism.hash_name
    return hashlib.pbkdf2_hmac(hash_name, password.encode(), salt, iterations)


@dataclass(frozen=True)
class ScramCredentialInfo:
    """One SCRAM credential of a user as the broker describes it: never a secret."""

    mechanism: ScramMechanism
    iterations: int


@dataclass(frozen=True)
class UserScramCredentialsDescription:
    """The SCRAM credentials a user has, one per mechanism."""

    user: str
    credential_infos: tuple[ScramCredentialInfo, ...]

    @property
    def mechanisms(self) -> frozenset[ScramMechanism]:
        return frozenset(info.mechanism for info in self.credential_infos)


@dataclass(frozen=True, init=False)
class UserScramCredentialUpsertion:
    """Create or replace a user's credential for one mechanism.

    ``UserScramCredentialUpsertion("alice", "SCRAM-SHA-256", "s3cret", iterations=8192)``.
    The password is salted when the upsertion is made (with ``salt``, or 32 random bytes) and
    not kept; ``iterations`` must be 4096-16384, as the broker requires.
    """

    user: str
    mechanism: ScramMechanism
    iterations: int
    salt: bytes = field(repr=False)
    salted_password: bytes = field(repr=False)

    def __init__(
        self,
        user: str,
        mechanism: ScramMechanism | str | int,
        password: str,
        *,
        iterations: int = DEFAULT_SCRAM_ITERATIONS,
        salt: bytes | None = None,
    ) -> None:
        user = _user(user)
        mechanism = _mechanism(mechanism, user)
        where = f"SCRAM-credential upsertion of user {user!r}"
        if isinstance(iterations, bool) or not isinstance(iterations, int):
            raise InvalidArgumentError(
                f"{where}: iterations must be an int, got {given(iterations)}"
            )
        if not MIN_SCRAM_ITERATIONS <= iterations <= MAX_SCRAM_ITERATIONS:
            raise InvalidArgumentError(
                f"{where}: iterations must be {MIN_SCRAM_ITERATIONS}-{MAX_SCRAM_ITERATIONS} "
                f"(the broker refuses others), got {iterations}"
            )
        if not isinstance(password, str):  # the value itself stays out of the message
            raise InvalidArgumentError(
                f"{where}: the password must be a str, got {type(password).__name__}"
            )
        if not password:
            raise InvalidArgumentError(f"{where}: the password is empty")
        check_string(f"{where}: the password", password)  # says where, never what
        if salt is None:
            salt = secrets.token_bytes(SALT_BYTES)
        elif not isinstance(salt, bytes) or not salt:
            raise InvalidArgumentError(f"{where}: salt must be non-empty bytes, got {given(salt)}")
        _init(self, user=user, mechanism=mechanism, iterations=iterations, salt=salt)
        _init(self, salted_password=salted_password(password, salt, iterations, mechanism))


@dataclass(frozen=True, init=False)
class UserScramCredentialDeletion:
    """Delete a user's credential for one mechanism."""

    user: str
    mechanism: ScramMechanism

    def __init__(self, user: str, mechanism: ScramMechanism | str | int) -> None:
        user = _user(user)
        _init(self, user=user, mechanism=_mechanism(mechanism, user))


#: One change of :meth:`AdminClient.alter_user_scram_credentials`: an upsertion or a deletion.
UserScramCredentialAlteration = UserScramCredentialUpsertion | UserScramCredentialDeletion


def _init(model: Any, **fields: Any) -> None:
    for name, value in fields.items():
        object.__setattr__(model, name, value)
