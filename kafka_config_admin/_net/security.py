"""How a client authenticates and encrypts: the options, checked before anything connects."""

from __future__ import annotations

import ssl
from dataclasses import dataclass

from .._exceptions import InvalidArgumentError
from .._models.validation import check_string
from .oauth import TokenProvider

__all__ = ["SASL_MECHANISMS", "SECURITY_PROTOCOLS", "SecurityOptions", "check_security_option"]

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER")
_CHOICES = {"security_protocol": SECURITY_PROTOCOLS, "sasl_mechanism": SASL_MECHANISMS}


def check_security_option(option: str, value: object) -> str:
    """``value`` as the ``security_protocol`` or ``sasl_mechanism`` option (``option``) if this
    client supports it: the one list of each, which the client's options and the clusters
    files and command configs of :mod:`kafka_config_admin.connect` share.

    Raises :class:`InvalidArgumentError`: "<option> 'TLS' is not supported: use one of ...".
    """
    allowed = _CHOICES[option]
    if not isinstance(value, str) or value not in allowed:
        raise InvalidArgumentError(
            f"{option} {value!r} is not supported: use one of {', '.join(allowed)}"
        )
    return value


@dataclass(frozen=True)
class SecurityOptions:
    """How to authenticate and encrypt; passed through to aiokafka unchanged."""

    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: str = "PLAIN"
    sasl_plain_username: str | None = None
    sasl_plain_password: str | None = None
    ssl_context: ssl.SSLContext | None = None
    sasl_oauth_token_provider: TokenProvider | None = None

    def __post_init__(self) -> None:
        """Refuse options aiokafka would fail on later, deep inside, or take the wrong way."""
        check_security_option("security_protocol", self.security_protocol)
        check_security_option("sasl_mechanism", self.sasl_mechanism)
        sasl = self.security_protocol.startswith("SASL")
        oauth = self.sasl_mechanism == "OAUTHBEARER"
        self._check_token_provider(sasl=sasl, oauth=oauth)
        for name, credential in (
            ("sasl_plain_username", self.sasl_plain_username),
            ("sasl_plain_password", self.sasl_plain_password),
        ):
            if credential is None and not (sasl and not oauth):
                continue
            if oauth:
                raise InvalidArgumentError(
                    f"{name} is not used with OAUTHBEARER: the token provider authenticates"
                )
            if not isinstance(credential, str) or not credential:
                kind = type(credential).__name__  # the value itself may be the secret
                raise InvalidArgumentError(
                    f"{name} must be a non-empty str with {self.security_protocol}, got {kind}"
                )
            check_string(name, credential)
        if self.ssl_context is not None and not isinstance(self.ssl_context, ssl.SSLContext):
            raise InvalidArgumentError(
                f"ssl_context must be an ssl.SSLContext, got {type(self.ssl_context).__name__}"
            )

    def _check_token_provider(self, *, sasl: bool, oauth: bool) -> None:
        provider = self.sasl_oauth_token_provider
        if not oauth:
            if provider is not None:
                raise InvalidArgumentError(
                    "sasl_oauth_token_provider is given but sasl_mechanism is "
                    f"{self.sasl_mechanism}: set sasl_mechanism='OAUTHBEARER'"
                )
            return
        if not sasl:
            raise InvalidArgumentError(
                f"sasl_mechanism OAUTHBEARER needs security_protocol SASL_SSL (or "
                f"SASL_PLAINTEXT), not {self.security_protocol}"
            )
        if not isinstance(provider, TokenProvider):
            raise InvalidArgumentError(
                "OAUTHBEARER needs sasl_oauth_token_provider: a kafka_config_admin.TokenProvider "
                f"(subclass it and define 'async def token(self) -> str'), got "
                f"{type(provider).__name__}"
            )

    def __repr__(self) -> str:
        # The password never shows.
        return (
            f"SecurityOptions(security_protocol={self.security_protocol!r}, "
            f"sasl_mechanism={self.sasl_mechanism!r}, "
            f"sasl_plain_username={self.sasl_plain_username!r})"
        )
