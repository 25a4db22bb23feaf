"""OAUTHBEARER options and tokens, and TLS failures told apart: checked before anything is sent."""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from typing import Any

import pytest

from kafka_config_admin import (
    AdminClient,
    AuthenticationError,
    InvalidArgumentError,
    KafkaConnectionError,
    TlsError,
    TokenProvider,
)
from kafka_config_admin._net.oauth import TokenSource
from kafka_config_admin._net.tls import tls_error
from kafka_config_admin.connect import Connection, ConnectionConfigError
from kafka_config_admin.testing import unsecured_jwt

TOKEN = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.c2VjcmV0LXRva2Vu"


class FixedToken(TokenProvider):
    def __init__(self, token: Any = TOKEN, extensions: Any = None) -> None:
        self._token = token
        self._extensions = extensions or {}

    async def token(self) -> str:
        return self._token  # type: ignore[no-any-return]

    def extensions(self) -> Mapping[str, str]:
        return self._extensions


OAUTH: dict[str, Any] = {"security_protocol": "SASL_SSL", "sasl_mechanism": "OAUTHBEARER"}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            OAUTH,
            "OAUTHBEARER needs sasl_oauth_token_provider (a kafka_config_admin.TokenProvider)",
        ),
        (
            {**OAUTH, "sasl_oauth_token_provider": lambda: TOKEN},
            "got function",
        ),
        (
            {**OAUTH, "security_protocol": "SSL", "sasl_oauth_token_provider": FixedToken()},
            "OAUTHBEARER needs security_protocol SASL_PLAINTEXT or SASL_SSL, not SSL",
        ),
        (
            {**OAUTH, "sasl_oauth_token_provider": FixedToken(), "sasl_plain_username": "u"},
            "sasl_plain_username is not used with OAUTHBEARER",
        ),
        (
            {
                "security_protocol": "SASL_SSL",
                "sasl_plain_username": "u",
                "sasl_plain_password": "p",
                "sasl_oauth_token_provider": FixedToken(),
            },
            "sasl_oauth_token_provider needs sasl_mechanism OAUTHBEARER, not PLAIN",
        ),
    ],
)
def test_oauthbearer_options_are_checked_at_once(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        AdminClient("localhost:9092", **options)
    assert message in str(caught.value)


#: What the client's options and a clusters file (connect.Connection) call the same settings.
CONNECTION_NAMES = {
    "sasl_plain_username and sasl_plain_password": "username and password (or sasl_jaas_config)",
    "sasl_plain_username": "username",
    "sasl_oauth_token_provider (a kafka_config_admin.TokenProvider)": (
        "oauth_token_env (the environment variable holding the bearer token)"
    ),
    "sasl_oauth_token_provider": "oauth_token_env",
    "ssl_context": "ssl_ca_pem",
}
#: The same settings as the client's keyword arguments and as a Connection's.
USER = (
    {"sasl_plain_username": "u", "sasl_plain_password": "p"},
    {"username": "u", "password": "p"},
)
TOKENS = ({"sasl_oauth_token_provider": FixedToken()}, {"oauth_token_env": "T"})
TLS_FILES = ({"ssl_context": ssl.create_default_context()}, {"ssl_ca_pem": "-----BEGIN"})
SASL_SSL = {"security_protocol": "SASL_SSL"}
NEEDS_SASL = "needs security_protocol SASL_PLAINTEXT or SASL_SSL, not"
PROVIDER = "sasl_oauth_token_provider (a kafka_config_admin.TokenProvider)"


def both(*settings: tuple[dict[str, Any], dict[str, Any]] | dict[str, Any]) -> tuple[Any, ...]:
    """The client's keyword arguments and a Connection's: pairs, and dicts both take."""
    pairs = [given if isinstance(given, tuple) else (given, given) for given in settings]
    return tuple({k: v for pair in pairs for k, v in pair[face].items()} for face in (0, 1))


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (both(USER), f"sasl_plain_username {NEEDS_SASL} PLAINTEXT"),
        (
            both({"sasl_mechanism": "SCRAM-SHA-512"}),
            f"sasl_mechanism SCRAM-SHA-512 {NEEDS_SASL} PLAINTEXT",
        ),
        (both(TOKENS, {"security_protocol": "SSL"}), f"sasl_oauth_token_provider {NEEDS_SASL} SSL"),
        (both(TLS_FILES), "ssl_context needs security_protocol SSL or SASL_SSL, not PLAINTEXT"),
        (both(OAUTH), f"sasl_mechanism OAUTHBEARER needs {PROVIDER}"),
        (
            both(OAUTH, TOKENS, USER),
            f"sasl_plain_username is not used with OAUTHBEARER: it takes {PROVIDER}",
        ),
        (
            both(
                SASL_SSL,
                {"sasl_mechanism": "SCRAM-SHA-256"},
                USER,
                TOKENS,
            ),
            "sasl_oauth_token_provider needs sasl_mechanism OAUTHBEARER, not SCRAM-SHA-256",
        ),
        (
            both(SASL_SSL),
            "security_protocol SASL_SSL needs sasl_plain_username and sasl_plain_password",
        ),
    ],
)
def test_the_client_and_a_connection_refuse_alike(
    settings: tuple[dict[str, Any], dict[str, Any]], message: str
) -> None:
    """One rule, kafka_config_admin.toolkit.check_security_settings, each face naming its own
    settings."""
    client_options, connection_settings = settings
    with pytest.raises(InvalidArgumentError) as client_refused:
        AdminClient("localhost:9092", **client_options)
    with pytest.raises(ConnectionConfigError) as connection_refused:
        Connection(bootstrap_servers="localhost:9092", **connection_settings)
    assert str(client_refused.value) == message
    for client_name, connection_name in CONNECTION_NAMES.items():
        message = message.replace(client_name, connection_name)
    assert str(connection_refused.value) == f"Connection: {message}"


