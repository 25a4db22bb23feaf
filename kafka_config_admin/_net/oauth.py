"""SASL/OAUTHBEARER: the token provider users write, its checks before a token is sent, and
the check that a broker accepted it (``token_refusal``, once per connection: ``TokenChecks``).

aiokafka sends the token (RFC 7628) and asks for one at every connection it authenticates. The
user's :class:`TokenProvider` is wrapped so that what it returns is checked before it goes on
the wire, its failures become typed errors, and the tokens it handed out are known to the log
filter, which hides them wherever they show.
"""

from __future__ import annotations

import abc
import asyncio
import re
import weakref
from collections.abc import Mapping

from aiokafka.abc import AbstractTokenProvider
from aiokafka.conn import AIOKafkaConnection, CloseReason
from aiokafka.protocol.admin import SaslAuthenticateRequest

from .._exceptions import (
    AuthenticationError,
    InvalidArgumentError,
    KafkaConfigAdminError,
    KafkaConnectionError,
    ProtocolError,
)
from .connections import ConnectionPool, close_all, translate_error

__all__ = [
    "TOKEN_REFUSED_HINT",
    "TokenChecks",
    "TokenProvider",
    "TokenSource",
    "token_refusal",
    "token_refusal_alone",
]

#: What a user checks when a broker refuses an OAUTHBEARER token.
TOKEN_REFUSED_HINT = (
    "check its expiry, subject, scope, issuer and audience against the broker's validator "
    "(the broker's log names the reason)"
)
#: RFC 7628: the client's answer to the server's error challenge, after which the server
#: ends the exchange with its failure.
_AFTER_ERROR_CHALLENGE = b"\x01"
#: The broker's error codes for that answer: the token was refused (SASL_AUTHENTICATION_FAILED),
#: or the exchange had already succeeded (ILLEGAL_SASL_STATE).
_SASL_AUTHENTICATION_FAILED, _ILLEGAL_SASL_STATE = 58, 34

#: RFC 6750's b64token: what a bearer token may consist of.
_BEARER_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
#: RFC 7628: an extension's key is letters only, its value printable characters and spaces.
_EXTENSION_KEY = re.compile(r"[A-Za-z]+")
_EXTENSION_VALUE = re.compile(r"[\x20-\x7e\t\r\n]*")


class TokenProvider(abc.ABC):
    """Gives the OAuth 2 bearer token for ``sasl_mechanism="OAUTHBEARER"``.

    Subclass it and define :meth:`token`. The client asks for a token each time it opens a
    connection to a broker, so a provider should keep its token and fetch a new one only when
    the old one is about to expire::

        class MyTokens(TokenProvider):
            async def token(self) -> str:
                return await my_identity_provider.current_access_token()

    An exception raised by :meth:`token` ends the connection attempt in an
    :class:`AuthenticationError` naming the exception's type; the token itself never appears
    in a log record, a repr or an error message of this library.
    """

    @abc.abstractmethod
    async def token(self) -> str:
        """The current access token (a JWT for most identity providers)."""

    def extensions(self) -> Mapping[str, str]:
        """SASL extensions sent with the token (KIP-342); none unless overridden."""
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class TokenSource(AbstractTokenProvider):  # type: ignore[misc]  # aiokafka is untyped
    """The user's provider as aiokafka wants it; checks each token before it is sent."""

    def __init__(self, provider: TokenProvider) -> None:
        self._provider = provider

    async def token(self) -> str:
        try:
            token = await self._provider.token()
        except KafkaConfigAdminError:
            raise
        except Exception as error:
            raise AuthenticationError(
                f"the OAUTHBEARER token provider {type(self._provider).__name__} failed: "
                f"{type(error).__name__}"
            ) from None  # its message and traceback may quote what it was working with
        if not isinstance(token, str):
            raise InvalidArgumentError(
                f"{type(self._provider).__name__}.token() must return a str, got "
                f"{type(token).__name__}"
            )
        if _BEARER_TOKEN.fullmatch(token) is None:
            raise InvalidArgumentError(
                f"{type(self._provider).__name__}.token() returned {len(token)} characters "
                "that are not a bearer token (RFC 6750: letters, digits and -._~+/, then "
                "'=' padding); nothing was sent"
            )
        return token

    def extensions(self) -> dict[str, str]:
        extensions = self._provider.extensions()
        if not isinstance(extensions, Mapping):
            raise InvalidArgumentError(
                f"{type(self._provider).__name__}.extensions() must return a mapping of str "
                f"to str, got {type(extensions).__name__}"
            )
        checked: dict[str, str] = {}
        for key, value in extensions.items():
            if not isinstance(key, str) or _EXTENSION_KEY.fullmatch(key) is None or key == "auth":
                raise InvalidArgumentError(
                    f"SASL extension name {key!r} is not allowed: letters only, not 'auth'"
                )
            if not isinstance(value, str) or _EXTENSION_VALUE.fullmatch(value) is None:
                raise InvalidArgumentError(
                    f"SASL extension {key!r} must be a str of printable ASCII characters"
                )
            checked[key] = value
        return checked


