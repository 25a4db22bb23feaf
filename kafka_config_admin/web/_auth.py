"""Who the user is: a login checked against argon2 password hashes, or a reverse proxy's
user header, or (bound to loopback only) the local user.

A password entry is ``user:hash`` with an argon2 hash (``kafka-config-admin web
--hash-password`` makes one); entries come from an environment variable (one entry) or a file
(one a line). The passwords themselves are never stored.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .. import InvalidArgumentError

__all__ = [
    "Authenticator",
    "PasswordLogin",
    "ProxyUserHeader",
    "hash_password",
    "load_password_entries",
]

_HASHER = PasswordHasher()
#: Password checks at once: each takes tens of milliseconds and 64 MiB (argon2's defaults), so
#: a flood of logins waits here instead of exhausting the machine.
_CHECKS = threading.BoundedSemaphore(2)


def hash_password(password: str) -> str:
    """An argon2id hash of ``password``, for a password entry."""
    return _HASHER.hash(password)


@dataclass(frozen=True)
class PasswordLogin:
    """Users log in with a password checked against their argon2 hash."""

    hashes: Mapping[str, str]

    def check(self, user: str, password: str) -> bool:
        """Whether ``password`` is ``user``'s (the same work is done for unknown users); it
        blocks for tens of milliseconds: call it from a worker thread."""
        stored = self.hashes.get(user)
        try:
            with _CHECKS:
                return _HASHER.verify(stored or _UNKNOWN_USER_HASH, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


@dataclass(frozen=True)
class ProxyUserHeader:
    """A reverse proxy in front authenticates users and names them in a request header."""

    header: str


Authenticator = PasswordLogin | ProxyUserHeader

_UNKNOWN_USER_HASH = _HASHER.hash("an unknown user never matches this")


def load_password_entries(*, env: str | None = None, file: Path | None = None) -> PasswordLogin:
    """The password entries of the environment variable ``env`` and/or ``file``.

    Raises :class:`InvalidArgumentError` naming the variable, file or line that is wrong.
    """
    lines: list[tuple[str, str]] = []
    if env is not None:
        value = os.environ.get(env)
        if not value:
            raise InvalidArgumentError(f"the environment variable {env} is not set or empty")
        lines.append((f"${env}", value))
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as error:
            raise InvalidArgumentError(
                f"cannot read the password file {file}: {error.strerror}"
            ) from None
        lines += [
            (f"{file}:{number}", line.strip())
            for number, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
    hashes: dict[str, str] = {}
    for where, line in lines:
        user, colon, hashed = line.partition(":")
        if not colon or not user or not hashed.startswith("$argon2"):
            raise InvalidArgumentError(
                f"{where}: expected 'user:$argon2id$...' (make one with "
                "'kafka-config-admin web --hash-password')"
            )
        hashes[user] = hashed
    if not hashes:
        raise InvalidArgumentError("no password entry was given")
    return PasswordLogin(hashes)