def test_oauthbearer_needs_no_password() -> None:
    admin = AdminClient("localhost:9092", **OAUTH, sasl_oauth_token_provider=FixedToken())
    assert TOKEN not in repr(admin)


async def test_a_token_is_checked_before_it_is_sent() -> None:
    for bad in ("", "has space", "line\nbreak", "a\x01b"):
        with pytest.raises(InvalidArgumentError) as caught:
            await TokenSource(FixedToken(bad)).token()
        assert "not a bearer token" in str(caught.value)
        assert bad not in str(caught.value) or not bad
    with pytest.raises(InvalidArgumentError, match="must return a str, got bytes"):
        await TokenSource(FixedToken(TOKEN.encode())).token()
    assert await TokenSource(FixedToken()).token() == TOKEN


async def test_a_failing_provider_is_an_authentication_error_without_its_message() -> None:
    class Failing(TokenProvider):
        async def token(self) -> str:
            raise RuntimeError(f"cannot refresh {TOKEN}")

    with pytest.raises(AuthenticationError) as caught:
        await TokenSource(Failing()).token()
    assert str(caught.value) == "the OAUTHBEARER token provider Failing failed: RuntimeError"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


@pytest.mark.parametrize(
    ("extensions", "message"),
    [
        ({"auth": "x"}, "'auth' is not allowed"),
        ({"with space": "x"}, "letters only"),
        ({"traceId": "\x01"}, "printable ASCII"),
        ({"traceId": 1}, "printable ASCII"),
        ([("traceId", "x")], "must return a mapping"),
    ],
)
def test_sasl_extensions_are_checked(extensions: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        TokenSource(FixedToken(extensions=extensions)).extensions()


def test_valid_extensions_pass() -> None:
    assert TokenSource(FixedToken(extensions={"traceId": "abc 1"})).extensions() == {
        "traceId": "abc 1"
    }


def verify_error(code: int, message: str) -> ssl.SSLCertVerificationError:
    error = ssl.SSLCertVerificationError(1, f"certificate verify failed: {message}")
    error.verify_code, error.verify_message = code, message
    error.reason = "CERTIFICATE_VERIFY_FAILED"
    return error


def alert(reason: str) -> ssl.SSLError:
    error = ssl.SSLError(1, f"[SSL: {reason}] {reason.lower()}")
    error.reason = reason
    return error


@pytest.mark.parametrize(
    ("error", "failure", "words"),
    [
        (verify_error(19, "self-signed certificate in certificate chain"), "untrusted-certificate",
         "not trusted (self-signed certificate in certificate chain)"),
        (verify_error(10, "certificate has expired"), "untrusted-certificate", "has expired"),
        (verify_error(62, "Hostname mismatch"), "hostname-mismatch", "not valid for the name"),
        (verify_error(64, "IP address mismatch"), "hostname-mismatch", "not valid for the name"),
        (alert("TLSV13_ALERT_CERTIFICATE_REQUIRED"), "client-certificate-refused",
         "requires a client certificate"),
        (alert("SSLV3_ALERT_BAD_CERTIFICATE"), "client-certificate-refused", "mutual TLS"),
        (alert("WRONG_VERSION_NUMBER"), "not-tls", "does not speak TLS"),
        (alert("UNSUPPORTED_PROTOCOL"), "handshake-failed", "UNSUPPORTED_PROTOCOL"),
    ],
)  # fmt: skip
def test_tls_failures_are_told_apart(error: ssl.SSLError, failure: str, words: str) -> None:
    translated = tls_error(error, "broker-1:9093")
    assert isinstance(translated, TlsError) and isinstance(translated, KafkaConnectionError)
    assert translated.failure == failure and translated.address == "broker-1:9093"
    assert not translated.retriable
    assert str(translated).startswith("TLS with broker-1:9093 failed: ")
    assert words in str(translated)


def test_unsecured_jwt_reads_the_same_in_both_base64_alphabets() -> None:
    for _ in range(50):
        header, payload, signature = unsecured_jwt("admin").split(".")
        assert signature == ""
        assert not set(header + payload) & set("+/-_=")
