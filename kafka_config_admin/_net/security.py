"""How a client authenticates and encrypts: the options, checked before anything connects."""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from dataclasses import dataclass

from .._exceptions import InvalidArgumentError
from .._models.validation import check_string
from .oauth import TokenProvider
from .security_protocols import (
    SASL_MECHANISMS,
    SASL_PROTOCOLS,
    SECURITY_PROTOCOLS,
    TLS_PROTOCOLS,
    uses_sasl,
)

__all__ = [
    "SecurityOptions",
    "check_security_option",
    "check_security_settings",
]

_CHOICES = {"security_protocol": SECURITY_PROTOCOLS, "sasl_mechanism": SASL_MECHANISMS}
#: The mechanism a SASL login uses when none is named.
_DEFAULT_MECHANISM = "PLAIN"


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


def check_security_settings(
    security_protocol: str,
    sasl_mechanism: str | None = None,
    *,
    login: Mapping[str, object] | None = None,
    token: Mapping[str, object] | None = None,
    tls: Mapping[str, object] | None = None,
    login_needs: str = "sasl_plain_username and sasl_plain_password",
    token_needs: str = "sasl_oauth_token_provider",
) -> None:
    """Refuse security settings that do not go together: the one set of rules that the
    client's own options and the clusters files and command configs of
    :mod:`kafka_config_admin.connect` share, each saying it with the names of its own settings.

    The rules: the protocol and mechanism are ones this client supports; SASL settings (a
    login, a token source, a mechanism other than the default PLAIN) need a SASL protocol, and
    TLS settings a TLS one; OAUTHBEARER takes a token source and no login, the other
    mechanisms a login and no token source.

    Args:
        security_protocol: ``PLAINTEXT``, ``SSL``, ``SASL_PLAINTEXT`` or ``SASL_SSL``.
        sasl_mechanism: the mechanism named, or None when none is (PLAIN, the default).
        login: the caller's settings of a SASL login for PLAIN and SCRAM (a username, a
            password, a JAAS config) by name; a setting whose value is None is not given, and
            a message names the first one given. Likewise ``token`` and ``tls``.
        token: the caller's settings that give OAUTHBEARER tokens, by name.
        tls: the caller's TLS settings (a context, certificate files), by name.
        login_needs: what the caller calls the settings a SASL login needs.
        token_needs: what the caller calls the setting an OAUTHBEARER login needs.

    Raises:
        InvalidArgumentError: naming the setting and what it needs, e.g. "username needs
            security_protocol SASL_PLAINTEXT or SASL_SSL, not PLAINTEXT".
    """
    login_given, token_given, tls_given = (_first_given(kind) for kind in (login, token, tls))
    check_security_option("security_protocol", security_protocol)
    if sasl_mechanism is not None:
        check_security_option("sasl_mechanism", sasl_mechanism)
    mechanism = sasl_mechanism or _DEFAULT_MECHANISM
    named_mechanism = f"sasl_mechanism {mechanism}" if mechanism != _DEFAULT_MECHANISM else None
    sasl_setting = named_mechanism or token_given or login_given
    for given, protocols in ((sasl_setting, SASL_PROTOCOLS), (tls_given, TLS_PROTOCOLS)):
        if given is not None and security_protocol not in protocols:
            raise InvalidArgumentError(
                f"{given} needs security_protocol {' or '.join(protocols)}, not {security_protocol}"
            )
    if not uses_sasl(security_protocol):
        return
    if mechanism == "OAUTHBEARER":
        if login_given is not None:
            raise InvalidArgumentError(
                f"{login_given} is not used with OAUTHBEARER: it takes {token_needs}"
            )
        if token_given is None:
            raise InvalidArgumentError(f"sasl_mechanism OAUTHBEARER needs {token_needs}")
    elif token_given is not None:
        raise InvalidArgumentError(
            f"{token_given} needs sasl_mechanism OAUTHBEARER, not {mechanism}"
        )
    elif login_given is None:
        raise InvalidArgumentError(f"security_protocol {security_protocol} needs {login_needs}")


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
        check_security_option("sasl_mechanism", self.sasl_mechanism)  # None is not a default here
        check_security_settings(
            self.security_protocol,
            self.sasl_mechanism,
            login={
                "sasl_plain_username": self.sasl_plain_username,
                "sasl_plain_password": self.sasl_plain_password,
            },
            token={"sasl_oauth_token_provider": self.sasl_oauth_token_provider},
            tls={"ssl_context": self.ssl_context},
            token_needs="sasl_oauth_token_provider (a kafka_config_admin.TokenProvider)",
        )
        if self.sasl_oauth_token_provider is not None:
            self._check_token_provider()
        elif uses_sasl(self.security_protocol):
            self._check_login()
        if self.ssl_context is not None and not isinstance(self.ssl_context, ssl.SSLContext):
            raise InvalidArgumentError(
                f"ssl_context must be an ssl.SSLContext, got {type(self.ssl_context).__name__}"
            )

    def _check_login(self) -> None:
        for name, credential in (
            ("sasl_plain_username", self.sasl_plain_username),
            ("sasl_plain_password", self.sasl_plain_password),
        ):
            if not isinstance(credential, str) or not credential:
                kind = type(credential).__name__  # the value itself may be the secret
                raise InvalidArgumentError(
                    f"{name} must be a non-empty str with {self.security_protocol}, got {kind}"
                )
            check_string(name, credential)

    def _check_token_provider(self) -> None:
        provider = self.sasl_oauth_token_provider
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


def _first_given(settings: Mapping[str, object] | None) -> str | None:
    """The name of the first of ``settings`` given (not None)."""
    return next((name for name, value in (settings or {}).items() if value is not None), None)