async def token_refusal(conn: AIOKafkaConnection, where: str) -> str | None:
    """The broker's reason if it refused the connection's OAUTHBEARER token, else None.

    The connection answers the broker's error challenge as RFC 7628 says (one 0x01 byte): a
    broker that refused the token then ends the exchange with its failure and reason
    (SASL_AUTHENTICATION_FAILED); one that accepted it says the exchange was over already
    (ILLEGAL_SASL_STATE), and the connection stays open.
    """
    try:
        answer = await conn.send(SaslAuthenticateRequest(_AFTER_ERROR_CHALLENGE))
    except Exception as error:
        raise translate_error(error, where) from error
    if answer.error_code == _ILLEGAL_SASL_STATE:
        return None
    reason: str = answer.error_message or f"error code {answer.error_code}"
    if answer.error_code != _SASL_AUTHENTICATION_FAILED:
        raise ProtocolError(
            f"{where} gave an unexpected answer to the end of the OAUTHBEARER exchange: {reason}"
        )
    return reason


async def token_refusal_alone(pool: ConnectionPool, host: str, port: int, where: str) -> str | None:
    """:func:`token_refusal` on a connection of its own (None: it could not tell)."""
    try:
        conn = await pool.open(host, port)
    except Exception:
        return None
    try:
        return await token_refusal(conn, where)
    except KafkaConnectionError:
        return None
    finally:
        await close_all([conn])


class TokenChecks:
    """Which of a pool's connections have their OAUTHBEARER token accepted by the broker.

    A broker refuses a token with an error challenge, which aiokafka takes for success: the
    connection then fails the first request written to it, and a call would retry until its
    deadline. So each new connection answers the challenge as RFC 7628 says, before any
    request of ours (:meth:`check`), and only a connection that passed is :meth:`accepted`
    (aiokafka opens connections of its own too, for metadata).
    """

    def __init__(self) -> None:
        self._accepted: weakref.WeakSet[AIOKafkaConnection] = weakref.WeakSet()
        #: One check at a time per connection (broker and lane).
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}

    def accepted(self, conn: AIOKafkaConnection) -> bool:
        """Whether the broker is known to have accepted the connection's token."""
        return conn in self._accepted

    async def check(self, pool: ConnectionPool, node_id: int, lane: int) -> None:
        """Fail at once if the broker refused the token of its open connection for ``lane``.

        aiokafka may have written a metadata request first, which a refusing broker fails by
        closing the connection: the check is then made again on a connection of its own.
        """
        # One check per connection, however many calls wait for it; a broker that does not
        # answer holds up the calls to it only.
        async with self._locks.setdefault((node_id, lane), asyncio.Lock()):
            conn = pool.open_connection(node_id, lane)
            if conn is None or conn in self._accepted:
                return
            where = f"broker {node_id} ({conn.host}:{conn.port})"
            try:
                refusal = await token_refusal(conn, where)
            except KafkaConnectionError:
                refusal = await token_refusal_alone(pool, conn.host, conn.port, where)
                if refusal is None:
                    raise
            if refusal is None:
                self._accepted.add(conn)
                return
            conn.close(reason=CloseReason.AUTH_FAILURE)
            raise AuthenticationError(
                f"{where} refused the OAUTHBEARER token ({refusal}): {TOKEN_REFUSED_HINT}"
            )
