"""Kafka's security protocols and SASL mechanisms this client speaks, and what each protocol
implies (TLS, a SASL login): the one list the client's options, the connections and the
clusters files of :mod:`kafka_config_admin.connect` share. A leaf: it imports nothing of ours."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = [
    "SASL_MECHANISMS",
    "SASL_PROTOCOLS",
    "SECURITY_PROTOCOLS",
    "TLS_PROTOCOLS",
    "SaslMechanism",
    "SecurityProtocol",
    "uses_sasl",
    "uses_tls",
]

SecurityProtocol = Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"]
SaslMechanism = Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"]
SECURITY_PROTOCOLS: tuple[str, ...] = get_args(SecurityProtocol)
SASL_MECHANISMS: tuple[str, ...] = get_args(SaslMechanism)
#: The protocols that log in with SASL, and those encrypted with TLS.
SASL_PROTOCOLS = ("SASL_PLAINTEXT", "SASL_SSL")
TLS_PROTOCOLS = ("SSL", "SASL_SSL")


def uses_tls(security_protocol: str) -> bool:
    """Whether connections of ``security_protocol`` are encrypted with TLS (SSL, SASL_SSL)."""
    return security_protocol in TLS_PROTOCOLS


def uses_sasl(security_protocol: str) -> bool:
    """Whether connections of ``security_protocol`` log in with SASL (SASL_PLAINTEXT,
    SASL_SSL)."""
    return security_protocol in SASL_PROTOCOLS
